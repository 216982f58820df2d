// Package ext is the extension registry (seed 000 `active-extensions`,
// `extensions-snapshot`, prompt fragments, ctx contributions). An extension
// is registered in Go with what it binds into the sandbox, the prompt text it
// adds, what it contributes to the `session` dict, and the language tools it
// handles (seed 001).
//
// Activation is computed ONCE at the top of a turn (Registry.Active) and the
// result is frozen for the turn: the snapshot, the fragments and the language
// handlers all come from that one value. A throwing (error-returning or
// panicking) activation function or contribution counts as inactive/empty and
// is logged through the registry's Logf, never fatal.
//
// An extension declares what switches it on (Markers: root files, source
// extensions), so that messages can say which file would activate it, or
// did after the turn started; Active.Registered keeps every registered
// extension for them.
//
// Concurrency: a Registry is safe for concurrent use; registration normally
// happens once at start-up.
//
// Language verbs' options: each handler set carries the option keys its
// verbs take (LanguageTools.Options), which the facade checks a call's keys
// against; packs also record the same declarations process-wide
// (DeclareOptions, from init) so the verbs' doc() pages, written when a
// sandbox is built, name every pack's options. format_code's answer is the
// typed FormatResult in every pack.
package ext

import (
	"context"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// Environment is what activation and contributions look at.
type Environment struct {
	SessionID string
	Workspace string // absolute root
	// Languages are the workspace's languages by file count, most first
	// (from a bounded scan); Primary is Languages[0] or "".
	Languages []LanguageCount
	Primary   string
	// Files reports whether a root-relative path exists (cheap stat).
	Files func(rel string) bool
	// HasExt reports whether a file with one of the extensions (".py")
	// exists within the bounded scan.
	HasExt func(exts ...string) bool
	Getenv func(string) string
}

// LanguageCount is one language of a workspace scan.
type LanguageCount struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
}

// Extension is one registered extension.
type Extension struct {
	Name        string // logical id, e.g. "language-python"
	Description string // one line, for the model
	Kind        string // foundation, language, ...
	Alias       string // short name the model calls symbols under ("" = none)
	Builtin     bool   // symbols bound bare; fragment rendered bare and first
	Title       string // how messages name it ("Go"); "" = Name without "language-"

	// Markers are what in a workspace switches it on (a language pack's
	// project files and sources), for messages that explain activation; a
	// pack's Activate decides from them (AnyPresent) so the two agree.
	Markers []Marker

	// Activate decides whether the extension is active for env (nil = always).
	Activate func(env Environment) (bool, error)
	// Prompt returns the extension's prompt fragment (nil or "" = none).
	Prompt func(env Environment) (string, error)
	// Ctx returns a string-keyed contribution deep-merged into the
	// `session` dict (top-level keys are dict keys such as "env").
	Ctx func(ctx context.Context, env Environment) (map[string]any, error)
	// Symbols are bound into the sandbox while the extension is active.
	Symbols []hostfn.Builtin
	// LanguageTools are the language handlers it provides (seed 001).
	LanguageTools []LanguageTools
}

// Call is one language-tool call after the facade parsed it.
type Call struct {
	Language string         // lower-cased; "" when the caller named none
	Opts     map[string]any // the options map (keyword form and dict form merged)
	Cwd      string         // absolute; defaults to the workspace root; inside the workspace
	CwdSet   bool           // the caller named the directory (cwd/project) rather than taking the default
	ID       string         // a REPL id for lifecycle verbs, "" when none
}

// ToolEnv is what a handler gets besides the call.
type ToolEnv struct {
	SessionID string
	Workspace string
	LogDir    string // where REPL logs go ($VIS_HOME/desktop/logs)
	Resources Resources
}

// Resources is the session-owned process registry as handlers use it
// (implemented by backend/resources).
type Resources interface {
	// Register adds or replaces a resource; the registry owns stopping it.
	Register(r Resource)
	// Lookup returns a live resource of the session by id.
	Lookup(sessionID, id string) (Resource, bool)
	// List returns the session's resources (pruned, statuses refreshed).
	List(ctx context.Context, sessionID string) []ResourceInfo
	// Stop stops (or detaches) a resource by id.
	Stop(ctx context.Context, sessionID, id string) (StopResult, error)
}

// Resource is one session-owned process (a REPL).
type Resource struct {
	Info ResourceInfo
	// StopFn stops the process (or detaches an attachment).
	StopFn func(ctx context.Context) error
	// Health probes liveness under the registry's hard timeout.
	Health func(ctx context.Context) string // up, starting, failed, down, unresponsive
	// Logs returns the last n lines of its log.
	Logs func(n int) (string, error)
	// Restart starts it again with the same settings (nil = cannot).
	Restart func(ctx context.Context) error
	// Handle is the pack's own value (e.g. its REPL client).
	Handle any
}

// ResourceInfo is the plain-data view of a resource (string keys on the wire).
type ResourceInfo struct {
	ID        string         `json:"id"`
	SessionID string         `json:"session"`
	Kind      string         `json:"kind"` // repl, nrepl, ...
	Language  string         `json:"language"`
	Label     string         `json:"label"`
	Dir       string         `json:"dir"`
	PID       int            `json:"pid,omitempty"`
	Port      int            `json:"port,omitempty"`
	Status    string         `json:"status"` // up, starting, failed, down, unresponsive, unknown
	Log       string         `json:"log,omitempty"`
	Created   int64          `json:"created_at"` // unix ms
	Managed   bool           `json:"managed"`    // we started it (else attached)
	Detail    map[string]any `json:"detail,omitempty"`
}

// StopResult is repl_stop's answer.
type StopResult struct {
	Result  string `json:"result"` // stopped, not-managed, detached
	ID      string `json:"id"`
	Message string `json:"message"`
}

// LanguageTools is one pack's handler set for a language. A nil func means
// the verb is unsupported for that language (refused before any side
// effect). Results are string-keyed maps in the shared contracts of seed 001,
// except format_code's, which is the typed FormatResult.
type LanguageTools struct {
	Language string   // "python"
	Aliases  []string // other names that route here ("py")
	Format   func(ctx context.Context, env ToolEnv, c Call) (FormatResult, error)
	Lint     func(ctx context.Context, env ToolEnv, c Call) (map[string]any, error)
	Test     func(ctx context.Context, env ToolEnv, c Call) (map[string]any, error)
	Eval     func(ctx context.Context, env ToolEnv, c Call) (map[string]any, error)
	// Repl handles the lifecycle ops "start", "status", "stop", "connect".
	Repl func(ctx context.Context, env ToolEnv, op string, c Call) (map[string]any, error)

	// Options are the option keys each verb takes besides the facade's
	// own: any other key is refused before the handler runs, and doc()
	// lists them (the pack also passes them to DeclareOptions).
	Options VerbOptions
}
