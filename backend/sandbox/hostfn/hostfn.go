// Package hostfn is what a host function (a tool bound into the sandbox)
// needs to know of the sandbox, and nothing more: the Builtin and Namespace
// shapes it is registered with, the ToolError it fails with, and the calls
// it may make on its ctx while it runs (ExtendDeadline, RefusedBySandbox,
// AskedPerson). Tool packages (tools, ext, goals, langtools, mcp, the packs)
// import this leaf instead of the interpreter; the sandbox package installs
// the other half (WithClock, WithCallNotes) on each call's ctx.
//
// Contract: every function here is safe from any goroutine; outside a
// sandbox call (a ctx the sandbox did not prepare) the ctx functions do
// nothing (ExtendDeadline grants what was asked). No I/O, no module imports.
package hostfn

import (
	"context"
	"sync"
	"time"
)

// Builtin is a host function bound into the sandbox as a global.
type Builtin struct {
	Name   string
	Doc    string  // first line: one-line summary (apropos); doc(name) prints all of it
	Params []Param // positional-or-keyword parameters, in order
	// Fn receives the arguments bound by name. Values are plain Go: nil, bool,
	// int64, float64, string, []any, map[string]any. It returns the same kinds
	// (also int, []string, []map[string]any, map[string]string, Printed).
	Fn func(ctx context.Context, args map[string]any) (any, error)
	// Variadic passes arguments raw instead of binding them to Params: the
	// positional arguments arrive as args[VarArgs] ([]any, possibly empty)
	// and every keyword argument under its own name. Params then only
	// document the leading positionals for doc(). For tools with their own
	// grammar, such as run_tests(language, arg) or run_tests(paths=[...]).
	Variadic bool
}

// Printed is a result that is a dict to the program and prints as the
// text of its Show fields (each present string field, one after another on
// its own line): cat returns one showing "text" and "note", so
// `print(cat(path))` shows the numbered lines and the note as the model
// expects of a read, while `r["text"]`, `r["remaining"]` and json.dumps(r)
// see the fields. Fn may return it in place of the map.
type Printed struct {
	Fields map[string]any
	Show   []string
}

// VarArgs is the key under which a Variadic builtin receives its positional
// arguments (no keyword argument can have this name).
const VarArgs = "*args"

// Param is one parameter of a Builtin.
type Param struct {
	Name     string
	Required bool
}

// ToolError is a failure a builtin reports to the model; Hint is shown on its own line.
type ToolError struct{ Message, Hint string }

func (e *ToolError) Error() string { return e.Message }

// Namespace is a global whose members are groups of host functions found
// when they are used: <Name>.<group>.<member>(...), such as
// mcp.<server>.<tool>(**kwargs). The groups may change between blocks
// (Groups is asked at every attribute access); a member is looked up
// without I/O when the program names it (Member) and does its work, such
// as starting a server or refusing an unknown name, when called. Calls go
// through the same path as other builtins: hooks, the tool-call record,
// the block's clock and deadline.
type Namespace struct {
	Name string // the global, e.g. "mcp"
	Doc  string // doc("<Name>") shows it, then the groups
	// Groups lists the current groups (e.g. the configured servers).
	Groups func() []string
	// Member returns the builtin <Name>.<group>.<member> (its Name is the
	// dotted path) without I/O; an error (shown as the attribute error)
	// when the group is known to have no such member.
	Member func(group, member string) (b Builtin, err error)
	// Describe answers doc("<Name>.<path>") for a group or a member
	// (path "fs" or "fs.read_file"), with the block's ctx (it may start
	// a server to list its tools); ok false when unknown.
	Describe func(ctx context.Context, path string) (doc string, ok bool)
}

// ---- the block's deadline ----

// Grant is ExtendDeadline's answer.
type Grant struct {
	// Budget is how long the call may take: what it asked for, or less when
	// the block's ceiling cut it.
	Budget time.Duration
	// Capped reports that the ceiling cut the request; Note then says so in
	// a sentence for the call's result.
	Capped bool
	Note   string
}

// Clock is the running block's deadline as the sandbox puts it on a
// builtin's ctx (WithClock).
type Clock interface {
	// Extend moves the deadline so the calling builtin may spend want from
	// now, within the block's ceiling.
	Extend(want time.Duration, now time.Time) Grant
}

type clockKey struct{}

// WithClock returns ctx carrying the block's clock (the sandbox's side).
func WithClock(ctx context.Context, c Clock) context.Context {
	return context.WithValue(ctx, clockKey{}, c)
}

// ExtendDeadline asks that the running block may last until the calling
// builtin has spent want (plus a grace of up to 30 s to report): the
// block's deadline moves later (never earlier) up to the block's ceiling,
// never beyond. The extension stays for the rest of the block. The
// returned Budget is want, or what is left under the ceiling (minus the
// grace) when that is less: the caller should use it as its own timeout
// and report Note. Outside a block (ctx not from a sandbox builtin) it
// grants want unchanged.
func ExtendDeadline(ctx context.Context, want time.Duration) Grant {
	c, _ := ctx.Value(clockKey{}).(Clock)
	if c == nil || want <= 0 {
		return Grant{Budget: want}
	}
	return c.Extend(want, time.Now())
}

// ---- notes on the call's record ----

// A builtin's call may say that the OS sandbox refused what it started (a
// confined shell command that failed with "Permission denied" outside the
// workspace): the call's record carries the sentence, so a front can offer
// to run the program again without the sandbox.

// CallNotes is what one builtin call noted for its record; the sandbox
// makes one per call (WithCallNotes) and reads it when the call returns.
type CallNotes struct {
	mu    sync.Mutex
	why   string
	asked string
}

type notesKey struct{}

// WithCallNotes returns ctx carrying a fresh CallNotes (the sandbox's side).
func WithCallNotes(ctx context.Context) (context.Context, *CallNotes) {
	n := &CallNotes{}
	return context.WithValue(ctx, notesKey{}, n), n
}

// Refused is the first sentence RefusedBySandbox recorded ("" = none).
func (n *CallNotes) Refused() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.why
}

// Asked is the last answer AskedPerson recorded ("" = none).
func (n *CallNotes) Asked() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.asked
}

// RefusedBySandbox records why on the builtin call running under ctx (the
// first sentence wins). Outside a builtin call it does nothing.
func RefusedBySandbox(ctx context.Context, why string) {
	n, _ := ctx.Value(notesKey{}).(*CallNotes)
	if n == nil || why == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.why == "" {
		n.why = why
	}
}

// AskedPerson records, on the builtin call running under ctx, the person's
// answer when the call asked them to run a refused command without the
// sandbox ("approved", "declined", "unanswered"; the last one wins).
// Outside a builtin call it does nothing.
func AskedPerson(ctx context.Context, answer string) {
	n, _ := ctx.Value(notesKey{}).(*CallNotes)
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.asked = answer
}
