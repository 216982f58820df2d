package app

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/visdesktop/vis/app/notify"
	"github.com/visdesktop/vis/app/notify/notifytest"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// noteShell is the window for the notification tests: it records Focus
// and the events emitted to the page.
type noteShell struct {
	mu      sync.Mutex
	focused int
	opened  chan string
}

func (s *noteShell) Emit(name string, data any) {
	if name == OpenSessionName {
		s.opened <- data.(string)
	}
}
func (s *noteShell) PickDirectory(string, string) (string, error) { return "", nil }
func (s *noteShell) Focus() {
	s.mu.Lock()
	s.focused++
	s.mu.Unlock()
}

// Through a real engine, a real dbus-daemon and a notification server on
// it: a turn that ends while the window is not focused sends one
// notification naming the session and the outcome; while it is focused,
// none; a cancelled turn none; a failed one says so and replaces the
// session's earlier notification; a kind turned off in Settings sends
// none. Clicking one focuses the window and opens its session.
func TestNotificationsWhenTheWindowIsNotFocused(t *testing.T) {
	bus, err := notifytest.StartBus(t.TempDir())
	if err != nil {
		t.Skip(err)
	}
	defer bus.Stop()
	srv, err := notifytest.Serve(bus.Address)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus.Address)
	n, err := notify.Open()
	if err != nil {
		t.Fatal(err)
	}

	llm := providertest.New(
		providertest.Reply{Content: []string{"All 3 tests pass now.\n\nDetails follow."}}, // focused: silent
		providertest.Reply{Content: []string{"## Summary\nAll 3 tests pass now."}},        // unfocused: notified
		providertest.Reply{Status: 400, Message: "the model refused the request"},         // failed
		providertest.Reply{Content: []string{"quiet"}},                                    // turned off
		providertest.Reply{Hang: true},                                                    // cancelled
	)
	defer llm.Close()
	eng := realEngine(t, llm)
	ws := t.TempDir()
	a := New(eng, Options{Home: t.TempDir()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sh := &noteShell{opened: make(chan string, 4)}
	a.start(ctx, sh, FlushInterval)
	defer a.stop()
	a.startNotifications(ctx, n, sh)

	info, err := eng.CreateSession(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.RenameSession(ctx, info.ID, "Fix the tests"); err != nil {
		t.Fatal(err)
	}
	run := func(text string) backend.TurnResult {
		t.Helper()
		r, err := eng.Run(ctx, info.ID, backend.Input{Text: text, Channel: backend.ChannelDesktop})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// waitCalls waits until the server has n calls (a hang guard, not a timing assertion).
	waitCalls := func(n int) []notifytest.Call {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for len(srv.Calls()) < n && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		return srv.Calls()
	}

	a.WindowFocused(true)
	run("focused")
	a.WindowFocused(false)
	run("unfocused")
	calls := waitCalls(1)
	if len(calls) != 1 || calls[0].Summary != "Vis — Fix the tests" || calls[0].Body != "Done: Summary" {
		t.Fatalf("after a turn while unfocused: %+v", calls)
	}

	if r := run("fails"); r.Status != "error" {
		t.Fatalf("the failing turn ended %q", r.Status)
	}
	calls = waitCalls(2)
	if len(calls) != 2 || !strings.HasPrefix(calls[1].Body, "Failed: ") || calls[1].Replaces != calls[0].ID {
		t.Fatalf("after a failed turn: %+v", calls)
	}

	// marker publishes what a program waiting for the person publishes
	// and waits for its notification: every event before it was handled.
	marker := func(n int, cmd string) []notifytest.Call {
		t.Helper()
		eng.Events().Publish(events.Event{SessionID: info.ID, Data: events.Approval{ID: cmd, State: "asked", Tool: "shell", Command: cmd}})
		got := waitCalls(n)
		if len(got) != n || !strings.Contains(got[n-1].Body, "Waiting for you: the sandbox refused "+cmd) || got[n-1].Urgency != 2 {
			t.Fatalf("after the marker %s: %+v", cmd, got)
		}
		return got
	}

	// Turned off in Settings: no notification when a turn ends.
	if err := a.SetNotifications(false, true); err != nil {
		t.Fatal(err)
	}
	run("quiet")
	marker(3, "touch /one")
	if s, _ := eng.Settings(ctx); s.NotifyTurnEnd || !s.NotifyInput {
		t.Errorf("saved settings: turn end %v, input %v", s.NotifyTurnEnd, s.NotifyInput)
	}
	if err := a.SetNotifications(true, true); err != nil {
		t.Fatal(err)
	}
	// A cancelled turn stays silent: the person stopped it.
	done := make(chan backend.TurnResult, 1)
	go func() {
		r, _ := eng.Run(ctx, info.ID, backend.Input{Text: "cancelled", Channel: backend.ChannelDesktop})
		done <- r
	}()
	for deadline := time.Now().Add(30 * time.Second); len(llm.Requests()) < 5 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := eng.Stop(ctx, info.ID); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.Status != "cancelled" {
		t.Fatalf("the stopped turn ended %q", r.Status)
	}
	marker(4, "touch /two")

	if err := srv.Click(calls[1].ID); err != nil {
		t.Fatal(err)
	}
	select {
	case sid := <-sh.opened:
		if sid != info.ID {
			t.Errorf("the click opened %q; want %q", sid, info.ID)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the click opened nothing")
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.focused != 1 {
		t.Errorf("the window was focused %d times; want 1", sh.focused)
	}
}

// countingNotifier counts what would be shown.
type countingNotifier struct {
	mu sync.Mutex
	n  int
}

func (c *countingNotifier) Notify(context.Context, notify.Notification) (uint32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return uint32(c.n), nil
}
func (c *countingNotifier) Clicked() <-chan uint32 { return nil }
func (c *countingNotifier) Close() error           { return nil }

// A turn that ended while the window had the focus stays silent even when
// its event is handled after the person switched away: the handler runs a
// moment after the event, and the person saw the turn end.
func TestATurnThatEndedWhileFocusedStaysSilent(t *testing.T) {
	t.Parallel()
	a := New(realEngine(t, providertest.New()), Options{Home: t.TempDir()})
	a.notes.turnEnd, a.notes.prefsSet = true, true
	a.notes.bySess, a.notes.byID = map[string]uint32{}, map[uint32]string{}
	n := &countingNotifier{}
	a.WindowFocused(true)
	before := events.Event{SessionID: "s1", At: time.Now(), Data: events.TurnEnd{Status: "done", Answer: "ok"}}
	time.Sleep(2 * time.Millisecond) // the clock moves on before the focus changes
	a.WindowFocused(false)
	a.maybeNotify(context.Background(), n, before)
	if n.n != 0 {
		t.Fatalf("a turn that ended while focused notified %d times", n.n)
	}
	after := before
	after.At = time.Now()
	a.maybeNotify(context.Background(), n, after)
	if n.n != 1 {
		t.Fatalf("a turn that ended after the focus left notified %d times, want 1", n.n)
	}
}
