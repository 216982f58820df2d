package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// binding is one tool as the sandbox sees it, independent of the sandbox's
// own types (builtins.go adapts it): arguments bound by name as Go values
// (nil, bool, int64, float64, string, []any, map[string]any) and a result
// made of the same kinds, with string keys only.
type binding struct {
	name   string
	doc    string
	params []param
	fn     func(ctx context.Context, args map[string]any) (any, error)
}

type param struct {
	name     string
	required bool
}

// bindings lists the tools in the order doc() should show them.
func (s *Set) bindings() []binding {
	return []binding{
		{"ls", docLs, []param{{"path", false}, {"depth", false}}, s.callLs},
		{"cat", docCat, []param{{"path", true}, {"start", false}, {"end", false}}, s.callCat},
		{"grep", docGrep, []param{{"pattern", true}, {"path", false}, {"glob", false}, {"ignore_case", false}, {"max_results", false}}, s.callGrep},
		{"glob", docGlob, []param{{"pattern", true}}, s.callGlob},
		{"write", docWrite, []param{{"path", true}, {"content", true}}, s.callWrite},
		{"patch", docPatch, []param{{"path", true}, {"old", false}, {"new", false}, {"start", false}, {"end", false}}, s.callPatch},
		{"shell", docShell, []param{{"cmd", true}, {"timeout", false}}, s.callShell},
	}
}

// args reads a tool's bound arguments, collecting the first type error.
type args struct {
	tool string
	m    map[string]any
	err  error
}

