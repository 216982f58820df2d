package backend

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The stub a settled output becomes when the loop drops it from a request.
const droppedStub = "output dropped to fit the context window"

func inspectorShows(t *testing.T, e *Engine, sessionID string, iter int, sent providertest.Recorded) string {
	t.Helper()
	return inspectorShowsTurn(t, e, sessionID, 1, iter, sent)
}

func inspectorShowsTurn(t *testing.T, e *Engine, sessionID string, turn, iter int, sent providertest.Recorded) string {
	t.Helper()
	ctx := context.Background()
	msgs, _, err := e.sentMessages(ctx, sessionID, turn, iter)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []providertest.Sent
	for _, m := range msgs {
		got = append(got, providertest.SentFromChat(m))
	}
	for _, m := range sent.Messages {
		want = append(want, providertest.SentFromWire(m))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inspector's iteration %d is not what was sent (-sent +inspector):\n%.3000s", iter, diff)
	}
	v, err := e.Prompt(ctx, sessionID, turn, iter)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Messages) != len(sent.Messages) {
		t.Fatalf("inspector shows %d messages for iteration %d, %d were sent", len(v.Messages), iter, len(sent.Messages))
	}
	var text strings.Builder
	for i, m := range v.Messages {
		if m.Role != sent.Messages[i]["role"] {
			t.Errorf("iteration %d message %d: role %s, sent %v", iter, i, m.Role, sent.Messages[i]["role"])
		}
		var body []string
		for _, b := range m.Blocks {
			body = append(body, b.Text)
		}
		// Blocks are cut at line breaks (a result, then its delta lines).
		flat := func(s string) string { return strings.ReplaceAll(s, "\n", "") }
		if m.Role == chat.RoleTool && flat(strings.Join(body, "")) != flat(fmt.Sprint(sent.Messages[i]["content"])) {
			t.Errorf("iteration %d message %d: the inspector's tool result is not the one sent", iter, i)
		}
		text.WriteString(strings.Join(body, "\n"))
	}
	return text.String()
}

// printingReply is a program that prints n copies of c.
func printingReply(c string, n int) providertest.Reply {
	return providertest.Reply{Code: fmt.Sprintf("print(%q * %d)", c, n)}
}

func toolResults(rec providertest.Recorded) int {
	n := 0
	for _, m := range rec.Messages {
		if m["role"] == chat.RoleTool {
			n++
		}
	}
	return n
}

