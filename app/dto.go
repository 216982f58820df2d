package app

import (
	"time"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/events"
)

// Session is one row of the session list. Times are RFC 3339 strings ("" when
// unknown) so that the generated TypeScript types are plain strings.
type Session struct {
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	Title     string `json:"title"`
	Turns     int    `json:"turns"`
	Created   string `json:"created"`
	Updated   string `json:"updated"`
	// ForkOf is the session this one was forked from, and ForkTurns how
	// many of its turns it started with ("" and 0 for a session of its own).
	ForkOf    string `json:"fork_of"`
	ForkTurns int    `json:"fork_turns"`
}

// Usage counts tokens.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CachedTokens    int `json:"cached_tokens"`
	ReasoningTokens int `json:"reasoning_tokens"`
}

// CallError is why one program failed.
type CallError struct {
	Phase   string `json:"phase"`
	Message string `json:"message"`
	Line    int    `json:"line"`
	Hint    string `json:"hint"`
}

// Tool is one tool a program called.
type Tool struct {
	Name       string `json:"name"`
	Args       string `json:"args"`
	DurationMs int64  `json:"duration_ms"`
	Error      string `json:"error"`
}

// Call is one program of an iteration and what it printed.
type Call struct {
	CallID string `json:"call_id"`
	Code   string `json:"code"`
	Output string `json:"output"`
	// Output is cut at the model's limit; kept_bytes of output_bytes are
	// kept for CallOutput (see events.CallRecord).
	OutputClipped bool       `json:"output_clipped"`
	OutputBytes   int        `json:"output_bytes"`
	KeptBytes     int        `json:"kept_bytes"`
	Error         *CallError `json:"error"`
	DurationMs    int64      `json:"duration_ms"`
	Tools         []Tool     `json:"tools"`
	// SandboxRefused: why the OS sandbox refused something this program
	// started ("" = it did not); the card offers RerunUnconfined.
	SandboxRefused string `json:"sandbox_refused"`
	// SandboxAsked: the person's answer when the call asked them ("ask"
	// mode): approved, declined, unanswered; "" when nobody was asked.
	SandboxAsked string `json:"sandbox_asked"`
	// Running: the program has not finished (a snapshot taken while its
	// iteration runs); the page keeps applying live events to it.
	Running bool `json:"running"`
}

// Iteration is one provider round trip and the program it ran.
type Iteration struct {
	Position   int    `json:"position"`
	Status     string `json:"status"`
	Code       string `json:"code"`
	Output     string `json:"output"`
	Error      string `json:"error"`
	Prose      string `json:"prose"`
	Reasoning  string `json:"reasoning"`
	Answer     string `json:"answer"`
	Model      string `json:"model"`
	Usage      Usage  `json:"usage"`
	DurationMs int64  `json:"duration_ms"`
	Calls      []Call `json:"calls"`
	// Images its programs' tools returned (an MCP tool's screenshot), at
	// /vis/image/<session>/<id> like the turn's.
	Images []TurnImage `json:"images,omitempty"`
}

// Turn is one user request and what came of it.
type Turn struct {
	Position   int         `json:"position"`
	Channel    string      `json:"channel"` // desktop, cli, or shell (a person's !cmd)
	Request    string      `json:"request"`
	Status     string      `json:"status"`
	Answer     string      `json:"answer"`
	Error      string      `json:"error"`
	Usage      Usage       `json:"usage"`
	DurationMs int64       `json:"duration_ms"`
	Started    string      `json:"started"`
	Iterations []Iteration `json:"iterations"`
	// Images attached to the request; their bytes are at
	// /vis/image/<session>/<id> (ImagePath).
	Images []TurnImage `json:"images"`
	// What the turn changed in the workspace's files; absent when it ran
	// no program.
	Changes *backend.TurnChanges `json:"changes,omitempty"`
	// What gave way in the turn's request to fit the context window (the
	// turn's marker); absent when it fitted.
	ContextFold *events.ContextCompaction `json:"context_fold,omitempty"`
}

// TurnImage names an image sent with a turn's request.
type TurnImage struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	MediaType string `json:"media_type"`
	Size      int64  `json:"size"`
}

// toIterationImages is toTurnImages, nil when there are none (most
// iterations: the field is left out).
func toIterationImages(in []backend.ImageRef) []TurnImage {
	if len(in) == 0 {
		return nil
	}
	return toTurnImages(in)
}

func toTurnImages(in []backend.ImageRef) []TurnImage {
	out := make([]TurnImage, 0, len(in))
	for _, r := range in {
		out = append(out, TurnImage{ID: r.ID, Name: r.Name, MediaType: r.MediaType, Size: r.Size})
	}
	return out
}

