package ext

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

func sym(name string) hostfn.Builtin {
	return hostfn.Builtin{Name: name, Fn: func(context.Context, map[string]any) (any, error) { return nil, nil }}
}

func TestRegisterRefuses(t *testing.T) {
	tests := []struct {
		name string
		ext  Extension
		want error
	}{
		{"duplicate name", Extension{Name: "language-python", Description: "again"}, ErrDuplicate},
		{"symbol owned by another extension", Extension{Name: "other", Description: "d", Kind: "tools", Symbols: []hostfn.Builtin{sym("py_eval")}}, ErrDuplicate},
		{"same symbol twice", Extension{Name: "twice", Description: "d", Kind: "tools", Symbols: []hostfn.Builtin{sym("a"), sym("a")}}, ErrDuplicate},
		{"no name", Extension{Description: "d"}, ErrInvalid},
		{"no description", Extension{Name: "x"}, ErrInvalid},
		{"symbols without kind", Extension{Name: "x", Description: "d", Symbols: []hostfn.Builtin{sym("b")}}, ErrInvalid},
		{"symbol without function", Extension{Name: "x", Description: "d", Kind: "k", Symbols: []hostfn.Builtin{{Name: "c"}}}, ErrInvalid},
		{"fine", Extension{Name: "language-go", Description: "Go", Kind: "language"}, nil},
	}
	r := NewRegistry()
	if err := r.Register(Extension{Name: "language-python", Description: "Python", Kind: "language", Symbols: []hostfn.Builtin{sym("py_eval")}}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Register(tt.ext)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("Register = %v, want %v", err, tt.want)
			}
		})
	}
	var names []string
	for _, e := range r.Extensions() {
		names = append(names, e.Name)
	}
	if diff := cmp.Diff([]string{"language-python", "language-go"}, names); diff != "" {
		t.Errorf("registered (-want +got):\n%s", diff)
	}
}

