package goals

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
)

// BenchmarkAccount is the per-iteration cost the loop pays for goal
// accounting: one read and one compare-and-set on a real SQLite file.
func BenchmarkAccount(b *testing.B) {
	ctx := context.Background()
	st := openStore(b, filepath.Join(b.TempDir(), "vis.db"))
	sid := newSession(b, st)
	svc := New(st, Options{})
	if _, err := svc.Set(ctx, sid, "bench", nil); err != nil {
		b.Fatal(err)
	}
	tk, err := svc.Capture(ctx, sid)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := svc.Account(ctx, tk, chat.Usage{InputTokens: 10, OutputTokens: 7}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHaltCheck is the read-only path of the top-of-iteration check.
func BenchmarkHaltCheck(b *testing.B) {
	ctx := context.Background()
	st := openStore(b, filepath.Join(b.TempDir(), "vis.db"))
	sid := newSession(b, st)
	svc := New(st, Options{})
	if _, err := svc.Set(ctx, sid, "bench", nil); err != nil {
		b.Fatal(err)
	}
	tk, _ := svc.Capture(ctx, sid)
	for b.Loop() {
		if h, err := svc.HaltCheck(ctx, tk); err != nil || h.Halted() {
			b.Fatal(h, err)
		}
	}
}

func BenchmarkParseCommand(b *testing.B) {
	for b.Loop() {
		if _, err := ParseCommand("--budget 40 -- Keep \"quotes\"\nand newlines --budget 3"); err != nil {
			b.Fatal(err)
		}
	}
}