// Transcript is a session snapshot. The page applies only events whose seq is
// greater than Seq. Running says whether a turn is in flight right now.
type Transcript struct {
	Session Session `json:"session"`
	Turns   []Turn  `json:"turns"`
	Seq     int64   `json:"seq"`
	Running bool    `json:"running"`
	// Queue is the session's queue when the snapshot was read.
	Queue []QueuedInput `json:"queue"`
	// Questions waiting for the person: a program waits at a call the
	// sandbox refused ("ask" mode); AnswerApproval answers one.
	Questions []Question `json:"questions"`
}

// Question is a program's call asking to run a command the sandbox
// refused once more without it (the approval event's "asked" form).
type Question struct {
	ID          string `json:"id"`
	Tool        string `json:"tool"`
	Command     string `json:"command"`
	Why         string `json:"why"`
	WaitSeconds int    `json:"wait_seconds"`
	Turn        int    `json:"turn"`
}

// Startup is what the page needs to draw its first frame.
type Startup struct {
	Workspace string   `json:"workspace"` // "" when none was chosen yet
	Recent    []string `json:"recent"`    // recently opened folders, newest first
	Home      string   `json:"home"`
	Version   string   `json:"version"`
	// Layout is the panes open at the last quit (nil: one pane, as on a first start).
	Layout *Layout `json:"layout,omitempty"`
}

// SearchHit is one turn whose request or answer matched a search.
type SearchHit struct {
	SessionID string `json:"session_id"`
	Workspace string `json:"workspace"`
	Title     string `json:"title"`
	Turn      int    `json:"turn"`
	Snippet   string `json:"snippet"` // matches wrapped in « »
}

// SubmitResult says what an input did: Kind "turn" (a model turn, a goal's
// included), "shell" (a person's !cmd) or "command" (a command that only
// printed Text). Started: it runs now; Queued: it waits behind the running
// turn (the queue event shows it). Goal is the session's goal after a goal
// action (null: none; status "cleared" after clear).
type SubmitResult struct {
	Kind      string    `json:"kind"`
	SessionID string    `json:"session_id"`
	Text      string    `json:"text"`
	Started   bool      `json:"started"`
	Queued    bool      `json:"queued"`
	Goal      *GoalView `json:"goal"`
}

func toSubmitResult(a backend.Accepted) SubmitResult {
	r := SubmitResult{Kind: a.Kind, SessionID: a.SessionID, Text: a.Text, Started: a.Started, Queued: a.Queued}
	if a.Goal != nil {
		g := toGoalView(*a.Goal)
		r.Goal = &g
	}
	return r
}

