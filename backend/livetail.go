package backend

import (
	"context"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/live"
)

// The live tail of a running tool: what its children print reaches the
// transcript as tool-output events, batched so a test runner printing
// thousands of lines a second costs a few events a second.
const (
	liveTailEvery = 250 * time.Millisecond // at most this often, except for a full batch
	liveTailBatch = 200                    // lines held before sending at once (older ones give way)
	liveTailKeep  = 40                     // lines of Tail
)

// liveTail collects one tool call's lines and publishes them.
type liveTail struct {
	publish func(events.ToolOutput)
	name    string

	mu      sync.Mutex
	pending []string
	tail    []string
	count   int
	last    time.Time
	timer   *time.Timer
	closed  bool
}

func newLiveTail(name string, publish func(events.ToolOutput)) *liveTail {
	return &liveTail{name: name, publish: publish}
}

// line is the live.Sink.
func (l *liveTail) line(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.count++
	l.pending = appendKeep(l.pending, s, liveTailBatch)
	l.tail = appendKeep(l.tail, s, liveTailKeep)
	wait := liveTailEvery - time.Since(l.last)
	switch {
	case wait <= 0 || len(l.pending) >= liveTailBatch && l.timer == nil:
		l.flushLocked()
	case l.timer == nil:
		l.timer = time.AfterFunc(wait, func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.timer = nil
			if !l.closed {
				l.flushLocked()
			}
		})
	}
}

// appendKeep appends s and keeps the newest max entries.
func appendKeep(lines []string, s string, max int) []string {
	lines = append(lines, s)
	if len(lines) > max {
		lines = append(lines[:0:0], lines[len(lines)-max:]...)
	}
	return lines
}

func (l *liveTail) flushLocked() {
	if len(l.pending) == 0 {
		return
	}
	ev := events.ToolOutput{Name: l.name, Lines: l.pending, Tail: append([]string(nil), l.tail...), Count: l.count}
	l.pending, l.last = nil, time.Now()
	l.publish(ev)
}

// close sends what is pending; later lines (a straggling copier) are dropped.
func (l *liveTail) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.flushLocked()
	l.closed = true
}

// toolCtx is the sandbox's ToolCtx hook for a session: each tool call gets
// its own live tail, closed by endLiveTail when the call returns.
func (e *Engine) toolCtx(sid string, rt *sessionRT) func(ctx context.Context, name string) context.Context {
	return func(ctx context.Context, name string) context.Context {
		t, i := rt.position()
		lt := newLiveTail(name, func(ev events.ToolOutput) {
			e.broker.Publish(events.Event{SessionID: sid, Turn: t, Iteration: i, Data: ev})
		})
		if old := rt.live.Swap(lt); old != nil {
			old.close()
		}
		ctx = rt.confined(live.With(ctx, lt.line))
		if rt.ask.Load() {
			ctx = confine.WithAsk(ctx, e.askFunc(sid, rt))
		}
		return ctx
	}
}

// endLiveTail flushes the session's running tool's live tail.
func (rt *sessionRT) endLiveTail() {
	if lt := rt.live.Swap(nil); lt != nil {
		lt.close()
	}
}
