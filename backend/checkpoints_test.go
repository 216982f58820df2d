package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/internal/fixture"
)

// The program a scripted model runs: host functions write and patch, the
// shell deletes, renames, chmods, runs sed -i and a script that makes a
// directory tree, and writes a binary file; an ignored file changes too.
const changeEverything = `write("new.txt", "created\n")
patch("a.txt", old="two", new="TWO")
r = shell("rm b.txt && mv c.txt d.txt && chmod 640 secret && chmod +x tool && sed -i 's/one/ONE/' a.txt && sh mk.sh && printf '\\000\\001\\377' > bin.dat && echo out > build/x.o")
print(r["exit_code"], r["output"])
`

func TestTurnCheckpointDiffUndoRedo(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Code: changeEverything},
		providertest.Reply{Content: []string{"Changed."}},
		providertest.Reply{Content: []string{"Noted."}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	ctx := context.Background()
	ws := t.TempDir()
	fixture.WriteMode(t, filepath.Join(ws, "a.txt"), "one\ntwo\nthree\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "b.txt"), "bye\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "c.txt"), "moving\nfour\nlines\nhere\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "secret"), "k\n", 0o600)
	fixture.WriteMode(t, filepath.Join(ws, "tool"), "#!/bin/sh\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "bin.dat"), "\x00\x00bin", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "mk.sh"), "mkdir -p gen/a/b && echo 1 > gen/a/b/c.txt && echo 2 > gen/top.txt\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, ".gitignore"), "build/\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "build/x.o"), "obj\n", 0o644)
	before := fixture.TreeHash(t, ws, "build")

	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "change everything"})
	if err != nil || res.Status != "done" {
		t.Fatalf("turn: %+v %v", res, err)
	}
	sid := res.SessionID
	after := fixture.TreeHash(t, ws, "build")
	if after == before {
		t.Fatal("the program changed nothing")
	}
	end := waitFor(t, ch, events.PhaseTurnEnd)
	te := payload[events.TurnEnd](t, end)
	want := &TurnChanges{Files: 9, Added: 5, Deleted: 3}
	if d := cmp.Diff(want, te.Changes); d != "" {
		t.Errorf("turn-end changes (-want +got):\n%s", d)
	}
	d, err := e.TurnDiff(ctx, sid, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, f := range d.Files {
		rows = append(rows, f.Status+" "+f.Path)
	}
	wantRows := []string{"modified a.txt", "deleted b.txt", "binary bin.dat", "renamed d.txt", "added gen/a/b/c.txt", "added gen/top.txt", "added new.txt", "modified secret", "modified tool"}
	if df := cmp.Diff(wantRows, rows); df != "" {
		t.Fatalf("diff files (-want +got):\n%s", df)
	}
	if !strings.Contains(d.Files[0].Patch, "+ONE") || !strings.Contains(d.Files[0].Patch, "+TWO") {
		t.Errorf("a.txt patch:\n%s", d.Files[0].Patch)
	}
	tr, err := e.Transcript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	if c := tr.Turns[0].Changes; c == nil || c.Files != 9 {
		t.Fatalf("transcript turn 1 changes = %+v", c)
	}

	u, err := e.UndoTurn(ctx, sid, 1, UndoRefuse)
	if err != nil {
		t.Fatal(err)
	}
	if got := fixture.TreeHash(t, ws, "build"); got != before {
		t.Fatalf("undo is not byte-exact: %+v", u)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "build", "x.o")); string(b) != "out\n" {
		t.Errorf("an ignored file was restored: %q", b)
	}
	if u.UndoTurn != 2 {
		t.Errorf("undo turn = %d", u.UndoTurn)
	}
	tr, _ = e.Transcript(ctx, sid)
	if len(tr.Turns) != 2 || tr.Turns[1].Channel != ChannelUndo || tr.Turns[1].Request != "Undo turn 1" || tr.Turns[1].Changes == nil || tr.Turns[1].Changes.UndoOf != 1 || tr.Turns[0].Changes.UndoneBy != 2 {
		t.Fatalf("transcript after undo: %+v", tr.Turns)
	}

	// The model is told which turn was undone.
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: sid, Text: "what now?"}); err != nil {
		t.Fatal(err)
	}
	reqs := llm.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if user := fmt.Sprint(msgs[len(msgs)-1]["content"]); !strings.Contains(user, "Turn 1 was undone") {
		t.Fatalf("the recap does not say turn 1 was undone:\n%s", user)
	}

	// Undoing the undo redoes the turn.
	if _, err := e.UndoTurn(ctx, sid, 2, UndoRefuse); err != nil {
		t.Fatal(err)
	}
	if got := fixture.TreeHash(t, ws, "build"); got != after {
		t.Fatal("redo does not bring the turn's changes back exactly")
	}

	// The person edits a file the redo wrote: undoing the redo names it.
	fixture.WriteMode(t, filepath.Join(ws, "new.txt"), "mine\n", 0o644)
	_, err = e.UndoTurn(ctx, sid, 4, UndoRefuse)
	var ce *ConflictError
	if !errors.As(err, &ce) || !cmp.Equal(ce.Files, []string{"new.txt"}) {
		t.Fatalf("want a conflict on new.txt, got %v", err)
	}
	tr, _ = e.Transcript(ctx, sid)
	if len(tr.Turns) != 4 {
		t.Fatalf("a refused undo was recorded as a turn: %d turns", len(tr.Turns))
	}
}

