// Package notify sends desktop notifications the freedesktop way
// (org.freedesktop.Notifications on the D-Bus session bus) and reports which
// of them the person clicked.
//
// Contract: Open connects to the session bus named by
// DBUS_SESSION_BUS_ADDRESS (an error when there is none: the caller goes
// without notifications). Notify is safe from any goroutine; each call is
// one D-Bus method call with a timeout. A click (the notification's default
// action, or "open") arrives on Clicked as the notification's id; the
// channel is buffered and a click that finds it full is dropped (the person
// can click again). Close ends the connection and closes Clicked. The
// package owns github.com/godbus/dbus/v5.
package notify

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

const (
	busName = "org.freedesktop.Notifications"
	path    = dbus.ObjectPath("/org/freedesktop/Notifications")
	iface   = "org.freedesktop.Notifications"
)

// callTimeout bounds one Notify call: a notification server that hangs must
// not hold the engine's events.
const callTimeout = 5 * time.Second

// Notification is one message.
type Notification struct {
	Summary string // one line: "Vis — <session>"
	Body    string // what happened, one or two sentences
	// Replaces is the id of an earlier notification this one replaces
	// (one per session on screen); 0 = a new one.
	Replaces uint32
	// Urgent marks a notification that asks for the person (an approval):
	// urgency critical stays until clicked on most desktops.
	Urgent bool
}

// Notifier is a connection to the session bus's notification server.
type Notifier struct {
	conn    *dbus.Conn
	obj     dbus.BusObject
	signals chan *dbus.Signal
	clicked chan uint32
	done    chan struct{}
	once    sync.Once
}

// Open connects to the session bus and listens for clicks. It fails when
// there is no session bus; a bus without a notification server is found
// at the first Notify.
func Open() (*Notifier, error) {
	conn, err := dbus.SessionBusPrivate()
	if err != nil {
		return nil, fmt.Errorf("notifications: no D-Bus session bus: %w", err)
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: D-Bus session bus: %w", err)
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: D-Bus session bus: %w", err)
	}
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(path), dbus.WithMatchInterface(iface), dbus.WithMatchMember("ActionInvoked")); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: listen for clicks: %w", err)
	}
	n := &Notifier{
		conn: conn, obj: conn.Object(busName, path),
		signals: make(chan *dbus.Signal, 16), clicked: make(chan uint32, 16), done: make(chan struct{}),
	}
	conn.Signal(n.signals)
	go n.listen()
	return n, nil
}

// listen turns ActionInvoked signals into clicks until Close.
func (n *Notifier) listen() {
	defer close(n.clicked)
	for {
		select {
		case <-n.done:
			return
		case s, ok := <-n.signals:
			if !ok {
				return
			}
			if s.Name != iface+".ActionInvoked" || len(s.Body) < 2 {
				continue
			}
			id, _ := s.Body[0].(uint32)
			key, _ := s.Body[1].(string)
			if key != "default" && key != "open" {
				continue
			}
			select {
			case n.clicked <- id:
			default: // nobody is reading: the person can click again
			}
		}
	}
}

// Clicked receives the id of each notification the person clicked.
func (n *Notifier) Clicked() <-chan uint32 { return n.clicked }

// ErrNoServer: the session bus has no notification server.
var ErrNoServer = errors.New("no notification server on the session bus")

// Notify shows m and returns its id (for Replaces and Clicked).
func (n *Notifier) Notify(ctx context.Context, m Notification) (uint32, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	urgency := byte(1)
	if m.Urgent {
		urgency = 2
	}
	hints := map[string]dbus.Variant{
		"urgency":       dbus.MakeVariant(urgency),
		"desktop-entry": dbus.MakeVariant("vis-desktop"),
	}
	var id uint32
	err := n.obj.CallWithContext(ctx, iface+".Notify", 0,
		"Vis", m.Replaces, "vis-desktop", m.Summary, m.Body,
		[]string{"default", "Open", "open", "Open"}, hints, int32(-1)).Store(&id)
	var de dbus.Error
	if errors.As(err, &de) && de.Name == "org.freedesktop.DBus.Error.ServiceUnknown" {
		return 0, ErrNoServer
	}
	if err != nil {
		return 0, fmt.Errorf("notifications: %w", err)
	}
	return id, nil
}

// Close ends the connection; Clicked is closed.
func (n *Notifier) Close() error {
	var err error
	n.once.Do(func() {
		close(n.done)
		err = n.conn.Close()
	})
	return err
}
