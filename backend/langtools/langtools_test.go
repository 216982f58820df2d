package langtools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/resources"
	"github.com/visdesktop/vis/backend/sandbox"
)

// record is what a fake handler saw.
type record struct {
	Pack, Op, Language, Cwd, ID string
	CwdSet                      bool
	Opts                        map[string]any
}

type recorder struct {
	mu    sync.Mutex
	calls []record
}

func (r *recorder) add(x record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, x)
}

func (r *recorder) last() (record, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls) == 0 {
		return record{}, false
	}
	return r.calls[len(r.calls)-1], true
}

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = nil
}

// fakePack is a language pack whose handlers record their calls. verbs
// lists what it supports: format lint test eval repl.
func fakePack(name, lang string, aliases []string, rec *recorder, verbs string, testResult map[string]any) ext.Extension {
	h := func(op string) func(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
		return func(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
			rel, _ := filepath.Rel(env.Workspace, c.Cwd)
			opts := map[string]any{}
			for k, v := range c.Opts {
				if k != "cwd" {
					opts[k] = v
				}
			}
			rec.add(record{Pack: name, Op: op, Language: c.Language, Cwd: rel, CwdSet: c.CwdSet, ID: c.ID, Opts: opts})
			if op == "test" && testResult != nil {
				out := map[string]any{}
				for k, v := range testResult {
					out[k] = v
				}
				return out, nil
			}
			return map[string]any{"handled_by": name, "op": op}, nil
		}
	}
	lt := ext.LanguageTools{Language: lang, Aliases: aliases, Options: fakeOptions}
	if strings.Contains(verbs, "format") {
		lt.Format = func(ctx context.Context, env ext.ToolEnv, c ext.Call) (ext.FormatResult, error) {
			_, err := h("format")(ctx, env, c)
			return ext.FormatResult{Formatter: name, Snippet: true, Changed: true, Delta: -1, Chars: 3}, err
		}
	}
	if strings.Contains(verbs, "lint") {
		lt.Lint = h("lint")
	}
	if strings.Contains(verbs, "test") {
		lt.Test = h("test")
	}
	if strings.Contains(verbs, "eval") {
		lt.Eval = h("eval")
	}
	if strings.Contains(verbs, "repl") {
		lt.Repl = func(ctx context.Context, env ext.ToolEnv, op string, c ext.Call) (map[string]any, error) {
			return h(op)(ctx, env, c)
		}
	}
	return ext.Extension{Name: name, Description: name, Kind: "language", LanguageTools: []ext.LanguageTools{lt}}
}

// fakeOptions are what the fake packs declare besides the facade's keys.
var fakeOptions = ext.VerbOptions{
	ext.VerbFormat: {{Key: "timeout_ms", Type: "int"}, ext.EnvOption, ext.ArgsOption},
	ext.VerbLint:   {{Key: "timeout_ms", Type: "int"}, ext.EnvOption, ext.ArgsOption},
	ext.VerbTest: {{Key: "timeout_ms", Type: "int"}, {Key: "ns", Type: "str"}, {Key: "var", Type: "str"}, ext.EnvOption, ext.ArgsOption,
		{Key: "namespace", Instead: `use "ns"`}},
	ext.VerbEval:  {{Key: "timeout_ms", Type: "int"}},
	ext.VerbStart: {{Key: "env", Type: "{str: str}"}},
}

type fixture struct {
	ws  string
	rec *recorder
	res *resources.Registry
	reg *ext.Registry
}

