package goals

import (
	"testing"

	"github.com/visdesktop/vis/backend/chat"
)

// While a turn holds a session's reads, Get and Capture answer from memory:
// another process's write (a second Service on the same file) is not seen
// until this Service writes or the hold ends; this Service's own writes
// (Set, Account) are seen at once; StopCheck always reads the store.
func TestHeldReads(t *testing.T) {
	e := newEnv(t)
	other := New(e.st, Options{}) // another process on the same file
	release := e.svc.HoldReads(e.sid)
	if _, ok, err := e.svc.Get(e.ctx, e.sid); err != nil || ok {
		t.Fatalf("Get before any goal = %v, %v", ok, err)
	}
	if _, err := other.Set(e.ctx, e.sid, "from elsewhere", nil); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := e.svc.Get(e.ctx, e.sid); ok {
		t.Error("a held read saw another process's write before this Service wrote")
	}
	if tk, _ := e.svc.Capture(e.ctx, e.sid); tk.GoalID != "" {
		t.Errorf("a held Capture saw another process's write: %+v", tk)
	}
	// StopCheck reads the store: a turn that started with the other goal
	// would see it replaced at once.
	turnStart := Ticket{SessionID: e.sid, GoalID: "gone", Version: 1, Status: StatusActive}
	if h, err := e.svc.StopCheck(e.ctx, turnStart); err != nil || h.Kind != HaltReplaced {
		t.Errorf("StopCheck = %+v, %v; want replaced", h, err)
	}
	g := e.set("mine", nil) // this Service writes: the held copy is dropped
	if got := e.get(); got.Objective != "mine" || got.Revision != g.Revision {
		t.Errorf("after Set, Get = %+v", got)
	}
	tk := e.ticket()
	if err := e.svc.Account(e.ctx, tk, chat.Usage{InputTokens: 5}); err != nil {
		t.Fatal(err)
	}
	if got := e.get(); got.IterationsUsed != 1 || got.TokensUsed != 5 {
		t.Errorf("after Account, Get = %+v", got)
	}
	if _, err := other.Control(e.ctx, e.sid, "pause"); err != nil {
		t.Fatal(err)
	}
	if got := e.get(); got.Status != StatusActive {
		t.Errorf("held Get = %s, want the copy this Service last read (active)", got.Status)
	}
	release()
	release() // idempotent
	if got := e.get(); got.Status != StatusPaused {
		t.Errorf("after the hold, Get = %s, want paused (the store's)", got.Status)
	}
}

// Holds nest: the copy is kept until the last one ends.
func TestHeldReadsNest(t *testing.T) {
	e := newEnv(t)
	other := New(e.st, Options{})
	r1 := e.svc.HoldReads(e.sid)
	r2 := e.svc.HoldReads(e.sid)
	e.get()
	other.Set(e.ctx, e.sid, "x", nil)
	r1()
	if _, ok, _ := e.svc.Get(e.ctx, e.sid); ok {
		t.Error("the copy was dropped while a hold remained")
	}
	r2()
	if _, ok, _ := e.svc.Get(e.ctx, e.sid); !ok {
		t.Error("the goal is not read after the last hold ended")
	}
}
