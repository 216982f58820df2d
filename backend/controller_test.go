package backend

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/store"
)

// userText is the last user message of a recorded request.
func userText(r providertest.Recorded) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i]["role"] == "user" {
			return fmt.Sprint(r.Messages[i]["content"])
		}
	}
	return ""
}

// currentMessage is the CURRENT-USER-MESSAGE block of a turn's first
// request (what the person wrote, without the recap).
func currentMessage(r providertest.Recorded) string {
	u := userText(r)
	if i := strings.Index(u, ";; -- CURRENT-USER-MESSAGE --\n"); i >= 0 {
		u = u[i+len(";; -- CURRENT-USER-MESSAGE --\n"):]
	}
	return strings.TrimSpace(u)
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// Messages dispatched from many goroutines while a turn runs are each run
// exactly once, one turn at a time, in the order the engine queued them.
func TestConcurrentInputsRunOnceEachInQueueOrder(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"first"}, Delay: 30 * time.Millisecond})
	defer llm.Close()
	llm.SetDynamic(func(r providertest.Recorded) providertest.Reply {
		return providertest.Reply{Content: []string{"answered " + currentMessage(r)}, Delay: 2 * time.Millisecond}
	})
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	a, err := e.Dispatch(ctx, "", Input{Workspace: t.TempDir(), Text: "first"})
	if err != nil || !a.Started {
		t.Fatal(a, err)
	}
	id := a.SessionID
	const n = 8
	var wg sync.WaitGroup
	type queued struct {
		id   int64
		text string
	}
	ids := make(chan queued, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := fmt.Sprintf("message %d", i)
			r, err := e.Dispatch(ctx, id, Input{Text: text})
			if err != nil {
				t.Error(err)
				return
			}
			if r.Queued {
				ids <- queued{r.QueueID, text}
			}
		}()
	}
	wg.Wait()
	close(ids)
	waitUntil(t, "every message ran", func() bool {
		q, _ := e.Queue(ctx, id)
		return !e.Running(id) && len(q) == 0 && len(llm.Requests()) == n+1
	})
	tr, err := e.Transcript(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != n+1 {
		t.Fatalf("%d turns, want %d", len(tr.Turns), n+1)
	}
	seen := map[string]bool{}
	for i, turn := range tr.Turns {
		want := "answered " + turn.Request
		if i == 0 {
			want = "first"
		}
		if turn.Status != "done" || turn.Answer != want {
			t.Errorf("turn %d: %q → %s %q", i+1, turn.Request, turn.Status, turn.Answer)
		}
		if seen[turn.Request] {
			t.Errorf("%q ran twice", turn.Request)
		}
		seen[turn.Request] = true
	}
	// The queued ones ran in queue-id order.
	byText := map[string]int64{}
	for q := range ids {
		byText[q.text] = q.id
	}
	if len(byText) == 0 {
		t.Fatal("no message was queued behind the running turn")
	}
	last := int64(0)
	for _, turn := range tr.Turns {
		if qid, ok := byText[turn.Request]; ok {
			if qid < last {
				t.Errorf("%q (queue id %d) ran after queue id %d", turn.Request, qid, last)
			}
			last = qid
		}
	}
}

