package goals

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const hourMs = 3_600_000

// running reports whether the goal's clock runs.
func running(g Goal) bool { return !g.ActiveSince.IsZero() }

// TestIdleGoalAccruesNoTime: an active goal that no turn works on (set in the
// window's panel, resumed, resumed for a user turn that has not started yet)
// accrues no time.
func TestIdleGoalAccruesNoTime(t *testing.T) {
	e := newEnv(t)
	steps := []struct {
		name string
		do   func()
	}{
		{"set", func() { e.set("Idle", nil) }},
		{"pause and resume", func() { e.control(ActionPause); e.control(ActionResume) }},
		{"pause and resume for a user turn", func() {
			e.control(ActionPause)
			if _, resumed, err := e.svc.ResumeForUserTurn(e.ctx, e.sid); err != nil || !resumed {
				t.Fatalf("ResumeForUserTurn = %v, %v", resumed, err)
			}
		}},
		{"account without a turn clock", func() { e.account(e.ticket(), 1, 1) }},
	}
	var at int64
	for _, step := range steps {
		step.do()
		at += hourMs
		e.clock.at(at)
		if g := e.get(); g.Status != StatusActive || g.TimeUsedMs != 0 || running(g) {
			t.Errorf("%s, then an hour: %s, %d ms, running %v; want active, 0 ms, stopped", step.name, g.Status, g.TimeUsedMs, running(g))
		}
	}
}

// TestTurnClock: the clock runs from StartClock to FinishTurn, whatever the
// turn's status, and FinishTurn writes once.
func TestTurnClock(t *testing.T) {
	for _, tc := range []struct {
		turnStatus string
		want       string // goal status afterwards
	}{
		{"done", StatusActive},
		{"halted", StatusActive},
		{TurnCancelled, StatusPaused},
		{TurnError, StatusPaused},
		{TurnInterrupted, StatusPaused},
	} {
		t.Run(tc.turnStatus, func(t *testing.T) {
			e := newEnv(t)
			set := e.set("Timed", nil)
			turn := e.ticket()
			e.startClock(turn)
			started := e.get()
			want := set
			want.Revision, want.ActiveSince = 2, t0
			if diff := cmp.Diff(want, started); diff != "" {
				t.Errorf("after StartClock (-want +got):\n%s", diff)
			}
			e.startClock(turn) // already running: no write
			e.clock.at(4_000)
			e.finishTurn(turn, tc.turnStatus)
			g := e.get()
			if g.Status != tc.want || g.TimeUsedMs != 4_000 || running(g) {
				t.Errorf("after FinishTurn: %s, %d ms, running %v; want %s, 4000 ms, stopped", g.Status, g.TimeUsedMs, running(g), tc.want)
			}
			if rs := e.revisions(); !slices.Equal(rs, []int64{1, 2, 3}) {
				t.Errorf("writes %v, want [1 2 3]: set, start, one finishing write", rs)
			}
			e.mu.Lock()
			last := e.changes[len(e.changes)-1]
			e.mu.Unlock()
			if diff := cmp.Diff(g, last); diff != "" {
				t.Errorf("OnChange did not get the finishing write (-stored +notified):\n%s", diff)
			}
			e.clock.at(4_000 + hourMs)
			if g := e.get(); g.TimeUsedMs != 4_000 {
				t.Errorf("an hour later: %d ms, want 4000", g.TimeUsedMs)
			}
			e.finishTurn(turn, tc.turnStatus) // again: nothing runs, nothing to write
			if n := len(e.revisions()); n != 3 {
				t.Errorf("a second FinishTurn wrote (%d writes)", n)
			}
		})
	}
}

func TestPauseMidTurnStopsClock(t *testing.T) {
	e := newEnv(t)
	e.set("Timed", nil)
	turn := e.ticket()
	e.startClock(turn)
	e.clock.at(3_000)
	if g := e.control(ActionPause); g.TimeUsedMs != 3_000 || running(g) {
		t.Fatalf("pause mid-turn: %d ms, running %v; want 3000, stopped", g.TimeUsedMs, running(g))
	}
	e.control(ActionResume) // while the turn still runs: it halts, the clock stays stopped
	e.clock.at(10_000)
	writes := len(e.revisions())
	e.finishTurn(turn, "halted")
	if len(e.revisions()) != writes {
		t.Error("FinishTurn of the paused turn wrote")
	}
	e.clock.at(10_000 + hourMs)
	if g := e.get(); g.Status != StatusActive || g.TimeUsedMs != 3_000 || running(g) {
		t.Errorf("an hour after the turn: %s, %d ms, running %v; want active, 3000 ms, stopped", g.Status, g.TimeUsedMs, running(g))
	}
}

func TestStartClockIgnoresStaleTickets(t *testing.T) {
	tests := []struct {
		name   string
		ticket func(e *env) Ticket // the turn's ticket; the goal may move on after it
	}{
		{"no goal", func(e *env) Ticket { return e.ticket() }},
		{"paused", func(e *env) Ticket { e.set("w", nil); e.control(ActionPause); return e.ticket() }},
		{"complete", func(e *env) Ticket { e.set("w", nil); e.model(StatusComplete); return e.ticket() }},
		{"replaced", func(e *env) Ticket { e.set("w", nil); tk := e.ticket(); e.set("new", nil); return tk }},
		{"paused and resumed", func(e *env) Ticket {
			e.set("w", nil)
			tk := e.ticket()
			e.control(ActionPause)
			e.control(ActionResume)
			return tk
		}},
		{"cleared", func(e *env) Ticket { e.set("w", nil); tk := e.ticket(); e.control(ActionClear); return tk }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			tk := tc.ticket(e)
			before, _, _ := e.svc.Get(e.ctx, e.sid)
			writes := len(e.revisions())
			e.startClock(tk)
			if len(e.revisions()) != writes {
				t.Error("StartClock wrote")
			}
			e.clock.at(hourMs)
			if diff := cmp.Diff(before, e.get()); diff != "" {
				t.Errorf("the goal changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestFinishTurnLeavesReplacementAlone(t *testing.T) {
	for _, turnStatus := range []string{"done", "halted", TurnCancelled, TurnError, TurnInterrupted} {
		for _, secondRuns := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/replacement running %v", turnStatus, secondRuns), func(t *testing.T) {
				e := newEnv(t)
				e.set("First", nil)
				first := e.ticket()
				e.startClock(first)
				e.clock.at(2_000)
				e.set("Second", nil) // replaced mid-turn
				if secondRuns {      // and a turn in another window started on it
					e.startClock(e.ticket())
				}
				e.clock.at(5_000)
				before := e.get()
				writes := len(e.revisions())
				e.finishTurn(first, turnStatus)
				if len(e.revisions()) != writes {
					t.Error("FinishTurn of the first goal's turn wrote")
				}
				if diff := cmp.Diff(before, e.get()); diff != "" {
					t.Errorf("the replacement changed (-before +after):\n%s", diff)
				}
				wantMs, wantSince := int64(0), time.Time{}
				if secondRuns {
					wantMs, wantSince = 3_000, t0.Add(2*time.Second)
				}
				if g := e.get(); g.Status != StatusActive || g.TimeUsedMs != wantMs || !g.ActiveSince.Equal(wantSince) {
					t.Errorf("replacement: %s, %d ms, since %v; want active, %d ms, since %v", g.Status, g.TimeUsedMs, g.ActiveSince, wantMs, wantSince)
				}
			})
		}
	}
}
