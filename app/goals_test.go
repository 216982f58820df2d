package app

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/store"
)

// goalsEngine is a fake engine whose goal methods run on a real goals.Service
// over a real SQLite store holding one session, "s1".
func goalsEngine(t *testing.T) *fakeEngine {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "vis.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if err := st.CreateSession(ctx, store.Session{ID: "s1", Workspace: "/w", Created: now, Updated: now}); err != nil {
		t.Fatal(err)
	}
	eng := newFakeEngine()
	eng.goals = goals.New(st, goals.Options{Now: func() time.Time { return now }})
	return eng
}

func TestGoalPanelMethods(t *testing.T) {
	a := New(goalsEngine(t), Options{Home: t.TempDir()})

	if g, err := a.Goal("s1"); err != nil || g != nil {
		t.Fatalf("Goal before one is set = %+v, %v; want nil, nil", g, err)
	}
	set, err := a.SetGoal("s1", "  make the tests pass  ", 3)
	if err != nil {
		t.Fatal(err)
	}
	three := int64(3)
	want := GoalView{ID: set.ID, SessionID: "s1", Objective: "make the tests pass", Status: "active",
		IterationBudget: &three, Version: 1, Revision: 1, Created: set.Created, Updated: set.Updated}
	if diff := cmp.Diff(want, set); diff != "" || set.ID == "" || set.Created == "" {
		t.Fatalf("SetGoal (-want +got):\n%s", diff)
	}

	steps := []struct {
		action, status string
		revision       int64
		refused        string // the engine's sentence, exactly
	}{
		{action: "pause", status: "paused", revision: 2},
		{action: "pause", refused: "Cannot pause a paused goal."},
		{action: "resume", status: "active", revision: 3},
		{action: "cancel", status: "cancelled", revision: 4},
		{action: "resume", refused: "Cannot resume a cancelled goal."},
		{action: "clear", status: "cleared", revision: 5},
	}
	for _, s := range steps {
		g, err := a.GoalControl("s1", s.action)
		if s.refused != "" {
			if err == nil || err.Error() != s.refused {
				t.Fatalf("%s: err = %v; want the engine's refusal %q", s.action, err, s.refused)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", s.action, err)
		}
		if g.Status != s.status || g.Revision != s.revision {
			t.Fatalf("%s: status %q revision %d; want %q %d", s.action, g.Status, g.Revision, s.status, s.revision)
		}
	}
	if g, err := a.Goal("s1"); err != nil || g != nil {
		t.Fatalf("Goal after clear = %+v, %v; want nil (clients hide a cleared goal)", g, err)
	}

	// A new goal without a budget; its revision keeps growing past the cleared one.
	g, err := a.SetGoal("s1", "ship it", 0)
	if err != nil || g.IterationBudget != nil || g.Revision != 6 || g.Status != "active" {
		t.Fatalf("SetGoal without budget = %+v, %v; want no budget, revision 6, active", g, err)
	}
}

func TestGoalMethodsRejectBadInput(t *testing.T) {
	a := New(goalsEngine(t), Options{Home: t.TempDir()})
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"no session", func() error { _, err := a.Goal(" "); return err }, ErrInput},
		{"set without session", func() error { _, err := a.SetGoal("", "x", 0); return err }, ErrInput},
		{"negative budget", func() error { _, err := a.SetGoal("s1", "x", -1); return err }, ErrInput},
		{"unknown action", func() error { _, err := a.GoalControl("s1", "explode"); return err }, ErrInput},
		{"pause without goal", func() error { _, err := a.GoalControl("s1", "pause"); return err }, goals.ErrNoGoal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v; want %v", err, tc.want)
			}
		})
	}
	var refused *goals.RefusedError
	if _, err := a.SetGoal("s1", "   ", 0); !errors.As(err, &refused) {
		t.Fatalf("blank objective: err = %v; want the engine's refusal", err)
	}
	if g, _ := a.Goal("s1"); g != nil {
		t.Fatalf("a refused SetGoal stored %+v", g)
	}
}
