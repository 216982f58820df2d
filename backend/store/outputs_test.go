package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A clipped program's kept output is written with its iteration, read back
// in pages that end at a newline (or a rune) and concatenate to it, keeps
// the byte count of everything printed, and goes with its session.
func TestKeptOutput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "outputs")
	turn := mustTurn(t, s, sess.ID, "print a lot")
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "line %d é\n", i)
	}
	full := b.String()
	cut := "x€€€" // the keep cap cut it: 10 bytes kept of 1000
	_, err := s.AddIteration(ctx, Iteration{TurnID: turn.ID, Status: IterationDone, ToolCallsJSON: `[{"call_id":"a"},{"call_id":"b"},{"call_id":"c"}]`,
		Outputs: []CallOutput{{Call: 0, CallID: "a", Output: full, Total: len(full)}, {Call: 2, CallID: "c", Output: cut, Total: 1000}}})
	if err != nil {
		t.Fatal(err)
	}

	// Pages of 7 bytes split every line (10 to 12 bytes) in two: 100 lines show
	// that as well as 5000 would, without 10,000 reads of the whole blob
	// under -race (45 s of the package's time).
	small := full[:strings.Index(full, "line 101 ")]
	sess7 := mustSession(t, s, "/w", "outputs in small pages")
	turn7 := mustTurn(t, s, sess7.ID, "print less")
	if _, err := s.AddIteration(ctx, Iteration{TurnID: turn7.ID, Status: IterationDone, ToolCallsJSON: `[{"call_id":"a"}]`,
		Outputs: []CallOutput{{Call: 0, CallID: "a", Output: small, Total: len(small)}}}); err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		limit int
		sid   string
		turn  int
		full  string
	}{{0, sess.ID, turn.Position, full}, {4096, sess.ID, turn.Position, full}, {1000, sess.ID, turn.Position, full}, {7, sess7.ID, turn7.Position, small}} {
		limit, full := tt.limit, tt.full
		t.Run(fmt.Sprintf("pages of %d", limit), func(t *testing.T) {
			var got strings.Builder
			off, pages := 0, 0
			for {
				p, err := s.KeptOutput(ctx, tt.sid, tt.turn, 1, 0, off, limit)
				if err != nil {
					t.Fatal(err)
				}
				if p.Kept != len(full) || p.Total != len(full) || p.Offset != off {
					t.Fatalf("page at %d: kept %d total %d offset %d", off, p.Kept, p.Total, p.Offset)
				}
				if limit > 0 && len(p.Text) > limit {
					t.Fatalf("page of %d bytes over the limit %d", len(p.Text), limit)
				}
				if !p.Done() && !strings.HasSuffix(p.Text, "\n") && strings.Contains(p.Text, "\n") {
					t.Fatalf("page at %d ends mid-line: %q", off, p.Text[max(0, len(p.Text)-20):])
				}
				got.WriteString(p.Text)
				off, pages = p.Next, pages+1
				if p.Done() {
					break
				}
			}
			if got.String() != full {
				t.Errorf("pages (%d) concatenate to %d bytes, want %d", pages, got.Len(), len(full))
			}
			if limit == 0 && pages != 1 {
				t.Errorf("the default page took %d pages for %d bytes", pages, len(full))
			}
		})
	}

	// A page that would end inside a rune backs off to its start.
	p, err := s.KeptOutput(ctx, sess.ID, turn.Position, 1, 2, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	if p.Text != "x" || p.Next != 1 || p.Kept != len(cut) || p.Total != 1000 || p.Done() {
		t.Errorf("rune page = %+v", p)
	}
	p, err = s.KeptOutput(ctx, sess.ID, turn.Position, 1, 2, 1, 2)
	if err != nil || p.Text != "€" {
		t.Errorf("a rune longer than the page comes whole: %+v, %v", p, err)
	}

	for _, tt := range []struct {
		name                  string
		sid                   string
		turn, iter, call, off int
	}{
		{"a call not kept apart", sess.ID, turn.Position, 1, 1, 0},
		{"another iteration", sess.ID, turn.Position, 2, 0, 0},
		{"another session", "nope", turn.Position, 1, 0, 0},
	} {
		if _, err := s.KeptOutput(ctx, tt.sid, tt.turn, tt.iter, tt.call, tt.off, 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", tt.name, err)
		}
	}

	for _, id := range []string{sess.ID, sess7.ID} {
		if err := s.DeleteSession(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM call_outputs`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after the session was deleted: %d kept outputs (%v)", n, err)
	}
}
