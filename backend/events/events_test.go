package events

import (
	"encoding/json"
	"testing"
	"time"
)

func TestPublishOrdersAndFlattens(t *testing.T) {
	b := New()
	ch, cancel := b.Subscribe(8)
	defer cancel()
	b.Publish(Event{Phase: TurnStart, SessionID: "s1", Turn: 1, Data: map[string]any{"request": "hi"}})
	b.Publish(Event{Phase: TurnEnd, SessionID: "s1", Turn: 1})
	a, c := <-ch, <-ch
	if a.Seq != 1 || c.Seq != 2 {
		t.Fatalf("seq = %d, %d; want 1, 2", a.Seq, c.Seq)
	}
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m["event"] != "turn-start" || m["request"] != "hi" || m["session_id"] != "s1" || m["seq"] != float64(1) {
		t.Fatalf("flattened event = %s", raw)
	}
}

func TestLossyDroppedButTerminalDelivered(t *testing.T) {
	b := New()
	ch, cancel := b.Subscribe(1)
	defer cancel()
	b.Publish(Event{Phase: Content})
	b.Publish(Event{Phase: Content}) // buffer full: dropped, must not block
	done := make(chan struct{})
	go func() {
		b.Publish(Event{Phase: TurnEnd}) // must wait for the reader
		close(done)
	}()
	if e := <-ch; e.Phase != Content || e.Seq != 1 {
		t.Fatalf("first = %+v", e)
	}
	if e := <-ch; e.Phase != TurnEnd {
		t.Fatalf("second = %+v, want the terminal event", e)
	}
	<-done
}

func TestUnsubscribeUnblocksPublisher(t *testing.T) {
	b := New()
	_, cancel := b.Subscribe(1)
	b.Publish(Event{Phase: TurnStart})
	done := make(chan struct{})
	go func() { b.Publish(Event{Phase: TurnEnd}); close(done) }()
	time.Sleep(10 * time.Millisecond) // let Publish block on the full buffer
	cancel()
	<-done
}
