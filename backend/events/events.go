// Package events is the engine's typed event broker. Every engine event (a
// streamed reasoning delta, a tool card starting, a turn ending) is published
// once with a process-wide, strictly increasing sequence number and fanned out
// to every subscriber.
//
// Delivery contract: each subscriber owns a buffered channel. Delta phases
// (Lossy: reasoning, content, tool-preview, tool-output) are dropped for a subscriber whose
// buffer is full, because the next snapshot or cumulative field repairs them.
// Every other phase is must-deliver: Publish blocks until the subscriber takes
// it or unsubscribes. Subscribers must therefore drain promptly; the window
// bridge and the CLI both do. A subscriber that misses events (dropped deltas,
// or a late start) reloads a snapshot and applies events with a higher Seq.
//
// Shapes: each phase has one payload struct (payloads.go; Payloads lists
// them) whose json tags are the wire keys. An event is written as one flat
// JSON object, the envelope's keys then the payload's; the CLI's --json
// output and the window get exactly that, and the page's TypeScript types
// (frontend/src/lib/events.gen.ts) are generated from these structs. The
// package imports nothing of the module: shapes of other packages' values
// (chat.Usage, goals.Goal, ext.ResourceInfo, sandbox.ToolCall) are
// restated here and converted by the publishers.
package events

//go:generate go run ../../tools/tsgen

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Phases published by the engine. The strings are part of the CLI's --json
// contract; each phase's payload is the struct of the same name (payloads.go),
// except reasoning and content, which share Delta.
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
	PhaseToolOutput     = "tool-output" // a running tool's children printed lines (lossy)
	PhaseFormResult     = "form-result"
	PhaseIterationFinal = "iteration-final"
	PhaseIterationError = "iteration-error"
	PhaseTurnEnd        = "turn-end"
	PhaseSessionChanged = "session-changed"
	PhaseWarning        = "warning"
	PhaseGoal           = "goal"      // a persisted goal change
	PhasePacks          = "packs"     // a workspace's active language packs changed
	PhaseResources      = "resources" // a session's REPLs changed
	PhaseQueue          = "queue"     // a session's queue changed; carries the whole queue
	PhaseApproval       = "approval"  // a program waits for the person's answer, or got it
)

// Lossy reports whether a phase may be dropped for a slow subscriber.
func Lossy(phase string) bool {
	switch phase {
	case PhaseReasoning, PhaseContent, PhaseToolPreview, PhaseToolOutput:
		return true
	}
	return false
}

// Event is one engine event: the envelope (phase, sequence number, session,
// turn and iteration) and Data, the phase's payload (one of the structs of
// payloads.go, see Payloads). On the wire the payload's fields sit next to
// the envelope's.
type Event struct {
	Phase     string    `json:"event"`
	Seq       int64     `json:"seq"`
	SessionID string    `json:"session_id"`
	Turn      int       `json:"turn,omitempty"`
	Iteration int       `json:"iteration,omitempty"`
	At        time.Time `json:"-"`
	Data      Payload   `json:"-"`
}

// MarshalJSON writes one flat object: the envelope ({"event":..,"seq":..,
// "session_id":..,"turn":..,"iteration":..}, turn and iteration only when
// set) followed by the payload's fields. No payload has a field named like
// an envelope key (TestPayloadKeysAvoidTheEnvelope).
func (e Event) MarshalJSON() ([]byte, error) {
	type envelope Event // without this method; At and Data are not written
	head, err := json.Marshal(envelope(e))
	if err != nil || e.Data == nil {
		return head, err
	}
	body, err := json.Marshal(e.Data)
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", e.Phase, err)
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("event %s: payload %T is not a JSON object", e.Phase, e.Data)
	}
	if len(body) == 2 { // {}
		return head, nil
	}
	out := make([]byte, 0, len(head)+len(body))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	return append(out, body[1:]...), nil
}

// As returns e's payload as a T; ok is false when e carries another
// payload (or none).
func As[T Payload](e Event) (p T, ok bool) {
	p, ok = e.Data.(T)
	return p, ok
}

// Broker fans events out to subscribers. The zero value is not usable; call New.
type Broker struct {
	seq  atomic.Int64
	mu   sync.RWMutex
	subs map[*sub]struct{}
	tap  func(Event) // OnPublish's; set before the first Publish
}

// OnPublish makes f see every event as it is published, before its
// sequence number is taken (so state f keeps is never behind a Seq the
// caller reads), in the publisher's goroutine: f must be quick and must
// not publish. Set it once, before the broker is used.
func (b *Broker) OnPublish(f func(Event)) { b.tap = f }

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

// Publish stamps e with the next sequence number and the time, sets its
// Phase from its payload (when it has one), delivers it under the contract
// above and returns the stamped event.
func (b *Broker) Publish(e Event) Event {
	if e.Data != nil {
		e.Phase = e.Data.Phase()
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.tap != nil {
		b.tap(e)
	}
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
