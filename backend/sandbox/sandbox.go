// Package sandbox runs the model's programs: Python as models write it,
// executed by an in-process Starlark interpreter (go.starlark.net; this is
// the only package that imports it).
//
// Contract:
//   - One Interp per session. Globals (variables, defs, imports) persist
//     across Exec calls. Exec calls on one Interp are serialized (a mutex);
//     cancelling the ctx passed to Exec, from any goroutine, stops the block.
//   - A line-preserving source pre-pass (package pyprep) turns Python-isms into
//     Starlark: f-strings with format specs, imports of the modules we
//     provide (json, re, math, time, os, os.path, collections, textwrap,
//     shlex, sys, datetime, itertools, functools, ...), `**`, `is None`,
//     generator expressions in calls, `raise`, `assert`, type annotations,
//     chained comparisons, printf-style `%`. Constructs that cannot work
//     (try/except, class, with, global, yield, decorators, walrus) fail before
//     anything runs with phase "unsupported" and a hint. Lines in errors are
//     the lines of the model's code.
//   - print(*args, sep=, end=) is captured into Result.Output, clipped at
//     Options.OutputLimit characters (the model's copy); output printed
//     before an error is kept. A second, far larger copy for the person
//     (Result.Kept, up to Limits.KeepOutput bytes, default
//     DefaultKeepOutput) and the byte count of everything printed
//     (Result.Bytes) say what a clip left out.
//   - Limits: Options.MaxSteps (phase "limit"), the block's wall limit
//     (phase "timeout"; Options.WallLimit, or the Limits given to ExecWith
//     for that block), ctx cancellation (phase "cancelled"). The ctx handed
//     to builtins is cancelled in all three cases, so a blocking tool
//     returns. A builtin may push the block's deadline later with
//     ExtendDeadline (for a call's own timeout), up to the block's ceiling
//     (Limits.Max, default Options.MaxWallLimit), never beyond; that ctx's
//     Deadline reports the deadline as extended. The timeout error names
//     the limit, where it is configured (Limits.WallWhere/MaxWhere) and how
//     to raise it (Limits.Hint).
//   - Builtins (the tools) receive plain Go values bound by parameter name.
//     An error from Builtin.Fn stops the block with phase "tool"; a
//     *ToolError's Hint is shown on its own line.
//   - `session` is a frozen dict rebuilt from Exec's session map before every
//     block; writes to it fail with a hint.
//   - doc(), apropos() and defs() return strings (a bare top-level call is
//     printed by the pre-pass, so `doc("x")` alone shows the page).
//   - defs: after each successful block the session's top-level def sources
//     (latest wins) and the import lines they use are written to
//     Options.DefsPath (cap 256 KiB; removed when there are none). New
//     restores them; a restore failure never fails New (see RestoreError).
//
// Known limits: functions keep the globals of the block that defined them
// (a later block rebinding a global is not seen by an earlier def, as in
// the Starlark REPL). Strings are Python's sequences of code points, not
// Starlark's bytes, as far as a rewrite reaches (pystr.go): len, subscripts
// read by the program, for loops, unpacking, the builtins that iterate,
// str.find.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/sandbox/pylib"
	"github.com/visdesktop/vis/backend/sandbox/pyprep"
)

// Hooks observe tool calls (for UI events).
type Hooks struct {
	OnToolStart func(name string, args map[string]any)        // called before Fn
	OnToolEnd   func(name string, d time.Duration, err error) // called after Fn
	// ToolCtx, when set, gives the ctx Fn runs with (the engine adds the
	// live-output sink that shows a running tool's output as it comes).
	ToolCtx func(ctx context.Context, name string) context.Context
}

