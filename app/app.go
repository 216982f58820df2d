package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend"
)

// ErrInput marks a request the page should not have sent (an empty message, a
// missing session id, a workspace that is not a directory). The error text
// says what was wrong.
var ErrInput = errors.New("invalid request")

// Shell is the part of the Wails runtime the bound methods use, behind an
// interface so they are tested without a window.
type Shell interface {
	Emitter
	// PickDirectory shows a native directory chooser; "" means cancelled.
	PickDirectory(title, defaultDir string) (string, error)
	// Focus shows, unminimises and raises the window.
	Focus()
}

// Options configure New.
type Options struct {
	Home      string // VIS_HOME; window state lives in Home/desktop/window.json
	Workspace string // a folder named on the command line; "" = the last one used
	Version   string
	// Logf reports problems that must not stop the window (unreadable window
	// state, a failed save). nil discards them.
	Logf func(format string, args ...any)
}

// App is the object bound to the page: every exported method is callable from
// JavaScript through the generated wailsjs/go/app/App module. Methods are safe
// for concurrent use (Wails calls them from several goroutines).
type App struct {
	eng  Engine
	opts Options

	logMu sync.Mutex // serialises appends to the frontend log

	mu        sync.Mutex
	ctx       context.Context // lives from startup to shutdown; Background before
	shell     Shell
	state     windowState
	workspace string

	stopBridge context.CancelFunc
	bridgeDone chan struct{}

	dropped droppedFiles // paths drops handed to the page (their previews)

	notes notifications // desktop notifications while the window is not focused (notifications.go)
}

// New returns an App that fronts eng. Call Run to open the window.
func New(eng Engine, opts Options) *App {
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	st, err := loadState(opts.Home)
	if err != nil {
		opts.Logf("vis: %v (using defaults)", err)
	}
	ws := ""
	if opts.Workspace != "" {
		if d, err := checkDir(opts.Workspace); err == nil {
			ws = d
		} else {
			opts.Logf("vis: %v", err)
		}
	}
	if ws == "" && st.Workspace != "" {
		if d, err := checkDir(st.Workspace); err == nil {
			ws = d
		}
	}
	if ws != "" {
		st.remember(ws)
	}
	return &App{eng: eng, opts: opts, ctx: context.Background(), state: st, workspace: ws}
}

// start begins the App's life: engine calls use ctx from now on and the event
// bridge runs until stop. interval is the bridge's flush period.
func (a *App) start(ctx context.Context, sh Shell, interval time.Duration) {
	bctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	a.mu.Lock()
	a.ctx, a.shell, a.stopBridge, a.bridgeDone = ctx, sh, cancel, done
	a.mu.Unlock()
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		runBridge(bctx, a.eng.Events(), sh, t.C, nil)
	}()
}

// stop ends the bridge and waits for it. Safe to call more than once, and
// without start.
func (a *App) stop() {
	a.mu.Lock()
	cancel, done := a.stopBridge, a.bridgeDone
	a.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

func (a *App) base() (context.Context, Shell) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx, a.shell
}

// Startup returns what the page needs for its first frame.
func (a *App) Startup() (Startup, error) {
	layout := a.savedLayout()
	a.mu.Lock()
	defer a.mu.Unlock()
	return Startup{Workspace: a.workspace, Recent: existingDirs(a.state.Recent), Home: a.opts.Home, Version: a.opts.Version, Layout: layout}, nil
}

// RecentFolders lists the folders opened lately that still exist, newest
// first.
func (a *App) RecentFolders() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return existingDirs(a.state.Recent)
}

