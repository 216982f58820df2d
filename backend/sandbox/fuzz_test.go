package sandbox

import (
	"context"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// FuzzExec: a program, whatever it is, ends with a result: conversions to
// and from tools, json and printing are bounded (a cycle or a deep value is
// an error, never a stack overflow), and the block's limits hold.
func FuzzExec(f *testing.F) {
	for _, s := range []string{
		"a = []\na.append(a)\necho(a)",
		"d = {}\nd['x'] = d\necho(d)\nprint(d)",
		"import json\njson.loads('[' * 5000 + ']' * 5000)",
		"import json\nx = []\nfor i in range(3000):\n    x = [x]\nprint(json.dumps(x)[:5])\necho(x)",
		"print(echo({'a': [1, 2.5, None, True, 'x']}))",
	} {
		f.Add(s)
	}
	echo := hostfn.Builtin{Name: "echo", Params: []hostfn.Param{{Name: "value"}}, Fn: func(ctx context.Context, a map[string]any) (any, error) { return a["value"], nil }}
	in, err := New(Options{MaxSteps: 200_000, MemoryLimit: 256 << 20}, []hostfn.Builtin{echo})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_ = in.ExecWith(context.Background(), src, nil, Limits{Wall: 2 * time.Second})
	})
}