func newFixture(t *testing.T, packs ...func(*recorder) ext.Extension) *fixture {
	t.Helper()
	fx := &fixture{ws: t.TempDir(), rec: &recorder{}, res: resources.New(resources.Options{}), reg: ext.NewRegistry()}
	for _, d := range []string{"sub", "sub/inner", "other"} {
		if err := os.MkdirAll(filepath.Join(fx.ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range packs {
		if err := fx.reg.Register(p(fx.rec)); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

func (fx *fixture) facade(langs ...ext.LanguageCount) *Facade {
	env := ext.Environment{SessionID: "s1", Workspace: fx.ws, Languages: langs}
	return New(fx.reg.Active(env), ext.ToolEnv{SessionID: "s1", Workspace: fx.ws, Resources: fx.res}, nil)
}

func python(rec *recorder) ext.Extension {
	return fakePack("language-python", "python", []string{"py"}, rec, "format lint test eval repl", nil)
}
func golang(rec *recorder) ext.Extension {
	return fakePack("language-go", "go", []string{"golang"}, rec, "format lint test", nil)
}
func js(rec *recorder) ext.Extension {
	e := fakePack("language-js", "typescript", []string{"ts"}, rec, "format test eval repl", nil)
	js := e.LanguageTools[0]
	js.Language, js.Aliases = "javascript", []string{"js"}
	e.LanguageTools = append(e.LanguageTools, js)
	return e
}
func otherPython(rec *recorder) ext.Extension {
	return fakePack("language-python-alt", "python", nil, rec, "test", nil)
}

func TestDispatchAndGrammar(t *testing.T) {
	langs := []ext.LanguageCount{lc("json", 40), lc("yaml", 12), lc("go", 9), lc("python", 3)}
	tests := []struct {
		name    string
		verb    string
		args    []any
		kwargs  map[string]any
		want    record
		wantErr string // substring of the refusal; "" = success
		code    string
	}{
		{name: "bare call: data primary falls through to the first code language",
			verb: VerbFormat, want: record{Pack: "language-go", Op: "format", Language: "go", Cwd: ".", Opts: map[string]any{}}},
		{name: "language first",
			verb: VerbTest, args: []any{"python", map[string]any{"paths": []any{"tests/test_a.py"}}},
			want: record{Pack: "language-python", Op: "test", Language: "python", Cwd: ".", Opts: map[string]any{"paths": []any{"tests/test_a.py"}}}},
		{name: "language is lower-cased",
			verb: VerbLint, args: []any{"PYTHON", map[string]any{}},
			want: record{Pack: "language-python", Op: "lint", Language: "python", Cwd: ".", Opts: map[string]any{}}},
		{name: "a lone known language is the language",
			verb: VerbTest, args: []any{"python"},
			want: record{Pack: "language-python", Op: "test", Language: "python", Cwd: ".", Opts: map[string]any{}}},
		{name: "a lone path string is the selector, and picks its language",
			verb: VerbTest, args: []any{"tests/test_api.py"},
			want: record{Pack: "language-python", Op: "test", Language: "python", Cwd: ".", Opts: map[string]any{"paths": []any{"tests/test_api.py"}}}},
		{name: "keyword form equals the dict form",
			verb: VerbTest, kwargs: map[string]any{"language": "python", "paths": []any{"a.py"}},
			want: record{Pack: "language-python", Op: "test", Language: "python", Cwd: ".", Opts: map[string]any{"paths": []any{"a.py"}}}},
		{name: "handler alias routes (py)",
			verb: VerbEval, args: []any{"py", map[string]any{"code": "1+1"}},
			want: record{Pack: "language-python", Op: "eval", Language: "py", Cwd: ".", Opts: map[string]any{"code": "1+1"}}},
		{name: "facade alias mjs -> javascript",
			verb: VerbTest, args: []any{"mjs", map[string]any{}},
			want: record{Pack: "language-js", Op: "test", Language: "javascript", Cwd: ".", Opts: map[string]any{}}},
		{name: "family alias tsx -> typescript",
			verb: VerbFormat, args: []any{"tsx", map[string]any{"code": "let a=1"}},
			want: record{Pack: "language-js", Op: "format", Language: "tsx", Cwd: ".", Opts: map[string]any{"code": "let a=1"}}},
		{name: "node ids and ::name pass through; list selectors stay lists",
			verb: VerbTest, args: []any{"python", map[string]any{"paths": []any{"tests/test_a.py::test_x"}, "path": "::test_y"}},
			want: record{Pack: "language-python", Op: "test", Language: "python", Cwd: ".", Opts: map[string]any{"paths": []any{"::test_y", "tests/test_a.py::test_x"}}}},
		{name: "a go node id infers go",
			verb: VerbTest, kwargs: map[string]any{"paths": []any{"pkg/parse_test.go::TestParse"}},
			want: record{Pack: "language-go", Op: "test", Language: "go", Cwd: ".", Opts: map[string]any{"paths": []any{"pkg/parse_test.go::TestParse"}}}},
		{name: "project is an alias of cwd",
			verb: VerbTest, args: []any{"go", map[string]any{"project": "sub"}},
			want: record{Pack: "language-go", Op: "test", Language: "go", Cwd: "sub", CwdSet: true, Opts: map[string]any{}}},
		{name: "cwd and project naming the same directory are fine",
			verb: VerbTest, args: []any{"go", map[string]any{"project": "sub", "cwd": filepath.Join("sub", "inner", "..")}},
			want: record{Pack: "language-go", Op: "test", Language: "go", Cwd: "sub", CwdSet: true, Opts: map[string]any{}}},
		{name: "cwd and project differ: refused",
			verb: VerbTest, args: []any{"go", map[string]any{"project": "sub", "cwd": "other"}}, wantErr: "A call names ONE directory", code: CodeConflict},
		{name: "cwd outside the workspace: refused",
			verb: VerbTest, args: []any{"go", map[string]any{"cwd": "../.."}}, wantErr: "outside the workspace", code: CodeBadDirectory},
		{name: "missing cwd: refused",
			verb: VerbTest, args: []any{"go", map[string]any{"cwd": "nope"}}, wantErr: "no such directory", code: CodeBadDirectory},
		{name: "format code string is a snippet",
			verb: VerbFormat, args: []any{"python", "x=1"},
			want: record{Pack: "language-python", Op: "format", Language: "python", Cwd: ".", Opts: map[string]any{"code": "x=1"}}},
		{name: "format: code and paths conflict before any change",
			verb: VerbFormat, args: []any{"python", map[string]any{"code": "x=1", "paths": []any{"a.py"}}}, wantErr: "mutually exclusive", code: CodeConflict},
		{name: "format: blank selectors ignored for an explicit snippet",
			verb: VerbFormat, args: []any{"python", map[string]any{"code": "x=1", "path": " ", "paths": []any{""}}},
			want: record{Pack: "language-python", Op: "format", Language: "python", Cwd: ".", Opts: map[string]any{"code": "x=1"}}},
		{name: "eval: a lone string is code",
			verb: VerbEval, args: []any{"sum(range(10))"},
			want: record{Pack: "language-python", Op: "eval", Language: "python", Cwd: ".", Opts: map[string]any{"code": "sum(range(10))"}}},
		{name: "eval: repl_id is id",
			verb: VerbEval, kwargs: map[string]any{"code": "1", "repl_id": "scratch"},
			want: record{Pack: "language-python", Op: "eval", Language: "python", Cwd: ".", ID: "scratch", Opts: map[string]any{"code": "1", "id": "scratch"}}},
		{name: "eval: code is required",
			verb: VerbEval, args: []any{"python", map[string]any{}}, wantErr: "code is required", code: CodeBadArgs},
		{name: "three positionals",
			verb: VerbTest, args: []any{"python", "a", "b"}, wantErr: "Expected (arg) or (language, arg)", code: CodeBadArgs},
		{name: "two positionals, first not a language",
			verb: VerbTest, args: []any{"tests/a.py", map[string]any{}}, wantErr: "Expected (arg) or (language, arg)", code: CodeBadArgs},
		{name: "explicit unsupported language errors instead of picking another pack",
			verb: VerbTest, args: []any{"rust"}, wantErr: `no active pack handles "rust" for run_tests; languages with run_tests: go, javascript, python, typescript`, code: CodeNoLanguage},
		{name: "a pack without the verb says so",
			verb: VerbEval, args: []any{"go", map[string]any{"code": "1"}}, wantErr: "the go pack has no repl_eval; languages with repl_eval: javascript, python, typescript", code: CodeNoLanguage},
		{name: "two languages given",
			verb: VerbTest, args: []any{"go", map[string]any{"language": "python"}}, wantErr: "two languages given", code: CodeConflict},
		{name: "same key twice with different values",
			verb: VerbTest, args: []any{"go", map[string]any{"timeout_ms": int64(5)}}, kwargs: map[string]any{"timeout_ms": int64(6)}, wantErr: "timeout_ms given twice", code: CodeBadArgs},
		{name: "paths entries must be strings",
			verb: VerbTest, kwargs: map[string]any{"paths": []any{int64(3)}}, wantErr: "paths entries must be strings", code: CodeBadArgs},
	}
	fx := newFixture(t, python, golang, js)
	f := fx.facade(langs...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx.rec.reset()
			_, err := f.Call(context.Background(), tt.verb, tt.args, tt.kwargs)
			if tt.wantErr != "" {
				var fe *Error
				if !errors.As(err, &fe) || !strings.Contains(fe.Message, tt.wantErr) || fe.Code != tt.code {
					t.Fatalf("err = %v (%#v), want %s containing %q", err, fe, tt.code, tt.wantErr)
				}
				if r, ok := fx.rec.last(); ok {
					t.Errorf("a refused call reached a handler: %+v", r)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, ok := fx.rec.last()
			if !ok {
				t.Fatal("no handler called")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("call (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHandlerChoice(t *testing.T) {
	tests := []struct {
		name    string
		packs   []func(*recorder) ext.Extension
		langs   []ext.LanguageCount
		verb    string
		args    []any
		want    string // pack
		wantErr string
		code    string
	}{
		{name: "no pack at all", verb: VerbTest, wantErr: "no active language pack handles run_tests (no language pack is active", code: CodeNoHandler},
		{name: "no pack handles the verb; the error lists what exists", packs: p(golang), verb: VerbEval, args: []any{map[string]any{"code": "1"}},
			wantErr: "no active language pack handles repl_eval (active: go: format_code, lint_code, run_tests)", code: CodeNoHandler},
		{name: "single pack is used when nothing else decides", packs: p(python), langs: []ext.LanguageCount{lc("markdown", 3)}, verb: VerbTest, want: "language-python"},
		{name: "primary language wins", packs: p(python, golang), langs: []ext.LanguageCount{lc("python", 30), lc("go", 2)}, verb: VerbTest, want: "language-python"},
		{name: "other scanned languages in count order", packs: p(python, golang), langs: []ext.LanguageCount{lc("json", 30), lc("go", 5), lc("python", 2)}, verb: VerbTest, want: "language-go"},
		{name: "no candidate and several packs: ask for a language", packs: p(python, golang), langs: []ext.LanguageCount{lc("markdown", 3)}, verb: VerbTest,
			wantErr: "several languages could handle this (go, python)", code: CodeAmbiguous},
		{name: "two packs register one language: ambiguous", packs: p(python, otherPython), verb: VerbTest, args: []any{"python"},
			wantErr: "several packs handle python (language-python, language-python-alt)", code: CodeAmbiguous},
		{name: "explicit language disambiguates", packs: p(python, golang), langs: []ext.LanguageCount{lc("python", 30)}, verb: VerbTest, args: []any{"go"}, want: "language-go"},
		{name: "paths decide before the primary language", packs: p(python, golang), langs: []ext.LanguageCount{lc("python", 30)}, verb: VerbTest,
			args: []any{map[string]any{"paths": []any{"cmd/main_test.go"}}}, want: "language-go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, tt.packs...)
			_, err := fx.facade(tt.langs...).Call(context.Background(), tt.verb, tt.args, nil)
			if tt.wantErr != "" {
				var fe *Error
				if !errors.As(err, &fe) || !strings.Contains(fe.Message, tt.wantErr) || fe.Code != tt.code {
					t.Fatalf("err = %v, want %s %q", err, tt.code, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := fx.rec.last(); got.Pack != tt.want {
				t.Errorf("handled by %q, want %q", got.Pack, tt.want)
			}
		})
	}
}

func p(fs ...func(*recorder) ext.Extension) []func(*recorder) ext.Extension { return fs }

func liveRepl(fx *fixture, id, lang string) {
	fx.res.Register(ext.Resource{
		Info:   ext.ResourceInfo{ID: id, SessionID: "s1", Kind: "repl", Language: lang, Label: lang + " repl", Dir: fx.ws, Status: "up", Managed: true, PID: 4242},
		Health: func(context.Context) string { return "up" },
		StopFn: func(context.Context) error { return nil },
	})
}

func TestLifecycleVerbs(t *testing.T) {
	fx := newFixture(t, python, golang, js)
	f := fx.facade(ext.LanguageCount{Language: "python", Files: 10})
	liveRepl(fx, "pyrepl:~/proj", "python")
	liveRepl(fx, "scratch", "python")
	liveRepl(fx, "jsrepl:~/web", "javascript")

	tests := []struct {
		name    string
		verb    string
		args    []any
		kwargs  map[string]any
		want    record // zero Pack = no handler expected
		result  map[string]any
		wantErr string
	}{
		{name: "start maps to op start with the inferred language", verb: VerbStart,
			want: record{Pack: "language-python", Op: "start", Language: "python", Cwd: ".", Opts: map[string]any{}}},
		{name: "start: id in options is a label", verb: VerbStart, args: []any{"python", map[string]any{"id": "second", "cwd": "sub"}},
			want: record{Pack: "language-python", Op: "start", Language: "python", Cwd: "sub", CwdSet: true, ID: "second", Opts: map[string]any{"id": "second"}}},
		{name: "connect maps to op connect", verb: VerbConnect, args: []any{"python", map[string]any{"port": int64(7888)}},
			want: record{Pack: "language-python", Op: "connect", Language: "python", Cwd: ".", Opts: map[string]any{"port": int64(7888)}}},
		{name: "stop without id asks the pack", verb: VerbStop, args: []any{"python"},
			want: record{Pack: "language-python", Op: "stop", Language: "python", Cwd: ".", Opts: map[string]any{}}},
		{name: "stop by id goes to the resource model", verb: VerbStop, args: []any{"pyrepl:~/proj"},
			result: map[string]any{"result": "stopped", "id": "pyrepl:~/proj", "message": "stopped pyrepl:~/proj (python repl)"}},
		{name: "a live id that looks like a language is still an id, even with an empty options map", verb: VerbStop, args: []any{"scratch", map[string]any{}},
			result: map[string]any{"result": "stopped", "id": "scratch", "message": "stopped scratch (python repl)"}},
		{name: "stop of an unknown id", verb: VerbStop, kwargs: map[string]any{"id": "pyrepl:~/gone"},
			result: map[string]any{"result": "not-managed", "id": "pyrepl:~/gone", "message": `no REPL or process with id "pyrepl:~/gone" in this session (live: jsrepl:~/web)`}},
		{name: "status by id answers for that REPL", verb: VerbStatus, args: []any{"jsrepl:~/web"},
			result: map[string]any{"id": "jsrepl:~/web", "status": "up"}},
		{name: "status of an id that is gone", verb: VerbStatus, args: []any{"nrepl:~/x"},
			result: map[string]any{"id": "nrepl:~/x", "status": "unknown"}},
		{name: "status: pack answer plus resources", verb: VerbStatus, args: []any{"python"},
			want:   record{Pack: "language-python", Op: "status", Language: "python", Cwd: ".", Opts: map[string]any{}},
			result: map[string]any{"handled_by": "language-python", "op": "status"}},
		{name: "a bare string as options is refused with examples", verb: VerbStart, args: []any{"python", "backend"},
			wantErr: `the options must be a dict, not a string (backend)`},
		{name: "there is no op argument", verb: VerbStart, args: []any{"python", map[string]any{"op": "stop"}}, wantErr: "there is no op argument"},
		{name: "a language id in options reads as the language", verb: VerbStop, kwargs: map[string]any{"id": "javascript"},
			want: record{Pack: "language-js", Op: "stop", Language: "javascript", Cwd: ".", Opts: map[string]any{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx.rec.reset()
			got, err := f.Call(context.Background(), tt.verb, tt.args, tt.kwargs)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				var fe *Error
				if errors.As(err, &fe) && !strings.Contains(fe.Hint, "repl_") {
					t.Errorf("refusal without an example: %+v", fe)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rec, called := fx.rec.last()
			if tt.want.Pack == "" && called {
				t.Errorf("a pack was asked: %+v", rec)
			}
			if tt.want.Pack != "" {
				if diff := cmp.Diff(tt.want, rec); diff != "" {
					t.Errorf("call (-want +got):\n%s", diff)
				}
			}
			if tt.result != nil {
				trimmed := map[string]any{}
				for k := range tt.result {
					trimmed[k] = got[k]
				}
				if diff := cmp.Diff(tt.result, trimmed); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestStatusListsEveryLiveReplAndWorksWithoutPacks(t *testing.T) {
	fx := newFixture(t, python, js)
	liveRepl(fx, "pyrepl:~/a", "python")
	liveRepl(fx, "jsrepl:~/b", "javascript")
	ids := func(res map[string]any) []string {
		var out []string
		for _, r := range res["resources"].([]any) {
			out = append(out, r.(map[string]any)["id"].(string))
		}
		sort.Strings(out)
		return out
	}
	// Every live REPL whatever the language, filtered when one is named.
	res, err := fx.facade(ext.LanguageCount{Language: "python", Files: 3}).Call(context.Background(), VerbStatus, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"jsrepl:~/b", "pyrepl:~/a"}, ids(res)); diff != "" {
		t.Errorf("bare status (-want +got):\n%s", diff)
	}
	res, err = fx.facade().Call(context.Background(), VerbStatus, []any{"javascript"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"jsrepl:~/b"}, ids(res)); diff != "" {
		t.Errorf("javascript status (-want +got):\n%s", diff)
	}
	// No pack active at all: status and stop-by-id still work.
	none := newFixture(t)
	none.res = fx.res
	f := none.facade()
	res, err = f.Call(context.Background(), VerbStatus, nil, nil)
	if err != nil || len(ids(res)) != 2 {
		t.Fatalf("status without packs = %v, %v", res, err)
	}
	res, err = f.Call(context.Background(), VerbStop, []any{"pyrepl:~/a"}, nil)
	if err != nil || res["result"] != "stopped" {
		t.Fatalf("stop without packs = %v, %v", res, err)
	}
	if _, err := f.Call(context.Background(), VerbStart, []any{"python"}, nil); err == nil {
		t.Error("start without packs: no error")
	}
}

func TestEvalByIDInfersTheLanguage(t *testing.T) {
	fx := newFixture(t, python, js)
	liveRepl(fx, "jsrepl:~/web", "javascript")
	if _, err := fx.facade(ext.LanguageCount{Language: "python", Files: 9}).Call(context.Background(), VerbEval, nil,
		map[string]any{"id": "jsrepl:~/web", "code": "1"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := fx.rec.last(); got.Pack != "language-js" || got.Language != "javascript" || got.ID != "jsrepl:~/web" {
		t.Errorf("eval by id went to %+v", got)
	}
}

func TestRunTestsStampsAndCompletes(t *testing.T) {
	rec := func(result map[string]any) func(*recorder) ext.Extension {
		return func(r *recorder) ext.Extension {
			return fakePack("language-python", "python", nil, r, "test", result)
		}
	}
	tests := []struct {
		name   string
		result map[string]any
		args   []any
		want   map[string]any
	}{
		{name: "passing run", result: map[string]any{"pass": int64(3), "fail": 0, "output": "ok"},
			want: map[string]any{"is_pass": true, "total": 3, "pass": 3, "fail": 0, "failures": []any{}, "output": "ok", "timed_out": false, "target": "full suite"}},
		{name: "absent counts stay absent; failures complete", args: []any{"python", map[string]any{"paths": []any{"t/test_a.py::test_x"}}},
			result: map[string]any{"fail": 1.0, "failures": []map[string]any{{"test": "test_x", "message": "boom"}}},
			want: map[string]any{"is_pass": false, "fail": 1, "output": "", "timed_out": false, "target": "t/test_a.py::test_x",
				"failures": []any{map[string]any{"test": "test_x", "type": "fail", "message": "boom", "file": ""}}}},
		{name: "nothing ran is not a pass", result: map[string]any{"is_pass": true, "total": 0},
			want: map[string]any{"is_pass": false, "total": 0, "failures": []any{}, "output": "", "timed_out": false, "target": "full suite"}},
		{name: "a timeout is not a pass", result: map[string]any{"pass": 2, "timed_out": true},
			want: map[string]any{"is_pass": false, "pass": 2, "failures": []any{}, "output": "", "timed_out": true, "target": "full suite"}},
		{name: "errored rows keep their type", result: map[string]any{"pass": 1, "fail": 0, "errored": 1, "failures": []any{map[string]any{"test": "t", "type": "error", "file": "a.py"}}},
			want: map[string]any{"is_pass": false, "total": 2, "pass": 1, "fail": 0, "errored": 1, "output": "", "timed_out": false, "target": "full suite",
				"failures": []any{map[string]any{"test": "t", "type": "error", "message": "", "file": "a.py"}}}},
		{name: "non-zero exit is not a pass", result: map[string]any{"pass": 1, "exit": 2},
			want: map[string]any{"is_pass": false, "pass": 1, "exit": 2, "failures": []any{}, "output": "", "timed_out": false, "target": "full suite"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, rec(tt.result))
			f := fx.facade()
			tick := time.Unix(100, 0)
			f.now = func() time.Time { tick = tick.Add(1500 * time.Millisecond); return tick }
			got, err := f.Call(context.Background(), VerbTest, tt.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got["ms"] != int64(1500) {
				t.Errorf("ms = %v", got["ms"])
			}
			delete(got, "ms")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTarget(t *testing.T) {
	tests := []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{}, "full suite"},
		{map[string]any{"paths": []any{"a.py", "b.py::t"}}, "a.py, b.py::t"},
		{map[string]any{"ns": "app.core-test", "var": "app.core-test/parse"}, "app.core-test, app.core-test/parse"},
		{map[string]any{"nses": []any{"a", "b"}, "paths": []any{" "}}, "a, b"},
	}
	for _, tt := range tests {
		if got := Target(tt.opts); got != tt.want {
			t.Errorf("Target(%v) = %q, want %q", tt.opts, got, tt.want)
		}
	}
}

func TestCapabilityDataAndMatrix(t *testing.T) {
	none := newFixture(t).facade()
	if none.CapabilityData() != nil || none.Matrix() != "" {
		t.Errorf("no pack: data %v matrix %q", none.CapabilityData(), none.Matrix())
	}
	if _, ok := none.Fragment(); ok {
		t.Error("no pack: a fragment")
	}
	f := newFixture(t, python, golang, js).facade()
	want := map[string][]string{
		"python":     {"format_code", "lint_code", "run_tests", "repl_eval", "repl_start"},
		"go":         {"format_code", "lint_code", "run_tests"},
		"typescript": {"format_code", "run_tests", "repl_eval", "repl_start"},
		"javascript": {"format_code", "run_tests", "repl_eval", "repl_start"},
	}
	if diff := cmp.Diff(want, f.CapabilityData()); diff != "" {
		t.Errorf("capability data (-want +got):\n%s", diff)
	}
	m := f.Matrix()
	for _, line := range []string{
		"LANGUAGE TOOLS (active packs; language first):\n",
		"  go : format_code · lint_code · run_tests\n",
		"  javascript : format_code · run_tests · repl_eval · repl_start\n",
		"  python : format_code · lint_code · run_tests · repl_eval · repl_start\n",
	} {
		if !strings.Contains(m, line) {
			t.Errorf("matrix lacks %q:\n%s", line, m)
		}
	}
	if strings.Contains(m, "clojure") {
		t.Errorf("clojure notes without a clojure pack:\n%s", m)
	}
	clj := newFixture(t, func(r *recorder) ext.Extension {
		return fakePack("language-clojure", "clojure", nil, r, "format lint test eval repl", nil)
	}).facade()
	if !strings.Contains(clj.Matrix(), "clojure run_tests never starts a REPL") {
		t.Errorf("clojure matrix lacks its notes:\n%s", clj.Matrix())
	}
	// The matrix gains a language the turn its pack activates.
	fx := newFixture(t)
	_ = fx.reg.Register(ext.Extension{Name: "language-python", Description: "py", Kind: "language",
		Activate:      func(env ext.Environment) (bool, error) { return env.HasExt(".py"), nil },
		LanguageTools: python(fx.rec).LanguageTools})
	env := ext.Environment{Workspace: fx.ws, HasExt: func(...string) bool { return false }}
	if New(fx.reg.Active(env), ext.ToolEnv{}, nil).Matrix() != "" {
		t.Error("matrix before a .py file exists")
	}
	env.HasExt = func(e ...string) bool { return e[0] == ".py" }
	if !strings.Contains(New(fx.reg.Active(env), ext.ToolEnv{}, nil).Matrix(), "python :") {
		t.Error("matrix after a .py file appeared lacks python")
	}
}

// Through the real sandbox: the verbs are bound bare, take (language, arg)
// and keyword forms, and a refusal reaches the model as a tool error with a
// hint.
func TestVerbsInTheSandbox(t *testing.T) {
	fx := newFixture(t, python)
	var s Surface
	s.Set(fx.facade(ext.LanguageCount{Language: "python", Files: 1}))
	in, err := sandbox.New(sandbox.Options{}, s.Builtins())
	if err != nil {
		t.Fatal(err)
	}
	r := in.Exec(context.Background(), `r = repl_eval("python", {"code": "1+1"})
print(r["handled_by"], r["op"])
t = run_tests(paths=["tests/test_a.py"])
print(t["target"], t["is_pass"])`, nil)
	if r.Err != nil {
		t.Fatalf("exec: %s", r.Wire())
	}
	if diff := cmp.Diff("language-python eval\ntests/test_a.py False\n", r.Output); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	r = in.Exec(context.Background(), `run_tests("rust")`, nil)
	if r.Err == nil || r.Err.Phase != sandbox.PhaseTool || !strings.Contains(r.Err.Message, `run_tests: no active pack handles "rust"`) {
		t.Errorf("refusal: %s", r.Wire())
	}
	r = in.Exec(context.Background(), `repl_start("python", "backend")`, nil)
	if r.Err == nil || !strings.Contains(r.Wire(), "hint: e.g. repl_start(") {
		t.Errorf("refusal hint: %s", r.Wire())
	}
	r = in.Exec(context.Background(), `print(doc("repl_eval"))`, nil)
	if !strings.Contains(r.Output, "repl_eval(language=…, arg=…, **options)\nEval in an already-running project REPL") {
		t.Errorf("doc: %s", r.Output)
	}
	// Before any Set the verbs still answer.
	var empty Surface
	in2, _ := sandbox.New(sandbox.Options{}, empty.Builtins())
	if r := in2.Exec(context.Background(), `run_tests()`, nil); r.Err == nil || !strings.Contains(r.Err.Message, "no language pack is active") {
		t.Errorf("unset surface: %s", r.Wire())
	}
}

func TestEveryVerbHasADoc(t *testing.T) {
	for _, b := range Builtins(func() *Facade { return nil }) {
		if len(b.Doc) < 80 || !b.Variadic {
			t.Errorf("%s: doc %d chars, variadic %v", b.Name, len(b.Doc), b.Variadic)
		}
	}
}

func lc(lang string, n int) ext.LanguageCount { return ext.LanguageCount{Language: lang, Files: n} }
