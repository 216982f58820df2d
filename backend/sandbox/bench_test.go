package sandbox

import (
	"context"
	"testing"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// BenchmarkExecTrivial measures starting a block and one trivial builtin call.
func BenchmarkExecTrivial(b *testing.B) {
	in := newInterp(b, Options{}, hostfn.Builtin{Name: "noop", Fn: func(ctx context.Context, args map[string]any) (any, error) { return nil, nil }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := in.Exec(ctx, "noop()", nil); r.Err != nil {
			b.Fatal(r.Wire())
		}
	}
}

// BenchmarkExecLoop measures a small Python-style loop with an f-string.
func BenchmarkExecLoop(b *testing.B) {
	in := newInterp(b, Options{})
	ctx := context.Background()
	code := "total = 0\nfor i in range(1000):\n    total += i ** 2\ns = f\"{total:,}\"\n"
	b.ReportAllocs()
	for b.Loop() {
		if r := in.Exec(ctx, code, nil); r.Err != nil {
			b.Fatal(r.Wire())
		}
	}
}
