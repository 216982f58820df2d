package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTurnChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/ws", "t")
	t1 := mustTurn(t, s, sess.ID, "edit")
	t2 := mustTurn(t, s, sess.ID, "Undo turn 1")
	if err := s.SetTurnChanges(ctx, TurnChanges{TurnID: t1.ID, Files: 3, Added: 10, Deleted: 2}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTurnChanges(ctx, TurnChanges{TurnID: t2.ID, Files: 3, Added: 2, Deleted: 10, UndoOf: t1.ID}); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkUndone(ctx, t1.ID, t2.ID); err != nil {
		t.Fatal(err)
	}
	// Recording the figures again keeps the undo link.
	if err := s.SetTurnChanges(ctx, TurnChanges{TurnID: t1.ID, Files: 4, Added: 11, Deleted: 2}); err != nil {
		t.Fatal(err)
	}
	got, err := s.SessionChanges(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]TurnChanges{
		t1.ID: {TurnID: t1.ID, Files: 4, Added: 11, Deleted: 2, UndoneBy: t2.ID},
		t2.ID: {TurnID: t2.ID, Files: 3, Added: 2, Deleted: 10, UndoOf: t1.ID},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("changes (-want +got):\n%s", d)
	}
	if other, err := s.SessionChanges(ctx, "nope"); err != nil || len(other) != 0 {
		t.Fatalf("another session: %v %v", other, err)
	}
}