func existingDirs(in []string) []string {
	out := make([]string, 0, len(in))
	for _, d := range in {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// ListSessions lists the sessions of workspace, newest first as the engine
// orders them; "" lists every session.
func (a *App) ListSessions(workspace string) ([]Session, error) {
	ctx, _ := a.base()
	ss, err := a.eng.ListSessions(ctx, workspace)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return toSessions(ss), nil
}

// NewSession creates an empty session in workspace.
func (a *App) NewSession(workspace string) (Session, error) {
	dir, err := checkDir(workspace)
	if err != nil {
		return Session{}, fmt.Errorf("new session: %w", err)
	}
	ctx, _ := a.base()
	s, err := a.eng.CreateSession(ctx, dir)
	if err != nil {
		return Session{}, fmt.Errorf("new session: %w", err)
	}
	return toSession(s), nil
}

// OpenTranscript returns a snapshot of the session; the page then applies
// events with a higher seq.
func (a *App) OpenTranscript(sessionID string) (Transcript, error) {
	if strings.TrimSpace(sessionID) == "" {
		return Transcript{}, fmt.Errorf("open transcript: %w: no session id", ErrInput)
	}
	ctx, _ := a.base()
	t, err := a.eng.Transcript(ctx, sessionID)
	if err != nil {
		return Transcript{}, fmt.Errorf("open transcript: %w", err)
	}
	q, err := a.eng.Queue(ctx, sessionID)
	if err != nil {
		return Transcript{}, fmt.Errorf("open transcript: %w", err)
	}
	out := toTranscript(t, a.eng.Running(sessionID))
	out.Queue = toQueue(q)
	return out, nil
}

// Submit is the composer's one entry point and returns at once: the engine
// classifies the text (a message, `!cmd`, `/command`), and runs it now,
// queues it behind the running turn, or, for a command that only prints,
// answers with Text (a refusal is the error, ending with the command's
// usage). sessionID "" starts a new session in workspace.
func (a *App) Submit(sessionID, workspace, text string) (SubmitResult, error) {
	return a.dispatch("submit", sessionID, workspace, backend.Input{Text: text})
}

// dispatch hands the engine an input for sessionID (a new session in
// workspace when "").
func (a *App) dispatch(op, sessionID, workspace string, in backend.Input) (SubmitResult, error) {
	if in.Goal == nil && strings.TrimSpace(in.Text) == "" {
		return SubmitResult{}, fmt.Errorf("%s: %w: the message is empty", op, ErrInput)
	}
	if workspace != "" {
		dir, err := checkDir(workspace)
		if err != nil {
			return SubmitResult{}, fmt.Errorf("%s: %w", op, err)
		}
		in.Workspace = dir
	}
	in.Channel = backend.ChannelDesktop
	ctx, _ := a.base()
	res, err := a.eng.Dispatch(ctx, sessionID, in)
	if err != nil {
		return SubmitResult{SessionID: res.SessionID}, fmt.Errorf("%s: %w", op, err)
	}
	return toSubmitResult(res), nil
}

// SlashCommands lists the commands the composer offers after "/": the
// built-ins, then the person's prompt files (home, and the current
// workspace's once trusted).
func (a *App) SlashCommands(workspace string) []SlashCommand {
	if workspace == "" {
		a.mu.Lock()
		workspace = a.workspace
		a.mu.Unlock()
	}
	in := a.eng.SlashCommandsIn(workspace)
	out := make([]SlashCommand, 0, len(in))
	for _, c := range in {
		out = append(out, SlashCommand{Name: c.Name, Usage: c.Usage, Summary: c.Summary, Source: c.Source, Path: c.Path})
	}
	return out
}

// Status returns the footer's figures for a session, or for workspace when
// sessionID is "" (no session yet).
func (a *App) Status(sessionID, workspace string) (Status, error) {
	ctx, _ := a.base()
	v, err := a.eng.Status(ctx, sessionID, workspace)
	if err != nil {
		return Status{}, fmt.Errorf("status: %w", err)
	}
	return toStatus(v), nil
}

// RenameSession sets a session's title.
func (a *App) RenameSession(sessionID, title string) error {
	if strings.TrimSpace(sessionID) == "" {
		return fmt.Errorf("rename session: %w: no session id", ErrInput)
	}
	if strings.TrimSpace(title) == "" {
		return fmt.Errorf("rename session: %w: the title is empty", ErrInput)
	}
	ctx, _ := a.base()
	if err := a.eng.RenameSession(ctx, sessionID, strings.TrimSpace(title)); err != nil {
		return fmt.Errorf("rename session: %w", err)
	}
	return nil
}

// DeleteSession removes a session and its turns. A session running a turn
// is refused: stop it first.
func (a *App) DeleteSession(sessionID string) error {
	if strings.TrimSpace(sessionID) == "" {
		return fmt.Errorf("delete session: %w: no session id", ErrInput)
	}
	ctx, _ := a.base()
	if err := a.eng.DeleteSession(ctx, sessionID); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// SearchLimit is the most hits Search returns.
const SearchLimit = 50

// Search finds turns, in every workspace, whose request or answer match the
// words of query; a blank query finds nothing.
func (a *App) Search(query string) ([]SearchHit, error) {
	if strings.TrimSpace(query) == "" {
		return []SearchHit{}, nil
	}
	ctx, _ := a.base()
	hits, err := a.eng.Search(ctx, query, SearchLimit)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return toSearchHits(hits), nil
}

// Prompt returns exactly what was sent for one iteration of a turn, message
// by message and block by block (the prompt inspector).
func (a *App) Prompt(sessionID string, turn, iteration int) (PromptView, error) {
	if strings.TrimSpace(sessionID) == "" || turn < 1 || iteration < 1 {
		return PromptView{}, fmt.Errorf("prompt: %w: need a session, a turn and an iteration (got %q, %d, %d)", ErrInput, sessionID, turn, iteration)
	}
	ctx, _ := a.base()
	v, err := a.eng.Prompt(ctx, sessionID, turn, iteration)
	if err != nil {
		return PromptView{}, fmt.Errorf("prompt: %w", err)
	}
	return toPromptView(v), nil
}

// Settings returns the window's provider settings and what is in effect.
// The API key is never part of it.
func (a *App) Settings() (Settings, error) {
	ctx, _ := a.base()
	v, err := a.eng.Settings(ctx)
	if err != nil {
		return toSettings(v), fmt.Errorf("settings: %w", err)
	}
	return toSettings(v), nil
}

// SaveSettings validates and saves the window's provider; the key is stored
// in the OS keyring or a 0600 file, as KeyAction says.
func (a *App) SaveSettings(in SettingsInput) (Settings, error) {
	req := backend.SaveSettingsRequest{
		Preset: in.Preset, BaseURL: strings.TrimSpace(in.BaseURL), Model: strings.TrimSpace(in.Model),
		Reasoning: in.Reasoning, Models: fromModels(in.Models),
	}
	switch in.KeyAction {
	case "", KeyKeep:
	case KeySet:
		k := strings.TrimSpace(in.APIKey)
		if k == "" {
			return Settings{}, fmt.Errorf("save settings: %w: the API key is empty (choose \"remove the key\" to delete it)", ErrInput)
		}
		req.APIKey = &k
	case KeyDelete:
		empty := ""
		req.APIKey = &empty
	default:
		return Settings{}, fmt.Errorf("save settings: %w: key action %q", ErrInput, in.KeyAction)
	}
	ctx, _ := a.base()
	v, err := a.eng.SaveSettings(ctx, req)
	if err != nil {
		return Settings{}, fmt.Errorf("save settings: %w", err)
	}
	return toSettings(v), nil
}

// keyArg is the key to try against an endpoint: the one typed in the dialog,
// or (when "") the stored one.
func keyArg(apiKey string) *string {
	if k := strings.TrimSpace(apiKey); k != "" {
		return &k
	}
	return nil
}

// ListModels asks the endpoint at baseURL for its models. apiKey "" uses the
// stored key.
func (a *App) ListModels(baseURL, apiKey string) ([]string, error) {
	if strings.TrimSpace(baseURL) == "" {
		return nil, fmt.Errorf("list models: %w: no base URL", ErrInput)
	}
	ctx, _ := a.base()
	ms, err := a.eng.ListModels(ctx, strings.TrimSpace(baseURL), keyArg(apiKey))
	if err != nil {
		return nil, fmt.Errorf("list models: %w", err)
	}
	if ms == nil {
		ms = []string{}
	}
	return ms, nil
}

// TestConnection checks the endpoint, the key and the model and says so in
// one sentence. apiKey "" uses the stored key.
func (a *App) TestConnection(baseURL, model, apiKey string) Verdict {
	if strings.TrimSpace(baseURL) == "" {
		return Verdict{Message: "Enter the endpoint's base URL first.", Models: []string{}}
	}
	ctx, _ := a.base()
	v := a.eng.TestConnection(ctx, strings.TrimSpace(baseURL), strings.TrimSpace(model), keyArg(apiKey))
	out := Verdict{OK: v.OK, Message: v.Message, Models: v.Models}
	if out.Models == nil {
		out.Models = []string{}
	}
	return out
}

// DetectLocal lists the local model servers (Ollama, LM Studio) that answer
// now.
func (a *App) DetectLocal() []Preset {
	ctx, _ := a.base()
	in := a.eng.DetectLocal(ctx)
	out := make([]Preset, 0, len(in))
	for _, p := range in {
		out = append(out, toPreset(p))
	}
	return out
}

// Frontend log limits: one report is cut to maxLogReport bytes, and the log
// is moved to frontend.log.1 when it grows past maxLogSize.
const (
	maxLogReport = 16 << 10
	maxLogSize   = 1 << 20
)

func frontendLogPath(home string) string {
	return filepath.Join(home, "desktop", "logs", "frontend.log")
}

// LogFrontendError appends an error the page could not handle to
// $VIS_HOME/desktop/logs/frontend.log, with the time and the stack.
func (a *App) LogFrontendError(message, stack string) error {
	p := frontendLogPath(a.opts.Home)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", time.Now().UTC().Format(time.RFC3339), oneLine(message))
	for _, l := range strings.Split(strings.TrimRight(stack, "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			fmt.Fprintf(&b, "    %s\n", strings.TrimSpace(l))
		}
	}
	entry := b.String()
	if len(entry) > maxLogReport {
		entry = entry[:maxLogReport] + "\n    … (cut)\n"
	}
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("log frontend error: %w", err)
	}
	if fi, err := os.Stat(p); err == nil && fi.Size()+int64(len(entry)) > maxLogSize {
		if err := os.Rename(p, p+".1"); err != nil {
			return fmt.Errorf("log frontend error: %w", err)
		}
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("log frontend error: %w", err)
	}
	_, werr := f.WriteString(entry)
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("log frontend error: %w", err)
	}
	return nil
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "(no message)"
	}
	return strings.Join(strings.Fields(s), " ")
}

