package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A fork copies settled turns only, with their iterations and kept
// outputs, into a new session linked to its parent; a running turn among
// the kept ones, a count past the end or a missing parent is refused and
// creates nothing.
func TestForkSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	parent := Session{ID: NewID(), Workspace: "/w", Title: "p"}
	if err := s.CreateSession(ctx, parent); err != nil {
		t.Fatal(err)
	}
	done, err := s.StartTurn(ctx, parent.ID, "one", "cli")
	if err != nil {
		t.Fatal(err)
	}
	it, err := s.AddIteration(ctx, Iteration{TurnID: done.ID, Status: IterationDone, Code: "print(1)", Output: "1\n", Outputs: []CallOutput{{Call: 0, Output: "whole output", Total: 12}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTurn(ctx, done.ID, TurnOutcome{Status: TurnDone, Answer: "a1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartTurn(ctx, parent.ID, "two", "cli"); err != nil { // still running
		t.Fatal(err)
	}

	for _, tc := range []struct {
		parent string
		keep   int
		want   string
	}{
		{parent.ID, 2, "still running"},
		{parent.ID, 3, "has 2 turns"},
		{"missing", 0, "not found"},
	} {
		child := Session{ID: NewID(), Workspace: "/w"}
		if err := s.ForkSession(ctx, tc.parent, tc.keep, child); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ForkSession(%s, %d) = %v; want %q", tc.parent, tc.keep, err, tc.want)
		}
		if _, err := s.GetSession(ctx, child.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("a refused fork left session %s: %v", child.ID, err)
		}
	}

	child := Session{ID: NewID(), Workspace: "/w", Title: "c"}
	if err := s.ForkSession(ctx, parent.ID, 1, child); err != nil {
		t.Fatal(err)
	}
	turns, err := s.ListTurns(ctx, child.ID)
	if err != nil || len(turns) != 1 || turns[0].Request != "one" || turns[0].Answer != "a1" || turns[0].Status != TurnDone || turns[0].ID == done.ID {
		t.Fatalf("the fork's turns: %+v, %v", turns, err)
	}
	its, err := s.ListIterations(ctx, turns[0].ID)
	if err != nil || len(its) != 1 || its[0].Output != "1\n" || its[0].ID == it {
		t.Fatalf("the fork's iterations: %+v, %v", its, err)
	}
	if page, err := s.KeptOutput(ctx, child.ID, 1, 1, 0, 0, 100); err != nil || page.Text != "whole output" {
		t.Errorf("the fork's kept output: %+v, %v", page, err)
	}
	if f, ok, err := s.ForkOf(ctx, child.ID); err != nil || !ok || f != (Fork{Parent: parent.ID, Turns: 1}) {
		t.Errorf("ForkOf = %+v, %v, %v", f, ok, err)
	}
	if _, ok, _ := s.ForkOf(ctx, parent.ID); ok {
		t.Error("the parent is a fork")
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	// The parent still has both turns.
	if pt, _ := s.ListTurns(ctx, parent.ID); len(pt) != 2 {
		t.Errorf("the parent has %d turns", len(pt))
	}
}