// Options configure an Interp.
type Options struct {
	DefsPath    string        // file where the session's def sources persist ("" = no persistence)
	MaxSteps    uint64        // Starlark execution steps per block; 0 = 100_000_000
	WallLimit   time.Duration // per block; 0 = 5 minutes (ExecWith's Limits.Wall overrides it)
	OutputLimit int           // chars of printed output kept; 0 = 65536
	Hooks       Hooks
	Getwd       string                                 // what os.getcwd() returns (the workspace root)
	PathInfo    func(path string) (exists, isDir bool) // backs os.path.exists/isfile/isdir; nil = always false

	// MaxWallLimit is the ceiling ExtendDeadline may push a block's deadline
	// to, from the block's start; 0 = 1 hour; below WallLimit = WallLimit.
	MaxWallLimit time.Duration

	// MemoryLimit is how many bytes a block may grow the process heap by
	// (memory.go); 0 = DefaultMemoryLimit.
	MemoryLimit uint64

	// Namespaces are globals whose functions are found on use
	// (namespace.go), such as mcp.<server>.<tool>.
	Namespaces []hostfn.Namespace
}

// Def is a helper function defined by the session.
type Def struct {
	Name, Signature, Doc, Source string
	Restored                     bool
}

// Result is the outcome of one block.
type Result struct {
	Output  string // what the block printed (clipped to OutputLimit)
	Clipped bool
	// Kept is what the block printed up to the block's KeepOutput bytes
	// (cut at a rune boundary): the person's copy. Equal to Output unless
	// Clipped.
	Kept string
	// Bytes is how many bytes the block printed in all; KeptClipped says
	// Kept is shorter than that (the keep cap applied too).
	Bytes       int
	KeptClipped bool
	Err         *Error // nil on success
	Duration    time.Duration
	Steps       uint64
	// Tools are the builtin calls the block made, in order (for the
	// transcript's tool cards).
	Tools []ToolCall

	limit, total int
}

// ToolCall is one builtin call of a block.
type ToolCall struct {
	Name       string `json:"name"`
	Args       string `json:"args"` // SummarizeArgs of the bound arguments
	DurationMs int64  `json:"duration_ms"`
	Error      string `json:"error,omitempty"`
	// SandboxRefused says the OS sandbox refused what the call started
	// (RefusedBySandbox); "" when it did not.
	SandboxRefused string `json:"sandbox_refused,omitempty"`
	// SandboxAsked is the person's answer when the call asked them to run
	// the refused command without the sandbox (AskedPerson): "approved",
	// "declined" or "unanswered"; "" when nobody was asked.
	SandboxAsked string `json:"sandbox_asked,omitempty"`
}

