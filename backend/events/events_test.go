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
	b.Publish(Event{SessionID: "s1", Turn: 1, Data: TurnStart{Request: "hi"}})
	b.Publish(Event{Phase: PhaseTurnEnd, SessionID: "s1", Turn: 1})
	a, c := <-ch, <-ch
	if a.Seq != 1 || c.Seq != 2 || a.Phase != PhaseTurnStart {
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
	b.Publish(Event{Phase: PhaseContent})
	b.Publish(Event{Phase: PhaseContent}) // buffer full: dropped, must not block
	done := make(chan struct{})
	go func() {
		b.Publish(Event{Phase: PhaseTurnEnd}) // must wait for the reader
		close(done)
	}()
	if e := <-ch; e.Phase != PhaseContent || e.Seq != 1 {
		t.Fatalf("first = %+v", e)
	}
	if e := <-ch; e.Phase != PhaseTurnEnd {
		t.Fatalf("second = %+v, want the terminal event", e)
	}
	<-done
}

func TestUnsubscribeUnblocksPublisher(t *testing.T) {
	b := New()
	_, cancel := b.Subscribe(1)
	b.Publish(Event{Phase: PhaseTurnStart})
	done := make(chan struct{})
	go func() { b.Publish(Event{Phase: PhaseTurnEnd}); close(done) }()
	time.Sleep(10 * time.Millisecond) // let Publish block on the full buffer
	cancel()
	<-done
}
