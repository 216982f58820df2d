package live

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
)

func collect() (Sink, func() []string) {
	var mu sync.Mutex
	var got []string
	return func(l string) {
			mu.Lock()
			got = append(got, l)
			mu.Unlock()
		}, func() []string {
			mu.Lock()
			defer mu.Unlock()
			return append([]string(nil), got...)
		}
}

func TestWriterSplitsLinesAcrossWrites(t *testing.T) {
	sink, got := collect()
	ctx := With(context.Background(), sink)
	w := NewWriter(ctx)
	for _, p := range []string{"ok  pkg/a 0.1s\nFAIL", "  pkg/b\r\n\n", "last without newline"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if g := got(); len(g) != 3 || g[0] != "ok  pkg/a 0.1s" || g[1] != "FAIL  pkg/b" || g[2] != "" {
		t.Fatalf("before Close: %q", g)
	}
	_ = w.Close()
	if g := got(); len(g) != 4 || g[3] != "last without newline" {
		t.Fatalf("after Close: %q", g)
	}
}

func TestWriterCutsLongLinesOnARuneBoundary(t *testing.T) {
	sink, got := collect()
	w := NewWriter(With(context.Background(), sink))
	long := "a" + strings.Repeat("é", MaxLine) // é is two bytes: the cut falls inside one
	_, _ = w.Write([]byte(long + "\nnext\n"))
	g := got()
	if len(g) != 2 || g[1] != "next" {
		t.Fatalf("lines = %d %q", len(g), g[len(g)-1])
	}
	if !strings.HasSuffix(g[0], " …") || len(g[0]) > MaxLine+len(" …") || !strings.HasPrefix(g[0], "aéé") {
		t.Fatalf("cut line: %d bytes, ends %q", len(g[0]), g[0][len(g[0])-8:])
	}
	for _, r := range strings.TrimSuffix(g[0], " …") {
		if r == '\uFFFD' {
			t.Fatal("a rune was split by the cut")
		}
	}
}

func TestNoSinkIsANoOp(t *testing.T) {
	ctx := context.Background()
	if NewWriter(ctx) != nil || From(ctx) != nil {
		t.Fatal("a ctx without a sink has a writer")
	}
	var b strings.Builder
	w, done := Tee(ctx, &b)
	if w != io.Writer(&b) {
		t.Fatal("Tee without a sink must return dst itself")
	}
	done()
	if Map(ctx, func(s string) (string, bool) { return s, true }) != ctx {
		t.Fatal("Map without a sink must return ctx")
	}
}

func TestTeeAndMap(t *testing.T) {
	sink, got := collect()
	ctx := Map(With(context.Background(), sink), func(l string) (string, bool) {
		if strings.HasPrefix(l, "{") {
			return "", false
		}
		return strings.ToUpper(l), true
	})
	var b strings.Builder
	w, done := Tee(ctx, &b)
	_, _ = io.WriteString(w, "pass a\n{\"json\":1}\nfail b")
	done()
	if b.String() != "pass a\n{\"json\":1}\nfail b" {
		t.Fatalf("dst = %q", b.String())
	}
	if g := got(); strings.Join(g, "|") != "PASS A|FAIL B" {
		t.Fatalf("sink = %q", g)
	}
}