// Stop stops the session's running turn (a `!cmd` too) and hands its queue
// back, oldest first, for the composer to put into the input.
func (a *App) Stop(sessionID string) (Stopped, error) {
	if strings.TrimSpace(sessionID) == "" {
		return Stopped{}, fmt.Errorf("stop: %w: no session id", ErrInput)
	}
	ctx, _ := a.base()
	r, err := a.eng.Stop(ctx, sessionID)
	out := Stopped{Cancelled: r.Cancelled, Returned: []ReturnedInput{}}
	for _, q := range r.Returned {
		ri := ReturnedInput{ID: q.ID, Text: q.Text, Images: []ImageInput{}}
		for _, im := range q.Images {
			ri.Images = append(ri.Images, encodeImage(im))
		}
		out.Returned = append(out.Returned, ri)
	}
	if err != nil {
		return out, fmt.Errorf("stop: %w", err)
	}
	return out, nil
}

// Queue lists the session's queued inputs, oldest first.
func (a *App) Queue(sessionID string) ([]QueuedInput, error) {
	ctx, _ := a.base()
	q, err := a.eng.Queue(ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	return toQueue(q), nil
}

// EditQueued replaces a queued message's text; blank text removes it.
func (a *App) EditQueued(sessionID string, id int64, text string) error {
	ctx, _ := a.base()
	if err := a.eng.EditQueued(ctx, sessionID, id, text); err != nil {
		return fmt.Errorf("edit queued message: %w", err)
	}
	return nil
}

// RemoveQueued takes a message out of the queue.
func (a *App) RemoveQueued(sessionID string, id int64) error {
	ctx, _ := a.base()
	if err := a.eng.RemoveQueued(ctx, sessionID, id); err != nil {
		return fmt.Errorf("remove queued message: %w", err)
	}
	return nil
}

// SendQueued sends a queue that waits for the person (left by a Vis that
// quit): its first message starts when no turn runs.
func (a *App) SendQueued(sessionID string) error {
	ctx, _ := a.base()
	if err := a.eng.ReleaseQueue(ctx, sessionID); err != nil {
		return fmt.Errorf("send queued: %w", err)
	}
	return nil
}

// Running reports whether a turn of the session is in flight.
func (a *App) Running(sessionID string) bool { return a.eng.Running(sessionID) }

// PickWorkspace asks for a project folder with the native chooser, makes it
// the current workspace and remembers it for the next launch. "" (and no
// error) means the person cancelled.
func (a *App) PickWorkspace() (string, error) {
	_, sh := a.base()
	if sh == nil {
		return "", errors.New("pick workspace: the window is not ready")
	}
	a.mu.Lock()
	start := a.workspace
	a.mu.Unlock()
	if start == "" {
		start, _ = os.UserHomeDir()
	}
	dir, err := sh.PickDirectory("Open project folder", start)
	if err != nil {
		return "", fmt.Errorf("pick workspace: %w", err)
	}
	if dir == "" {
		return "", nil
	}
	return a.SetWorkspace(dir)
}

// SetWorkspace makes dir (an existing directory) the current workspace and
// remembers it. It returns the cleaned absolute path.
func (a *App) SetWorkspace(dir string) (string, error) {
	d, err := checkDir(dir)
	if err != nil {
		return "", fmt.Errorf("set workspace: %w", err)
	}
	a.mu.Lock()
	a.workspace = d
	a.state.Workspace = d
	a.state.remember(d)
	st := a.state
	a.mu.Unlock()
	if err := saveState(a.opts.Home, st); err != nil {
		a.opts.Logf("vis: %v", err)
	}
	return d, nil
}

// checkDir returns dir as a clean absolute path if it is an existing directory.
func checkDir(dir string) (string, error) {
	if strings.TrimSpace(dir) == "" {
		return "", fmt.Errorf("%w: no workspace folder chosen", ErrInput)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%w: workspace %q: %v", ErrInput, dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("%w: workspace %s: %v", ErrInput, abs, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%w: workspace %s is not a folder", ErrInput, abs)
	}
	return abs, nil
}
