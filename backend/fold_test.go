package backend

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// recapOf is the CONVERSATION-SO-FAR part of a turn's first request.
func recapOf(rec providertest.Recorded) string {
	for _, m := range rec.Messages {
		if c, ok := m["content"].(string); ok && m["role"] == chat.RoleUser && strings.Contains(c, "CURRENT-USER-MESSAGE") {
			head, _, _ := strings.Cut(c, "CURRENT-USER-MESSAGE")
			return head
		}
	}
	return ""
}

func toolText(rec providertest.Recorded) string {
	return fmt.Sprint(rec.Messages[len(rec.Messages)-1]["content"])
}

// fold_session end to end, on a real store with the fake LLM: a fold of an
// earlier turn takes effect in the running turn's next request and in
// every later turn's recap, a fold of part of a turn shows as `(folded)
// <gist>` in place of its programs, both survive a restart of the engine,
// and the inspector shows the folded request exactly as it was sent.
func TestFoldSessionAcrossTurnsAndRestart(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	e := openEngine(t, llm, home)
	ctx := context.Background()
	run := func(e *Engine, id, text string, replies ...providertest.Reply) (TurnResult, []providertest.Recorded) {
		t.Helper()
		before := len(llm.Requests())
		llm.Push(replies...)
		res, err := e.RunTurn(ctx, SendRequest{SessionID: id, Workspace: ws, Text: text})
		if err != nil || res.Status != "done" {
			t.Fatalf("%s: %+v %v", text, res, err)
		}
		return res, llm.Requests()[before:]
	}
	code := func(c string) providertest.Reply { return providertest.Reply{Code: c} }
	answer := func(a string) providertest.Reply { return providertest.Reply{Content: []string{a}} }

	// Turn 1: some work worth folding later.
	res, _ := run(e, "", "inspect the config", code(`print("A" * 2000)`), answer("The config is fine."))
	id := res.SessionID

	// Turn 2 folds turn 1 and learns the grammar from a refusal.
	_, reqs := run(e, id, "fold the first turn",
		code(`print(fold_session("t9", "nothing"))`),
		code(`print(fold_session("t1", "config inspected: conf/app.yml is fine"))`),
		answer("Folded."))
	if len(reqs) != 3 {
		t.Fatalf("turn 2 sent %d requests", len(reqs))
	}
	refusal := toolText(reqs[1])
	for _, want := range []string{"turn 9, which does not exist", "t1 is settled; t2/i1 is running", "-t2/i9 (everything up to)"} {
		if !strings.Contains(refusal, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, refusal)
		}
	}
	if r := recapOf(reqs[1]); !strings.Contains(r, "inspect the config") {
		t.Fatalf("turn 2 did not start with turn 1 in its recap:\n%s", r)
	}
	folded := recapOf(reqs[2])
	if !strings.Contains(folded, "# ⋯ folded turn(s) 1 · config inspected: conf/app.yml is fine") || strings.Contains(folded, "inspect the config") || strings.Contains(folded, "The config is fine.") {
		t.Errorf("the fold of turn 1 did not reach turn 2's next request:\n%s", folded)
	}
	if out := toolText(reqs[2]); !strings.Contains(out, "'folded': 't1'") || !strings.Contains(out, "'iterations': 2") || !strings.Contains(out, "'tokens_saved': ") {
		t.Errorf("fold_session returned %s", out)
	}
	inspectorShowsTurn(t, e, id, 2, 3, reqs[2])

	// Turn 3 folds part of itself.
	_, reqs = run(e, id, "print C",
		code(`print("C" * 3000)`),
		code(`r = fold_session("t3/i1", "printed 3000 Cs")`+"\nprint(r)"),
		answer("Printed."))
	if r := recapOf(reqs[0]); !strings.Contains(r, "# ⋯ folded turn(s) 1 · config inspected") || strings.Contains(r, "inspect the config") {
		t.Errorf("turn 3's recap does not show turn 1 folded:\n%s", r)
	}
	if last := reqs[2]; strings.Contains(fmt.Sprint(last.Messages), strings.Repeat("C", 100)) || !strings.Contains(toolText(last), "# ⋯ folded t3/i1 · printed 3000 Cs\n") {
		t.Errorf("turn 3's last request still carries its folded iteration:\n%.1500s", toolText(last))
	}
	inspectorShowsTurn(t, e, id, 3, 3, reqs[2])

	// Turn 4's recap shows both folds; so does turn 5's, after a restart.
	check := func(r string) {
		t.Helper()
		if !strings.Contains(r, "# ⋯ folded turn(s) 1 · config inspected") || !strings.Contains(r, "you ran:\n  (folded) printed 3000 Cs\n") || strings.Contains(r, `print(\"C\" * 3000)`) || strings.Contains(r, `print("C" * 3000)`) {
			t.Errorf("the recap does not show the folds:\n%s", r)
		}
		if !strings.Contains(r, "user asked:\nprint C") || !strings.Contains(r, "you answered:\nPrinted.") {
			t.Errorf("a partly folded turn lost its request or answer:\n%s", r)
		}
	}
	_, reqs = run(e, id, "what happened?", answer("Two folds."))
	check(recapOf(reqs[0]))
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := openEngine(t, llm, home)
	defer e2.Close()
	_, reqs = run(e2, id, "and after a restart?", answer("Still folded."))
	check(recapOf(reqs[0]))
	inspectorShowsTurn(t, e2, id, 2, 3, llm.Requests()[4])

	// The transcript keeps everything the folds took out of the requests.
	tr, err := e2.Transcript(ctx, id)
	if err != nil || tr.Turns[0].Answer != "The config is fine." || !strings.Contains(tr.Turns[2].Iterations[0].Output, strings.Repeat("C", 3000)) {
		t.Errorf("the transcript lost folded work: %v", err)
	}
}

// The model can find and read fold_session: doc(), apropos() and the
// session's symbols name it.
func TestFoldSessionIsDiscoverable(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Code: `print(doc("fold_session"))` + "\n" + `print(apropos("fold"))`},
		providertest.Reply{Content: []string{"ok"}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	if res, err := e.RunTurn(context.Background(), SendRequest{Workspace: t.TempDir(), Text: "how do I fold?"}); err != nil || res.Status != "done" {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := llm.Requests()
	out := toolText(reqs[1])
	for _, want := range []string{"fold_session(key, gist)\nFold settled work out of your context", "-t2/i9 (everything up to)", "A gist is all that survives", "fold_session — Fold settled work out of your context"} {
		if !strings.Contains(out, want) {
			t.Errorf("doc/apropos output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(fmt.Sprint(reqs[0].Messages), `"fold_session"`) {
		t.Error("the session's symbols do not list fold_session")
	}
}