// SummarizeArgs renders bound arguments as one short line that reads like
// the call: keys sorted (positional arguments of a variadic builtin first,
// bare), values as Python literals, each cut at 60 characters, newlines
// shown as ⏎.
func SummarizeArgs(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		if k != hostfn.VarArgs {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	if pos, ok := args[hostfn.VarArgs].([]any); ok {
		for _, v := range pos {
			parts = append(parts, clipArg(pyLiteral(v)))
		}
	}
	for _, k := range keys {
		parts = append(parts, k+"="+clipArg(pyLiteral(args[k])))
	}
	return strings.Join(parts, ", ")
}

func clipArg(v string) string {
	if r := []rune(v); len(r) > 60 {
		v = string(r[:57]) + "..."
	}
	return strings.ReplaceAll(v, "\n", "⏎")
}

// pyLiteral renders a Go value of the sandbox boundary as Python would.
func pyLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return "'" + strings.NewReplacer("\\", "\\\\", "'", "\\'").Replace(x) + "'"
	case []any:
		items := make([]string, len(x))
		for i, e := range x {
			items[i] = pyLiteral(e)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case map[string]any:
		ks := make([]string, 0, len(x))
		for k := range x {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		items := make([]string, len(ks))
		for i, k := range ks {
			items[i] = pyLiteral(k) + ": " + pyLiteral(x[k])
		}
		return "{" + strings.Join(items, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// maxToolCalls bounds the calls a Result records (a loop of tiny calls).
const maxToolCalls = 200

// Error is a failed block.
type Error struct {
	Phase   string // "syntax", "runtime", "tool", "timeout", "cancelled", "limit", "unsupported"
	Message string
	Line    int // 1-based line in the model's code, 0 if unknown
	Hint    string
}

// Modules are the Python modules the sandbox provides, bound without an
// import line (as in Vis) and importable by name ("os.path" too).
var Modules = []string{"json", "re", "math", "time", "os", "collections", "textwrap", "shlex", "sys", "datetime", "itertools", "functools", "string", "random", "hashlib", "base64", "copy", "statistics"}

// Error phases.
const (
	PhaseSyntax      = "syntax"
	PhaseRuntime     = "runtime"
	PhaseTool        = "tool"
	PhaseTimeout     = "timeout"
	PhaseCancelled   = "cancelled"
	PhaseLimit       = "limit"
	PhaseUnsupported = "unsupported"
)

// NoOutputHint is the tool result of a block that printed nothing and did not fail.
const NoOutputHint = "(no return — python_execution returns what it print()s; this call printed nothing. print() what you want to see.)"

// Wire renders the result as the model sees it.
func (r Result) Wire() string {
	var b strings.Builder
	b.WriteString(r.Output)
	if r.Clipped {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "# ⋯ output clipped at %d/%d chars — narrow next time", r.limit, r.total)
	}
	if r.Err != nil {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "✗ %s error: %s", r.Err.Phase, r.Err.Message)
		if r.Err.Line > 0 {
			fmt.Fprintf(&b, " (line %d)", r.Err.Line)
		}
		if r.Err.Hint != "" {
			b.WriteString("\nhint: " + r.Err.Hint)
		}
	}
	if b.Len() == 0 {
		return NoOutputHint
	}
	return b.String()
}

// Interp is one session's interpreter state.
type Interp struct {
	opts     Options
	builtins []hostfn.Builtin
	byName   map[string]*hostfn.Builtin
	py       *pylib.Env // the Python builtins and modules

	mu         sync.Mutex // serializes Exec
	calls      []ToolCall // the running block's builtin calls (under mu)
	globals    starlark.StringDict
	reserved   map[string]bool // names bound by the host (restored defs may not shadow them)
	defs       map[string]*Def
	defOrder   []string
	imports    map[string]string // bound name -> import statement source
	restoreErr error
}

const (
	localOutput = pylib.OutputLocal // print's target, read by pylib
	localCtx    = pylib.CtxLocal    // the block's ctx, read by pylib (time.sleep) and threadCtx
	localClock  = "vis.clock"
	blockFile   = "block"
	defsFile    = "defs"
	maxDefsSize = 256 << 10
)

var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// New creates an interpreter with the given builtins bound as globals and
// restores the session's helpers from opts.DefsPath when that file exists.
func New(opts Options, builtins []hostfn.Builtin) (*Interp, error) {
	if opts.MaxSteps == 0 {
		opts.MaxSteps = 100_000_000
	}
	if opts.WallLimit <= 0 {
		opts.WallLimit = DefaultWallLimit
	}
	if opts.MaxWallLimit <= 0 {
		opts.MaxWallLimit = DefaultMaxWallLimit
	}
	if opts.OutputLimit == 0 {
		opts.OutputLimit = 65536
	}
	in := &Interp{opts: opts, byName: map[string]*hostfn.Builtin{}, defs: map[string]*Def{}, imports: map[string]string{}, reserved: map[string]bool{}}
	in.py = pylib.New(opts.Getwd, opts.PathInfo)
	g := in.py.Builtins()
	// auto-imported modules (as in Vis): usable without an import line
	for _, name := range Modules {
		g[name] = in.py.Modules()[name]
	}
	g["doc"] = starlark.NewBuiltin("doc", in.builtinDoc)
	g["apropos"] = starlark.NewBuiltin("apropos", in.builtinApropos)
	g["defs"] = starlark.NewBuiltin("defs", in.builtinDefs)
	for i := range builtins {
		b := builtins[i]
		if b.Name == "" || !pyprep.IsIdentifier(b.Name) {
			return nil, fmt.Errorf("new sandbox: invalid builtin name %q", b.Name)
		}
		if _, dup := in.byName[b.Name]; dup {
			return nil, fmt.Errorf("new sandbox: duplicate builtin %q", b.Name)
		}
		if b.Fn == nil {
			return nil, fmt.Errorf("new sandbox: builtin %q has no Fn", b.Name)
		}
		in.builtins = append(in.builtins, b)
		in.byName[b.Name] = &in.builtins[len(in.builtins)-1]
		g[b.Name] = in.wrapBuiltin(in.byName[b.Name])
	}
	for i := range in.opts.Namespaces {
		ns := &in.opts.Namespaces[i]
		if !pyprep.IsIdentifier(ns.Name) || g[ns.Name] != nil || ns.Member == nil {
			return nil, fmt.Errorf("new sandbox: invalid or duplicate namespace %q", ns.Name)
		}
		g[ns.Name] = nsValue{in, ns}
	}
	for name := range g {
		in.reserved[name] = true
	}
	in.globals = g
	if opts.DefsPath != "" {
		in.restoreErr = in.restoreDefs()
	}
	return in, nil
}

// RestoreError reports why restoring helpers from DefsPath failed (nil when it did not).
func (in *Interp) RestoreError() error { return in.restoreErr }

// outputBuffer collects printed text up to a limit (chars, the model's
// copy) and, in full, up to keepLimit bytes (the person's copy), counting
// what was dropped.
type outputBuffer struct {
	b       strings.Builder
	limit   int
	kept    int
	total   int
	clipped bool

	full        strings.Builder // everything up to keepLimit bytes
	keepLimit   int
	bytes       int // bytes printed in all
	keptClipped bool
}

func (o *outputBuffer) WriteString(s string) {
	o.keep(s)
	n := utf8.RuneCountInString(s)
	o.total += n
	if o.clipped {
		return
	}
	if o.kept+n <= o.limit {
		o.b.WriteString(s)
		o.kept += n
		return
	}
	room := o.limit - o.kept
	i := 0
	for k := 0; k < room && i < len(s); k++ {
		_, sz := utf8.DecodeRuneInString(s[i:])
		i += sz
	}
	o.b.WriteString(s[:i])
	o.kept = o.limit
	o.clipped = true
}

// keep adds s to the full copy while it is under keepLimit bytes, cutting
// the last piece at a rune boundary.
func (o *outputBuffer) keep(s string) {
	o.bytes += len(s)
	if o.keptClipped {
		return
	}
	if room := o.keepLimit - o.full.Len(); len(s) > room {
		i := room
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i]
		o.keptClipped = true
	}
	o.full.WriteString(s)
}

func threadCtx(th *starlark.Thread) context.Context { return pylib.ThreadCtx(th) }

var errWallLimit = errors.New("wall-clock limit reached")

// Default time limits of a block (Options.WallLimit, Options.MaxWallLimit).
const (
	DefaultWallLimit    = 5 * time.Minute
	DefaultMaxWallLimit = time.Hour
)

// Exec runs one block with the Options' limits. session is exposed
// read-only as the `session` global.
func (in *Interp) Exec(ctx context.Context, code string, session map[string]any) Result {
	return in.ExecWith(ctx, code, session, Limits{})
}

// ExecWith runs one block under lim (its zero fields default to the
// Options'); otherwise as Exec.
func (in *Interp) ExecWith(ctx context.Context, code string, session map[string]any, lim Limits) Result {
	in.mu.Lock()
	defer in.mu.Unlock()
	sess, err := toStarlark(session)
	if err != nil {
		sess = starlark.NewDict(0)
	}
	sess.Freeze()
	in.globals["session"] = sess
	in.calls = nil
	res, file := in.run(ctx, blockFile, code, lim)
	res.Tools, in.calls = in.calls, nil
	if res.Err == nil && file != nil {
		in.recordDefs(code, file)
		if err := in.persistDefs(); err != nil {
			res.Err = &Error{Phase: PhaseRuntime, Message: "the block ran, but saving your helpers failed: " + err.Error()}
		}
	}
	return res
}

// run pre-passes, parses and executes code in the session globals.
func (in *Interp) run(ctx context.Context, filename, code string, lim Limits) (Result, *syntax.File) {
	start := time.Now()
	out := &outputBuffer{limit: in.opts.OutputLimit, keepLimit: lim.withDefaults(in.opts).KeepOutput}
	finish := func(r Result) Result {
		r.Output = out.b.String()
		r.Clipped = out.clipped
		r.Kept, r.Bytes, r.KeptClipped = r.Output, out.bytes, out.keptClipped
		if out.clipped {
			r.Kept = out.full.String()
		}
		r.limit, r.total = out.limit, out.total
		r.Duration = time.Since(start)
		return r
	}
	// The block's clock runs from here: the pre-pass and the parse count
	// against its wall limit, and Stop ends them too.
	runCtx, clock, stopClock := startClock(ctx, lim.withDefaults(in.opts))
	defer stopClock()
	src, err := pyprep.RewriteCtx(runCtx, code)
	switch {
	case err != nil && errors.Is(context.Cause(runCtx), errWallLimit):
		return finish(Result{Err: clock.timeoutError()}), nil
	case err != nil && ctx.Err() != nil:
		return finish(Result{Err: &Error{Phase: PhaseCancelled, Message: "cancelled"}}), nil
	case err != nil:
		return finish(Result{Err: prepassError(err)}), nil
	}
	f, err := fileOptions.Parse(filename, src, 0)
	if err != nil {
		return finish(Result{Err: syntaxError(err, code)}), nil
	}

	limitHit := false
	th := &starlark.Thread{
		Name:  filename,
		Print: func(_ *starlark.Thread, msg string) { out.WriteString(msg + "\n") },
		OnMaxSteps: func(t *starlark.Thread) {
			limitHit = true
			t.Cancel("too many steps")
		},
	}
	th.SetLocal(localOutput, out)
	th.SetLocal(localCtx, runCtx)
	th.SetLocal(localClock, clock)
	th.SetMaxExecutionSteps(in.opts.MaxSteps)

	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // owner: this call; ends when the block ends or the ctx does
		defer wg.Done()
		select {
		case <-runCtx.Done():
			th.Cancel(context.Cause(runCtx).Error())
		case <-done:
		}
	}()
	memLimit := lim.withDefaults(in.opts).Memory
	var memGrown atomic.Uint64
	go func() { // owner: this call; ends when the block ends
		defer wg.Done()
		memoryWatch(memoryBase(memLimit), memLimit, done, func(grown uint64) {
			memGrown.Store(grown)
			th.Cancel("memory limit")
		})
	}()
	err = starlark.ExecREPLChunk(f, th, in.globals)
	close(done)
	wg.Wait()

	r := Result{Steps: th.ExecutionSteps()}
	if err != nil {
		switch {
		case memGrown.Load() > 0:
			r.Err = memoryError(lim.withDefaults(in.opts), memGrown.Load())
			runtime.GC() // hand back what the stopped block let go of
		case limitHit:
			r.Err = &Error{Phase: PhaseLimit, Message: fmt.Sprintf("the block exceeded %d execution steps", in.opts.MaxSteps),
				Hint: "loop over less data, or split the work across blocks (globals persist)"}
		case errors.Is(context.Cause(runCtx), errWallLimit):
			r.Err = clock.timeoutError()
		case ctx.Err() != nil:
			r.Err = &Error{Phase: PhaseCancelled, Message: "cancelled"}
		default:
			r.Err = runtimeError(err, filename)
		}
		if r.Err.Line == 0 {
			r.Err.Line = errorLine(err, filename)
		}
		return finish(r), nil
	}
	return finish(r), f
}

