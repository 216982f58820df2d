package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A snapshot taken while a program runs shows that program (the store
// keeps it only when its iteration ends): a window opening the session
// mid-run, or a new session's first snapshot racing its first reply, sees
// what runs.
func TestTranscriptShowsTheRunningProgram(t *testing.T) {
	t.Parallel()
	code := "r = shell('while [ ! -e gate ]; do sleep 0.05; done; echo through')\nprint(r['output'])"
	llm := providertest.New(providertest.Reply{Code: code}, providertest.Reply{Content: []string{"done"}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	ws := t.TempDir()
	acc, err := e.Dispatch(context.Background(), "", Input{Workspace: ws, Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ch, events.PhaseToolStart)
	tr, err := e.Transcript(context.Background(), acc.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Turns[len(tr.Turns)-1]
	if last.Status != "running" || len(last.Iterations) == 0 {
		t.Fatalf("turn = %+v", last)
	}
	it := last.Iterations[len(last.Iterations)-1]
	if len(it.Calls) != 1 || !it.Calls[0].Running || it.Calls[0].Code != code || it.Calls[0].CallID == "" {
		t.Fatalf("the running iteration's calls = %+v", it.Calls)
	}
	os.WriteFile(filepath.Join(ws, "gate"), nil, 0o644)
	waitFor(t, ch, events.PhaseTurnEnd)
	tr, _ = e.Transcript(context.Background(), acc.SessionID)
	if c := tr.Turns[0].Iterations[0].Calls; len(c) != 1 || c[0].Running || !strings.HasPrefix(c[0].Output, "through") {
		t.Fatalf("after the turn: %+v", c)
	}
}
