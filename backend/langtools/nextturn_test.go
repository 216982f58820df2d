package langtools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/ext"
)

// marked gives a fake pack markers and the activation they decide.
func marked(pack func(*recorder) ext.Extension, title string, ms ...ext.Marker) func(*recorder) ext.Extension {
	return func(rec *recorder) ext.Extension {
		e := pack(rec)
		e.Title, e.Markers = title, ms
		e.Activate = func(env ext.Environment) (bool, error) { return ext.AnyPresent(env, ms), nil }
		return e
	}
}

var (
	markedGo      = marked(golang, "Go", ext.Marker{File: "go.mod"})
	markedPython  = marked(python, "Python", ext.Marker{File: "pyproject.toml"}, ext.Marker{Exts: []string{".py"}})
	markedClojure = marked(func(rec *recorder) ext.Extension {
		return fakePack("language-clojure", "clojure", []string{"clj", "cljs"}, rec, "format lint test eval repl", nil)
	}, "Clojure", ext.Marker{File: "deps.edn"}, ext.Marker{File: "bb.edn"}, ext.Marker{Exts: []string{".clj", ".cljs"}, What: "Clojure source"})
)

// envOf is the workspace as it is now (root files and extensions on disk).
func envOf(root string) ext.Environment {
	return ext.Environment{SessionID: "s1", Workspace: root,
		Files: func(rel string) bool { _, err := os.Stat(filepath.Join(root, rel)); return err == nil },
		HasExt: func(exts ...string) bool {
			found := false
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				for _, x := range exts {
					if err == nil && !d.IsDir() && strings.HasSuffix(p, x) {
						found = true
					}
				}
				return nil
			})
			return found
		}}
}

// turnFacade freezes the workspace's activation now, as a turn start does,
// and lets its refusals look at the workspace as it is later.
func (fx *fixture) turnFacade() *Facade {
	f := New(fx.reg.Active(envOf(fx.ws)), ext.ToolEnv{SessionID: "s1", Workspace: fx.ws, Resources: fx.res}, nil)
	return f.WithLive(func(context.Context) *ext.Active { return fx.reg.Active(envOf(fx.ws)) })
}