// ---- builtins binding ----

// toolCallError marks an error returned by a host Builtin's Fn.
type toolCallError struct {
	name string
	err  error
}

func (e *toolCallError) Error() string { return e.err.Error() }
func (e *toolCallError) Unwrap() error { return e.err }

// ArgError is a call of a builtin with arguments that do not bind.
type ArgError struct{ Msg string }

func (e *ArgError) Error() string { return e.Msg }

func paramList(b *hostfn.Builtin) string {
	var ps []string
	for _, p := range b.Params {
		if p.Required {
			ps = append(ps, p.Name)
		} else {
			ps = append(ps, p.Name+"=…")
		}
	}
	if b.Variadic {
		ps = append(ps, "**options")
	}
	return b.Name + "(" + strings.Join(ps, ", ") + ")"
}

func (in *Interp) bindArgs(b *hostfn.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (map[string]any, error) {
	if b.Variadic {
		return bindRaw(b, args, kwargs)
	}
	if len(args) > len(b.Params) {
		return nil, &ArgError{fmt.Sprintf("%s takes at most %d positional arguments (%d given); signature: %s", b.Name, len(b.Params), len(args), paramList(b))}
	}
	bound := make(map[string]any, len(b.Params))
	set := map[string]bool{}
	for i, a := range args {
		v, err := toGo(a)
		if err != nil {
			return nil, &ArgError{fmt.Sprintf("%s: argument %s: %v", b.Name, b.Params[i].Name, err)}
		}
		bound[b.Params[i].Name] = v
		set[b.Params[i].Name] = true
	}
	for _, kv := range kwargs {
		k := string(kv[0].(starlark.String))
		known := false
		for _, p := range b.Params {
			if p.Name == k {
				known = true
				break
			}
		}
		if !known {
			return nil, &ArgError{fmt.Sprintf("%s got an unexpected keyword argument '%s'; signature: %s", b.Name, k, paramList(b))}
		}
		if set[k] {
			return nil, &ArgError{fmt.Sprintf("%s got multiple values for argument '%s'; signature: %s", b.Name, k, paramList(b))}
		}
		v, err := toGo(kv[1])
		if err != nil {
			return nil, &ArgError{fmt.Sprintf("%s: argument %s: %v", b.Name, k, err)}
		}
		bound[k] = v
		set[k] = true
	}
	for _, p := range b.Params {
		if p.Required && !set[p.Name] {
			return nil, &ArgError{fmt.Sprintf("%s missing required argument '%s'; signature: %s", b.Name, p.Name, paramList(b))}
		}
	}
	return bound, nil
}

// bindRaw passes a Variadic builtin's arguments as they came.
func bindRaw(b *hostfn.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (map[string]any, error) {
	pos := make([]any, len(args))
	for i, a := range args {
		v, err := toGo(a)
		if err != nil {
			return nil, &ArgError{fmt.Sprintf("%s: argument %d: %v", b.Name, i+1, err)}
		}
		pos[i] = v
	}
	bound := make(map[string]any, len(kwargs)+1)
	bound[hostfn.VarArgs] = pos
	for _, kv := range kwargs {
		k := string(kv[0].(starlark.String))
		v, err := toGo(kv[1])
		if err != nil {
			return nil, &ArgError{fmt.Sprintf("%s: argument %s: %v", b.Name, k, err)}
		}
		bound[k] = v
	}
	return bound, nil
}

func (in *Interp) wrapBuiltin(b *hostfn.Builtin) *starlark.Builtin {
	return starlark.NewBuiltin(b.Name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		bound, err := in.bindArgs(b, args, kwargs)
		if err != nil {
			return nil, err
		}
		ctx := threadCtx(th)
		if h := in.opts.Hooks.OnToolStart; h != nil {
			h(b.Name, bound)
		}
		if h := in.opts.Hooks.ToolCtx; h != nil {
			ctx = h(ctx, b.Name)
		}
		ctx, notes := hostfn.WithCallNotes(ctx)
		clock, _ := th.Local(localClock).(*blockClock)
		if clock != nil {
			clock.enter(b.Name)
		}
		t0 := time.Now()
		res, err := callFn(ctx, b, bound)
		d := time.Since(t0)
		if clock != nil {
			clock.leave()
		}
		if h := in.opts.Hooks.OnToolEnd; h != nil {
			h(b.Name, d, err)
		}
		if len(in.calls) < maxToolCalls {
			tc := ToolCall{Name: b.Name, Args: SummarizeArgs(bound), DurationMs: d.Milliseconds(), SandboxRefused: notes.Refused(), SandboxAsked: notes.Asked()}
			if err != nil {
				tc.Error = err.Error()
			}
			in.calls = append(in.calls, tc)
		}
		if err != nil {
			return nil, &toolCallError{name: b.Name, err: err}
		}
		v, err := toValue(res)
		if err != nil {
			return nil, &toolCallError{name: b.Name, err: fmt.Errorf("result: %w", err)}
		}
		return v, nil
	})
}

// callFn runs a builtin's Fn; a panic in it (a bug in a tool or a pack)
// becomes that call's error, so the program, the turn and every other
// session go on. The stack goes to stderr for the bug report.
func callFn(ctx context.Context, b *hostfn.Builtin, args map[string]any) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "vis: panic in %s: %v\n%s", b.Name, r, debug.Stack())
			res, err = nil, fmt.Errorf("internal error in %s (a bug in Vis, not in your program): %v", b.Name, r)
		}
	}()
	return b.Fn(ctx, args)
}

