package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend"
)

// The fake engine's turn 3 has a file changed since it; undoing it
// without a mode is refused. undoAsks records UndoTurn's modes.
var (
	undoMu   sync.Mutex
	undoAsks []backend.UndoMode
)

func (f *fakeEngine) TurnDiff(_ context.Context, id string, turn int, patch bool) (backend.TurnDiff, error) {
	if turn == 9 {
		return backend.TurnDiff{}, backend.ErrNoCheckpoint
	}
	return backend.TurnDiff{SessionID: id, Turn: turn, Files: []backend.FileChange{{Path: "a.txt", Status: "modified", Added: 1, Patch: "@@"}}, Added: 1}, nil
}

func (f *fakeEngine) UndoTurn(_ context.Context, id string, turn int, mode backend.UndoMode) (backend.UndoView, error) {
	undoMu.Lock()
	undoAsks = append(undoAsks, mode)
	undoMu.Unlock()
	if turn == 3 && mode == backend.UndoRefuse {
		return backend.UndoView{}, &backend.ConflictError{Files: []string{"a.txt"}}
	}
	return backend.UndoView{SessionID: id, Turn: turn, UndoTurn: 4, Restored: []string{"a.txt"}, Removed: []string{}}, nil
}

func TestTurnDiffAndUndo(t *testing.T) {
	a := New(newFakeEngine(), Options{Home: t.TempDir()})
	d, err := a.TurnDiff("s1", 2)
	if err != nil || d.Turn != 2 || len(d.Files) != 1 {
		t.Fatalf("diff = %+v, %v", d, err)
	}
	if _, err := a.TurnDiff("s1", 9); !errors.Is(err, backend.ErrNoCheckpoint) {
		t.Errorf("diff without a checkpoint: %v", err)
	}
	if _, err := a.TurnDiff(" ", 1); !errors.Is(err, ErrInput) {
		t.Errorf("no session: %v", err)
	}
	// A conflict is an answer the page asks about, not an error.
	out, err := a.UndoTurn("s1", 3, "")
	if err != nil || out.Undo != nil || !cmp.Equal(out.Conflicts, []string{"a.txt"}) {
		t.Fatalf("undo with a conflict = %+v, %v", out, err)
	}
	out, err = a.UndoTurn("s1", 3, "rest")
	if err != nil || out.Undo == nil || out.Undo.UndoTurn != 4 || out.Conflicts == nil {
		t.Fatalf("undo the rest = %+v, %v", out, err)
	}
	if _, err := a.UndoTurn("s1", 3, "overwrite"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UndoTurn("s1", 3, "bogus"); !errors.Is(err, ErrInput) {
		t.Errorf("bad mode: %v", err)
	}
	if _, err := a.UndoTurn("s1", 0, ""); !errors.Is(err, ErrInput) {
		t.Errorf("turn 0: %v", err)
	}
	undoMu.Lock()
	defer undoMu.Unlock()
	if d := cmp.Diff([]backend.UndoMode{backend.UndoRefuse, backend.UndoRest, backend.UndoOverwrite}, undoAsks); d != "" {
		t.Errorf("modes (-want +got):\n%s", d)
	}
}

// The fake engine's b.txt changed since the turn; a hunk of c.txt is held
// (a turn runs).
func (f *fakeEngine) RevertChange(_ context.Context, id string, turn int, path string, hunk int, mode backend.UndoMode) (backend.UndoView, error) {
	switch {
	case path == "b.txt" && mode != backend.UndoOverwrite:
		return backend.UndoView{}, &backend.ConflictError{Files: []string{"b.txt"}}
	case path == "c.txt":
		return backend.UndoView{SessionID: id, Turn: turn, Held: true}, nil
	}
	return backend.UndoView{SessionID: id, Turn: turn, UndoTurn: 5, Restored: []string{path}, Removed: []string{}}, nil
}

func TestRevertChange(t *testing.T) {
	a := New(&fakeEngine{}, Options{})
	out, err := a.RevertChange("s1", 2, "a.txt", -1, "")
	if err != nil || out.Revert == nil || out.Revert.UndoTurn != 5 || out.Conflicts == nil {
		t.Fatalf("revert a.txt: %+v %v", out, err)
	}
	out, err = a.RevertChange("s1", 2, "b.txt", -1, "")
	if err != nil || out.Revert != nil || !cmp.Equal(out.Conflicts, []string{"b.txt"}) {
		t.Fatalf("revert b.txt: %+v %v", out, err)
	}
	if out, err = a.RevertChange("s1", 2, "b.txt", -1, "overwrite"); err != nil || out.Revert == nil {
		t.Fatalf("overwrite b.txt: %+v %v", out, err)
	}
	if out, err = a.RevertChange("s1", 2, "c.txt", 0, ""); err != nil || !out.Revert.Held {
		t.Fatalf("held: %+v %v", out, err)
	}
	for _, bad := range []struct {
		sid, path, mode string
		turn, hunk      int
	}{{"", "a", "", 1, -1}, {"s", "", "", 1, -1}, {"s", "a", "", 0, -1}, {"s", "a", "", 1, -2}, {"s", "a", "rest", 1, -1}} {
		if _, err := a.RevertChange(bad.sid, bad.turn, bad.path, bad.hunk, bad.mode); !errors.Is(err, ErrInput) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

func (f *fakeEngine) SessionChanges(_ context.Context, id string) (backend.SessionChanges, error) {
	if id == "gone" {
		return backend.SessionChanges{}, errors.New("no such session")
	}
	return backend.SessionChanges{SessionID: id, From: 1, To: 2, Files: []backend.SessionFile{{Path: "a.txt", Status: "modified", Turns: []int{1, 2}, Added: 1}}, Added: 1}, nil
}

func (f *fakeEngine) SessionFileDiff(_ context.Context, id, path string) (backend.FileChange, error) {
	return backend.FileChange{Path: path, Status: "modified", Added: 1, Patch: "@@ -1 +1 @@\n-a\n+b\n"}, nil
}

func TestSessionChanges(t *testing.T) {
	a := New(&fakeEngine{}, Options{})
	c, err := a.SessionChanges("s1")
	if err != nil || len(c.Files) != 1 || !cmp.Equal(c.Files[0].Turns, []int{1, 2}) {
		t.Fatalf("changes: %+v %v", c, err)
	}
	if _, err := a.SessionChanges("gone"); err == nil || !strings.Contains(err.Error(), "changes: no such session") {
		t.Errorf("a missing session: %v", err)
	}
	if f, err := a.SessionFileDiff("s1", "a.txt"); err != nil || f.Path != "a.txt" {
		t.Fatalf("file diff: %+v %v", f, err)
	}
	for _, bad := range [][2]string{{"", "a"}, {"s1", " "}} {
		if _, err := a.SessionFileDiff(bad[0], bad[1]); !errors.Is(err, ErrInput) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := a.SessionChanges(""); !errors.Is(err, ErrInput) {
		t.Errorf("no session: %v", err)
	}
}
