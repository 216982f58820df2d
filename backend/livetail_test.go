package backend

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A burst of lines becomes a few events; the last one counts every line
// and its tail is the newest; nothing is sent after close.
func TestLiveTailBatches(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []events.ToolOutput
	lt := newLiveTail("run_tests", func(ev events.ToolOutput) {
		mu.Lock()
		got = append(got, ev)
		mu.Unlock()
	})
	for i := 1; i <= 1000; i++ {
		lt.line(fmt.Sprintf("line %d", i))
	}
	lt.close()
	lt.line("after close")
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || len(got) > 1000/liveTailBatch+2 {
		t.Fatalf("%d events for 1000 lines", len(got))
	}
	last := got[len(got)-1]
	if last.Count != 1000 || last.Name != "run_tests" || len(last.Tail) != liveTailKeep || last.Tail[liveTailKeep-1] != "line 1000" || last.Tail[0] != "line 961" {
		t.Fatalf("last event: count %d, tail %q … %q", last.Count, last.Tail[0], last.Tail[len(last.Tail)-1])
	}
	for _, ev := range got {
		if len(ev.Lines) > liveTailBatch {
			t.Fatalf("an event carries %d lines", len(ev.Lines))
		}
	}
}

// What a program's shell command prints reaches the transcript while the
// tool runs: tool-output events between its tool-start and tool-end.
func TestShellOutputStreamsAsToolOutput(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Code: "r = shell('for i in 1 2 3; do echo step $i; done')\nprint(r['exit_code'])"},
		providertest.Reply{Content: []string{"done"}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	res, err := e.RunTurn(context.Background(), SendRequest{Workspace: t.TempDir(), Text: "go"})
	if err != nil || res.Status != "done" {
		t.Fatalf("turn: %+v, %v", res, err)
	}
	var phases []string
	var out events.ToolOutput
	for {
		ev := <-ch
		switch ev.Phase {
		case events.PhaseToolStart, events.PhaseToolEnd:
			phases = append(phases, ev.Phase)
		case events.PhaseToolOutput:
			if phases[len(phases)-1] != ev.Phase { // the first line goes at once, the rest batched
				phases = append(phases, ev.Phase)
			}
			out = payload[events.ToolOutput](t, ev)
			if ev.Turn != 1 || ev.Iteration != 1 {
				t.Errorf("tool-output at turn %d iteration %d", ev.Turn, ev.Iteration)
			}
		}
		if ev.Phase == events.PhaseTurnEnd {
			break
		}
	}
	if strings.Join(phases, " ") != "tool-start tool-output tool-end" {
		t.Fatalf("phases = %v", phases)
	}
	if out.Name != "shell" || out.Count != 3 || strings.Join(out.Tail, "|") != "step 1|step 2|step 3" {
		t.Fatalf("tool-output = %+v", out)
	}
}