// A person's !cmd is checkpointed like a program: its turn says what it
// changed and can be undone.
func TestShellCommandIsCheckpointed(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	fixture.WriteMode(t, filepath.Join(ws, "a.txt"), "one\n", 0o644)
	before := fixture.TreeHash(t, ws)
	res, err := e.Run(ctx, "", Input{Workspace: ws, Text: "!echo two >> a.txt && mkdir -p d && echo x > d/x"})
	if err != nil || res.Status != "done" {
		t.Fatalf("shell: %+v %v", res, err)
	}
	tr, err := e.Transcript(ctx, res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&TurnChanges{Files: 2, Added: 2}, tr.Turns[0].Changes); d != "" {
		t.Fatalf("changes (-want +got):\n%s", d)
	}
	if _, err := e.UndoTurn(ctx, res.SessionID, 1, UndoRefuse); err != nil {
		t.Fatal(err)
	}
	if fixture.TreeHash(t, ws) != before {
		t.Fatal("undoing the command did not restore the workspace")
	}
	if _, err := e.UndoTurn(ctx, res.SessionID, 7, UndoRefuse); err == nil || !strings.Contains(err.Error(), "no turn 7") {
		t.Fatalf("undo of a missing turn: %v", err)
	}
}

// From a turn's diff, one file and then one hunk are reverted; each revert
// is a turn of channel undo whose answer the next recap shows the model,
// and undoing a revert redoes it. A revert asked for while a turn runs is
// held and applied when that turn ends.
func TestRevertFileAndHunk(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	orig := strings.Join(lines, "\n") + "\n"
	llm := providertest.New(
		providertest.Reply{Code: `write("a.txt", "new a\n")
patch("f.txt", old="line 2\n", new="LINE TWO\n")
patch("f.txt", old="line 18\n", new="LINE EIGHTEEN\n")`},
		providertest.Reply{Content: []string{"Changed."}},
		providertest.Reply{Content: []string{"Noted."}},
		providertest.Reply{Hang: true},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	ctx := context.Background()
	ws := t.TempDir()
	fixture.WriteMode(t, filepath.Join(ws, "a.txt"), "old a\n", 0o644)
	fixture.WriteMode(t, filepath.Join(ws, "f.txt"), orig, 0o644)
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "edit"})
	if err != nil || res.Status != "done" {
		t.Fatalf("turn: %+v %v", res, err)
	}
	sid := res.SessionID
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(ws, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	v, err := e.RevertChange(ctx, sid, 1, "a.txt", -1, UndoRefuse)
	if err != nil || v.Held || v.UndoTurn != 2 {
		t.Fatalf("revert a.txt: %+v %v", v, err)
	}
	if read("a.txt") != "old a\n" || !strings.Contains(read("f.txt"), "LINE TWO") {
		t.Fatalf("after reverting a.txt: a=%q f=%q", read("a.txt"), read("f.txt"))
	}
	// Hunk 2 of f.txt: line 18 comes back, line 2 keeps the turn's edit.
	if _, err := e.RevertChange(ctx, sid, 1, "f.txt", 1, UndoRefuse); err != nil {
		t.Fatal(err)
	}
	if f := read("f.txt"); !strings.Contains(f, "LINE TWO") || strings.Contains(f, "EIGHTEEN") || !strings.Contains(f, "line 18\n") {
		t.Fatalf("after reverting hunk 2: %q", f)
	}
	tr, _ := e.Transcript(ctx, sid)
	var reqs []string
	for _, tv := range tr.Turns {
		reqs = append(reqs, tv.Channel+": "+tv.Request)
	}
	want := []string{"desktop: edit", "undo: Revert a.txt in turn 1", "undo: Revert hunk 2 of f.txt in turn 1"}
	if d := cmp.Diff(want, reqs); d != "" {
		t.Fatalf("turns (-want +got):\n%s", d)
	}
	if c := tr.Turns[0].Changes; c == nil || c.UndoneBy != 0 {
		t.Errorf("a partial revert marked the turn undone: %+v", c)
	}
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: sid, Text: "what now?"}); err != nil {
		t.Fatal(err)
	}
	rs := llm.Requests()
	msgs := rs[len(rs)-1].Messages
	if user := fmt.Sprint(msgs[len(msgs)-1]["content"]); !strings.Contains(user, "reverted turn 1's change to a.txt") || !strings.Contains(user, "reverted hunk 2 of turn 1's change to f.txt") {
		t.Fatalf("the recap does not tell the reverts:\n%s", user)
	}
	// Undoing the hunk's revert puts the turn's line back.
	if _, err := e.UndoTurn(ctx, sid, 3, UndoRefuse); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read("f.txt"), "LINE EIGHTEEN") {
		t.Fatalf("undoing the revert: %q", read("f.txt"))
	}

	// Held: a turn runs (its model hangs); the revert waits for its end.
	if _, err := e.Dispatch(ctx, sid, Input{Text: "hang"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ch, events.PhaseProviderCall)
	for !e.Running(sid) {
		waitFor(t, ch, events.PhaseProviderCall)
	}
	v, err = e.RevertChange(ctx, sid, 1, "f.txt", -1, UndoRefuse)
	if err != nil || !v.Held {
		t.Fatalf("a revert while a turn runs: %+v %v", v, err)
	}
	if read("f.txt") == orig {
		t.Fatal("a held revert was applied while the turn ran")
	}
	e.CancelTurn(sid)
	for {
		ev := waitFor(t, ch, events.PhaseTurnStart)
		if ts := payload[events.TurnStart](t, ev); ts.Channel == ChannelUndo && ts.Request == "Revert f.txt in turn 1" {
			break
		}
	}
	if read("f.txt") != orig {
		t.Fatalf("the held revert was not applied: %q", read("f.txt"))
	}
}

