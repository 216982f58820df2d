package loop

import (
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// BenchmarkIteration measures the engine's own cost per iteration: stream a
// reply from a zero-latency fake provider over loopback, run a trivial
// program, build the result and the session delta, persist the iteration.
// Reported: ns per iteration.
func BenchmarkIteration(b *testing.B) {
	const perTurn = 50
	r := newRig(b, false)
	r.llm.SetDynamic(func(rec providertest.Recorded) providertest.Reply {
		if len(rec.Messages)%(2*perTurn) == 0 {
			return providertest.Reply{Content: []string{"done"}}
		}
		return providertest.Reply{Code: "x = 1"}
	})
	ch, stop := r.broker.Subscribe(1 << 16)
	defer stop()
	go func() {
		for range ch {
		}
	}()
	b.ResetTimer()
	iters := 0
	for iters < b.N {
		res := r.turn(context.Background(), "bench", false)
		iters += res.Iterations
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(iters), "ns/iteration")
}

// BenchmarkPrefixStability reports the fraction of each request's message
// bytes that repeat the previous request byte for byte (prompt caching).
func BenchmarkPrefixStability(b *testing.B) {
	var frac []float64
	for i := 0; i < b.N; i++ {
		r := newRig(b, false,
			providertest.Reply{Code: "print(1)"}, providertest.Reply{Code: "print(2)"},
			providertest.Reply{Code: "print(3)"}, providertest.Reply{Content: []string{"ok"}})
		r.turn(context.Background(), "p", false)
		reqs := r.llm.Requests()
		for k := 1; k < len(reqs); k++ {
			a, _ := json.Marshal(reqs[k-1].Body["messages"])
			c, _ := json.Marshal(reqs[k].Body["messages"])
			n := 0
			for n < len(a) && n < len(c) && a[n] == c[n] {
				n++
			}
			frac = append(frac, float64(n)/float64(len(c)))
		}
		r.llm.Close()
	}
	sort.Float64s(frac)
	b.ReportMetric(frac[len(frac)/2], "median-prefix-fraction")
}
