package store

import (
	"context"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
)

// BenchmarkAddIteration measures one committed iteration of a typical size
// (a short program, a few KB of output).
func BenchmarkAddIteration(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	sess := mustSession(b, s, "/w", "")
	turn := mustTurn(b, s, sess.ID, "benchmark")
	it := Iteration{TurnID: turn.ID, Status: IterationDone, Code: strings.Repeat("print(read_file('x'))\n", 10),
		Output: strings.Repeat("some output line\n", 200), Model: "m",
		AppendedJSON: `[{"role":"tool","content":"ok"}]`, Usage: chat.Usage{InputTokens: 1000, OutputTokens: 100}}
	for b.Loop() {
		if _, err := s.AddIteration(ctx, it); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListSessions lists 1,000 sessions (with their turn counts).
func BenchmarkListSessions(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	for i := range 1000 {
		sess := mustSession(b, s, "/w", "session")
		if i%10 == 0 {
			mustTurn(b, s, sess.ID, "q")
		}
	}
	for b.Loop() {
		list, err := s.ListSessions(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		if len(list) != 1000 {
			b.Fatalf("listed %d sessions", len(list))
		}
	}
}
