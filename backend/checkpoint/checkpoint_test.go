package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/internal/fixture"
)

func sh(t testing.TB, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// sampleWorkspace is a small project: text, an executable, a private file, a
// symlink, a binary file, an ignored directory and file, an empty
// directory.
func sampleWorkspace(t testing.TB) string {
	ws := t.TempDir()
	fixture.WriteMode(t, filepath.Join(ws, "a.txt"), "one\ntwo\nthree\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "b.txt"), "to be deleted\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "c.txt"), "to be renamed\nline 2\nline 3\nline 4\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "run.sh"), "#!/bin/sh\necho hi\n", 0o755)
	fixture.WriteMode(t, filepath.Join(ws, "secret"), "key\n", 0o600)
	fixture.WriteMode(t, filepath.Join(ws, "bin.dat"), "\x00\x01\x02binary\x00", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, ".gitignore"), "build/\n*.log\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "build/out.o"), "object", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "x.log"), "log", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "src/deep/keep.go"), "package deep\n", 0o644)
	if err := os.Mkdir(filepath.Join(ws, "emptydir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(ws, "outside")); err != nil {
		t.Fatal(err)
	}
	return ws
}

// turnScript changes the fixture every way a turn can.
const turnScript = `set -e
sed -i 's/two/TWO/' a.txt
rm b.txt
mv c.txt d.txt
chmod 640 secret
chmod +x a.txt
printf '\000\377\376new' > bin.dat
ln -sfn run.sh link
rmdir emptydir
mkdir -p gen/x/y && echo made > gen/x/y/z.txt && echo top > gen/top.txt
mkdir -p gen/empty/dir
echo changed > build/out.o
echo more >> x.log
rm -r src
`

func TestTurnIsUndoneByteExactAndRedone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := sampleWorkspace(t)
	k := New(t.TempDir(), Options{})
	ignored := []string{"build", "x.log"}
	before := fixture.TreeHash(t, ws, ignored...)
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		t.Fatal(err)
	}
	sh(t, ws, turnScript)
	after := fixture.TreeHash(t, ws, ignored...)
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		t.Fatal(err)
	}
	ch, err := k.Diff(ctx, ws, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Path, Old, Status, OldMode, NewMode string }
	var got []row
	for _, f := range ch.Files {
		got = append(got, row{f.Path, f.OldPath, f.Status, f.OldMode, f.NewMode})
	}
	want := []row{
		{"a.txt", "", StatusModified, "0644", "0755"},
		{"b.txt", "", StatusDeleted, "", ""},
		{"bin.dat", "", StatusBinary, "", ""},
		{"d.txt", "c.txt", StatusRenamed, "", ""},
		{"gen/top.txt", "", StatusAdded, "", ""},
		{"gen/x/y/z.txt", "", StatusAdded, "", ""},
		{"link", "", StatusModified, "", ""},
		{"secret", "", StatusModified, "0600", "0640"},
		{"src/deep/keep.go", "", StatusDeleted, "", ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("diff entries (-want +got):\n%s", d)
	}
	for _, f := range ch.Files {
		if f.Path == "a.txt" && (f.Added != 1 || f.Deleted != 1 || !strings.Contains(f.Patch, "+TWO")) {
			t.Errorf("a.txt: +%d -%d patch %q", f.Added, f.Deleted, f.Patch)
		}
		if f.Path == "bin.dat" && !f.Binary {
			t.Errorf("bin.dat not binary: %+v", f)
		}
	}
	if s := ch.Summary(); s.Files != 9 || s.Added != 4 || s.Deleted != 4 {
		t.Errorf("summary %+v", s)
	}

	res, err := k.Undo(ctx, ws, 1, UndoRefuse, turnID(2))
	if err != nil {
		t.Fatal(err)
	}
	if got := fixture.TreeHash(t, ws, ignored...); got != before {
		t.Fatalf("after undo the tree differs from before the turn (restored %v removed %v)", res.Restored, res.Removed)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "build/out.o")); string(b) != "changed\n" {
		t.Errorf("an ignored file was touched: %q", b)
	}
	// The undo is a turn of its own: undoing it redoes turn 1.
	if _, err := k.Undo(ctx, ws, 2, UndoRefuse, turnID(3)); err != nil {
		t.Fatal(err)
	}
	if got := fixture.TreeHash(t, ws, ignored...); got != after {
		t.Fatal("after redo the tree differs from after the turn")
	}
}

func TestUndoConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := sampleWorkspace(t)
	k := New(t.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		t.Fatal(err)
	}
	sh(t, ws, "echo turn >> a.txt; echo turn >> c.txt; echo new > n.txt")
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		t.Fatal(err)
	}
	// The person edits a.txt and deletes n.txt after the turn.
	sh(t, ws, "echo mine >> a.txt; rm n.txt")
	snap := fixture.TreeHash(t, ws)
	_, err := k.Undo(ctx, ws, 1, UndoRefuse, turnID(2))
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("want a ConflictError, got %v", err)
	}
	if d := cmp.Diff([]string{"a.txt", "n.txt"}, ce.Files); d != "" {
		t.Fatalf("conflicts (-want +got):\n%s", d)
	}
	if fixture.TreeHash(t, ws) != snap {
		t.Fatal("a refused undo changed files")
	}
	// Undo the rest: c.txt goes back, a.txt keeps the person's edit.
	res, err := k.Undo(ctx, ws, 1, UndoRest, turnID(2))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"c.txt"}, res.Restored); d != "" {
		t.Errorf("restored (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\ntwo\nthree\nturn\nmine\n" {
		t.Errorf("a.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "c.txt")); string(b) != "to be renamed\nline 2\nline 3\nline 4\n" {
		t.Errorf("c.txt = %q", b)
	}
	// Overwrite: a.txt goes back too.
	if _, err := k.Undo(ctx, ws, 1, UndoOverwrite, turnID(3)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\ntwo\nthree\n" {
		t.Errorf("a.txt after overwrite = %q", b)
	}
}

func TestTooLargeFilesAreRecordedNotKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	fixture.WriteMode(t, filepath.Join(ws, "small.txt"), "s\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "big.bin"), strings.Repeat("x", 2000), 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "grows.txt"), "short\n", 0o644)
	k := New(t.TempDir(), Options{MaxFileBytes: 1000, MaxTurnBytes: 1500})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		t.Fatal(err)
	}
	// The turn changes the big file, grows a small one past the cap, and
	// writes two files whose bytes together pass the turn's budget.
	fixture.WriteMode(t, filepath.Join(ws, "big.bin"), strings.Repeat("y", 2000), 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "grows.txt"), strings.Repeat("g", 1200), 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "p1.txt"), strings.Repeat("1", 900), 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "p2.txt"), strings.Repeat("2", 900), 0o644)
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		t.Fatal(err)
	}
	ch, err := k.Diff(ctx, ws, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range ch.Files {
		got[f.Path] = f.Status
	}
	want := map[string]string{"big.bin": StatusTooLarge, "grows.txt": StatusTooLarge, "p1.txt": StatusAdded, "p2.txt": StatusTooLarge}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("statuses (-want +got):\n%s", d)
	}
	// The shadow repository holds no blob of the big contents.
	r := &repo{git: "git", dir: k.repoDir(ws), ws: ws}
	out, err := r.run(ctx, nil, nil, "rev-list", "--objects", "--all")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"big.bin", "p2.txt"} {
		if strings.Contains(string(out), " "+name+"\n") {
			t.Errorf("%s was stored", name)
		}
	}
	res, err := k.Undo(ctx, ws, 1, UndoRefuse, turnID(2))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"big.bin"}, res.NotRestored); d != "" {
		t.Errorf("not restored (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "grows.txt")); string(b) != "short\n" {
		t.Errorf("grows.txt = %q (kept before the turn: restorable)", b)
	}
	for _, p := range []string{"p1.txt", "p2.txt"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s created by the turn is still there", p)
		}
	}
}

// A workspace that is a Git repository keeps its status, stash list and
// index bytes through snapshots and an undo.
func TestProjectGitIsUntouched(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := sampleWorkspace(t)
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "a.txt", "c.txt")
	git("commit", "-q", "-m", "init")
	sh(t, ws, "echo staged >> c.txt && git add c.txt && echo wip >> a.txt && echo stash-me >> c.txt && git stash -q && echo local >> a.txt")
	state := func() string {
		idx, err := os.ReadFile(filepath.Join(ws, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		return git("status", "--porcelain") + "\n--\n" + git("stash", "list") + "\n--\n" + fmt.Sprintf("%x", sha256.Sum256(idx)) + "\n" + git("for-each-ref")
	}
	before := state()
	k := New(t.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		t.Fatal(err)
	}
	sh(t, ws, "echo turn >> a.txt && echo new > new.txt && rm b.txt")
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Diff(ctx, ws, 1, true); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Undo(ctx, ws, 1, UndoRefuse, turnID(2)); err != nil {
		t.Fatal(err)
	}
	if got := state(); got != before {
		t.Fatalf("the project's git state changed:\nbefore:\n%s\nafter:\n%s", before, got)
	}
}

func TestUnchangedWorkspaceReusesTheSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := sampleWorkspace(t)
	k := New(t.TempDir(), Options{})
	id1, err := k.Take(ctx, ws, 1, Before)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := k.Take(ctx, ws, 1, After)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := k.Diff(ctx, ws, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Files) != 0 {
		t.Fatalf("no change, yet %d files in the diff (%s → %s)", len(ch.Files), id1, id2)
	}
	// A before snapshot is taken once.
	fixture.WriteMode(t, filepath.Join(ws, "a.txt"), "x", 0o644)
	id3, err := k.Take(ctx, ws, 1, Before)
	if err != nil {
		t.Fatal(err)
	}
	if id3 != id1 {
		t.Errorf("a second before snapshot replaced the first")
	}
	if _, err := k.Diff(ctx, ws, 9, false); !errors.Is(err, ErrNoCheckpoint) {
		t.Errorf("a turn without snapshots: %v", err)
	}
}

// An inherited GIT_DIR (vis started from a git hook) never reaches the
// shadow repository's git.
func TestInheritedGitEnvironmentIsIgnored(t *testing.T) {
	ctx := context.Background()
	ws := sampleWorkspace(t)
	decoy := t.TempDir()
	t.Setenv("GIT_DIR", decoy)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(decoy, "index"))
	k := New(t.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(decoy)
	if len(ents) != 0 {
		t.Fatalf("git wrote into the inherited GIT_DIR: %v", ents)
	}
	_ = slices.Contains[[]string]
	_ = bytes.Equal
}

func turnID(n int64) func() (int64, error) { return func() (int64, error) { return n, nil } }
