package sandbox

import (
	"fmt"
	"runtime/metrics"
	"time"
)

// A program's memory. Starlark has no allocation limit of its own: a loop
// appending megabyte strings grew the app to 4 GB in 13 s, taking every
// session (and the desktop) with it. While a block runs, its owner samples
// the process heap every memoryPoll; once it has grown by more than the
// limit since the block started, the block is cancelled like one that ran
// too many steps. The heap is the process's, so another session's work
// counts too: the limit is set well above what a program needs.

// DefaultMemoryLimit is how much a block may grow the heap: 1 GiB.
const DefaultMemoryLimit = 1 << 30

const memoryPoll = 50 * time.Millisecond

// heapSample reads what the heap holds now: live objects and the garbage
// not yet collected (the metric the runtime keeps current between GCs).
func heapSample() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// memoryWatch samples the heap until done closes and calls over (once)
// when it grew by more than limit bytes over base.
func memoryWatch(base, limit uint64, done <-chan struct{}, over func(grown uint64)) {
	t := time.NewTicker(memoryPoll)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if now := heapSample(); now > base && now-base > limit {
				over(now - base)
				return
			}
		}
	}
}

func memoryError(limit, grown uint64) *Error {
	return &Error{Phase: PhaseLimit,
		Message: fmt.Sprintf("the block used more than %d MiB of memory (%d MiB) and was stopped", limit>>20, grown>>20),
		Hint:    "process the data in pieces (read, reduce and drop it in a loop) instead of holding it all; what the block assigned before it stopped is still in its variables"}
}
