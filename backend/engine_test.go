package backend

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/secrets"
	"github.com/visdesktop/vis/backend/store"
	"github.com/visdesktop/vis/backend/tools"
)

func openEngine(t *testing.T, llm *providertest.Server, home string) *Engine {
	t.Helper()
	vars := map[string]string{"VIS_BASE_URL": llm.URL, "VIS_MODEL": "m"}
	e, err := Open(context.Background(), Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The model is told about exactly the functions and modules the sandbox has.
func TestPromptNamesTheRealSurface(t *testing.T) {
	t.Parallel()
	ts, err := tools.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	for _, b := range ts.Builtins() {
		if !strings.Contains(prompt.CoreSystemPrompt, "`"+b.Name+"(") {
			t.Errorf("core system prompt does not describe %s()", b.Name)
		}
	}
	for _, m := range sandbox.Modules {
		if !strings.Contains(prompt.DefaultShims, "`"+m+"`") {
			t.Errorf("SANDBOX-SHIMS does not list module %s", m)
		}
	}
	in, err := sandbox.New(sandbox.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range append([]string{"os.path"}, sandbox.Modules...) {
		if r := in.Exec(context.Background(), "import "+m, nil); r.Err != nil {
			t.Errorf("import %s: %v", m, r.Err.Message)
		}
	}
}

func waitFor(t *testing.T, ch <-chan events.Event, phase string) events.Event {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case e := <-ch:
			if e.Phase == phase {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s event", phase)
		}
	}
}

// payload returns e's payload as a T, failing the test when it carries
// another one.
func payload[T events.Payload](t *testing.T, e events.Event) T {
	t.Helper()
	p, ok := events.As[T](e)
	if !ok {
		t.Fatalf("%s event carries %T, want %T", e.Phase, e.Data, p)
	}
	return p
}

func TestDispatchStreamsQueuesASecondMessageAndStopHandsItBack(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Code: "print('working')"},
		providertest.Reply{Hang: true},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(1024)
	defer stop()
	ws := t.TempDir()
	ctx := context.Background()
	a, err := e.Dispatch(ctx, "", Input{Workspace: ws, Text: "do it"})
	if err != nil || !a.Started {
		t.Fatal(a, err)
	}
	id := a.SessionID
	waitFor(t, ch, events.PhaseFormResult)
	q, err := e.Dispatch(ctx, id, Input{Text: "again"})
	if err != nil || !q.Queued || q.Started {
		t.Fatalf("second message while a turn runs = %+v, %v; want queued", q, err)
	}
	if got := payload[events.Queue](t, waitFor(t, ch, events.PhaseQueue)).Queue; len(got) != 1 || got[0].Text != "again" || got[0].Held {
		t.Fatalf("queue event = %+v", got)
	}
	if !e.Running(id) {
		t.Fatal("Running = false during a turn")
	}
	for deadline := time.Now().Add(30 * time.Second); len(llm.Requests()) < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the turn's second request never came")
		}
	}
	sr, err := e.Stop(ctx, id)
	if err != nil || !sr.Cancelled || len(sr.Returned) != 1 || sr.Returned[0].Text != "again" {
		t.Fatalf("Stop = %+v, %v; want the turn cancelled and \"again\" handed back", sr, err)
	}
	endEv := waitFor(t, ch, events.PhaseTurnEnd)
	if end := payload[events.TurnEnd](t, endEv); end.Status != "cancelled" {
		t.Fatalf("turn-end = %+v", end)
	}
	if qs, _ := e.Queue(ctx, id); len(qs) != 0 {
		t.Fatalf("queue after Stop = %+v", qs)
	}
	tr, err := e.Transcript(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 1 || tr.Turns[0].Status != "cancelled" || tr.Turns[0].Iterations[0].Output != "working\n" || tr.Session.Title != "do it" {
		t.Fatalf("transcript = %+v", tr)
	}
	if tr.Seq < endEv.Seq {
		t.Fatalf("snapshot seq %d older than the event it includes (%d)", tr.Seq, endEv.Seq)
	}
}

// A turn a killed process left running is covered end to end, with a real
// SIGKILL, by app/cli TestKilledMidTurnIsInterruptedAndRecapped.

func TestBadRequestsLoseNothing(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	if _, err := e.RunTurn(ctx, SendRequest{Workspace: t.TempDir(), Text: "   "}); err == nil {
		t.Fatal("empty message accepted")
	}
	if _, err := e.RunTurn(ctx, SendRequest{Workspace: filepath.Join(t.TempDir(), "missing"), Text: "x"}); err == nil {
		t.Fatal("missing workspace accepted")
	}
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: "nope", Text: "x"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	ss, _ := e.ListSessions(ctx, "")
	if len(ss) != 0 || len(llm.Requests()) != 0 {
		t.Fatalf("bad requests left sessions %v or requests", ss)
	}
}