// QueuedInput is one input waiting in a session's queue (the engine's):
// Held ones wait for Send (the app that queued them quit), Elsewhere ones
// are sent by another running Vis process.
type QueuedInput struct {
	ID        int64  `json:"id"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	Images    int    `json:"images"`
	Held      bool   `json:"held"`
	Elsewhere bool   `json:"elsewhere"`
}

func toQueue(in []backend.QueuedInput) []QueuedInput {
	out := make([]QueuedInput, 0, len(in))
	for _, q := range in {
		out = append(out, QueuedInput{ID: q.ID, Kind: q.Kind, Text: q.Text, Images: q.Images, Held: q.Held, Elsewhere: q.Elsewhere})
	}
	return out
}

// Stopped is what Stop did: whether a running turn was stopped, and the
// queue handed back (oldest first) for the composer to put into the input.
type Stopped struct {
	Cancelled bool            `json:"cancelled"`
	Returned  []ReturnedInput `json:"returned"`
}

// ReturnedInput is a queued message handed back: its queue id, text and
// images (pasted ones as data: URLs with their media type).
type ReturnedInput struct {
	ID     int64        `json:"id"`
	Text   string       `json:"text"`
	Images []ImageInput `json:"images"`
}

// SlashCommand is one `/command` the composer offers.
type SlashCommand struct {
	Name    string `json:"name"` // with the slash: "/goal"
	Usage   string `json:"usage"`
	Summary string `json:"summary"`
	// Source ("home", "project") and Path: a person's prompt file; empty
	// for the built-ins.
	Source string `json:"source,omitempty"`
	Path   string `json:"path,omitempty"`
}

// Goal is a session's goal as the footer shows it.
type Goal struct {
	Objective       string `json:"objective"`
	Status          string `json:"status"`           // active, paused, complete, blocked, cancelled, ...
	IterationBudget int64  `json:"iteration_budget"` // 0 = no goal-specific limit
	IterationsUsed  int64  `json:"iterations_used"`
	TokensUsed      int64  `json:"tokens_used"`
	TimeUsedMs      int64  `json:"time_used_ms"`
	ID              string `json:"id"`
	Revision        int64  `json:"revision"` // the page keeps the highest revision it saw
}

// Status is what the footer shows for the open session (or, before one
// exists, the workspace).
type Status struct {
	Provider     string   `json:"provider"`      // id: "app" (settings), "env", "flag" or a config.yml id
	ProviderName string   `json:"provider_name"` // how a person knows it: the preset, else the base URL's host
	Model        string   `json:"model"`
	BaseURL      string   `json:"base_url"`
	ConfigError  string   `json:"config_error"` // why no turn can run ("" = fine)
	Usage        Usage    `json:"usage"`        // the session's tokens
	CostUSD      *float64 `json:"cost_usd"`     // null when the model has no price
	ContextUsed  int      `json:"context_used"`
	ContextLimit int      `json:"context_limit"`
	Packs        []string `json:"packs"`
	REPLs        int      `json:"repls"`
	Goal         *Goal    `json:"goal"` // null when the session has none
	Running      bool     `json:"running"`
	// Sandbox is the permission mode of the session's next turn
	// (read-only, workspace, full); SandboxSource: flag (vis --sandbox),
	// session (chosen with SetSessionMode) or config.
	Sandbox       string `json:"sandbox"`
	SandboxSource string `json:"sandbox_source"`
	// ProjectHeld names the workspace's project settings held back until
	// the folder is trusted (TrustWorkspace); [] when none.
	ProjectHeld []string `json:"project_held"`
	// HeldBy is the pid of another Vis that runs the session's turns now:
	// the page shows the session read-only and Send is refused; 0 = none.
	HeldBy int `json:"held_by"`
}

// PromptBlock is one tagged block of a message as it was sent.
type PromptBlock struct {
	Tag    string `json:"tag"`
	Text   string `json:"text"`
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"` // estimated
}

// PromptMessage is one message of a request, split into blocks.
type PromptMessage struct {
	Role   string        `json:"role"`
	Blocks []PromptBlock `json:"blocks"`
	Chars  int           `json:"chars"`
	Tokens int           `json:"tokens"`
}

// PromptView is exactly what was sent for one iteration's request.
type PromptView struct {
	Turn      int             `json:"turn"`
	Iteration int             `json:"iteration"`
	Messages  []PromptMessage `json:"messages"`
	Chars     int             `json:"chars"`
	Tokens    int             `json:"tokens"`
	// RebuiltAt: the iteration whose request was rebuilt to fit the context
	// window (older outputs as stubs, oldest turns dropped); 0 = none.
	RebuiltAt int `json:"rebuilt_at"`
}

// ModelInfo is what one model can do, as the settings dialog edits it.
type ModelInfo struct {
	Name      string `json:"name"`
	Tools     bool   `json:"tools"` // tool calling supported
	Reasoning bool   `json:"reasoning"`
	Vision    bool   `json:"vision"`
	Context   int    `json:"context"` // input window in tokens; 0 = unknown
}

// ProviderSettings is the window's provider. The key itself never reaches the
// page: only whether one is stored, a short hint and where it is kept.
type ProviderSettings struct {
	Preset    string      `json:"preset"`
	BaseURL   string      `json:"base_url"`
	Model     string      `json:"model"`
	Reasoning string      `json:"reasoning"` // "", low, medium, high
	Models    []ModelInfo `json:"models"`
	HasKey    bool        `json:"has_key"`
	KeyHint   string      `json:"key_hint"`
	KeyStore  string      `json:"key_store"` // keyring or file
}

// Preset is a provider the settings dialog offers.
type Preset struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	BaseURL   string `json:"base_url"`
	NeedsKey  bool   `json:"needs_key"`
	KeyURL    string `json:"key_url"`
	LocalPort int    `json:"local_port"`
}

// Effective says what a turn would use now and where it comes from; Error
// says why nothing is usable yet ("" when a turn can run).
type Effective struct {
	Source  string `json:"source"`
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	Error   string `json:"error"`
}

// Settings is everything the settings dialog shows. Provider is nil when the
// window has not saved one.
type Settings struct {
	Provider   *ProviderSettings `json:"provider"`
	Presets    []Preset          `json:"presets"`
	Effective  Effective         `json:"effective"`
	ConfigFile string            `json:"config_file"`
	// AskOnRefusal: a command the sandbox refuses waits for the person at
	// its call (SetAskOnRefusal); AskForced: started with --ask.
	AskOnRefusal bool `json:"ask_on_refusal"`
	AskForced    bool `json:"ask_forced"`
	// NotifyTurnEnd, NotifyInput: desktop notifications while the window
	// is not focused (SetNotifications).
	NotifyTurnEnd bool `json:"notify_turn_end"`
	NotifyInput   bool `json:"notify_input"`
}

