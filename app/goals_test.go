package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// realEngine opens a real engine in a temporary VIS_HOME against the
// scripted LLM.
func realEngine(t *testing.T, llm *providertest.Server) *backend.Engine {
	t.Helper()
	home := t.TempDir()
	vars := map[string]string{"VIS_BASE_URL": llm.URL, "VIS_MODEL": "fake-model"}
	eng, err := backend.Open(context.Background(), backend.Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// turnEnd waits for the next turn-end event of session sid.
func turnEnd(t *testing.T, ch <-chan events.Event, sid string) events.TurnEnd {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case e := <-ch:
			if end, ok := events.As[events.TurnEnd](e); ok && e.SessionID == sid {
				return end
			}
		case <-deadline:
			t.Fatalf("no turn-end for %s", sid)
		}
	}
}

// The goal panel's path, through a real engine: Set starts the goal's turn
// with the objective as the person's message, Pause stops it mid-stream,
// Resume starts work again, and the goal rules' refusals come back as the
// engine wrote them.
func TestGoalPanelDrivesTheEngine(t *testing.T) {
	llm := providertest.New(
		providertest.Reply{Hang: true}, // the goal's first turn streams until Pause
		providertest.Reply{Code: "update_goal('complete')"},
		providertest.Reply{Content: []string{"All three tests pass: verified."}},
	)
	t.Cleanup(llm.Close)
	eng := realEngine(t, llm)
	ch, stop := eng.Events().Subscribe(4096)
	defer stop()
	a := New(eng, Options{Home: t.TempDir()})
	ws := t.TempDir()

	if g, err := a.Goal("nope"); err == nil && g != nil {
		t.Fatalf("Goal of an unknown session = %+v", g)
	}
	set, err := a.SetGoal("", ws, "  make the tests pass  ", 3)
	if err != nil {
		t.Fatal(err)
	}
	if set.SessionID == "" || !set.Started || set.Goal == nil || set.Goal.Objective != "make the tests pass" || set.Goal.Status != "active" ||
		set.Goal.IterationBudget == nil || *set.Goal.IterationBudget != 3 {
		t.Fatalf("SetGoal = %+v (goal %+v)", set, set.Goal)
	}
	sid := set.SessionID
	deadline := time.Now().Add(30 * time.Second)
	for len(llm.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(llm.Requests()) != 1 {
		t.Fatalf("the goal's turn sent %d requests, want 1", len(llm.Requests()))
	}
	if user := lastUser(llm.Requests()[0]); !strings.Contains(user, "/goal --budget 3 make the tests pass") {
		t.Fatalf("the model's message lacks the objective:\n%s", user)
	}

	paused, err := a.GoalControl(sid, "pause")
	if err != nil || paused.Goal == nil || paused.Goal.Status != "paused" {
		t.Fatalf("pause = %+v, %v", paused, err)
	}
	if end := turnEnd(t, ch, sid); end.Status != "halted" || end.Answer != goals.StoppedHaltMessage {
		t.Fatalf("the goal turn after Pause: %+v", end)
	}
	if _, err := a.GoalControl(sid, "pause"); err == nil || err.Error() != "Cannot pause a paused goal." {
		t.Fatalf("pausing twice: %v; want the engine's sentence", err)
	}

	resumed, err := a.GoalControl(sid, "resume")
	if err != nil || !resumed.Started || resumed.Goal == nil || resumed.Goal.Status != "active" {
		t.Fatalf("resume = %+v, %v", resumed, err)
	}
	if end := turnEnd(t, ch, sid); end.Status != "done" || end.Answer != "All three tests pass: verified." {
		t.Fatalf("the resumed turn: %+v", end)
	}
	if n := len(llm.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3 (the halted one and the resumed turn's two)", n)
	}
	if user := lastUser(llm.Requests()[1]); !strings.Contains(user, "/goal --resume") || !strings.Contains(user, "The user resumed the session goal") {
		t.Fatalf("the resumed turn's message:\n%s", user)
	}
	if g, _ := a.Goal(sid); g == nil || g.Status != "complete" || g.IterationsUsed != 2 {
		t.Fatalf("goal after the resumed turn = %+v; want complete, 2 iterations (the halted response is not charged)", g)
	}
	if _, err := a.GoalControl(sid, "resume"); err == nil || err.Error() != "Cannot resume a complete goal." {
		t.Fatalf("resuming a complete goal: %v", err)
	}
	cleared, err := a.GoalControl(sid, "clear")
	if err != nil || cleared.Goal == nil || cleared.Goal.Status != "cleared" || cleared.Started {
		t.Fatalf("clear = %+v, %v", cleared, err)
	}
	if g, err := a.Goal(sid); err != nil || g != nil {
		t.Fatalf("Goal after clear = %+v, %v; want nil (clients hide a cleared goal)", g, err)
	}
	if eng.Running(sid) {
		t.Fatal("clear started a turn")
	}
}

func lastUser(r providertest.Recorded) string {
	msgs, _ := r.Body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, _ := msgs[i].(map[string]any); m["role"] == "user" {
			return fmt.Sprint(m["content"])
		}
	}
	return ""
}

func TestGoalMethodsRejectBadInput(t *testing.T) {
	llm := providertest.New()
	t.Cleanup(llm.Close)
	eng := realEngine(t, llm)
	a := New(eng, Options{Home: t.TempDir()})
	s, err := a.NewSession(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"no session", func() error { _, err := a.Goal(" "); return err }, ErrInput},
		{"set without session or folder", func() error { _, err := a.SetGoal("", "", "x", 0); return err }, ErrInput},
		{"negative budget", func() error { _, err := a.SetGoal(s.ID, "", "x", -1); return err }, ErrInput},
		{"unknown action", func() error { _, err := a.GoalControl(s.ID, "explode"); return err }, ErrInput},
		{"pause without goal", func() error { _, err := a.GoalControl(s.ID, "pause"); return err }, goals.ErrNoGoal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v; want %v", err, tc.want)
			}
		})
	}
	var refused *goals.RefusedError
	if _, err := a.SetGoal(s.ID, "", "   ", 0); !errors.As(err, &refused) {
		t.Fatalf("blank objective: err = %v; want the engine's refusal", err)
	}
	if g, _ := a.Goal(s.ID); g != nil {
		t.Fatalf("a refused SetGoal stored %+v", g)
	}
	if len(llm.Requests()) != 0 {
		t.Fatalf("refused goal actions called the model %d times", len(llm.Requests()))
	}
}
