package ext

import "sync"

// StartLocks serialises the starts of one REPL in a pack that owns its
// REPLs: a call holds the lock of its key (session and REPL id) while it
// looks for a live REPL and starts one, so two calls never start the same
// REPL twice. The zero value is ready; safe for concurrent use. It keeps
// one small mutex per key a pack ever started.
type StartLocks struct {
	mu sync.Mutex
	m  map[string]*sync.Mutex
}

// For returns key's lock.
func (s *StartLocks) For(key string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.m[key]
	if l == nil {
		if s.m == nil {
			s.m = map[string]*sync.Mutex{}
		}
		l = &sync.Mutex{}
		s.m[key] = l
	}
	return l
}
