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

	mu        sync.Mutex
	ctx       context.Context // lives from startup to shutdown; Background before
	shell     Shell
	state     windowState
	workspace string

	stopBridge context.CancelFunc
	bridgeDone chan struct{}
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
	a.mu.Lock()
	defer a.mu.Unlock()
	return Startup{Workspace: a.workspace, Home: a.opts.Home, Version: a.opts.Version}, nil
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
	return toTranscript(t, a.eng.Running(sessionID)), nil
}

// Send starts a turn and returns its session id at once (a new session when
// sessionID is ""); progress arrives as "vis:events".
func (a *App) Send(sessionID, workspace, text string) (string, error) {
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("send: %w: the message is empty", ErrInput)
	}
	req := backend.SendRequest{SessionID: sessionID, Text: text, Channel: backend.ChannelDesktop}
	if workspace != "" || sessionID == "" {
		dir, err := checkDir(workspace)
		if err != nil {
			return "", fmt.Errorf("send: %w", err)
		}
		req.Workspace = dir
	}
	id, err := a.eng.StartTurn(req)
	if err != nil {
		return "", fmt.Errorf("send: %w", err)
	}
	return id, nil
}

// Cancel stops the running turn of the session; false when none was running.
func (a *App) Cancel(sessionID string) bool { return a.eng.CancelTurn(sessionID) }

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
