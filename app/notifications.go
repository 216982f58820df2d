package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/visdesktop/vis/app/notify"
	"github.com/visdesktop/vis/backend/events"
)

// Desktop notifications (issue 21): while the window is not focused, one
// notification when a turn ends (done, failed, halted by its goal) and when
// a program waits for the person (an approval, "ask" mode), naming the
// session and the outcome. A cancelled turn stays silent: the person
// stopped it. Each session keeps at most one notification on screen (a
// newer one replaces it). Clicking one shows the window and opens that
// session (OpenSessionName). Settings turn each kind on or off; without a
// session bus or notification server the window goes without, saying so
// once in its log.

// OpenSessionName is the Wails event (payload: a session id) that asks the
// page to open a session: a notification about it was clicked.
const OpenSessionName = "vis:open-session"

// Notifier sends desktop notifications (app/notify over D-Bus; tests pass
// one on a private bus).
type Notifier interface {
	Notify(ctx context.Context, m notify.Notification) (uint32, error)
	Clicked() <-chan uint32
	Close() error
}

// notifyBuffer is the notifications' broker subscription: the events it
// wants are must-deliver, so it only has to keep up with bursts.
const notifyBuffer = 1024

type notifications struct {
	mu       sync.Mutex
	bySess   map[string]uint32 // the session's notification on screen
	byID     map[uint32]string // which session a notification is about
	turnEnd  bool
	input    bool
	failed   bool      // Notify failed once: said in the log, then silent
	unfocus  bool      // the window is not focused (WindowFocused)
	since    time.Time // when it lost the focus: what happened before stays silent
	prefsSet bool
}

// WindowFocused is the page telling the app whether the window has the
// keyboard focus (window focus/blur): notifications are sent only while
// it has not.
func (a *App) WindowFocused(focused bool) {
	a.notes.mu.Lock()
	changed := a.notes.unfocus == focused
	a.notes.unfocus = !focused
	if changed && !focused {
		a.notes.since = time.Now()
	}
	a.notes.mu.Unlock()
	if changed && traceFocus {
		a.opts.Logf("vis: window focused: %v", focused)
	}
}

// traceFocus logs each change of the window's focus (VIS_TRACE_FOCUS=1):
// the smoke test waits on it before it lets a turn end unfocused.
var traceFocus = os.Getenv("VIS_TRACE_FOCUS") != ""

// SetNotifications saves which notifications to send while the window is
// not focused: when a turn ends, when a program waits for the person.
func (a *App) SetNotifications(turnEnd, input bool) error {
	if err := a.eng.SetNotifications(turnEnd, input); err != nil {
		return fmt.Errorf("notifications: %w", err)
	}
	a.notes.mu.Lock()
	a.notes.turnEnd, a.notes.input, a.notes.prefsSet = turnEnd, input, true
	a.notes.mu.Unlock()
	return nil
}

// startNotifications sends notifications through n for the engine's
// events until ctx ends, and turns clicks into "open this session".
func (a *App) startNotifications(ctx context.Context, n Notifier, sh Shell) {
	a.notes.mu.Lock()
	a.notes.bySess, a.notes.byID = map[string]uint32{}, map[uint32]string{}
	if !a.notes.prefsSet {
		a.notes.turnEnd, a.notes.input = true, true
		if s, err := a.eng.Settings(ctx); err == nil {
			a.notes.turnEnd, a.notes.input = s.NotifyTurnEnd, s.NotifyInput
		}
		a.notes.prefsSet = true
	}
	a.notes.mu.Unlock()
	ch, cancel := a.eng.Events().Subscribe(notifyBuffer)
	go func() {
		defer cancel()
		defer n.Close()
		clicks := n.Clicked()
		for {
			select {
			case <-ctx.Done():
				return
			case e := <-ch:
				a.maybeNotify(ctx, n, e)
			case id, ok := <-clicks:
				if !ok {
					clicks = nil
					continue
				}
				a.notes.mu.Lock()
				sid := a.notes.byID[id]
				a.notes.mu.Unlock()
				if sid != "" {
					sh.Focus()
					sh.Emit(OpenSessionName, sid)
				}
			}
		}
	}()
}

// maybeNotify sends the notification event e calls for, if any.
func (a *App) maybeNotify(ctx context.Context, n Notifier, e events.Event) {
	var m notify.Notification
	kind := "turn_end"
	switch p := e.Data.(type) {
	case events.TurnEnd:
		switch p.Status {
		case "done":
			m.Body = "Done"
			if line := firstLine(p.Answer, 140); line != "" {
				m.Body += ": " + line
			}
		case "error":
			m.Body = "Failed"
			if line := firstLine(p.Error, 140); line != "" {
				m.Body += ": " + line
			}
		case "halted":
			m.Body = "Stopped by its goal"
			if line := firstLine(p.Answer, 140); line != "" {
				m.Body += ": " + line
			}
		default: // cancelled: the person stopped it
			return
		}
	case events.Approval:
		if p.State != "asked" {
			return
		}
		kind, m.Urgent = "input", true
		m.Body = "Waiting for you: the sandbox refused " + firstLine(p.Command, 80) + ". Run it without the sandbox?"
	default:
		return
	}
	a.notes.mu.Lock()
	on := a.notes.turnEnd
	if kind == "input" {
		on = a.notes.input
	}
	// An event is handled a moment after it happened: one from before the
	// window lost the focus happened while the person was looking.
	if !on || !a.notes.unfocus || e.At.Before(a.notes.since) || e.SessionID == "" {
		a.notes.mu.Unlock()
		return
	}
	m.Replaces = a.notes.bySess[e.SessionID]
	a.notes.mu.Unlock()

	m.Summary = "Vis — " + a.sessionTitle(ctx, e.SessionID)
	id, err := n.Notify(ctx, m)
	a.notes.mu.Lock()
	defer a.notes.mu.Unlock()
	if err != nil {
		if !a.notes.failed && !errors.Is(err, context.Canceled) {
			a.notes.failed = true
			a.opts.Logf("vis: desktop notifications are off: %v", err)
		}
		return
	}
	a.notes.bySess[e.SessionID], a.notes.byID[id] = id, e.SessionID
}

// sessionTitle is a session's title for a notification ("a session" when
// it cannot be read).
func (a *App) sessionTitle(ctx context.Context, id string) string {
	list, err := a.eng.ListSessions(ctx, "")
	if err == nil {
		for _, s := range list {
			if s.ID == id && strings.TrimSpace(s.Title) != "" {
				return firstLine(s.Title, 60)
			}
		}
	}
	return "a session"
}

// firstLine is s's first non-empty line, cut at n characters with "…".
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#*>- "))
		if l == "" {
			continue
		}
		if utf8.RuneCountInString(l) > n {
			r := []rune(l)
			l = string(r[:n-1]) + "…"
		}
		return l
	}
	return ""
}
