package langtools

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
)

// TestVerbNamesAgree: the packs declare options under ext's verb names,
// which must be the facade's.
func TestVerbNamesAgree(t *testing.T) {
	got := []string{ext.VerbFormat, ext.VerbLint, ext.VerbTest, ext.VerbEval, ext.VerbStart, ext.VerbStatus, ext.VerbStop, ext.VerbConnect}
	if d := cmp.Diff(Verbs, got); d != "" {
		t.Fatalf("ext's verbs differ from the facade's (-facade +ext):\n%s", d)
	}
	for _, v := range Verbs {
		if _, ok := facadeKeys[v]; !ok {
			t.Errorf("%s has no facade keys", v)
		}
	}
}

// TestUnknownOptionsRefused: a key neither the facade nor the chosen pack
// takes is refused before the handler runs, naming what it takes; an
// Instead spelling is refused with its advice; env and args are
// type-checked; declared and facade keys pass.
func TestUnknownOptionsRefused(t *testing.T) {
	fx := newFixture(t, python, golang)
	f := fx.facade(lc("python", 3))
	for _, tc := range []struct {
		name    string
		verb    string
		args    []any
		kwargs  map[string]any
		wantErr string
	}{
		{name: "one unknown key", verb: VerbTest, args: []any{"python", map[string]any{"filter": "x"}},
			wantErr: `run_tests: unknown option "filter"; run_tests for python takes: paths (or path), cwd (or project), timeout_ms, ns, var, env, args`},
		{name: "several, keyword form", verb: VerbLint, kwargs: map[string]any{"language": "go", "select": "E", "fix": true},
			wantErr: `lint_code: unknown options "fix", "select"; lint_code for go takes: code, paths (or path), cwd (or project), timeout_ms, env, args`},
		{name: "code is not a run_tests key", verb: VerbTest, kwargs: map[string]any{"code": "x"},
			wantErr: `unknown option "code"`},
		{name: "an Instead spelling", verb: VerbTest, args: []any{"python", map[string]any{"namespace": "a"}},
			wantErr: `run_tests for python does not take "namespace": use "ns"`},
		{name: "env must be strings", verb: VerbFormat, args: []any{"python", map[string]any{"env": map[string]any{"A": int64(1)}}},
			wantErr: `format_code: env["A"] must be a string, got a number`},
		{name: "env names are variable names", verb: VerbTest, args: []any{"python", map[string]any{"env": map[string]any{"A B": "1"}}},
			wantErr: `env name "A B" is not a variable name`},
		{name: "args is a list", verb: VerbTest, args: []any{"python", map[string]any{"args": "-k x"}},
			wantErr: `args must be a list of strings, one per argument (e.g. {"args": ["-k", "x"]})`},
		{name: "a REPL start key the pack does not take", verb: VerbStart, args: []any{"python", map[string]any{"aliases": []any{"dev"}}},
			wantErr: `repl_start: unknown option "aliases"; repl_start for python takes: cwd (or project), id (or repl_id), env`},
		{name: "stop by id takes only the facade's keys", verb: VerbStop, args: []any{"pyrepl:~/x", map[string]any{"force": true}},
			wantErr: `repl_stop: unknown option "force"; repl_stop takes: cwd (or project), id (or repl_id)`},
		{name: "declared and facade keys pass", verb: VerbTest, args: []any{"python", map[string]any{"paths": []any{"t.py"}, "cwd": "sub", "timeout_ms": int64(5),
			"env": map[string]any{"A": "1"}, "args": []any{"-x"}}}},
		{name: "format takes env and args", verb: VerbFormat, kwargs: map[string]any{"language": "python", "code": "x=1", "env": map[string]any{"A": "1"}, "args": []any{"-q"}}},
		{name: "connect's own keys", verb: VerbConnect, args: []any{"python", map[string]any{"port": int64(7888), "host": "localhost"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx.rec.reset()
			_, err := f.Call(context.Background(), tc.verb, tc.args, tc.kwargs)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := fx.rec.last(); !ok {
					t.Fatal("the handler did not run")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v; want %q", err, tc.wantErr)
			}
			var fe *Error
			if !errors.As(err, &fe) || fe.Code != CodeBadArgs {
				t.Fatalf("err = %#v; want a bad-args refusal", err)
			}
			if _, ok := fx.rec.last(); ok {
				t.Fatal("a refused call reached the handler")
			}
		})
	}
}

// TestFormatResultThroughTheFacade: the facade turns a pack's FormatResult
// into the one map shape (delta, never char_delta).
func TestFormatResultThroughTheFacade(t *testing.T) {
	fx := newFixture(t, python)
	got, err := fx.facade(lc("python", 1)).Call(context.Background(), VerbFormat, []any{"python", "x=1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"changed": true, "delta": -1, "chars": 3, "formatter": "language-python"}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("format result (-want +got):\n%s", d)
	}
}

// TestPackOptionsDoc: the generated section lists each pack's declared
// keys with type and text, leaves Instead spellings out, and says so when
// no pack takes more than the facade's keys.
func TestPackOptionsDoc(t *testing.T) {
	packs := []ext.PackOptions{
		{Pack: "clojure", Languages: []string{"clojure"}, Verbs: ext.VerbOptions{VerbTest: {
			{Key: "ns", Type: "str | [str]", Doc: "a namespace"}, {Key: "namespace", Instead: `use "ns"`}}}},
		{Pack: "web", Languages: []string{"typescript", "javascript"}, Verbs: ext.VerbOptions{VerbTest: {ext.EnvOption}}},
	}
	got := packOptionsDoc(VerbTest, packs)
	want := `Options every pack takes: paths (or path), cwd (or project).
What each pack takes besides (any other key is refused, naming the ones it knows):
  clojure:
    ns (str | [str]): a namespace
  web (typescript, javascript):
    env ({str: str}): ` + ext.EnvOption.Doc
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("run_tests section (-want +got):\n%s", d)
	}
	if got := packOptionsDoc(VerbStatus, packs); !strings.Contains(got, "No pack takes other options here") {
		t.Errorf("repl_status section = %q", got)
	}
}