// Key actions of SettingsInput.
const (
	KeyKeep   = "keep"   // leave the stored key as it is (also "")
	KeySet    = "set"    // store APIKey
	KeyDelete = "delete" // forget the stored key
)

// SettingsInput saves the window's provider. The key is write-only: KeyAction
// says what to do with it.
type SettingsInput struct {
	Preset    string      `json:"preset"`
	BaseURL   string      `json:"base_url"`
	Model     string      `json:"model"`
	Reasoning string      `json:"reasoning"`
	Models    []ModelInfo `json:"models"`
	APIKey    string      `json:"api_key"`
	KeyAction string      `json:"key_action"`
}

// Verdict is the answer to "test connection".
type Verdict struct {
	OK      bool     `json:"ok"`
	Message string   `json:"message"`
	Models  []string `json:"models"`
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func toUsage(u chat.Usage) Usage {
	return Usage{
		InputTokens:     u.InputTokens,
		OutputTokens:    u.OutputTokens,
		CachedTokens:    u.CachedTokens,
		ReasoningTokens: u.ReasoningTokens,
	}
}

func toSession(s backend.SessionInfo) Session {
	return Session{
		ID:        s.ID,
		Workspace: s.Workspace,
		Title:     s.Title,
		Turns:     s.Turns,
		Created:   stamp(s.Created),
		Updated:   stamp(s.Updated),
		ForkOf:    s.ForkOf,
		ForkTurns: s.ForkTurns,
	}
}

func toSessions(in []backend.SessionInfo) []Session {
	out := make([]Session, 0, len(in)) // never nil: the page gets [] not null
	for _, s := range in {
		out = append(out, toSession(s))
	}
	return out
}

func toCalls(in []backend.CallView) []Call {
	out := make([]Call, 0, len(in))
	for _, c := range in {
		call := Call{CallID: c.CallID, Code: c.Code, Output: c.Output, DurationMs: c.DurationMs, Tools: make([]Tool, 0, len(c.Tools)),
			OutputClipped: c.OutputClipped, OutputBytes: c.OutputBytes, KeptBytes: c.KeptBytes, SandboxRefused: c.SandboxRefused, SandboxAsked: c.SandboxAsked, Running: c.Running}
		for _, t := range c.Tools {
			call.Tools = append(call.Tools, Tool{Name: t.Name, Args: t.Args, DurationMs: t.DurationMs, Error: t.Error})
		}
		if c.Error != nil {
			call.Error = &CallError{Phase: c.Error.Phase, Message: c.Error.Message, Line: c.Error.Line, Hint: c.Error.Hint}
		}
		out = append(out, call)
	}
	return out
}

func toTranscript(t backend.Transcript, running bool) Transcript {
	turns := make([]Turn, 0, len(t.Turns))
	for _, tv := range t.Turns {
		its := make([]Iteration, 0, len(tv.Iterations))
		for _, iv := range tv.Iterations {
			its = append(its, Iteration{
				Position:   iv.Position,
				Status:     iv.Status,
				Code:       iv.Code,
				Output:     iv.Output,
				Error:      iv.Error,
				Prose:      iv.Prose,
				Reasoning:  iv.Reasoning,
				Answer:     iv.Answer,
				Model:      iv.Model,
				Usage:      toUsage(iv.Usage),
				DurationMs: iv.DurationMs,
				Calls:      toCalls(iv.Calls),
				Images:     toIterationImages(iv.Images),
			})
		}
		turns = append(turns, Turn{
			Position:    tv.Position,
			Channel:     tv.Channel,
			Request:     tv.Request,
			Status:      tv.Status,
			Answer:      tv.Answer,
			Error:       tv.Error,
			Usage:       toUsage(tv.Usage),
			DurationMs:  tv.DurationMs,
			Started:     stamp(tv.Started),
			Iterations:  its,
			Images:      toTurnImages(tv.Images),
			Changes:     tv.Changes,
			ContextFold: tv.ContextFold,
		})
	}
	qs := make([]Question, 0, len(t.Questions))
	for _, q := range t.Questions {
		qs = append(qs, Question{ID: q.ID, Tool: q.Tool, Command: q.Command, Why: q.Why, WaitSeconds: q.WaitSeconds})
	}
	if n := len(turns); n > 0 {
		for i := range qs {
			qs[i].Turn = turns[n-1].Position
		}
	}
	return Transcript{Session: toSession(t.Session), Turns: turns, Seq: t.Seq, Running: running, Questions: qs}
}

func toSearchHits(in []backend.SearchHit) []SearchHit {
	out := make([]SearchHit, 0, len(in))
	for _, h := range in {
		out = append(out, SearchHit{SessionID: h.SessionID, Workspace: h.Workspace, Title: h.Title, Turn: h.Turn, Snippet: h.Snippet})
	}
	return out
}

func toPromptView(v backend.PromptView) PromptView {
	msgs := make([]PromptMessage, 0, len(v.Messages))
	for _, m := range v.Messages {
		blocks := make([]PromptBlock, 0, len(m.Blocks))
		for _, b := range m.Blocks {
			blocks = append(blocks, PromptBlock{Tag: b.Tag, Text: b.Text, Chars: b.Chars, Tokens: b.Tokens})
		}
		msgs = append(msgs, PromptMessage{Role: m.Role, Blocks: blocks, Chars: m.Chars, Tokens: m.Tokens})
	}
	return PromptView{Turn: v.Turn, Iteration: v.Iteration, Messages: msgs, Chars: v.Chars, Tokens: v.Tokens, RebuiltAt: v.RebuiltAt}
}

func toModels(in []config.Model) []ModelInfo {
	out := make([]ModelInfo, 0, len(in))
	for _, m := range in {
		out = append(out, ModelInfo{Name: m.Name, Tools: m.SupportsTools(), Reasoning: m.Reasoning, Vision: m.Vision, Context: m.Context})
	}
	return out
}

// fromModels maps the dialog's models back; tool calling, the default, is
// left unset so the settings file stays minimal.
func fromModels(in []ModelInfo) []config.Model {
	out := make([]config.Model, 0, len(in))
	for _, m := range in {
		cm := config.Model{Name: m.Name, Reasoning: m.Reasoning, Vision: m.Vision, Context: m.Context}
		if !m.Tools {
			no := false
			cm.Tools = &no
		}
		out = append(out, cm)
	}
	return out
}

func toSettings(v backend.SettingsView) Settings {
	s := Settings{
		Presets:    make([]Preset, 0, len(v.Presets)),
		Effective:  Effective{Source: v.Effective.Source, BaseURL: v.Effective.BaseURL, Model: v.Effective.Model, Error: v.Effective.Error},
		ConfigFile: v.ConfigFile, AskOnRefusal: v.AskOnRefusal, AskForced: v.AskForced,
		NotifyTurnEnd: v.NotifyTurnEnd, NotifyInput: v.NotifyInput,
	}
	for _, p := range v.Presets {
		s.Presets = append(s.Presets, toPreset(p))
	}
	if p := v.Provider; p != nil {
		s.Provider = &ProviderSettings{
			Preset: p.Preset, BaseURL: p.BaseURL, Model: p.Model, Reasoning: p.Reasoning,
			Models: toModels(p.Models), HasKey: p.HasKey, KeyHint: p.KeyHint, KeyStore: p.KeyStore,
		}
	}
	return s
}

func toPreset(p config.Preset) Preset {
	return Preset{ID: p.ID, Label: p.Label, BaseURL: p.BaseURL, NeedsKey: p.NeedsKey, KeyURL: p.KeyURL, LocalPort: p.LocalPort}
}

func toStatus(v backend.StatusView) Status {
	s := Status{
		Provider: v.Provider, ProviderName: v.ProviderName, Model: v.Model, BaseURL: v.BaseURL, ConfigError: v.ConfigError,
		Usage: toUsage(v.Usage), CostUSD: v.CostUSD, ContextUsed: v.ContextUsed, ContextLimit: v.ContextLimit,
		Packs: append([]string{}, v.Packs...), REPLs: v.REPLs, Running: v.Running,
		Sandbox: v.Sandbox, SandboxSource: v.SandboxSource, ProjectHeld: append([]string{}, v.ProjectHeld...),
		HeldBy: v.HeldBy,
	}
	if g := v.Goal; g != nil {
		s.Goal = &Goal{Objective: g.Objective, Status: g.Status, IterationsUsed: g.IterationsUsed, TokensUsed: g.TokensUsed,
			TimeUsedMs: g.TimeUsedMs, ID: g.ID, Revision: g.Revision}
		if g.IterationBudget != nil {
			s.Goal.IterationBudget = *g.IterationBudget
		}
	}
	return s
}
