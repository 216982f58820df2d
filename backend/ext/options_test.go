package ext

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestEnvOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts map[string]any
		want []string
		err  string
	}{
		{"absent", map[string]any{}, nil, ""},
		{"None", map[string]any{"env": nil}, nil, ""},
		{"sorted NAME=value", map[string]any{"env": map[string]any{"B": "2", "A": "x=y"}}, []string{"A=x=y", "B=2"}, ""},
		{"Go strings", map[string]any{"env": map[string]string{"A": ""}}, []string{"A="}, ""},
		{"a number", map[string]any{"env": map[string]any{"A": int64(1)}}, nil, `env["A"] must be a string, got a number`},
		{"a list", map[string]any{"env": []any{"A=1"}}, nil, "env must be a dict of strings, got a list"},
		{"a bad name", map[string]any{"env": map[string]any{"1A": "x"}}, nil, `env name "1A" is not a variable name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EnvOf(tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v; want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestArgsOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts map[string]any
		want []string
		err  string
	}{
		{"absent", map[string]any{}, nil, ""},
		{"a list, order kept", map[string]any{"args": []any{"-k", "a b", ""}}, []string{"-k", "a b", ""}, ""},
		{"Go strings", map[string]any{"args": []string{"-v"}}, []string{"-v"}, ""},
		{"one string is refused, with the list it meant", map[string]any{"args": "-k name"}, nil, `one per argument (e.g. {"args": ["-k", "name"]})`},
		{"a number entry", map[string]any{"args": []any{"-n", int64(2)}}, nil, "args entries must be strings, got a number"},
		{"a dict", map[string]any{"args": map[string]any{}}, nil, "args must be a list of strings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ArgsOf(tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v; want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestVerbOptions(t *testing.T) {
	v := VerbOptions{VerbTest: {{Key: "ns", Type: "str"}, EnvOption, {Key: "namespace", Instead: `use "ns"`}, {Key: "var", Instead: `use "ns" too`}}}
	if !v.Takes(VerbTest, "ns") || !v.Takes(VerbTest, "env") || v.Takes(VerbTest, "namespace") || v.Takes(VerbLint, "ns") {
		t.Error("Takes answers wrong")
	}
	if d := cmp.Diff([]string{"ns", "env"}, v.Keys(VerbTest)); d != "" {
		t.Errorf("Keys (-want +got):\n%s", d)
	}
	if k, hint, ok := v.Refused(VerbTest, map[string]any{"var": 1, "namespace": 2, "ns": 3}); !ok || k != "namespace" || hint != `use "ns"` {
		t.Errorf("Refused = %q, %q, %v; want the first refused key in order", k, hint, ok)
	}
	if _, _, ok := v.Refused(VerbTest, map[string]any{"ns": 1}); ok {
		t.Error("Refused a key the verb takes")
	}
}

func TestDeclareOptions(t *testing.T) {
	DeclareOptions(PackOptions{Pack: "zz-test", Languages: []string{"zz"}, Verbs: VerbOptions{VerbTest: {EnvOption}}})
	DeclareOptions(PackOptions{Pack: "zz-test", Languages: []string{"zz"}, Verbs: VerbOptions{VerbTest: {ArgsOption}}})
	var found []PackOptions
	for _, p := range DeclaredOptions() {
		if p.Pack == "zz-test" {
			found = append(found, p)
		}
	}
	if len(found) != 1 || !found[0].Verbs.Takes(VerbTest, "args") {
		t.Fatalf("declared = %+v; want the second declaration only", found)
	}
}

func TestFormatResultValue(t *testing.T) {
	snippet := FormatResult{Formatter: "gofmt", Snippet: true, Changed: true, Delta: -2, Chars: 10}
	if d := cmp.Diff(map[string]any{"changed": true, "delta": -2, "chars": 10, "formatter": "gofmt"}, snippet.Value()); d != "" {
		t.Errorf("snippet (-want +got):\n%s", d)
	}
	files := FormatResult{Formatter: "ruff", Checked: 3, Files: []FormatFile{{File: "a.py", Delta: 4}},
		Errors: []FormatError{{File: "b.py", Message: "b.py:1: syntax"}}, Error: "ruff exited with code 2"}
	want := map[string]any{"changed": 1, "checked": 3, "formatter": "ruff", "error": "ruff exited with code 2",
		"files":  []any{map[string]any{"file": "a.py", "changed": true, "delta": 4}},
		"errors": []any{map[string]any{"file": "b.py", "message": "b.py:1: syntax"}}}
	if d := cmp.Diff(want, files.Value()); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	none := FormatResult{Formatter: "prettier", Checked: -1, Message: "nothing"}
	if d := cmp.Diff(map[string]any{"changed": 0, "files": []any{}, "formatter": "prettier", "message": "nothing"}, none.Value()); d != "" {
		t.Errorf("unknown checked (-want +got):\n%s", d)
	}
}

func TestPathsOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts map[string]any
		want []string
		err  string
	}{
		{"none", map[string]any{}, nil, ""},
		{"one string", map[string]any{"paths": " a.go "}, []string{"a.go"}, ""},
		{"list then path", map[string]any{"paths": []any{"a", " ", "b"}, "path": "c"}, []string{"a", "b", "c"}, ""},
		{"string list", map[string]any{"paths": []string{"x", ""}}, []string{"x"}, ""},
		{"bad entry", map[string]any{"paths": []any{"a", 3}}, nil, "bad arguments: paths entries must be strings, got int"},
		{"bad value", map[string]any{"path": 3.5}, nil, "bad arguments: path must be a list of strings, got float64"},
	} {
		got, err := PathsOption(tc.opts)
		if tc.err != "" {
			if !errors.Is(err, ErrBadArgs) || err.Error() != tc.err {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: PathsOption = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestCallDir(t *testing.T) {
	t.Parallel()
	env := ToolEnv{Workspace: "/ws"}
	if got := (Call{}).Dir(env); got != "/ws" {
		t.Errorf("no cwd: %q, want the workspace", got)
	}
	if got := (Call{Cwd: "/ws/sub"}).Dir(env); got != "/ws/sub" {
		t.Errorf("cwd: %q, want /ws/sub", got)
	}
}

func TestToolOf(t *testing.T) {
	t.Parallel()
	got, err := ToolOf(map[string]any{"env": map[string]any{"A": "1"}, "args": []any{"-v"}, "timeout_ms": 1500.0}, time.Minute)
	if err != nil || got.Timeout != 1500*time.Millisecond || !slices.Equal(got.Env, []string{"A=1"}) || !slices.Equal(got.Args, []string{"-v"}) {
		t.Fatalf("ToolOf = %+v, %v", got, err)
	}
	if got := got.Argv([]string{"gofmt", "-l"}, "a.go"); !slices.Equal(got, []string{"gofmt", "-l", "-v", "a.go"}) {
		t.Errorf("Argv = %q: want head, the call's args, then the files", got)
	}
	if d, err := ToolOf(map[string]any{}, time.Minute); err != nil || d.Timeout != time.Minute {
		t.Errorf("no timeout_ms: %+v, %v; want the default", d, err)
	}
	for _, bad := range []any{"10", 0, -5} {
		if _, err := ToolOf(map[string]any{"timeout_ms": bad}, time.Minute); !errors.Is(err, ErrBadArgs) || !strings.Contains(err.Error(), "timeout_ms") {
			t.Errorf("timeout_ms %v: err = %v, want an ErrBadArgs naming timeout_ms", bad, err)
		}
	}
}

func TestCallEnvArgs(t *testing.T) {
	t.Parallel()
	env, args, err := Call{Opts: map[string]any{"env": map[string]any{"A": "1"}, "args": []any{"-v"}}}.EnvArgs("py run_tests")
	if err != nil || !slices.Equal(env, []string{"A=1"}) || !slices.Equal(args, []string{"-v"}) {
		t.Fatalf("EnvArgs = %q, %q, %v", env, args, err)
	}
	for _, opts := range []map[string]any{{"env": "A=1"}, {"args": "-v"}} {
		if _, _, err := (Call{Opts: opts}).EnvArgs("py run_tests"); err == nil || !strings.HasPrefix(err.Error(), "py run_tests: ") {
			t.Errorf("%v: err = %v, want one that names py run_tests", opts, err)
		}
	}
}