// ---- value conversion ----

// maxToolDepth bounds how deeply nested a value passed to a tool may be: a
// list that contains itself (or ten million levels of lists) would
// otherwise recurse until Go's stack overflows, which no recover catches
// and which ends the whole app. Tools take plain data far shallower.
const maxToolDepth = 200

// errTooDeep: a value nested past maxToolDepth, usually one that contains itself.
var errTooDeep = fmt.Errorf("a value nested more than %d levels deep (a list or dict that contains itself?) cannot be passed to a tool", maxToolDepth)

func toGo(v starlark.Value) (any, error) { return toGoDepth(v, 0) }

func toGoDepth(v starlark.Value, depth int) (any, error) {
	if depth > maxToolDepth {
		return nil, errTooDeep
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Int:
		if n, ok := x.Int64(); ok {
			return n, nil
		}
		f, _ := starlark.AsFloat(x)
		return f, nil
	case starlark.Float:
		return float64(x), nil
	case starlark.String:
		return string(x), nil
	case starlark.Bytes:
		return string(x), nil
	case *starlark.List, starlark.Tuple, *starlark.Set:
		elems := pylib.Elems(v.(starlark.Iterable))
		out := make([]any, len(elems))
		for i, e := range elems {
			g, err := toGoDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case starlark.IterableMapping:
		out := map[string]any{}
		for _, kv := range x.Items() {
			k, ok := kv[0].(starlark.String)
			key := string(k)
			if !ok {
				key = pylib.Str(kv[0])
			}
			g, err := toGoDepth(kv[1], depth+1)
			if err != nil {
				return nil, err
			}
			out[key] = g
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot pass a %s to a tool (use str, int, float, bool, None, list or dict)", pylib.TypeName(v))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func toStarlark(v any) (*starlark.Dict, error) {
	if v == nil {
		return starlark.NewDict(0), nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("session must be a map")
	}
	d := starlark.NewDict(len(m))
	for _, k := range sortedKeys(m) {
		sv, err := toValue(m[k])
		if err != nil {
			return nil, fmt.Errorf("session[%q]: %w", k, err)
		}
		_ = d.SetKey(starlark.String(k), sv)
	}
	return d, nil
}

func toValue(v any) (starlark.Value, error) {
	switch x := v.(type) {
	case nil:
		return starlark.None, nil
	case starlark.Value:
		return x, nil
	case bool:
		return starlark.Bool(x), nil
	case int:
		return starlark.MakeInt(x), nil
	case int64:
		return starlark.MakeInt64(x), nil
	case int32:
		return starlark.MakeInt64(int64(x)), nil
	case uint64:
		return starlark.MakeUint64(x), nil
	case *big.Int:
		return starlark.MakeBigInt(x), nil
	case float64:
		return starlark.Float(x), nil
	case float32:
		return starlark.Float(x), nil
	case string:
		return starlark.String(x), nil
	case []byte:
		return starlark.String(x), nil
	case []any:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			sv, err := toValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = sv
		}
		return starlark.NewList(out), nil
	case []string:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			out[i] = starlark.String(e)
		}
		return starlark.NewList(out), nil
	case []int:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			out[i] = starlark.MakeInt(e)
		}
		return starlark.NewList(out), nil
	case []map[string]any:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			sv, err := toValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = sv
		}
		return starlark.NewList(out), nil
	case map[string]any:
		return toStarlark(x)
	case hostfn.Printed:
		d, err := toStarlark(x.Fields)
		if err != nil {
			return nil, err
		}
		return pylib.NewTextDict(d, x.Show), nil
	case map[string]string:
		d := starlark.NewDict(len(x))
		for _, k := range sortedKeys(x) {
			_ = d.SetKey(starlark.String(k), starlark.String(x[k]))
		}
		return d, nil
	}
	return nil, fmt.Errorf("unsupported value type %T", v)
}