// The session's changes view: every file its turns touched, with the turns
// (the undo included) and the net change; a file created and undone again
// has no net change; one file's net diff.
func TestSessionChanges(t *testing.T) {
	llm := providertest.New(
		providertest.Reply{Code: `write("a.txt", "new\n")
patch("b.txt", old="one", new="ONE")`},
		providertest.Reply{Content: []string{"One."}},
		providertest.Reply{Code: `patch("b.txt", old="two", new="TWO")
write("c.txt", "temp\n")`},
		providertest.Reply{Content: []string{"Two."}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	fixture.WriteMode(t, filepath.Join(ws, "b.txt"), "one\ntwo\nthree\n", 0o644)
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "first"})
	if err != nil {
		t.Fatal(err)
	}
	sid := res.SessionID
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: sid, Text: "second"}); err != nil {
		t.Fatal(err)
	}
	// Turn 3 undoes turn 2: b.txt is as after turn 1, c.txt gone.
	if _, err := e.UndoTurn(ctx, sid, 2, UndoRefuse); err != nil {
		t.Fatal(err)
	}
	sc, err := e.SessionChanges(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	want := SessionChanges{SessionID: sid, From: 1, To: 3, Added: 2, Deleted: 1, Files: []SessionFile{
		{Path: "a.txt", Status: "added", Turns: []int{1}, Added: 1},
		{Path: "b.txt", Status: "modified", Turns: []int{1, 2, 3}, Added: 1, Deleted: 1},
		{Path: "c.txt", Status: StatusUnchanged, Turns: []int{2, 3}},
	}}
	if d := cmp.Diff(want, sc); d != "" {
		t.Fatalf("session changes (-want +got):\n%s", d)
	}
	f, err := e.SessionFileDiff(ctx, sid, "b.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Patch, "+ONE") || strings.Contains(f.Patch, "TWO") {
		t.Fatalf("b.txt's net diff:\n%s", f.Patch)
	}
	if f, err := e.SessionFileDiff(ctx, sid, "c.txt"); err != nil || f.Status != StatusUnchanged || f.Patch != "" {
		t.Fatalf("c.txt's net diff: %+v %v", f, err)
	}
}

