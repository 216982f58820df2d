package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
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

// A long session of many programs on a model whose window is known from
// config keeps answering, and the model keeps every answer: each turn's
// recap folds the oldest turns' programs before the request (seed 000:
// every prior answer is rendered in full), so the provider never refuses
// one; the turn carries a marker saying so, live (the warning's Context,
// a banner only the first time) and in the transcript.
func TestLongSessionFoldsProgramsAndKeepsEveryAnswer(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	const window = 5000              // tokens, as configured
	llm.SetContextWindow(window * 4) // the fake refuses anything larger
	e := openEngineWithModel(t, llm, fmt.Sprintf("{name: small, context: %d}", window))
	ctx := context.Background()
	ws := t.TempDir()
	ch, stop := e.Events().Subscribe(1 << 14)
	defer stop()
	const turns, programs = 6, 20
	answer := func(n int) string { return fmt.Sprintf("Answer %d. %s.", n, strings.Repeat("kept ", 60)) }
	id := ""
	for n := 1; n <= turns; n++ {
		for k := 1; k <= programs; k++ {
			llm.Push(providertest.Reply{Code: fmt.Sprintf("print(%d) # turn %d program %d %s", k, n, k, strings.Repeat("p", 80))})
		}
		llm.Push(providertest.Reply{Content: []string{answer(n)}})
		res, err := e.RunTurn(ctx, SendRequest{SessionID: id, Workspace: ws, Text: fmt.Sprintf("question %d", n)})
		if err != nil || res.Status != "done" || res.Answer != answer(n) {
			t.Fatalf("turn %d: %+v %v", n, res, err)
		}
		id = res.SessionID
	}
	if llm.Refused() != 0 {
		t.Fatalf("%d requests refused: the recap was not folded before sending", llm.Refused())
	}
	// Every request of every turn carried every earlier answer in full.
	reqs := llm.Requests()
	for i, rec := range reqs {
		n := i/(programs+1) + 1 // the turn the request belongs to
		user := recapOf(rec)
		for k := 1; k < n; k++ {
			if !strings.Contains(user, "user asked:\nquestion "+fmt.Sprint(k)+"\n") || !strings.Contains(user, "you answered:\n"+strings.TrimSpace(answer(k))) {
				t.Fatalf("request %d (turn %d) lacks turn %d's request or answer:\n%s", i+1, n, k, user)
			}
		}
		if strings.Contains(user, "dropped turn(s)") {
			t.Fatalf("request %d dropped turns:\n%.600s", i+1, user)
		}
	}
	// The last turn's first request: the oldest programs folded, the newest
	// still there.
	last := recapOf(reqs[(turns-1)*(programs+1)])
	if !strings.Contains(last, "# ── turn 1 ──\nuser asked:\nquestion 1\nyou ran:\n"+prompt.ProgramsFoldedLine(programs)+"\nyou answered:\n") ||
		!strings.Contains(last, fmt.Sprintf("turn %d program %d ", turns-1, programs)) {
		t.Fatalf("the last turn's first recap does not fold the oldest programs first:\n%s", last)
	}
	// One banner when folding starts; every folded turn has its marker.
	var banners, quiet int
	for len(ch) > 0 {
		if w, ok := events.As[events.Warning](<-ch); ok && w.Context != nil {
			if w.Quiet {
				quiet++
			} else {
				banners++
			}
			if w.Context.TurnsDropped != 0 || !strings.Contains(w.Context.Note, "every answer kept") {
				t.Errorf("warning %q: context %+v", w.Message, *w.Context)
			}
		}
	}
	if banners != 1 || quiet == 0 {
		t.Errorf("%d banners and %d quiet context warnings, want 1 and some", banners, quiet)
	}
	tr, err := e.Transcript(ctx, id)
	if err != nil || len(tr.Turns) != turns {
		t.Fatalf("transcript: %d turns, %v", len(tr.Turns), err)
	}
	if tr.Turns[0].ContextFold != nil {
		t.Errorf("turn 1 had nothing to fold: %+v", tr.Turns[0].ContextFold)
	}
	f := tr.Turns[turns-1].ContextFold
	if f == nil || f.ProgramsFolded == 0 || !strings.HasPrefix(f.Note, "Earlier programs folded to fit the context: ") {
		t.Fatalf("turn %d's marker = %+v", turns, f)
	}
	for k, tv := range tr.Turns {
		if tv.Answer != answer(k+1) || len(tv.Iterations) != programs+1 {
			t.Errorf("the transcript lost part of turn %d", k+1)
		}
	}
}

// A long session whose answers alone outgrow the model's window (known from
// config) keeps answering: with no program left to fold, each turn's recap
// drops its oldest turns whole before the request (the last resort), so
// the provider never refuses one.
func TestLongSessionFoldsTheRecapProactively(t *testing.T) {
	t.Parallel()
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
		if w, ok := events.As[events.Warning](<-ch); ok && strings.HasPrefix(w.Message, "Context window full") && !w.Quiet {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("%d context warnings over 8 turns, want 1", warned)
	}
	reqs := llm.Requests()
	last := userMessage(reqs[len(reqs)-1])
	// Every answer is there, the oldest cut to their heads; the newest whole.
	if strings.Contains(last, "dropped turn(s)") || !strings.Contains(last, "(⋯ shortened to fit the context window: ") ||
		!strings.Contains(last, "# ── turn 7 ──\nuser asked:\nquestion 7\nyou answered:\n"+strings.TrimSpace(longAnswer(7).Content[0])+"\n") ||
		!strings.HasSuffix(last, ";; -- CURRENT-USER-MESSAGE --\nquestion 8\n") {
		t.Fatalf("turn 8's user message:\n%.400s", last)
	}
	for n := 1; n <= 7; n++ {
		if !strings.Contains(last, fmt.Sprintf("# ── turn %d ──\nuser asked:\nquestion %d\nyou answered:\nAnswer %d. findings", n, n, n)) {
			t.Errorf("turn %d's answer is not in turn 8's recap", n)
		}
	}
	// The transcript keeps every turn in full.
	tr, err := e.Transcript(ctx, id)
	if err != nil || len(tr.Turns) != 8 || !strings.HasPrefix(tr.Turns[0].Answer, "Answer 1.") {
		t.Fatalf("transcript: %d turns, %v", len(tr.Turns), err)
	}
}

// A model whose window is unknown: when the provider refuses a turn as too
// long, the loop cuts the recap's oldest answers to their heads (every
// answer still there) and the session goes on, turn after turn, each with
// a warning the window shows.
func TestOverflowMidSessionIsRecovered(t *testing.T) {
	t.Parallel()
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
	if strings.Contains(last, "dropped turn(s)") || !strings.Contains(last, "(⋯ shortened to fit the context window: ") || !strings.HasSuffix(last, "question 5\n") {
		t.Fatalf("turn 5's user message:\n%.400s", last)
	}
	for n := 1; n <= 4; n++ {
		if !strings.Contains(last, fmt.Sprintf("you answered:\nAnswer %d. findings", n)) {
			t.Errorf("turn %d's answer is not in turn 5's recap", n)
		}
	}
	var warned []string
	for len(ch) > 0 {
		ev := <-ch
		if w, ok := events.As[events.Warning](ev); ok && ev.SessionID == id {
			warned = append(warned, w.Message)
		}
	}
	if len(warned) != 2 || !strings.HasPrefix(warned[0], "Context window full: cut the requests and answers of turn(s) 1") || !strings.Contains(warned[0], "every answer is kept") {
		t.Fatalf("warnings = %q", warned)
	}
}
