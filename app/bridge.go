package app

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/visdesktop/vis/backend/events"
)

// EventsName is the Wails event that carries a batch of engine events: an
// array of event objects (events.Event's JSON, seq ascending).
const EventsName = "vis:events"

// FlushInterval is how often the bridge emits a batch (about 30 per second).
const FlushInterval = 33 * time.Millisecond

// bridgeBuffer is the broker subscription's buffer. Must-deliver events block
// the publisher while it is full, so it is generous.
const bridgeBuffer = 4096

// Emitter sends a named event with a JSON-marshalable payload to the page.
// The Wails implementation wraps runtime.EventsEmit with the startup context.
type Emitter interface {
	Emit(name string, data any)
}

// runBridge subscribes to broker and forwards its events to em (see forward)
// until ctx ends. ready, when not nil, is closed once the subscription exists,
// so a caller can publish knowing the bridge will see it.
func runBridge(ctx context.Context, broker *events.Broker, em Emitter, tick <-chan time.Time, ready chan<- struct{}) {
	ch, cancel := broker.Subscribe(bridgeBuffer)
	defer cancel()
	if ready != nil {
		close(ready)
	}
	forward(ctx, ch, em, tick)
}

// forward collects events from ch and emits them in batches until ctx ends. A
// batch is emitted on each tick when it is not empty; before emitting, every
// event already queued on ch is drained into it, and the batch is sorted by
// seq (concurrent publishers can hand events over out of order). Nothing is
// emitted after ctx ends.
func forward(ctx context.Context, ch <-chan events.Event, em Emitter, tick <-chan time.Time) {
	var batch []events.Event
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-ch:
			batch = append(batch, e)
		case <-tick:
			batch = drain(ch, batch)
			if len(batch) == 0 {
				continue
			}
			slices.SortFunc(batch, func(a, b events.Event) int { return cmp.Compare(a.Seq, b.Seq) })
			if ctx.Err() != nil {
				return
			}
			em.Emit(EventsName, batch)
			batch = nil // the emitter may keep the slice
		}
	}
}

// drain appends every event already queued on ch without blocking.
func drain(ch <-chan events.Event, batch []events.Event) []events.Event {
	for {
		select {
		case e := <-ch:
			batch = append(batch, e)
		default:
			return batch
		}
	}
}
