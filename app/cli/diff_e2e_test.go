package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

func TestDiffAndUndoExitCodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "write(\"a.txt\", \"new\\n\")\nshell(\"rm gone.txt && mkdir -p made && echo x > made/f.txt\")"},
		providertest.Reply{Content: []string{"Edited."}},
	)
	file := func(rel string) string { return filepath.Join(e.ws, rel) }
	if err := os.WriteFile(file("a.txt"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file("gone.txt"), []byte("bye\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := e.run("", "diff"); r.code != 2 || !strings.Contains(r.stderr, "no session yet") {
		t.Fatalf("diff without a session: %+v", r)
	}
	if r := e.run("", "run", "edit"); r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	r := e.run("", "diff", "--stat")
	if r.code != 0 || !strings.Contains(r.stdout, "Turn 1: 3 files changed +2 -2") || !strings.Contains(r.stdout, "modified  a.txt  +1 -1") || !strings.Contains(r.stdout, "deleted   gone.txt") || !strings.Contains(r.stdout, "added     made/f.txt") {
		t.Fatalf("diff --stat: %+v", r)
	}
	if r := e.run("", "diff", "--turn", "1"); r.code != 0 || !strings.Contains(r.stdout, "-old\n+new\n") {
		t.Fatalf("diff: %+v", r)
	}
	if r := e.run("", "diff", "--turn", "7"); r.code != 1 || !strings.Contains(r.stderr, "no turn 7") {
		t.Fatalf("diff of a missing turn: %+v", r)
	}
	if r := e.run("", "undo", "--force", "--rest"); r.code != 2 {
		t.Fatalf("undo --force --rest: %+v", r)
	}
	// The person edits a.txt after the turn: undo refuses and names it.
	if err := os.WriteFile(file("a.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = e.run("", "undo")
	if r.code != 1 || !strings.Contains(r.stderr, "  a.txt\n") || strings.Contains(r.stderr, "gone.txt") {
		t.Fatalf("undo with a conflict: %+v", r)
	}
	if _, err := os.Stat(file("gone.txt")); !os.IsNotExist(err) {
		t.Fatal("a refused undo restored a file")
	}
	r = e.run("", "undo", "--rest", "--json")
	var u struct {
		Turn     int      `json:"turn"`
		UndoTurn int      `json:"undo_turn"`
		Restored []string `json:"restored"`
		Removed  []string `json:"removed"`
		Skipped  []string `json:"skipped"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &u) != nil || u.Turn != 1 || u.UndoTurn != 2 || strings.Join(u.Restored, ",") != "gone.txt" || strings.Join(u.Removed, ",") != "made/f.txt" || strings.Join(u.Skipped, ",") != "a.txt" {
		t.Fatalf("undo --rest: %+v %+v", r, u)
	}
	if b, _ := os.ReadFile(file("a.txt")); string(b) != "mine\n" {
		t.Errorf("a.txt = %q", b)
	}
	if b, _ := os.ReadFile(file("gone.txt")); string(b) != "bye\n" {
		t.Errorf("gone.txt = %q", b)
	}
	if _, err := os.Stat(file("made")); !os.IsNotExist(err) {
		t.Error("the directory the turn made is still there")
	}
	// The undo is turn 2; undoing it (the default: the latest turn with
	// changes) redoes turn 1's other changes.
	r = e.run("", "undo")
	if r.code != 0 || !strings.Contains(r.stdout, "Undid turn 2 as turn 3") {
		t.Fatalf("redo: %+v", r)
	}
	if _, err := os.Stat(file("made/f.txt")); err != nil {
		t.Error("redo did not bring made/f.txt back")
	}
	if r := e.run("", "show", "--json"); r.code == 0 && !strings.Contains(r.stdout, "Undo turn 1") {
		t.Errorf("the transcript does not record the undo: %s", r.stdout)
	}
}