// A message queued behind a goal turn that the person pauses runs once the
// halted turn ends; being a genuine message, it resumes the paused goal
// (seed 003, resume-for-user-turn).
func TestQueuedMessageRunsAfterAHaltedGoalTurn(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Hang: true},                             // the goal's turn streams until the pause
		providertest.Reply{Content: []string{"Noted the schema."}}, // the queued message (the goal is active again: progress)
		providertest.Reply{Code: "update_goal('blocked')"},
		providertest.Reply{Content: []string{"Blocked: no credentials."}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	ctx := context.Background()
	a, err := e.Dispatch(ctx, "", Input{Workspace: t.TempDir(), Text: "/goal --budget 10 migrate the schema"})
	if err != nil || !a.Started || a.Goal == nil {
		t.Fatalf("typed /goal = %+v, %v", a, err)
	}
	id := a.SessionID
	waitUntil(t, "the goal turn streams", func() bool { return len(llm.Requests()) == 1 })
	q, err := e.Dispatch(ctx, id, Input{Text: "also check the indexes"})
	if err != nil || !q.Queued {
		t.Fatalf("message during the goal turn = %+v, %v; want queued", q, err)
	}
	if _, err := e.Dispatch(ctx, id, Input{Text: "/goal --pause"}); err != nil {
		t.Fatal(err)
	}
	first := payload[events.TurnEnd](t, waitFor(t, ch, events.PhaseTurnEnd))
	if first.Status != "halted" || first.Answer != goals.StoppedHaltMessage {
		t.Fatalf("the paused goal turn ended %+v", first)
	}
	second := payload[events.TurnEnd](t, waitFor(t, ch, events.PhaseTurnEnd))
	if second.Status != "done" || second.Answer != "Blocked: no credentials." {
		t.Fatalf("the queued message's turn ended %+v", second)
	}
	reqs := llm.Requests()
	if len(reqs) != 4 || currentMessage(reqs[1]) != "also check the indexes" {
		t.Fatalf("%d requests; the second turn's message %q", len(reqs), currentMessage(reqs[1]))
	}
	g, _ := e.Goal(ctx, id)
	if g == nil || g.Status != "blocked" || g.IterationsUsed != 3 {
		t.Fatalf("goal = %+v; want blocked after 3 charged responses (the halted one is not charged)", g)
	}
}

// The goal's clock runs only while a turn works on it.
func TestGoalClockRunsOnlyDuringGoalTurns(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Code: "update_goal('complete')", Delay: 100 * time.Millisecond}, providertest.Reply{Content: []string{"Done."}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	s, err := e.CreateSession(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Queued behind a `!cmd`, the goal waits with its turn: it is set when
	// its turn comes, as the message it is.
	if _, err := e.Dispatch(ctx, s.ID, Input{Text: "!sleep 0.5"}); err != nil {
		t.Fatal(err)
	}
	a, err := e.Dispatch(ctx, s.ID, Input{Goal: &GoalInput{Action: "set", Objective: "tidy up"}})
	if err != nil || !a.Queued || a.Goal != nil {
		t.Fatalf("set while a !cmd runs = %+v, %v; want queued, no goal yet", a, err)
	}
	if g, _ := e.Goal(ctx, s.ID); g != nil {
		t.Fatalf("goal while its turn waits = %+v; want none yet", g)
	}
	res, err := e.Run(ctx, s.ID, Input{Text: "/goal"})
	if err != nil || !strings.Contains(res.Answer, "no goal") {
		t.Fatalf("/goal = %+v, %v", res, err)
	}
	waitUntil(t, "the goal turn ended", func() bool {
		g, _ := e.Goal(ctx, s.ID)
		return g != nil && g.Status == "complete" && !e.Running(s.ID)
	})
	g, _ := e.Goal(ctx, s.ID)
	if g.TimeUsedMs < 100 || g.TimeUsedMs > 20_000 || !g.ActiveSince.IsZero() {
		t.Fatalf("goal after its turn = %+v; want the turn's time counted and the clock stopped", g)
	}
	before := g.TimeUsedMs
	time.Sleep(150 * time.Millisecond)
	if g, _ := e.Goal(ctx, s.ID); g.TimeUsedMs != before {
		t.Fatalf("the clock ran between turns: %d → %d ms", before, g.TimeUsedMs)
	}
	// The goal turn's request shows the objective as typed by the panel.
	if got := currentMessage(llm.Requests()[0]); got != "/goal tidy up" {
		t.Fatalf("the goal turn's message = %q", got)
	}
}

// A queue left by a process that is gone is held: it shows, nothing runs it
// until the person sends it; then it drains in order.
func TestHeldQueueWaitsForThePerson(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"one"}}, providertest.Reply{Content: []string{"two"}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	s, err := e.CreateSession(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gone := "1:0" // pid 1 with a start time it never had: a process that is gone
	for _, text := range []string{"first queued", "second queued"} {
		if _, err := e.store.Enqueue(ctx, store.Queued{SessionID: s.ID, Kind: store.QueueTurn, Text: text, Owner: gone}); err != nil {
			t.Fatal(err)
		}
	}
	q, err := e.Queue(ctx, s.ID)
	if err != nil || len(q) != 2 || !q[0].Held || q[0].Elsewhere {
		t.Fatalf("queue = %+v, %v; want two held inputs", q, err)
	}
	time.Sleep(50 * time.Millisecond)
	if e.Running(s.ID) || len(llm.Requests()) != 0 {
		t.Fatal("a held queue ran by itself")
	}
	if err := e.ReleaseQueue(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the released queue drained", func() bool {
		q, _ := e.Queue(ctx, s.ID)
		return len(q) == 0 && !e.Running(s.ID) && len(llm.Requests()) == 2
	})
	if a, b := currentMessage(llm.Requests()[0]), currentMessage(llm.Requests()[1]); a != "first queued" || b != "second queued" {
		t.Fatalf("ran %q then %q", a, b)
	}
	if err := e.ReleaseQueue(ctx, s.ID); err != ErrNothingQueued {
		t.Fatalf("releasing an empty queue: %v", err)
	}
}

