package backend

import (
	"sync"

	"github.com/visdesktop/vis/backend/events"
)

// In-flight programs. The store keeps an iteration's programs when the
// iteration ends; a transcript snapshot taken while one runs (a window
// opening the session, or a brand-new session's first snapshot racing its
// first reply) would show the iteration empty, and the page, which drops
// events older than its snapshot, would show nothing until the iteration
// ended. The broker's tap keeps, per session, the programs the running
// iteration has started and finished so far; Transcript adds them.

type inflightIter struct {
	turn, iter int
	calls      []events.CallRecord
}

type inflight struct {
	mu sync.Mutex
	m  map[string]*inflightIter
}

// observe is the broker tap.
func (f *inflight) observe(e events.Event) {
	switch d := e.Data.(type) {
	case events.FormStart:
		if d.Shell || d.CallID == "" {
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		cur := f.m[e.SessionID]
		if cur == nil || cur.turn != e.Turn || cur.iter != e.Iteration {
			cur = &inflightIter{turn: e.Turn, iter: e.Iteration}
			f.m[e.SessionID] = cur
		}
		cur.calls = append(cur.calls, events.CallRecord{CallID: d.CallID, Code: d.Code, Running: true})
	case events.FormResult:
		f.mu.Lock()
		defer f.mu.Unlock()
		if cur := f.m[e.SessionID]; cur != nil && cur.turn == e.Turn && cur.iter == e.Iteration {
			for i, c := range cur.calls {
				if c.CallID == d.CallID {
					r := d.CallRecord
					r.Running = false
					cur.calls[i] = r
				}
			}
		}
	case events.IterationFinal, events.IterationError, events.TurnEnd:
		f.mu.Lock()
		delete(f.m, e.SessionID) // stored now, or never will be
		f.mu.Unlock()
	}
}

// addTo puts the session's in-flight programs into its transcript: on the
// running turn's iteration that has none stored (created when missing).
func (f *inflight) addTo(id string, turns []TurnView) {
	f.mu.Lock()
	cur := f.m[id]
	var calls []events.CallRecord
	if cur != nil {
		calls = append(calls, cur.calls...)
	}
	f.mu.Unlock()
	if cur == nil || len(calls) == 0 {
		return
	}
	for ti := range turns {
		t := &turns[ti]
		if t.Position != cur.turn || t.Status != "running" {
			continue
		}
		for ii := range t.Iterations {
			if it := &t.Iterations[ii]; it.Position == cur.iter {
				if len(it.Calls) == 0 {
					it.Calls = calls
				}
				return
			}
		}
		t.Iterations = append(t.Iterations, IterationView{Position: cur.iter, Status: "running", Calls: calls})
	}
}
