package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/chat"
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
				case events.PhaseTurnStart:
					last = time.Time{}
				case events.PhaseProviderCall:
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

// compactionFixture is a 50-iteration turn (each program printed ~4 KB)
// after a 20-turn recap with ~2 KB answers, on the real stable prompt.
func compactionFixture(b *testing.B) ([]chat.Message, *Recap, int) {
	ws := b.TempDir()
	stable, _ := prompt.StableMessages(prompt.Env{Workspace: ws, VisHome: b.TempDir(), UserHome: b.TempDir(), Channel: "cli"},
		prompt.StableOptions{SessionBlock: prompt.SessionBlock(map[string]any{"id": "s", "workspace": map[string]any{"root": ws}})})
	var prev []prompt.TurnRecap
	for i := 1; i <= 20; i++ {
		prev = append(prev, prompt.TurnRecap{Position: i, Request: "question", Status: prompt.StatusDone,
			Ran: []string{"print(cat('a.py')['text'])"}, Answer: strings.Repeat("an answer ", 200)})
	}
	build := func(f RecapFold) []chat.Message {
		return prompt.InitialMessages(stable, prompt.UserInput{Text: "go on", Previous: prev, Fold: prompt.RecapFold(f)})
	}
	msgs := build(RecapFold{})
	base := len(msgs)
	for i := 1; i <= 50; i++ {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: id, Name: "python_execution", Arguments: `{"code":"r = grep('needle')\nfor m in r['matches'][:40]:\n    print(m['path'], m['line'], m['text'])"}`}}},
			chat.Message{Role: chat.RoleTool, ToolCallID: id, Content: fmt.Sprintf("# t21/i%d\n%s\n\nsession[\"scope\"][\"iter\"] = %d", i, strings.Repeat("src/pkg/file.go:42: a matching line\n", 110), i+1)})
	}
	pos := make([]int, len(prev))
	for i := range pos {
		pos[i] = i + 1
	}
	return msgs, &Recap{Positions: pos, Build: build}, base
}

// BenchmarkCompaction measures one emergency compaction of a 50-iteration
// turn: to 50 % of its size (settled outputs only) and to a size that also
// needs the recap folded; and EstimateTokens, which every request now
// pays. For scale it reports the request's estimated
// tokens and the cost of JSON-encoding the messages once, which the
// provider client does for every request anyway.
func BenchmarkCompaction(b *testing.B) {
	msgs, recap, base := compactionFixture(b)
	total := EstimateTokens(msgs)
	initial := EstimateTokens(msgs[:base])
	for _, c := range []struct {
		name   string
		target int
	}{
		{"outputs-only", total / 2},
		{"outputs-and-recap", initial / 2},
	} {
		b.Run(c.name, func(b *testing.B) {
			var tr turnRun
			for b.Loop() {
				tr = turnRun{t: Turn{Recap: recap}, msgs: append([]chat.Message(nil), msgs...), base: base}
				tr.compact(c.target)
			}
			b.ReportMetric(float64(total), "tokens-before")
			b.ReportMetric(float64(EstimateTokens(tr.msgs)), "tokens-after")
		})
	}
	b.Run("estimate-per-request", func(b *testing.B) {
		for b.Loop() {
			EstimateTokens(msgs)
		}
	})
	b.Run("json-encode-once", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(msgs); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFold measures folding the oldest 40 iterations of a 50-iteration
// turn (`-t21/i40`) out of its wire messages: once measured for the
// builtin's return (State.Fold copies and folds), once applied.
func BenchmarkFold(b *testing.B) {
	msgs, recap, base := compactionFixture(b)
	var spans []iterSpan
	for i := 1; i <= 50; i++ {
		spans = append(spans, iterSpan{iter: i, from: base + 2*(i-1), to: base + 2*i})
	}
	set := map[int]bool{}
	var iters []int
	for i := 1; i <= 40; i++ {
		set[i] = true
		iters = append(iters, i)
	}
	var after []chat.Message
	b.Run("measure-and-apply", func(b *testing.B) {
		for b.Loop() {
			tr := &turnRun{t: Turn{Recap: recap}, msgs: msgs, base: base, pos: 21, iter: 51, spans: spans}
			st := &State{}
			tr.live = &liveTurn{tr: tr}
			st.live = tr.live
			if _, err := st.Fold(iters, "found the needle in src/pkg/file.go:42", false); err != nil {
				b.Fatal(err)
			}
			tr.applyFolds(len(tr.msgs))
			after = tr.msgs
		}
		b.ReportMetric(float64(EstimateTokens(msgs)), "tokens-before")
		b.ReportMetric(float64(EstimateTokens(after)), "tokens-after")
	})
	b.Run("fold-messages-once", func(b *testing.B) {
		for b.Loop() {
			foldMessages(21, msgs, spans, set, "gist")
		}
	})
}
