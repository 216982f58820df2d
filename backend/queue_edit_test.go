package backend

import (
	"context"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// An edit to a queued input is what runs, classified as a new input would
// be: a message may become a `!cmd`, never a command; a goal's queued turn
// is not edited.
func TestEditedQueuedInputRunsAsEdited(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Hang: true}, providertest.Reply{Content: []string{"ok"}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	a, err := e.Dispatch(ctx, "", Input{Workspace: t.TempDir(), Text: "work"})
	if err != nil {
		t.Fatal(err)
	}
	id := a.SessionID
	waitUntil(t, "the first turn streams", func() bool { return len(llm.Requests()) == 1 })
	m, _ := e.Dispatch(ctx, id, Input{Text: "queued one"})
	sh, _ := e.Dispatch(ctx, id, Input{Text: "!echo was-shell"})
	g, _ := e.Dispatch(ctx, id, Input{Text: "/goal later"})
	if !m.Queued || !sh.Queued || !g.Queued {
		t.Fatalf("queued: %+v %+v %+v", m, sh, g)
	}
	if err := e.EditQueued(ctx, id, m.QueueID, "queued one, edited"); err != nil {
		t.Fatal(err)
	}
	if err := e.EditQueued(ctx, id, sh.QueueID, "now a message"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id   int64
		text string
		want string
	}{
		{m.QueueID, "/help", "cannot become a command"},
		{g.QueueID, "/goal sooner", "goal turn cannot be edited"},
		{999, "x", "not found"},
	} {
		if err := e.EditQueued(ctx, id, c.id, c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("EditQueued(%d, %q) = %v; want %q", c.id, c.text, err, c.want)
		}
	}
	if err := e.RemoveQueued(ctx, id, g.QueueID); err != nil {
		t.Fatal(err)
	}
	q, _ := e.Queue(ctx, id)
	if len(q) != 2 || q[0].Text != "queued one, edited" || q[0].Kind != "turn" || q[1].Text != "now a message" || q[1].Kind != "turn" {
		t.Fatalf("queue = %+v", q)
	}
	llm.Push(providertest.Reply{Content: []string{"ok"}})
	e.CancelTurn(id)
	waitUntil(t, "the queue drained", func() bool {
		q, _ := e.Queue(ctx, id)
		return len(q) == 0 && !e.Running(id) && len(llm.Requests()) == 3
	})
	if got := currentMessage(llm.Requests()[1]); got != "queued one, edited" {
		t.Errorf("the edited message ran as %q", got)
	}
	if got := currentMessage(llm.Requests()[2]); got != "now a message" {
		t.Errorf("the shell command edited into a message ran as %q", got)
	}
}