func (a *args) bad(name, want string, v any) {
	if a.err == nil {
		a.err = failf(KindInvalid, fmt.Sprintf("see doc(%q) for the parameters", a.tool),
			"%s: %s must be %s, got %s", a.tool, name, want, typeName(v))
	}
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "string"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

// str returns a string argument; ok is false when absent or None.
func (a *args) str(name string) (s string, ok bool) {
	v, present := a.m[name]
	if !present || v == nil {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		a.bad(name, "a string", v)
		return "", false
	}
	return s, true
}

func (a *args) strOr(name, def string) string {
	if s, ok := a.str(name); ok {
		return s
	}
	return def
}

// integer returns an int argument (a float with no fraction is accepted).
func (a *args) integer(name string, def int) int {
	v, present := a.m[name]
	if !present || v == nil {
		return def
	}
	switch n := v.(type) {
	case int64:
		return int(n)
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<31 {
			return int(n)
		}
	}
	a.bad(name, "an int", v)
	return def
}

func (a *args) boolean(name string, def bool) bool {
	v, present := a.m[name]
	if !present || v == nil {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		a.bad(name, "True or False", v)
		return def
	}
	return b
}

// seconds returns a duration given in seconds as an int or float.
func (a *args) seconds(name string, def time.Duration) time.Duration {
	v, present := a.m[name]
	if !present || v == nil {
		return def
	}
	switch n := v.(type) {
	case int64:
		if n > math.MaxInt32 || n < -math.MaxInt32 {
			return time.Duration(math.MaxInt64)
		}
		return time.Duration(n) * time.Second
	case float64:
		if math.IsNaN(n) || math.Abs(n) > math.MaxInt32 {
			return time.Duration(math.MaxInt64)
		}
		return time.Duration(n * float64(time.Second))
	}
	a.bad(name, "a number of seconds", v)
	return def
}

func (a *args) required(name string) string {
	s, ok := a.str(name)
	if !ok && a.err == nil {
		a.err = failf(KindInvalid, fmt.Sprintf("see doc(%q)", a.tool), "%s: %s is required", a.tool, name)
	}
	return s
}

func (s *Set) callLs(ctx context.Context, m map[string]any) (any, error) {
	a := &args{tool: "ls", m: m}
	p, depth := a.strOr("path", "."), a.integer("depth", 1)
	if a.err != nil {
		return nil, a.err
	}
	r, err := s.Ls(ctx, p, depth)
	if err != nil {
		return nil, err
	}
	entries := make([]any, len(r.Entries))
	for i, e := range r.Entries {
		entries[i] = map[string]any{"name": e.Name, "type": e.Type, "size": e.Size}
	}
	out := map[string]any{"path": r.Path, "entries": entries, "truncated": r.Truncated}
	if r.Note != "" {
		out["note"] = r.Note
	}
	return out, nil
}

func (s *Set) callCat(ctx context.Context, m map[string]any) (any, error) {
	a := &args{tool: "cat", m: m}
	p := a.required("path")
	start, end := a.integer("start", 1), a.integer("end", 0)
	if v, ok := m["end"].(int64); ok && v <= 0 && a.err == nil {
		a.err = failf(KindInvalid, "end is a line number (inclusive); omit it to read to the end", "cat: end must be at least 1, got %d", v)
	}
	if a.err != nil {
		return nil, a.err
	}
	r, err := s.Cat(ctx, p, start, end)
	if err != nil {
		return nil, err
	}
	out := map[string]any{
		"path": r.Path, "start": int64(r.Start), "end": int64(r.End), "total_lines": int64(r.TotalLines),
		"remaining": int64(r.Remaining), "text": r.Text,
	}
	if r.Note != "" {
		out["note"] = r.Note
	}
	return hostfn.Printed{Fields: out, Show: []string{"text", "note"}}, nil
}

func (s *Set) callGrep(ctx context.Context, m map[string]any) (any, error) {
	a := &args{tool: "grep", m: m}
	pattern := a.required("pattern")
	opt := GrepOptions{
		Path:       a.strOr("path", "."),
		Glob:       a.strOr("glob", ""),
		IgnoreCase: a.boolean("ignore_case", false),
		MaxResults: a.integer("max_results", 200),
	}
	if opt.MaxResults == 0 && a.err == nil {
		a.err = failf(KindInvalid, fmt.Sprintf("use a max_results between 1 and %d", maxGrepResults), "grep: max_results must be at least 1")
	}
	if a.err != nil {
		return nil, a.err
	}
	r, err := s.Grep(ctx, pattern, opt)
	if err != nil {
		return nil, err
	}
	matches := make([]any, len(r.Matches))
	for i, mt := range r.Matches {
		matches[i] = map[string]any{"path": mt.Path, "line": int64(mt.Line), "text": mt.Text}
	}
	out := map[string]any{"matches": matches, "count": int64(r.Count), "truncated": r.Truncated}
	if len(r.SkippedLarge) > 0 {
		out["skipped_large"] = strList(r.SkippedLarge)
	}
	return out, nil
}

func strList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func (s *Set) callGlob(ctx context.Context, m map[string]any) (any, error) {
	a := &args{tool: "glob", m: m}
	pattern := a.required("pattern")
	if a.err != nil {
		return nil, a.err
	}
	paths, err := s.Glob(ctx, pattern)
	if err != nil {
		return nil, err
	}
	return strList(paths), nil
}

func (s *Set) callWrite(ctx context.Context, m map[string]any) (any, error) {
	a := &args{tool: "write", m: m}
	p := a.required("path")
	content, ok := a.str("content")
	if !ok && a.err == nil {
		a.err = failf(KindInvalid, `pass the whole file as a string: write(path, "text\n")`, "write: content is required")
	}
	if a.err != nil {
		return nil, a.err
	}
	r, err := s.Write(ctx, p, content)
	if err != nil {
		return nil, err
	}
	return map[string]any{"path": r.Path, "bytes": int64(r.Bytes), "lines": int64(r.Lines), "created": r.Created}, nil
}

func (s *Set) callPatch(ctx context.Context, m map[string]any) (any, error) {
	a := &args{tool: "patch", m: m}
	p := a.required("path")
	var req PatchRequest
	if v, ok := a.str("old"); ok {
		req.Old = &v
	}
	if v, ok := a.str("new"); ok {
		req.New = &v
	}
	req.Start = a.integer("start", 0)
	req.End = a.integer("end", req.Start) // end=None means end=start
	if _, given := m["start"].(int64); given && req.Start < 1 && a.err == nil {
		a.err = failf(KindInvalid, "lines are numbered from 1, as cat shows them", "patch: start must be at least 1, got %d", req.Start)
	}
	if m["end"] != nil && m["start"] == nil && a.err == nil {
		a.err = failf(KindInvalid, "give start= together with end=", "patch: end given without start")
	}
	if a.err != nil {
		return nil, a.err
	}
	r, err := s.Patch(ctx, p, req)
	if err != nil {
		return nil, err
	}
	return patchMap(r), nil
}

func patchMap(r PatchResult) any {
	return map[string]any{
		"path": r.Path, "start": int64(r.Start), "end": int64(r.End), "total_lines": int64(r.TotalLines),
		"diff": r.Diff, "text": r.Text,
	}
}

func (s *Set) callShell(ctx context.Context, m map[string]any) (any, error) {
	a := &args{tool: "shell", m: m}
	cmd := a.required("cmd")
	timeout := a.seconds("timeout", DefaultShellTimeout)
	if a.err != nil {
		return nil, a.err
	}
	// A call's own timeout extends the running program block, up to the
	// block's ceiling; one the ceiling cuts runs with what is left and
	// says so. A timeout Shell refuses is left for it to report.
	note := ""
	if v, given := m["timeout"]; given && v != nil && timeout > 0 && timeout <= MaxShellTimeout {
		if g := hostfn.ExtendDeadline(ctx, timeout); g.Capped {
			timeout, note = g.Budget, g.Note
		}
	}
	r, err := s.Shell(ctx, cmd, timeout)
	if err != nil {
		return nil, err
	}
	out := shellMap(r)
	if note != "" {
		out["timeout_note"] = note
	}
	if why := sandboxRefusal(ctx, s.abs, r); why != "" {
		out["sandbox_refused"] = why
		hostfn.RefusedBySandbox(ctx, why)
		return s.askToLeave(ctx, cmd, why, timeout, out)
	}
	return out, nil
}

// askToLeave asks the person, where a front can (confine.Ask: the window
// with its "ask" setting on), whether to run a command the sandbox refused
// once more without it. Approved, it runs again unconfined (the provider
// keys still hidden) and its result replaces the refused one; otherwise
// the refusal stands, saying so. The wait for the answer does not count
// against the program's wall limit (holdClock, up to the block's ceiling).
// Nobody to ask: the refused result as it is.
func (s *Set) askToLeave(ctx context.Context, cmd, why string, timeout time.Duration, refused map[string]any) (any, error) {
	release := holdClock(ctx)
	answer, err := confine.Ask(ctx, confine.Question{Tool: "shell", Command: cmd, Why: why})
	release()
	if errors.Is(err, confine.ErrNoAsker) {
		return refused, nil
	}
	hostfn.AskedPerson(ctx, string(answer))
	if answer != confine.Approved {
		note := "the person declined to run it without the sandbox"
		if answer == confine.Unanswered {
			note = "nobody answered whether to run it without the sandbox"
			if err != nil {
				note += " (" + err.Error() + ")"
			}
		}
		refused["sandbox_asked"] = note
		if ctx.Err() != nil {
			return nil, fmt.Errorf("shell: %w", context.Cause(ctx))
		}
		return refused, nil
	}
	p, _ := confine.From(ctx)
	r, err := s.Shell(confine.With(ctx, p.Unconfined()), cmd, timeout)
	if err != nil {
		return nil, err
	}
	out := shellMap(r)
	out["sandbox_refused"] = why
	out["sandbox_asked"] = "the person approved running it once without the sandbox; this is that run"
	return out, nil
}

// shellMap is what a shell call returns to the program.
func shellMap(r ShellResult) map[string]any {
	return map[string]any{
		"exit_code": int64(r.ExitCode), "output": r.Output, "timed_out": r.TimedOut,
		"duration_ms": r.Duration.Milliseconds(),
	}
}

// holdClock keeps the running block's deadline from coming closer while a
// call waits for the person: what was left of it when asked is kept (plus
// ExtendDeadline's grace), up to the block's ceiling. release ends the hold.
func holdClock(ctx context.Context) (release func()) {
	dl, ok := ctx.Deadline()
	left := time.Until(dl)
	if !ok || left <= 0 {
		return func() {}
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				hostfn.ExtendDeadline(ctx, left)
			}
		}
	}()
	return func() { close(stop); <-done }
}
