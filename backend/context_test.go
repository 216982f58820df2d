package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// openEngineWithModel opens an engine whose only model is described by the
// YAML flow map model (e.g. `{name: small, context: 8000}`).
func openEngineWithModel(t *testing.T, llm *providertest.Server, model string) *Engine {
	t.Helper()
	home := t.TempDir()
	cfg := "providers:\n  - id: local\n    base_url: " + llm.URL + "\n    models: [" + model + "]\n"
	if err := os.WriteFile(filepath.Join(home, "config.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Open(context.Background(), Options{Home: home, Getenv: func(string) string { return "" }, Secrets: secrets.NewWith(filepath.Join(home, "s.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// longAnswer is a ~6,000-character answer that names its turn.
func longAnswer(n int) providertest.Reply {
	return providertest.Reply{Content: []string{fmt.Sprintf("Answer %d. %s", n, strings.Repeat("findings ", 660))}}
}

func userMessage(rec providertest.Recorded) string {
	return fmt.Sprint(rec.Messages[len(rec.Messages)-1]["content"])
}

// A long session on a model whose window is known from config keeps
// answering: each turn's recap drops its oldest turns before the request,
// so the provider never refuses one.
func TestLongSessionFoldsTheRecapProactively(t *testing.T) {
	llm := providertest.New()
	defer llm.Close()
	const window = 8000              // tokens, as configured
	llm.SetContextWindow(window * 4) // the fake refuses anything larger
	e := openEngineWithModel(t, llm, fmt.Sprintf("{name: small, context: %d}", window))
	ctx := context.Background()
	ws := t.TempDir()
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	id := ""
	for n := 1; n <= 8; n++ {
		llm.Push(longAnswer(n))
		res, err := e.RunTurn(ctx, SendRequest{SessionID: id, Workspace: ws, Text: fmt.Sprintf("question %d", n)})
		if err != nil || res.Status != "done" || !strings.HasPrefix(res.Answer, fmt.Sprintf("Answer %d.", n)) {
			t.Fatalf("turn %d: %+v %v", n, res, err)
		}
		id = res.SessionID
	}
	if llm.Refused() != 0 {
		t.Fatalf("%d requests refused: the recap was not folded before sending", llm.Refused())
	}
	// Folding at turn start is the steady state: one warning when it begins,
	// not a banner on every turn.
	warned := 0
	for len(ch) > 0 {
		if w, ok := events.As[events.Warning](<-ch); ok && strings.HasPrefix(w.Message, "Context window full") {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("%d context warnings over 8 turns, want 1", warned)
	}
	reqs := llm.Requests()
	last := userMessage(reqs[len(reqs)-1])
	if !strings.HasPrefix(last, ";; -- CONVERSATION-SO-FAR --\n# ⋯ dropped turn(s) 1–") || !strings.Contains(last, "# ── turn 7 ──\nuser asked:\nquestion 7\nyou answered:\nAnswer 7.") ||
		strings.Contains(last, "Answer 1.") || !strings.HasSuffix(last, ";; -- CURRENT-USER-MESSAGE --\nquestion 8\n") {
		t.Fatalf("turn 8's user message:\n%.400s", last)
	}
	// The transcript keeps every turn in full.
	tr, err := e.Transcript(ctx, id)
	if err != nil || len(tr.Turns) != 8 || !strings.HasPrefix(tr.Turns[0].Answer, "Answer 1.") {
		t.Fatalf("transcript: %d turns, %v", len(tr.Turns), err)
	}
}

// A model whose window is unknown: when the provider refuses a turn as too
// long, the loop drops the recap's oldest turns and the session goes on,
// turn after turn, each with a warning the window shows.
func TestOverflowMidSessionIsRecovered(t *testing.T) {
	llm := providertest.New()
	defer llm.Close()
	e := openEngineWithModel(t, llm, "{name: plain}")
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	ctx := context.Background()
	ws := t.TempDir()
	id := ""
	run := func(n int) {
		t.Helper()
		res, err := e.RunTurn(ctx, SendRequest{SessionID: id, Workspace: ws, Text: fmt.Sprintf("question %d", n)})
		if err != nil || res.Status != "done" || !strings.HasPrefix(res.Answer, fmt.Sprintf("Answer %d.", n)) {
			t.Fatalf("turn %d: %+v %v", n, res, err)
		}
		id = res.SessionID
	}
	for n := 1; n <= 3; n++ {
		llm.Push(longAnswer(n))
		run(n)
	}
	// The provider's real window turns out to be smaller than what turn 4
	// needs (the stable prompt plus about two of the long turns).
	size := providertest.InputChars(llm.Requests()[2].Messages)
	for n := 4; n <= 5; n++ {
		r := longAnswer(n)
		r.MaxInputChars = size
		llm.Push(r)
		run(n)
	}
	if llm.Refused() != 2 {
		t.Fatalf("%d refusals, want one per turn after the window shrank", llm.Refused())
	}
	reqs := llm.Requests()
	last := userMessage(reqs[len(reqs)-1])
	if !strings.Contains(last, "# ⋯ dropped turn(s) 1") || !strings.Contains(last, "Answer 4.") || !strings.HasSuffix(last, "question 5\n") {
		t.Fatalf("turn 5's user message:\n%.400s", last)
	}
	var warned []string
	for len(ch) > 0 {
		ev := <-ch
		if w, ok := events.As[events.Warning](ev); ok && ev.SessionID == id {
			warned = append(warned, w.Message)
		}
	}
	if len(warned) != 2 || !strings.HasPrefix(warned[0], "Context window full: dropped turn(s) 1") {
		t.Fatalf("warnings = %q", warned)
	}
}
