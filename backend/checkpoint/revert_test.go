package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/internal/fixture"
)

func read(t testing.TB, ws, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A file of the turn's diff is reverted alone (a renamed one under both
// names), the other files keep the turn's changes; the revert is a turn of
// its own that undoing redoes; a file changed since is a conflict unless
// overwritten.
func TestRevertFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := sampleWorkspace(t)
	k := New(t.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		t.Fatal(err)
	}
	sh(t, ws, turnScript)
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		t.Fatal(err)
	}
	after := fixture.TreeHash(t, ws, "build", "x.log")

	res, err := k.RevertFile(ctx, ws, 1, "secret", UndoRefuse, turnID(2))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"secret"}, res.Restored); d != "" || len(res.Removed) != 0 {
		t.Fatalf("restored (-want +got):\n%s removed %v", d, res.Removed)
	}
	if fi, _ := os.Stat(filepath.Join(ws, "secret")); fi.Mode().Perm() != 0o600 {
		t.Errorf("secret's mode = %o, want 600", fi.Mode().Perm())
	}
	if got := read(t, ws, "a.txt"); got != "one\nTWO\nthree\n" {
		t.Errorf("another file was reverted too: a.txt = %q", got)
	}
	// A rename: the new name goes, the old one comes back.
	if res, err = k.RevertFile(ctx, ws, 1, "d.txt", UndoRefuse, turnID(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, "d.txt")); !os.IsNotExist(err) {
		t.Errorf("d.txt still there: %v", err)
	}
	if got := read(t, ws, "c.txt"); !strings.HasPrefix(got, "to be renamed") {
		t.Errorf("c.txt = %q", got)
	}
	// Undoing the two reverts gives the turn's tree back.
	for i, rt := range []int64{3, 2} {
		if _, err := k.Undo(ctx, ws, rt, UndoRefuse, turnID(int64(4+i))); err != nil {
			t.Fatal(err)
		}
	}
	if fixture.TreeHash(t, ws, "build", "x.log") != after {
		t.Fatal("undoing the reverts did not redo them exactly")
	}
	// Changed since: refused, then overwritten.
	fixture.WriteMode(t, filepath.Join(ws, "a.txt"), "mine\n", 0o755)
	_, err = k.RevertFile(ctx, ws, 1, "a.txt", UndoRefuse, turnID(6))
	var ce *ConflictError
	if !errors.As(err, &ce) || !cmp.Equal(ce.Files, []string{"a.txt"}) {
		t.Fatalf("want a conflict on a.txt, got %v", err)
	}
	if read(t, ws, "a.txt") != "mine\n" {
		t.Fatal("a refused revert changed the file")
	}
	if _, err := k.RevertFile(ctx, ws, 1, "a.txt", UndoOverwrite, turnID(6)); err != nil {
		t.Fatal(err)
	}
	if got := read(t, ws, "a.txt"); got != "one\ntwo\nthree\n" {
		t.Errorf("overwritten a.txt = %q", got)
	}
	if _, err := k.RevertFile(ctx, ws, 1, "run.sh", UndoRefuse, turnID(7)); !errors.Is(err, ErrNotInTurn) {
		t.Errorf("a file the turn did not change: %v", err)
	}
}

// One hunk of a file's change is taken back, the file's other hunk and a
// later edit elsewhere stay; a hunk whose lines changed since is a
// conflict and changes nothing; the revert is undone like a turn.
func TestRevertHunk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, "line "+strings.Repeat("x", i%3)+string(rune('a'+i%26)))
	}
	orig := strings.Join(lines, "\n") + "\n"
	fixture.WriteMode(t, filepath.Join(ws, "f.txt"), orig, 0o600)
	k := New(t.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		t.Fatal(err)
	}
	changed := append([]string(nil), lines...)
	changed[1] = "FIRST CHANGE"
	changed[25] = "SECOND CHANGE"
	turned := strings.Join(changed, "\n") + "\n"
	fixture.WriteMode(t, filepath.Join(ws, "f.txt"), turned, 0o600)
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		t.Fatal(err)
	}
	ch, err := k.Diff(ctx, ws, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, hs := Hunks(ch.Files[0].Patch); len(hs) != 2 {
		t.Fatalf("want 2 hunks in\n%s", ch.Files[0].Patch)
	}
	// A later edit far from both hunks stays through the revert.
	later := strings.Replace(turned, lines[13], "LATER", 1)
	fixture.WriteMode(t, filepath.Join(ws, "f.txt"), later, 0o600)
	res, err := k.RevertHunk(ctx, ws, 1, "f.txt", 1, turnID(2))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(later, "SECOND CHANGE", lines[25], 1)
	if got := read(t, ws, "f.txt"); got != want || !cmp.Equal(res.Restored, []string{"f.txt"}) {
		t.Fatalf("after reverting hunk 2:\n%s\nwant\n%s", got, want)
	}
	if fi, _ := os.Stat(filepath.Join(ws, "f.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %o, want 600", fi.Mode().Perm())
	}
	// The person rewrites the first hunk's line: it cannot be taken back.
	fixture.WriteMode(t, filepath.Join(ws, "f.txt"), strings.Replace(want, "FIRST CHANGE", "MINE", 1), 0o600)
	_, err = k.RevertHunk(ctx, ws, 1, "f.txt", 0, turnID(3))
	var ce *ConflictError
	if !errors.As(err, &ce) || !cmp.Equal(ce.Files, []string{"f.txt"}) {
		t.Fatalf("want a conflict, got %v", err)
	}
	if !strings.Contains(read(t, ws, "f.txt"), "MINE") {
		t.Fatal("a refused hunk changed the file")
	}
	fixture.WriteMode(t, filepath.Join(ws, "f.txt"), want, 0o600)
	// Undoing the revert puts the hunk back.
	if _, err := k.Undo(ctx, ws, 2, UndoRefuse, turnID(3)); err != nil {
		t.Fatal(err)
	}
	if got := read(t, ws, "f.txt"); got != later {
		t.Fatalf("undoing the hunk's revert:\n%s", got)
	}
	if _, err := k.RevertHunk(ctx, ws, 1, "f.txt", 2, turnID(4)); !errors.Is(err, ErrNotInTurn) {
		t.Errorf("hunk 3 of 2: %v", err)
	}
}
