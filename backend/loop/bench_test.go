package loop

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// BenchmarkIteration measures the engine's own cost per iteration: stream a
// reply from a zero-latency fake provider over loopback, run a trivial
// program, build the result and the session delta, persist the iteration
// (a committed SQLite write). Reported: mean ns per iteration and the
// median time between consecutive provider calls of a turn.
func BenchmarkIteration(b *testing.B) {
	const perTurn = 50
	r := newRig(b, false)
	r.llm.SetDynamic(func(rec providertest.Recorded) providertest.Reply {
		if len(rec.Messages) >= 2*perTurn {
			return providertest.Reply{Content: []string{"done"}}
		}
		return providertest.Reply{Code: "x = 1"}
	})
	ch, stop := r.broker.Subscribe(1 << 16)
	var mu sync.Mutex
	var gaps []time.Duration
	done := make(chan struct{})
	go func() {
		defer close(done)
		var last time.Time
		for {
			select {
			case e := <-ch:
				switch e.Phase {
				case events.TurnStart:
					last = time.Time{}
				case events.ProviderCall:
					if !last.IsZero() {
						mu.Lock()
						gaps = append(gaps, e.At.Sub(last))
						mu.Unlock()
					}
					last = e.At
				}
			case <-time.After(time.Second):
				return
			}
		}
	}()
	b.ResetTimer()
	iters := 0
	for iters < b.N {
		res := r.turn(context.Background(), "bench", false)
		iters += res.Iterations
	}
	b.StopTimer()
	<-done
	stop()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(iters), "ns/iteration")
	mu.Lock()
	defer mu.Unlock()
	if len(gaps) > 0 {
		sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
		b.ReportMetric(float64(gaps[len(gaps)/2].Microseconds())/1000, "median-ms/iteration")
	}
}

// BenchmarkPrefixStability reports, over a 4-request turn with the real
// stable prompt, the median fraction of each request's message bytes that
// repeat the previous request byte for byte (what a prompt cache can reuse),
// and the minimum fraction of the previous request found as a prefix of the
// next (1.0 = every request is a byte-exact prefix of the next).
func BenchmarkPrefixStability(b *testing.B) {
	ws := b.TempDir()
	stable, _ := prompt.StableMessages(prompt.Env{Workspace: ws, VisHome: b.TempDir(), UserHome: b.TempDir(), Channel: "cli"},
		prompt.StableOptions{SessionBlock: prompt.SessionBlock(map[string]any{"id": "s", "workspace": map[string]any{"root": ws}})})
	msgs := prompt.InitialMessages(stable, prompt.UserInput{Text: "Rename the function add to sum everywhere and run the tests."})
	var cacheable []float64
	minPrefix := 1.0
	for i := 0; i < b.N; i++ {
		r := newRig(b, false,
			providertest.Reply{Code: "r = grep('add')\nprint(len(r['matches']))"}, providertest.Reply{Code: "print(cat('a.py')['text'])"},
			providertest.Reply{Code: "print(shell('true')['exit_code'])"}, providertest.Reply{Content: []string{"ok"}})
		r.turnWith(context.Background(), msgs)
		reqs := r.llm.Requests()
		for k := 1; k < len(reqs); k++ {
			a, _ := json.Marshal(reqs[k-1].Body["messages"])
			c, _ := json.Marshal(reqs[k].Body["messages"])
			n := 0
			for n < len(a) && n < len(c) && a[n] == c[n] {
				n++
			}
			cacheable = append(cacheable, float64(n)/float64(len(c)))
			if f := float64(n) / float64(len(a)-1); f < minPrefix { // -1: the closing bracket
				minPrefix = f
			}
		}
		r.llm.Close()
	}
	sort.Float64s(cacheable)
	b.ReportMetric(cacheable[len(cacheable)/2], "median-cacheable-fraction")
	b.ReportMetric(minPrefix, "min-prefix-of-previous")
}
