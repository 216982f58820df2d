package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// sameAsSent fails the test unless msgs are, message by message, the
// recorded request's messages.
func sameAsSent(t *testing.T, what string, rec providertest.Recorded, msgs []chat.Message) {
	t.Helper()
	var got, want []providertest.Sent
	for _, m := range msgs {
		got = append(got, providertest.SentFromChat(m))
	}
	for _, m := range rec.Messages {
		want = append(want, providertest.SentFromWire(m))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s is not what was sent (-sent +stored):\n%.3000s", what, diff)
	}
}

// storedRequest rebuilds the messages of iteration n's request from the
// store by the rule store.Iteration documents: the newest recorded request
// at or before n (else the turn prompt), then what each iteration from
// there up to n-1 appended. It also returns where it started (0 = prompt).
func (r *rig) storedRequest(t *testing.T, n int) ([]chat.Message, int) {
	t.Helper()
	ctx := context.Background()
	turns, err := r.store.ListTurns(ctx, r.sid)
	if err != nil || len(turns) == 0 {
		t.Fatalf("turns: %v", err)
	}
	turn, err := r.store.GetTurn(ctx, turns[len(turns)-1].ID)
	if err != nil {
		t.Fatal(err)
	}
	pos, req, err := r.store.RecordedRequest(ctx, turn.ID, n)
	if err != nil {
		t.Fatal(err)
	}
	from, raw := pos, req
	if pos == 0 {
		from, raw = 1, turn.PromptJSON
	}
	var msgs []chat.Message
	if err := json.Unmarshal([]byte(raw), &msgs); err != nil {
		t.Fatal(err)
	}
	its, err := r.store.ListIterations(ctx, turn.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range its[from-1 : n-1] {
		var more []chat.Message
		if err := json.Unmarshal([]byte(it.AppendedJSON), &more); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, more...)
	}
	return msgs, pos
}

// The iteration whose request was refused and compacted records the
// compacted request it re-sent; the iterations before it record nothing,
// and every iteration's request rebuilds from the store exactly as sent.
func TestCompactedRequestIsRecorded(t *testing.T) {
	t.Parallel()
	const window = 8000
	answer := providertest.Reply{Content: []string{"All three read."}, MaxInputChars: window}
	next := printing("D", 100)
	next.MaxInputChars = window
	r := newRig(t, false, printing("A", 4000), printing("B", 4000), printing("C", 4000), next, answer)
	if res := r.turn(context.Background(), "read them", false); res.Status != StatusDone || res.Iterations != 5 {
		t.Fatalf("result = %+v", res)
	}
	reqs := r.llm.Requests()
	if len(reqs) != 6 || r.llm.Refused() != 1 {
		t.Fatalf("%d requests, %d refused; want 6 and 1", len(reqs), r.llm.Refused())
	}
	// Iteration n's last request; reqs[3] is the refused one of iteration 4.
	last := map[int]int{1: 0, 2: 1, 3: 2, 4: 4, 5: 5}
	wantFrom := map[int]int{1: 0, 2: 0, 3: 0, 4: 4, 5: 4}
	for n := 1; n <= 5; n++ {
		msgs, from := r.storedRequest(t, n)
		if from != wantFrom[n] {
			t.Errorf("iteration %d rebuilds from the request of iteration %d, want %d", n, from, wantFrom[n])
		}
		sameAsSent(t, fmt.Sprintf("iteration %d's stored request", n), reqs[last[n]], msgs)
	}
	four, _ := r.storedRequest(t, 4)
	if body, _ := json.Marshal(four); strings.Contains(string(body), strings.Repeat("A", 100)) || !strings.Contains(string(body), outputDroppedNote) {
		t.Error("iteration 4's stored request shows the full first output, not the stub that was sent")
	}
}

// Three refusals in a row end the turn; the failing iteration records the
// last (smallest) request it sent, so the inspector explains the error.
func TestFailedCompactionRecordsTheLastAttempt(t *testing.T) {
	t.Parallel()
	var script []providertest.Reply
	for _, c := range "ABCDEFGHIJKLMNOPQRST" {
		script = append(script, printing(string(c), 2000))
	}
	for range 4 {
		script = append(script, providertest.Reply{Status: 400, Message: "Input is too long for the context window."})
	}
	r := newRig(t, false, script...)
	res := r.turn(context.Background(), "read them all", false)
	if res.Status != StatusError || !strings.HasPrefix(res.Error, ErrContextTooSmall) || res.Iterations != 21 {
		t.Fatalf("result = %+v", res)
	}
	reqs := r.llm.Requests()
	if len(reqs) != 24 {
		t.Fatalf("%d requests, want 24", len(reqs))
	}
	msgs, from := r.storedRequest(t, 21)
	if from != 21 {
		t.Fatalf("the failing iteration recorded no request (rebuilds from %d)", from)
	}
	sameAsSent(t, "the failing iteration's stored request", reqs[23], msgs)
	if _, from := r.storedRequest(t, 20); from != 0 {
		t.Errorf("iteration 20 (not compacted) rebuilds from %d, want the turn prompt", from)
	}
}

// A known window compacts before sending, with no refusal: each request
// rebuilds from the store as sent, and only compacted iterations store one.
func TestProactiveCompactionIsRecorded(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, printing("A", 2000), printing("B", 2000), printing("C", 2000), printing("D", 2000),
		providertest.Reply{Content: []string{"done"}})
	r.llm.SetContextWindow(1500 * 4)
	if res := r.turnRecap(context.Background(), 1500, []chat.Message{chat.System("SYS"), chat.User("go")}, nil); res.Status != StatusDone || r.llm.Refused() != 0 {
		t.Fatalf("result %+v, %d refused", res, r.llm.Refused())
	}
	reqs := r.llm.Requests()
	recorded := 0
	for n := 1; n <= 5; n++ {
		msgs, from := r.storedRequest(t, n)
		if from == n {
			recorded++
		}
		sameAsSent(t, fmt.Sprintf("iteration %d's stored request", n), reqs[n-1], msgs)
	}
	if recorded == 0 || recorded == 5 {
		t.Errorf("%d of 5 iterations recorded their request; want only the compacted ones", recorded)
	}
}

// A recap folded at turn start is the stored turn prompt: no iteration
// records a request.
func TestTurnStartFoldRecordsNoRequest(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, printing("A", 10), providertest.Reply{Content: []string{"ok"}})
	msgs, recap := recapMessages(10, 10, 2000, "now")
	if res := r.turnRecap(context.Background(), 2000, msgs, recap); res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	reqs := r.llm.Requests()
	for n := 1; n <= 2; n++ {
		got, from := r.storedRequest(t, n)
		if from != 0 {
			t.Errorf("iteration %d recorded its request after a turn-start fold", n)
		}
		sameAsSent(t, fmt.Sprintf("iteration %d's stored request", n), reqs[n-1], got)
	}
}
