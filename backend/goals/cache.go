package goals

import (
	"context"
	"sync"

	"github.com/visdesktop/vis/backend/store"
)

// A running turn reads its session's goal at every model request (Capture)
// and twice per block (Get, for session["goal_status"]); a session without
// a goal paid three queries an iteration for nothing (issue 17). While a
// turn holds the session's reads (HoldReads), Get and Capture answer from
// memory: the goal is read from the store once, and again after this
// Service wrote it or lost a compare-and-set to another writer. Another
// process's change reaches them at the next turn (the turn itself is
// stopped by StopCheck's poll, which, like every mutation, HaltCheck and
// StopCheck, always reads the store).

type heldGoal struct {
	mu     sync.Mutex
	refs   int
	gen    uint64 // bumped by every invalidation
	valid  bool
	goal   store.Goal
	exists bool
}

// HoldReads serves Get and Capture of sessionID from memory until release
// is called (see above). Holds nest; release is idempotent.
func (s *Service) HoldReads(sessionID string) (release func()) {
	s.heldMu.Lock()
	if s.held == nil {
		s.held = map[string]*heldGoal{}
	}
	h := s.held[sessionID]
	if h == nil {
		h = &heldGoal{}
		s.held[sessionID] = h
	}
	h.refs++
	s.heldMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.heldMu.Lock()
			defer s.heldMu.Unlock()
			if h.refs--; h.refs == 0 {
				delete(s.held, sessionID)
			}
		})
	}
}

// invalidate drops the held copy of sessionID's goal, if any.
func (s *Service) invalidate(sessionID string) {
	s.heldMu.Lock()
	h := s.held[sessionID]
	s.heldMu.Unlock()
	if h == nil {
		return
	}
	h.mu.Lock()
	h.gen++
	h.valid = false
	h.mu.Unlock()
}

// cachedRead is read, from the held copy while the session's reads are
// held.
func (s *Service) cachedRead(ctx context.Context, sessionID string) (store.Goal, bool, error) {
	s.heldMu.Lock()
	h := s.held[sessionID]
	s.heldMu.Unlock()
	if h == nil {
		return s.read(ctx, sessionID)
	}
	h.mu.Lock()
	if h.valid {
		g, ok := h.goal, h.exists
		h.mu.Unlock()
		return g, ok, nil
	}
	gen := h.gen
	h.mu.Unlock()
	g, ok, err := s.read(ctx, sessionID)
	if err != nil {
		return g, ok, err
	}
	h.mu.Lock()
	if h.gen == gen { // no write since the read began
		h.goal, h.exists, h.valid = g, ok, true
	}
	h.mu.Unlock()
	return g, ok, nil
}
