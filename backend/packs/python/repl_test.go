package python

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/sandbox"
)

// Integers come back as integers (exact at any size), floats as floats.
func TestREPLValuesKeepTheirTypes(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	start := w.call(t, langtools.VerbStart, "python")
	pid := int64(start["pid"].(int))
	two70, _ := new(big.Int).SetString("1180591620717411303424", 10)
	for _, tc := range []struct {
		code string
		want any
	}{
		{"import os\n(os.getpid(), 42)", []any{pid, int64(42)}},
		{"1.5", 1.5},
		{"1.0", 1.0},
		{"2**70", two70},
		{"-2**63", int64(-1 << 63)},
		{"[True, None, 1e16, -0.0]", []any{true, nil, 1e16, 0.0}},
		{"{'n': -3, 'f': 2.0, 'nested': [{'k': 7}]}", map[string]any{"n": int64(-3), "f": 2.0, "nested": []any{map[string]any{"k": int64(7)}}}},
	} {
		r := w.eval(t, tc.code)
		if d := cmp.Diff(tc.want, r["data"], cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })); d != "" || r["ok"] != true {
			t.Errorf("%q: data (-want +got):\n%s\n%v", tc.code, d, r)
		}
	}
}

// The same values through the Starlark sandbox the model writes in: the
// pid and 42 are Starlark ints, 2**70 keeps its last digit.
func TestREPLValuesInStarlark(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	start := w.call(t, langtools.VerbStart, "python")
	in, err := sandbox.New(sandbox.Options{}, w.f.Builtins())
	if err != nil {
		t.Fatal(err)
	}
	res := in.Exec(context.Background(), strings.Join([]string{
		`d = repl_eval("python", "import os\n(os.getpid(), 42)")["data"]`,
		`print(d, type(d[0]), type(d[1]))`,
		`big = repl_eval("python", "2**70")["data"]`,
		`print(big + 1, type(big))`,
		`f = repl_eval("python", "1.5")["data"]`,
		`print(f, type(f))`,
	}, "\n"), nil)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	want := fmt.Sprintf("[%d, 42] <class 'int'> <class 'int'>\n1180591620717411303425 <class 'int'>\n1.5 <class 'float'>\n", start["pid"])
	if res.Output != want {
		t.Errorf("output = %q, want %q", res.Output, want)
	}
}