// An approved re-run without the sandbox is checkpointed like any turn:
// its turn says what it changed in the workspace and can be undone.
func TestApprovedRerunIsCheckpointed(t *testing.T) {
	confine.SkipWithoutLandlock(t)
	ctx := context.Background()
	home, ws, outside := sandboxDirs(t)
	code := fmt.Sprintf("r = shell('echo x >> inside.txt; echo hi > %s')\nprint('exit', r['exit_code'])", filepath.Join(outside, "out.txt"))
	llm := providertest.New(providertest.Reply{Code: code}, providertest.Reply{Content: []string{"refused"}})
	defer llm.Close()
	e := openEngine(t, llm, home)
	defer e.Close()
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "write"})
	if err != nil {
		t.Fatal(err)
	}
	sid := res.SessionID
	a, err := e.RerunUnconfined(ctx, sid, 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	<-a.job.done
	if a.job.err != nil || a.job.res.Turn != 2 {
		t.Fatalf("re-run = %+v, %v", a.job.res, a.job.err)
	}
	tr, err := e.Transcript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&TurnChanges{Files: 1, Added: 1}, tr.Turns[1].Changes); d != "" {
		t.Fatalf("the re-run's changes (-want +got):\n%s", d)
	}
	if _, err := e.UndoTurn(ctx, sid, 2, UndoRefuse); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "inside.txt")); string(b) != "x\n" {
		t.Fatalf("after undoing the re-run inside.txt = %q", b)
	}
}

// Deleting a session removes its checkpoints: its turn_changes rows, its
// turns' snapshots and the objects only they needed, and the workspace's
// shadow repository with the last session of the workspace.
func TestDeleteSessionDropsCheckpoints(t *testing.T) {
	llm := providertest.New(
		providertest.Reply{Code: `write("a.txt", "only in session A\n")`}, providertest.Reply{Content: []string{"A."}},
		providertest.Reply{Code: `write("b.txt", "session B\n")`}, providertest.Reply{Content: []string{"B."}},
	)
	defer llm.Close()
	home := t.TempDir()
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	ra, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "A"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(ws, "a.txt")); err != nil { // so session B's snapshots do not hold it
		t.Fatal(err)
	}
	rb, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "B"})
	if err != nil || rb.SessionID == ra.SessionID {
		t.Fatalf("second session: %+v %v", rb, err)
	}
	shadows, _ := filepath.Glob(filepath.Join(home, "desktop", "checkpoints", "*", "HEAD"))
	if len(shadows) != 1 {
		t.Fatalf("shadow repositories: %v", shadows)
	}
	shadow := filepath.Dir(shadows[0])
	hash := exec.Command("git", "hash-object", "--stdin")
	hash.Stdin = strings.NewReader("only in session A\n")
	sum, err := hash.Output()
	if err != nil {
		t.Fatal(err)
	}
	has := func(obj string) bool {
		return exec.Command("git", "--git-dir="+shadow, "cat-file", "-e", strings.TrimSpace(obj)).Run() == nil
	}
	if !has(string(sum)) {
		t.Fatal("session A's blob is not in the shadow repository")
	}
	if err := e.DeleteSession(ctx, ra.SessionID); err != nil {
		t.Fatal(err)
	}
	if rows, err := e.store.SessionChanges(ctx, ra.SessionID); err != nil || len(rows) != 0 {
		t.Fatalf("turn_changes rows of the deleted session: %v %v", rows, err)
	}
	if has(string(sum)) {
		t.Error("the deleted session's blob is still in the shadow repository")
	}
	if d, err := e.TurnDiff(ctx, rb.SessionID, 1, true); err != nil || len(d.Files) != 1 || d.Files[0].Path != "b.txt" {
		t.Fatalf("the other session's diff after the delete: %+v %v", d, err)
	}
	if err := e.DeleteSession(ctx, rb.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(shadow); !os.IsNotExist(err) {
		t.Fatalf("the workspace's last session is gone but its shadow repository is not: %v", err)
	}
}
