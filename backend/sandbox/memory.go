package sandbox

import (
	"fmt"
	"runtime"
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
func heapSample() uint64 { return readMetric("/memory/classes/heap/objects:bytes") }

// heapLive reads the live heap as the last GC marked it: no garbage.
func heapLive() uint64 { return readMetric("/gc/heap/live:bytes") }

func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// memoryBase is what a block's growth is measured from: never less than
// the live heap at its start, never more than that plus half the limit.
// The heap as sampled also holds the garbage of whatever ran before (a big
// earlier block leaves hundreds of MB of it, collected later), and a base
// that includes it let a memory bomb grow that much more before it was
// stopped (the soak saw one run into its wall limit instead). When more
// than half the limit was allocated since the last GC, it collects first
// and the base is the live heap; otherwise it is the sample (the live heap
// as the last GC marked it can be lower than what lives now, and a base
// below it stopped an endless loop that held nothing).
func memoryBase(limit uint64) uint64 {
	if s := heapSample(); s <= heapLive()+limit/2 {
		return s
	}
	runtime.GC()
	return heapLive()
}

// memoryWatch samples the heap until done closes and calls over (once)
// when it grew by more than limit bytes over base. The sample counts
// garbage not yet collected, so a block that only churns (a loop making
// big ints) may look over a small limit: before calling over, it collects
// and reads the live heap (at most every gcEvery, so a heap near the limit
// does not collect at every poll).
func memoryWatch(base, limit uint64, done <-chan struct{}, over func(grown uint64)) {
	t := time.NewTicker(memoryPoll)
	defer t.Stop()
	var lastGC time.Time
	for {
		select {
		case <-done:
			return
		case <-t.C:
			now := heapSample()
			if now <= base || now-base <= limit {
				continue
			}
			if time.Since(lastGC) < gcEvery {
				continue
			}
			runtime.GC()
			lastGC = time.Now()
			if now = heapLive(); now > base && now-base > limit {
				over(now - base)
				return
			}
		}
	}
}

const gcEvery = 100 * time.Millisecond

// memoryError: "memory limit 1024 MB exceeded (sandbox.memory_limit_mb:
// unset, default 1024): the block grew the heap by 1090 MB and was
// stopped". MB are MiB, as the key counts them.
func memoryError(lim Limits, grown uint64) *Error {
	hint := "process the data in pieces (read, reduce and drop it in a loop) instead of holding it all; what the block assigned before it stopped is still in its variables"
	if lim.MemoryHint != "" {
		hint += "; " + lim.MemoryHint
	}
	return &Error{Phase: PhaseLimit,
		Message: fmt.Sprintf("memory limit %d MB exceeded%s: the block grew the heap by %d MB and was stopped", lim.Memory>>20, where(lim.MemoryWhere), grown>>20),
		Hint:    hint}
}
