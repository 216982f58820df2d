package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// Pausing a goal while its turn runs a program ends the program (its shell
// child included) and the turn, halted with the goal's message; the model
// is not asked again.
func TestPauseEndsARunningGoalProgram(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Code: "print('started')\nshell('touch began && sleep 120 && touch finished')"})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	a, err := e.Dispatch(ctx, "", Input{Workspace: ws, Goal: &GoalInput{Action: "set", Objective: "wait for the build"}})
	if err != nil || !a.Started {
		t.Fatal(a, err)
	}
	waitUntil(t, "the program's shell command runs", func() bool {
		_, err := os.Stat(filepath.Join(ws, "began"))
		return err == nil
	})
	paused := time.Now()
	if _, err := e.Dispatch(ctx, a.SessionID, Input{Goal: &GoalInput{Action: "pause"}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the goal turn ended", func() bool { return !e.Running(a.SessionID) })
	if d := time.Since(paused); d > 60*time.Second {
		t.Fatalf("the turn ran on for %s after the pause", d)
	}
	tr, err := e.Transcript(ctx, a.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	turn := tr.Turns[0]
	if turn.Status != "halted" || turn.Answer != goals.StoppedHaltMessage || turn.Request != "/goal wait for the build" {
		t.Fatalf("turn = %s %q (request %q)", turn.Status, turn.Answer, turn.Request)
	}
	if out := turn.Iterations[0].Output; !strings.Contains(out, "started") {
		t.Errorf("what the program printed before the pause is lost: %q", out)
	}
	if _, err := os.Stat(filepath.Join(ws, "finished")); err == nil {
		t.Error("the shell command ran to its end")
	}
	if n := len(llm.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1 (none after the pause)", n)
	}
	if g, _ := e.Goal(ctx, a.SessionID); g == nil || g.Status != "paused" || g.IterationsUsed != 1 {
		t.Errorf("goal = %+v; want paused with the one response charged", g)
	}
}