// ---- errors ----

func prepassError(err error) *Error {
	var u *pyprep.UnsupportedError
	if errors.As(err, &u) {
		return &Error{Phase: PhaseUnsupported, Message: u.Message, Line: u.Line, Hint: u.Hint}
	}
	var s *pyprep.SyntaxError
	if errors.As(err, &s) {
		return &Error{Phase: PhaseSyntax, Message: s.Msg, Line: s.Line}
	}
	return &Error{Phase: PhaseSyntax, Message: err.Error()}
}

func syntaxError(err error, code string) *Error {
	var se syntax.Error
	if errors.As(err, &se) {
		e := &Error{Phase: PhaseSyntax, Message: se.Msg, Line: int(se.Pos.Line)}
		e.Hint = syntaxHint(se.Msg, lineOf(code, e.Line))
		return e
	}
	return &Error{Phase: PhaseSyntax, Message: err.Error()}
}

func lineOf(code string, n int) string {
	lines := strings.Split(code, "\n")
	if n >= 1 && n <= len(lines) {
		return lines[n-1]
	}
	return ""
}

func errorLine(err error, filename string) int {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		for i := len(ee.CallStack) - 1; i >= 0; i-- {
			if ee.CallStack[i].Pos.Filename() == filename {
				return int(ee.CallStack[i].Pos.Line)
			}
		}
	}
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		return int(rl[0].Pos.Line)
	}
	return 0
}