// Images go with a message to the model, never with `!cmd` or a command;
// a queued message keeps its images, and Stop hands them back.
func TestImagesGoOnlyWithAMessage(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Hang: true})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	png := attach.Input{Name: "shot.png", Bytes: []byte("\x89PNG\r\n\x1a\n0000")}
	for _, text := range []string{"!ls", "/help", "/goal ship"} {
		if _, err := e.Dispatch(ctx, "", Input{Workspace: ws, Text: text, Images: []attach.Input{png}}); err == nil || !strings.Contains(err.Error(), "not with a command") {
			t.Errorf("%s with an image: %v", text, err)
		}
	}
	a, err := e.Dispatch(ctx, "", Input{Workspace: ws, Text: "work"})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the turn streams", func() bool { return len(llm.Requests()) == 1 })
	q, err := e.Dispatch(ctx, a.SessionID, Input{Text: "what is this?", Images: []attach.Input{png}})
	if err != nil || !q.Queued {
		t.Fatal(q, err)
	}
	if qs, _ := e.Queue(ctx, a.SessionID); len(qs) != 1 || qs[0].Images != 1 {
		t.Fatalf("queue = %+v", qs)
	}
	sr, err := e.Stop(ctx, a.SessionID)
	if err != nil || len(sr.Returned) != 1 || len(sr.Returned[0].Images) != 1 || string(sr.Returned[0].Images[0].Bytes) != string(png.Bytes) || sr.Returned[0].Images[0].Name != "shot.png" {
		t.Fatalf("Stop = %+v, %v", sr, err)
	}
}

// Run follows its input through the queue: it returns the queued turn's
// result, and cancelling its ctx takes the input out of the queue.
func TestRunWaitsForItsQueuedTurn(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"first"}, Delay: 50 * time.Millisecond}, providertest.Reply{Content: []string{"second"}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	a, err := e.Dispatch(ctx, "", Input{Workspace: t.TempDir(), Text: "one"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(ctx, a.SessionID, Input{Text: "two"})
	if err != nil || res.Status != "done" || res.Answer != "second" || res.Turn != 2 {
		t.Fatalf("Run of a queued message = %+v, %v", res, err)
	}
	llm.Push(providertest.Reply{Hang: true})
	if _, err := e.Dispatch(ctx, a.SessionID, Input{Text: "three"}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "turn three streams", func() bool { return len(llm.Requests()) == 3 })
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan TurnResult, 1)
	go func() {
		r, _ := e.Run(cctx, a.SessionID, Input{Text: "four"})
		done <- r
	}()
	waitUntil(t, "four is queued", func() bool { q, _ := e.Queue(ctx, a.SessionID); return len(q) == 1 })
	cancel()
	if r := <-done; r.Status != store.TurnCancelled {
		t.Fatalf("Run after its ctx ended = %+v", r)
	}
	if q, _ := e.Queue(ctx, a.SessionID); len(q) != 0 {
		t.Fatalf("the abandoned input is still queued: %+v", q)
	}
	e.CancelTurn(a.SessionID)
}