func TestRefusalNamesThePackOfTheNextTurn(t *testing.T) {
	tests := []struct {
		name    string
		packs   []func(*recorder) ext.Extension
		before  []string // files at turn start
		during  []string // files written during the turn
		verb    string
		args    []any
		code    string
		want    []string // substrings of the message
		notWant []string
		next    string // the pack that handles the call at the next turn ("" = not checked)
	}{
		{name: "go.mod written mid-turn", packs: p(markedClojure, markedPython, markedGo), during: []string{"go.mod"}, verb: VerbTest, code: CodeNoHandler,
			want: []string{"run_tests: the Go pack switches on at the next turn: go.mod appeared after this turn started; end this turn (answer) and the next one has run_tests for go"}, next: "language-go"},
		{name: "deps.edn and a source: both markers named", packs: p(markedClojure, markedGo), during: []string{"deps.edn", "src/a.clj"}, verb: VerbEval, args: []any{map[string]any{"code": "1"}}, code: CodeNoHandler,
			want:    []string{"repl_eval: the Clojure pack switches on at the next turn: deps.edn and a Clojure source (.clj, .cljs) appeared after this turn started", "has repl_eval for clojure"},
			notWant: []string{"Go pack"}, next: "language-clojure"},
		{name: "two packs at once", packs: p(markedPython, markedGo), during: []string{"go.mod", "pyproject.toml"}, verb: VerbFormat, code: CodeNoHandler,
			want: []string{"the Python pack switches on at the next turn: pyproject.toml appeared", "; the Go pack switches on at the next turn: go.mod appeared", "format_code for python, go"}},
		{name: "named language of a pack that switches on", packs: p(markedPython, markedGo), before: []string{"a.py"}, during: []string{"go.mod"}, verb: VerbTest, args: []any{"golang"}, code: CodeNoLanguage,
			want: []string{"run_tests: the Go pack switches on at the next turn: go.mod appeared"}, next: "language-go"},
		{name: "a new pack without the verb is not promised", packs: p(markedGo), during: []string{"go.mod"}, verb: VerbEval, args: []any{map[string]any{"code": "1"}}, code: CodeNoHandler,
			want: []string{"no active language pack handles repl_eval"}, notWant: []string{"next turn:"}},
		{name: "another language named: the new pack is not it", packs: p(markedPython, markedGo), during: []string{"go.mod"}, verb: VerbTest, args: []any{"rust"}, code: CodeNoHandler,
			want: []string{"no active language pack handles run_tests"}, notWant: []string{"next turn:"}},
		{name: "nothing appeared", packs: p(markedGo), verb: VerbTest, code: CodeNoHandler,
			want: []string{"no active language pack handles run_tests (no language pack is active"}, notWant: []string{"next turn:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, tt.packs...)
			write := func(rel string) {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(fx.ws, rel)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(fx.ws, rel), []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range tt.before {
				write(f)
			}
			f := fx.turnFacade()
			for _, w := range tt.during {
				write(w)
			}
			_, err := f.Call(context.Background(), tt.verb, tt.args, nil)
			var fe *Error
			if !errors.As(err, &fe) || fe.Code != tt.code {
				t.Fatalf("err = %v, want a %s refusal", err, tt.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(fe.Message, w) {
					t.Errorf("message lacks %q:\n%s", w, fe.Message)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(fe.Message, w) {
					t.Errorf("message has %q:\n%s", w, fe.Message)
				}
			}
			if got, ran := fx.rec.last(); ran {
				t.Errorf("a handler ran: %+v", got)
			}
			// The turn stays frozen: asked again, it still refuses.
			if _, err := f.Call(context.Background(), tt.verb, tt.args, nil); !errors.As(err, &fe) {
				t.Errorf("the same turn's second call = %v, want the refusal again", err)
			}
			if tt.next == "" {
				return
			}
			if _, err := fx.turnFacade().Call(context.Background(), tt.verb, tt.args, nil); err != nil {
				t.Fatalf("the next turn's call: %v", err)
			}
			if got, _ := fx.rec.last(); got.Pack != tt.next {
				t.Errorf("the next turn's call went to %q, want %s", got.Pack, tt.next)
			}
		})
	}
}

// The hint of a refusal with nothing to switch on names every marker every
// registered pack with the verb declares, and nothing else decides them.
func TestNoHandlerHintListsDeclaredMarkers(t *testing.T) {
	fx := newFixture(t, markedClojure, markedPython, markedGo)
	_, err := fx.turnFacade().Call(context.Background(), VerbTest, nil, nil)
	var fe *Error
	if !errors.As(err, &fe) || fe.Code != CodeNoHandler {
		t.Fatalf("err = %v", err)
	}
	want := "language packs switch on when a turn starts, from their project files: " +
		"Clojure: deps.edn, bb.edn or a Clojure source (.clj, .cljs); Python: pyproject.toml or a .py file; Go: go.mod; " +
		"after creating one, end this turn (or use shell meanwhile)"
	if fe.Hint != want {
		t.Errorf("hint:\n got %q\nwant %q", fe.Hint, want)
	}

	// With Go active, a REPL verb's hint names only the inactive packs
	// that have a REPL.
	os.WriteFile(filepath.Join(fx.ws, "go.mod"), []byte("module x\n"), 0o644)
	_, err = fx.turnFacade().Call(context.Background(), VerbEval, []any{map[string]any{"code": "1"}}, nil)
	if !errors.As(err, &fe) || fe.Code != CodeNoHandler {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(fe.Hint, "Clojure: deps.edn") || !strings.Contains(fe.Hint, "Python: pyproject.toml") || strings.Contains(fe.Hint, "Go:") {
		t.Errorf("repl_eval hint with go active: %q", fe.Hint)
	}
}