func TestActivationIsComputedOnceAndFailuresCountInactive(t *testing.T) {
	var lg logs
	r := NewRegistry(WithLogf(lg.logf))
	calls := map[string]int{}
	var mu sync.Mutex
	count := func(name string) {
		mu.Lock()
		calls[name]++
		mu.Unlock()
	}
	must := func(e Extension) {
		t.Helper()
		if err := r.Register(e); err != nil {
			t.Fatal(err)
		}
	}
	must(Extension{Name: "foundation", Description: "core", Kind: "foundation", Builtin: true, Symbols: []hostfn.Builtin{sym("run_tests")}})
	must(Extension{Name: "language-python", Description: "Python", Kind: "language",
		Activate:      func(env Environment) (bool, error) { count("python"); return env.HasExt(".py"), nil },
		LanguageTools: []LanguageTools{{Language: "python"}}})
	must(Extension{Name: "language-go", Description: "Go", Kind: "language",
		Activate:      func(env Environment) (bool, error) { count("go"); return env.Files("go.mod"), nil },
		LanguageTools: []LanguageTools{{Language: "go"}}})
	must(Extension{Name: "broken", Description: "errors", Kind: "language",
		Activate: func(env Environment) (bool, error) { count("broken"); return true, errors.New("cannot read") }})
	must(Extension{Name: "panicky", Description: "panics", Kind: "language",
		Activate: func(env Environment) (bool, error) { count("panicky"); panic("boom") }})

	env := Environment{Workspace: "/w", HasExt: func(e ...string) bool { return e[0] == ".py" }, Files: func(string) bool { return false }}
	a := r.Active(env)
	// Pass the value on: everything below must reuse the one activation.
	for i := 0; i < 3; i++ {
		_ = a.Snapshot()
		_ = a.Fragments()
		_ = a.Ctx(context.Background())
		_ = a.Symbols()
		_ = a.LanguageTools()
		_ = a.Names()
	}
	if diff := cmp.Diff(map[string]int{"python": 1, "go": 1, "broken": 1, "panicky": 1}, calls); diff != "" {
		t.Errorf("activation calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"foundation", "language-python"}, a.Names()); diff != "" {
		t.Errorf("active (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"python"}, a.Languages()); diff != "" {
		t.Errorf("languages (-want +got):\n%s", diff)
	}
	got := strings.Join(lg.all(), "\n")
	for _, want := range []string{"extension broken: activation failed (counted inactive): cannot read", "extension panicky: activation failed (counted inactive): panic: boom"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	// A new turn sees new files.
	env.Files = func(rel string) bool { return rel == "go.mod" }
	if got := r.Active(env).Names(); !cmp.Equal(got, []string{"foundation", "language-python", "language-go"}) {
		t.Errorf("next turn: %v", got)
	}
}

func TestSnapshotShape(t *testing.T) {
	r := NewRegistry()
	_ = r.Register(Extension{Name: "foundation", Description: "Core tools.", Kind: "foundation", Builtin: true, Symbols: []hostfn.Builtin{sym("run_tests"), sym("repl_eval")}})
	_ = r.Register(Extension{Name: "language-clojure", Description: "Clojure.", Kind: "language", Alias: "clj"})
	got := r.Active(Environment{}).Snapshot()
	want := []map[string]any{
		{"alias": nil, "namespace": "foundation", "doc": "Core tools.", "kind": "foundation", "registry_id": "foundation", "symbols": []any{"run_tests", "repl_eval"}},
		{"alias": "clj", "namespace": "language-clojure", "doc": "Clojure.", "kind": "language", "registry_id": "clj", "symbols": []any{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
	var none *Active
	if got := none.Snapshot(); len(got) != 0 || got == nil {
		t.Errorf("nil active snapshot = %#v, want empty list", got)
	}
}

func TestFragments(t *testing.T) {
	var lg logs
	r := NewRegistry(WithLogf(lg.logf))
	prompt := func(s string) func(Environment) (string, error) {
		return func(Environment) (string, error) { return s, nil }
	}
	_ = r.Register(Extension{Name: "ext-a", Description: "a", Alias: "a", Prompt: prompt("  A says\n\n\n\nhi   \n")})
	_ = r.Register(Extension{Name: "silent", Description: "s", Prompt: prompt(" \n ")})
	_ = r.Register(Extension{Name: "failing", Description: "f", Prompt: func(Environment) (string, error) { return "x", errors.New("no") }})
	_ = r.Register(Extension{Name: "foundation", Description: "f", Builtin: true, Prompt: prompt("LANGUAGE TOOLS")})
	_ = r.Register(Extension{Name: "ext-b", Description: "b", Prompt: prompt("B")})
	got := r.Active(Environment{}).Fragments()
	want := []Fragment{
		{Name: "foundation", Builtin: true, Text: "LANGUAGE TOOLS"},
		{Name: "a", Text: "A says\n\nhi"},
		{Name: "ext-b", Text: "B"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(lg.all(), "\n"), "extension failing: prompt failed") {
		t.Errorf("failing prompt not logged: %v", lg.all())
	}
}

func TestCtxDeepMergesAndSurvivesFailures(t *testing.T) {
	var lg logs
	r := NewRegistry(WithLogf(lg.logf))
	ctxFn := func(m map[string]any) func(context.Context, Environment) (map[string]any, error) {
		return func(context.Context, Environment) (map[string]any, error) { return m, nil }
	}
	_ = r.Register(Extension{Name: "one", Description: "1", Ctx: ctxFn(map[string]any{
		"env": map[string]any{"os": "linux", "tools": map[string]any{"go": true}}, "workspace": "w"})})
	_ = r.Register(Extension{Name: "bad", Description: "b", Ctx: func(context.Context, Environment) (map[string]any, error) {
		return map[string]any{"env": "clobbered"}, errors.New("nope")
	}})
	_ = r.Register(Extension{Name: "worse", Description: "w", Ctx: func(context.Context, Environment) (map[string]any, error) { panic("x") }})
	_ = r.Register(Extension{Name: "two", Description: "2", Ctx: ctxFn(map[string]any{
		"env": map[string]any{"tools": map[string]any{"python": true}, "os": "darwin"}, "resources": []any{"r"}})})
	a := r.Active(Environment{})
	got := a.Ctx(context.Background())
	want := map[string]any{
		"env":       map[string]any{"os": "darwin", "tools": map[string]any{"go": true, "python": true}},
		"workspace": "w",
		"resources": []any{"r"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ctx (-want +got):\n%s", diff)
	}
	// The result is the caller's: mutating it does not leak into the next call.
	got["env"].(map[string]any)["os"] = "mutated"
	if again := a.Ctx(context.Background()); again["env"].(map[string]any)["os"] != "darwin" {
		t.Errorf("ctx aliased a contribution: %v", again)
	}
	logged := strings.Join(lg.all(), "\n")
	for _, w := range []string{"extension bad: ctx contribution failed (ignored): nope", "extension worse: ctx contribution failed (ignored): panic: x"} {
		if !strings.Contains(logged, w) {
			t.Errorf("log lacks %q: %s", w, logged)
		}
	}
}

func TestNormalizeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a\n\n\nb", "a\n\nb"},
		{"a\r\n \r\n\t\r\nb  ", "a\n\nb"},
		{"\n\nkeep\n  indented\n", "keep\n  indented"},
	}
	for _, tt := range tests {
		if got := NormalizeText(tt.in); got != tt.want {
			t.Errorf("NormalizeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
