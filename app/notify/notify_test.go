package notify

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/visdesktop/vis/app/notify/notifytest"
)

// A real dbus-daemon, a notification server on it, and our client: what
// Notify sends arrives as sent, a replacement keeps its id, a click comes
// back as the notification's id; a bus without a server says so.
func TestNotifyOnARealBus(t *testing.T) {
	bus, err := notifytest.StartBus(t.TempDir())
	if err != nil {
		t.Skip(err)
	}
	defer bus.Stop()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus.Address)
	ctx := context.Background()

	n, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if _, err := n.Notify(ctx, Notification{Summary: "s", Body: "b"}); !errors.Is(err, ErrNoServer) {
		t.Fatalf("Notify without a server = %v; want ErrNoServer", err)
	}

	srv, err := notifytest.Serve(bus.Address)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	id, err := n.Notify(ctx, Notification{Summary: "Vis — fix the tests", Body: "Done: all 3 pass."})
	if err != nil {
		t.Fatal(err)
	}
	id2, err := n.Notify(ctx, Notification{Summary: "Vis — fix the tests", Body: "Waiting for your answer", Replaces: id, Urgent: true})
	if err != nil || id2 != id {
		t.Fatalf("the replacement = %d, %v; want id %d", id2, err, id)
	}
	calls := srv.Calls()
	if len(calls) != 2 || calls[0].Summary != "Vis — fix the tests" || calls[0].Body != "Done: all 3 pass." || calls[0].App != "Vis" ||
		calls[0].Urgency != 1 || calls[1].Urgency != 2 || calls[1].Replaces != id || len(calls[0].Actions) == 0 || calls[0].Actions[0] != "default" {
		t.Fatalf("recorded %+v", calls)
	}
	if err := srv.Click(id); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-n.Clicked():
		if got != id {
			t.Errorf("clicked %d; want %d", got, id)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the click never arrived")
	}
	n.Close()
	if _, ok := <-n.Clicked(); ok {
		t.Error("Clicked is still open after Close")
	}
}

func TestOpenWithoutABus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
	if n, err := Open(); err == nil {
		n.Close()
		t.Fatal("Open without a bus succeeded")
	}
}
