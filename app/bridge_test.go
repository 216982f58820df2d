package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/events"
)

// recEmitter records every Emit and signals each on got.
type recEmitter struct {
	mu    sync.Mutex
	names []string
	got   chan []events.Event
}

func newRecEmitter() *recEmitter { return &recEmitter{got: make(chan []events.Event, 16)} }

func (r *recEmitter) Emit(name string, data any) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
	r.got <- data.([]events.Event)
}

func (r *recEmitter) next(t *testing.T) []events.Event {
	t.Helper()
	select {
	case b := <-r.got:
		return b
	case <-time.After(10 * time.Second): // a hang guard, not a timing assertion
		t.Fatal("no batch emitted")
		return nil
	}
}

func (r *recEmitter) none(t *testing.T) {
	t.Helper()
	select {
	case b := <-r.got:
		t.Fatalf("unexpected batch of %d events", len(b))
	default:
	}
}

type bridgeRig struct {
	broker *events.Broker
	em     *recEmitter
	tick   chan time.Time
	cancel context.CancelFunc
	done   chan struct{}
}

func startBridge(t *testing.T) *bridgeRig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &bridgeRig{broker: events.New(), em: newRecEmitter(), tick: make(chan time.Time), cancel: cancel, done: make(chan struct{})}
	ready := make(chan struct{})
	go func() {
		defer close(r.done)
		runBridge(ctx, r.broker, r.em, r.tick, ready)
	}()
	<-ready
	t.Cleanup(func() { cancel(); <-r.done })
	return r
}

func seqs(b []events.Event) []int64 {
	out := make([]int64, len(b))
	for i, e := range b {
		out[i] = e.Seq
	}
	return out
}

func TestBridgeBatchesEverythingPublishedBetweenTicksInSeqOrder(t *testing.T) {
	r := startBridge(t)
	phases := []string{events.PhaseTurnStart, events.PhaseContent, events.PhaseReasoning, events.PhaseFormStart, events.PhaseFormResult, events.PhaseTurnEnd}
	const publishers, each = 4, 25
	var wg sync.WaitGroup
	for p := range publishers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				r.broker.Publish(events.Event{Phase: phases[(p+i)%len(phases)], SessionID: fmt.Sprintf("s%d", p)})
			}
		}()
	}
	wg.Wait()
	r.tick <- time.Now()
	batch := r.em.next(t)

	want := make([]int64, publishers*each)
	for i := range want {
		want[i] = int64(i + 1)
	}
	if diff := cmp.Diff(want, seqs(batch)); diff != "" {
		t.Fatalf("batch seqs (-want +got):\n%s", diff)
	}
	r.em.mu.Lock()
	if r.em.names[0] != EventsName {
		t.Errorf("emitted %q, want %q", r.em.names[0], EventsName)
	}
	r.em.mu.Unlock()

	// The next batch holds only what came after.
	r.broker.Publish(events.Event{Phase: events.PhaseTurnEnd, SessionID: "s0"})
	r.tick <- time.Now()
	if diff := cmp.Diff([]int64{101}, seqs(r.em.next(t))); diff != "" {
		t.Fatalf("second batch (-want +got):\n%s", diff)
	}
}

func TestBridgeEmitsNothingForAnEmptyTick(t *testing.T) {
	r := startBridge(t)
	r.tick <- time.Now()
	r.tick <- time.Now() // each send returns only after the previous tick was handled
	r.tick <- time.Now()
	r.em.none(t)
}

func TestBridgeStopsWithItsContext(t *testing.T) {
	r := startBridge(t)
	r.broker.Publish(events.Event{Phase: events.PhaseTurnStart, SessionID: "s"})
	r.cancel()
	<-r.done
	// Publishing after the bridge ended must not block (it unsubscribed).
	for range bridgeBuffer + 10 {
		r.broker.Publish(events.Event{Phase: events.PhaseTurnEnd, SessionID: "s"})
	}
	r.em.none(t)
}

func TestBridgePayloadIsWhatThePageReads(t *testing.T) {
	r := startBridge(t)
	r.broker.Publish(events.Event{Phase: events.PhaseContent, SessionID: "s1", Turn: 2, Iteration: 1,
		Data: events.Delta{Delta: "lo", Text: "hello"}})
	r.tick <- time.Now()
	b, err := json.Marshal(r.em.next(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{
		"event": "content", "seq": 1.0, "session_id": "s1", "turn": 2.0, "iteration": 1.0,
		"delta": "lo", "text": "hello",
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("payload (-want +got):\n%s", diff)
	}
}

func TestForwardSortsABatchBySeq(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan events.Event, 8)
	tick := make(chan time.Time)
	em := newRecEmitter()
	done := make(chan struct{})
	go func() { defer close(done); forward(ctx, ch, em, tick) }()
	defer func() { cancel(); <-done }()

	for _, s := range []int64{7, 5, 6, 9, 8} { // as racing publishers can deliver them
		ch <- events.Event{Seq: s, Phase: events.PhaseToolStart}
	}
	tick <- time.Now()
	if diff := cmp.Diff([]int64{5, 6, 7, 8, 9}, seqs(em.next(t))); diff != "" {
		t.Fatalf("batch seqs (-want +got):\n%s", diff)
	}
}