func runtimeError(err error, filename string) *Error {
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		msg := rl[0].Msg
		e := &Error{Phase: PhaseSyntax, Line: int(rl[0].Pos.Line)}
		if strings.HasPrefix(msg, "undefined: ") {
			name := strings.TrimPrefix(msg, "undefined: ")
			e.Phase = PhaseRuntime
			e.Message = fmt.Sprintf("NameError: name '%s' is not defined (nothing in this block ran)", name)
			e.Hint = undefinedHint(name)
			return e
		}
		e.Message = msg
		e.Hint = resolveHint(msg)
		return e
	}
	var tc *toolCallError
	if errors.As(err, &tc) {
		e := &Error{Phase: PhaseTool, Message: tc.err.Error()}
		var te *hostfn.ToolError
		if errors.As(tc.err, &te) {
			e.Message, e.Hint = te.Message, te.Hint
		}
		// Name the tool once: the workspace tools already start with it.
		if !strings.HasPrefix(e.Message, tc.name+":") {
			e.Message = tc.name + ": " + e.Message
		}
		return e
	}
	var ae *ArgError
	if errors.As(err, &ae) {
		return &Error{Phase: PhaseRuntime, Message: ae.Msg, Hint: "doc(name) shows a tool's parameters"}
	}
	var ui *pylib.UnsupportedImportError
	if errors.As(err, &ui) {
		return &Error{Phase: PhaseUnsupported, Message: ui.Msg, Hint: ui.Hint}
	}
	var rf *pylib.RefusedError
	if errors.As(err, &rf) {
		return &Error{Phase: PhaseUnsupported, Message: rf.Msg}
	}
	var re *pylib.RaisedError
	if errors.As(err, &re) {
		return &Error{Phase: PhaseRuntime, Message: re.Error()}
	}
	var rx *pylib.RegexUnsupportedError
	if errors.As(err, &rx) {
		return &Error{Phase: PhaseRuntime, Message: rx.Error(), Hint: "RE2 has no lookaround or backreferences: match more loosely and filter in code, or use capture groups"}
	}
	msg := err.Error()
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		msg = ee.Msg
	}
	msg, hint := runtimeHint(msg)
	return &Error{Phase: PhaseRuntime, Message: msg, Hint: hint}
}
