package app

import (
	"context"
	"errors"
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
