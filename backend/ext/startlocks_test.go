package ext

import "testing"

func TestStartLocks(t *testing.T) {
	t.Parallel()
	var s StartLocks // the zero value is ready
	a, b := s.For("s1\x00py"), s.For("s2\x00py")
	if a == b {
		t.Fatal("two keys share a lock")
	}
	if s.For("s1\x00py") != a {
		t.Fatal("a key's lock changed between calls")
	}
	a.Lock()
	if b.TryLock() {
		b.Unlock()
	} else {
		t.Error("holding one key's lock held another's")
	}
	a.Unlock()
}
