package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// FuzzPrepass: no input makes the pre-pass panic, hang past a short
// deadline, or crash the process; seeded with the hostile inputs of
// issue 16. `make test` fuzzes it for a few seconds; plain `go test` runs
// the seeds.
func FuzzPrepass(f *testing.F) {
	for _, s := range []string{
		"x = " + strings.Repeat("(", 2000) + "1" + strings.Repeat(")", 2000),
		"x = [" + strings.Repeat("a ** 2, ", 200) + "]",
		"print(f'{a!r:>{w}}' % (1,) if a < b < c else {k: v for k, v in d.items()})",
		"a = []\na.append(a)\nls(a)",
		"for x in 'abc':\n    print(x ** 2 % 3)",
		"'''unterminated", "f'{", "x = (1,\n", "async def f():\n    await g()",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		done := make(chan struct{})
		go func() { // an error is fine; a panic or a hang is not
			defer close(done)
			_, _ = PrepassCtx(ctx, src)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the pre-pass ignored its deadline on %q", src)
		}
	})
}

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
