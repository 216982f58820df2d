package sandbox

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

func TestVariadicBuiltinGetsRawArguments(t *testing.T) {
	var got []map[string]any
	in := newInterp(t, Options{}, hostfn.Builtin{
		Name: "run_tests", Doc: "Run tests.", Params: []hostfn.Param{{Name: "language"}, {Name: "arg"}}, Variadic: true,
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			got = append(got, args)
			return "ok", nil
		},
	})
	r := exec(t, in, `run_tests()
run_tests("python", {"paths": ["a.py"]})
run_tests(paths=["b.py"], cwd="sub")
run_tests("go", "x", "y", timeout_ms=5)`)
	if r.Err != nil {
		t.Fatalf("exec: %s", r.Wire())
	}
	want := []map[string]any{
		{hostfn.VarArgs: []any{}},
		{hostfn.VarArgs: []any{"python", map[string]any{"paths": []any{"a.py"}}}},
		{hostfn.VarArgs: []any{}, "paths": []any{"b.py"}, "cwd": "sub"},
		{hostfn.VarArgs: []any{"go", "x", "y"}, "timeout_ms": int64(5)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bound (-want +got):\n%s", diff)
	}
	doc := exec(t, in, `print(doc("run_tests"))`)
	if !strings.HasPrefix(doc.Output, "run_tests(language=…, arg=…, **options)\n") {
		t.Errorf("doc signature: %q", doc.Output)
	}
}

func TestVariadicBuiltinRejectsUnconvertibleArgument(t *testing.T) {
	in := newInterp(t, Options{}, hostfn.Builtin{
		Name: "v", Variadic: true,
		Fn: func(ctx context.Context, args map[string]any) (any, error) { return nil, nil },
	})
	r := exec(t, in, "v(len)")
	if r.Err == nil || !strings.Contains(r.Err.Message, "v: argument 1") {
		t.Fatalf("want an argument error, got %s", r.Wire())
	}
}
