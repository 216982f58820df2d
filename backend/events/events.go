// Package events is the engine's typed event broker. Every engine event (a
// streamed reasoning delta, a tool card starting, a turn ending) is published
// once with a process-wide, strictly increasing sequence number and fanned out
// to every subscriber.
//
// Delivery contract: each subscriber owns a buffered channel. Delta phases
// (Lossy: reasoning, content, tool-preview) are dropped for a subscriber whose
// buffer is full, because the next snapshot or cumulative field repairs them.
// Every other phase is must-deliver: Publish blocks until the subscriber takes
// it or unsubscribes. Subscribers must therefore drain promptly; the window
// bridge and the CLI both do. A subscriber that misses events (dropped deltas,
// or a late start) reloads a snapshot and applies events with a higher Seq.
package events

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"
)

// Phases published by the engine. The strings are part of the CLI's --json
// contract. The names leave the bare nouns (TurnStart, Warning, ...) to the
// phases' payload types.
const (
	PhaseTurnStart      = "turn-start"
	PhaseProviderCall   = "provider-call"
	PhaseProviderRetry  = "provider-retry"
	PhaseReasoning      = "reasoning"
	PhaseContent        = "content"
	PhaseToolPreview    = "tool-preview"
	PhaseAssistantProse = "assistant-prose"
	PhaseFormStart      = "form-start"
	PhaseToolStart      = "tool-start"
	PhaseToolEnd        = "tool-end"
	PhaseFormResult     = "form-result"
	PhaseIterationFinal = "iteration-final"
	PhaseIterationError = "iteration-error"
	PhaseTurnEnd        = "turn-end"
	PhaseSessionChanged = "session-changed"
	PhaseWarning        = "warning"
	PhaseGoal           = "goal"      // a persisted goal change; carries "revision"
	PhasePacks          = "packs"     // a workspace's active language packs changed
	PhaseResources      = "resources" // a session's REPLs changed
	PhaseQueue          = "queue"     // a session's queue changed; carries the whole "queue"
)

// Lossy reports whether a phase may be dropped for a slow subscriber.
func Lossy(phase string) bool {
	switch phase {
	case PhaseReasoning, PhaseContent, PhaseToolPreview:
		return true
	}
	return false
}

// Event is one engine event. Data holds the phase's payload; on the wire it is
// flattened next to the envelope fields.
type Event struct {
	Seq       int64          `json:"seq"`
	Phase     string         `json:"event"`
	SessionID string         `json:"session_id"`
	Turn      int            `json:"turn,omitempty"`
	Iteration int            `json:"iteration,omitempty"`
	At        time.Time      `json:"-"`
	Data      map[string]any `json:"-"`
}

// MarshalJSON flattens Data into the envelope: {"event":..,"seq":..,
// "session_id":..,"turn":..,"iteration":.., ...data}. Envelope keys win.
func (e Event) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(e.Data)+5)
	for k, v := range e.Data {
		m[k] = v
	}
	m["event"] = e.Phase
	m["seq"] = e.Seq
	m["session_id"] = e.SessionID
	if e.Turn != 0 {
		m["turn"] = e.Turn
	}
	if e.Iteration != 0 {
		m["iteration"] = e.Iteration
	}
	return json.Marshal(m)
}

// Broker fans events out to subscribers. The zero value is not usable; call New.
type Broker struct {
	seq  atomic.Int64
	mu   sync.RWMutex
	subs map[*sub]struct{}
}

type sub struct {
	ch   chan Event
	done chan struct{}
	once sync.Once
}

// New returns an empty broker.
func New() *Broker { return &Broker{subs: map[*sub]struct{}{}} }

// Seq returns the last sequence number handed out.
func (b *Broker) Seq() int64 { return b.seq.Load() }

// Subscribe returns a channel of events and a cancel function. After cancel
// the channel receives nothing more (it is not closed, so a pending receive
// must select on its own ctx too).
func (b *Broker) Subscribe(buffer int) (<-chan Event, func()) {
	if buffer < 1 {
		buffer = 1
	}
	s := &sub{ch: make(chan Event, buffer), done: make(chan struct{})}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s.ch, func() {
		s.once.Do(func() {
			close(s.done) // first, so a Publish blocked on s (holding the read lock) returns
			b.mu.Lock()
			delete(b.subs, s)
			b.mu.Unlock()
		})
	}
}

// Publish stamps e with the next sequence number and the time, delivers it
// under the contract above and returns the stamped event.
func (b *Broker) Publish(e Event) Event {
	b.mu.RLock()
	defer b.mu.RUnlock()
	e.Seq = b.seq.Add(1)
	if e.At.IsZero() {
		e.At = time.Now()
	}
	lossy := Lossy(e.Phase)
	for s := range b.subs {
		if lossy {
			select {
			case s.ch <- e:
			default:
			}
			continue
		}
		select {
		case s.ch <- e:
		case <-s.done:
		}
	}
	return e
}