// A turn whose 4th request the provider refuses as too long: the loop
// drops the settled outputs, re-issues it, and the turn completes. The
// inspector shows each iteration's request as it was sent: iteration 3's
// with the full outputs, iteration 4's with the stubs the provider
// answered, iteration 5's as the compacted messages plus iteration 4's
// program and output.
func TestInspectorShowsTheCompactedRequest(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	var mu sync.Mutex
	window := 0 // chars; set when the 4th request first arrives
	llm.SetDynamic(func(r providertest.Recorded) providertest.Reply {
		switch n := toolResults(r); n {
		case 0, 1, 2:
			return printingReply(string(rune('A'+n)), 8000)
		case 3:
			mu.Lock()
			defer mu.Unlock()
			if window == 0 {
				// Too small for the full request by more than one output,
				// so both settled outputs must go.
				window = providertest.InputChars(r.Messages) - 10000
			}
			next := printingReply("D", 100)
			next.MaxInputChars = window
			return next
		default:
			return providertest.Reply{Content: []string{"All four read."}}
		}
	})
	e := openEngineWithModel(t, llm, "{name: plain}")
	ctx := context.Background()
	res, err := e.RunTurn(ctx, SendRequest{Workspace: t.TempDir(), Text: "read them"})
	if err != nil || res.Status != "done" || res.Answer != "All four read." {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := llm.Requests()
	if len(reqs) != 6 || llm.Refused() != 1 {
		t.Fatalf("%d requests, %d refused; want 6 and 1", len(reqs), llm.Refused())
	}
	full := func(c string) string { return strings.Repeat(c, 8000) }

	three := inspectorShows(t, e, res.SessionID, 3, reqs[2])
	if !strings.Contains(three, full("A")) || !strings.Contains(three, full("B")) || strings.Contains(three, droppedStub) {
		t.Error("iteration 3's request (sent before the compaction) does not show the full outputs")
	}
	four := inspectorShows(t, e, res.SessionID, 4, reqs[4]) // reqs[3] was refused
	if strings.Count(four, droppedStub) != 2 || strings.Contains(four, full("A")) || strings.Contains(four, full("B")) || !strings.Contains(four, full("C")) {
		t.Errorf("iteration 4's request shows %d stubs; want outputs 1 and 2 as stubs, not in full, and output 3 in full", strings.Count(four, droppedStub))
	}
	five := inspectorShows(t, e, res.SessionID, 5, reqs[5])
	if strings.Count(five, droppedStub) != 2 || strings.Contains(five, full("A")) || !strings.Contains(five, strings.Repeat("D", 100)) {
		t.Error("iteration 5's request is not the compacted messages plus iteration 4's output")
	}
	// The window's inspector says which request was rebuilt.
	for iter, want := range map[int]int{3: 0, 4: 4, 5: 4} {
		if v, err := e.Prompt(ctx, res.SessionID, 1, iter); err != nil || v.RebuiltAt != want {
			t.Errorf("Prompt(1, %d).RebuiltAt = %d, %v; want %d", iter, v.RebuiltAt, err, want)
		}
	}
	// The transcript keeps the outputs the requests dropped.
	tr, err := e.Transcript(ctx, res.SessionID)
	if err != nil || !strings.Contains(tr.Turns[0].Iterations[0].Output, full("A")) {
		t.Fatalf("the transcript lost the first output: %v", err)
	}
}

// A compaction that does not help: the provider refuses the re-issued
// request too and the turn ends with the window-too-small error. The
// inspector's failing iteration shows the last request, the one the error
// is about, not the full one.
func TestInspectorExplainsAFailedCompaction(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	llm.SetDynamic(func(r providertest.Recorded) providertest.Reply {
		if n := toolResults(r); n < 3 {
			return printingReply(string(rune('A'+n)), 8000)
		}
		return providertest.Reply{Content: []string{"never"}, MaxInputChars: 100}
	})
	e := openEngineWithModel(t, llm, "{name: plain}")
	res, err := e.RunTurn(context.Background(), SendRequest{Workspace: t.TempDir(), Text: "read them"})
	if err != nil || res.Status != "error" || !strings.Contains(res.Error, "context window is too small") {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := llm.Requests()
	if len(reqs) < 5 || llm.Refused() != len(reqs)-3 {
		t.Fatalf("%d requests, %d refused", len(reqs), llm.Refused())
	}
	four := inspectorShows(t, e, res.SessionID, 4, reqs[len(reqs)-1])
	if !strings.Contains(four, droppedStub) || strings.Contains(four, strings.Repeat("A", 8000)) {
		t.Error("the failing iteration does not show the compacted request that was refused last")
	}
}

// A turn that starts with its recap folded (a long session on a known small
// window) stores the folded prompt: the inspector shows the recap that was
// sent, with its oldest turns dropped, not the full one.
func TestInspectorShowsTheFoldedRecap(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	const window = 8000 // tokens, as configured
	llm.SetContextWindow(window * 4)
	e := openEngineWithModel(t, llm, fmt.Sprintf("{name: small, context: %d}", window))
	ctx := context.Background()
	ws := t.TempDir()
	id := ""
	const turns = 8
	for n := 1; n <= turns; n++ {
		llm.Push(longAnswer(n))
		res, err := e.RunTurn(ctx, SendRequest{SessionID: id, Workspace: ws, Text: fmt.Sprintf("question %d", n)})
		if err != nil || res.Status != "done" {
			t.Fatalf("turn %d: %+v %v", n, res, err)
		}
		id = res.SessionID
	}
	reqs := llm.Requests()
	if len(reqs) != turns || llm.Refused() != 0 {
		t.Fatalf("%d requests, %d refused; want %d and 0", len(reqs), llm.Refused(), turns)
	}
	last := inspectorShowsTurn(t, e, id, turns, 1, reqs[turns-1])
	if !strings.Contains(last, "(⋯ shortened to fit the context window: ") || !strings.Contains(last, "Answer 1. findings") {
		t.Error("the inspector does not show turn 8's recap as folded")
	}
}
