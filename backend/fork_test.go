package backend

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A fork holds copies of the parent's first turns (requests, answers,
// programs and what they printed), linked to its parent; the parent is
// unchanged. Its sandbox is fresh (a variable the parent's turn 1 set does
// not exist) and its first recap says so, after the last copied turn; its
// new turns are its own. Out-of-range forks are refused.
func TestForkCopiesTheHistoryNotTheSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	llm := providertest.New(
		providertest.Reply{Code: "x = 41\nprint('set x')"}, providertest.Reply{Content: []string{"one"}},
		providertest.Reply{Content: []string{"two"}},
		providertest.Reply{Content: []string{"three"}},
		// the fork's own turn
		providertest.Reply{Code: "print(x + 1)"}, providertest.Reply{Content: []string{"fork answer"}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	info, err := e.CreateSession(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"first", "second", "third"} {
		if _, err := e.RunTurn(ctx, SendRequest{SessionID: info.ID, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	before, err := e.Transcript(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}

	for _, keep := range []int{-1, 4} {
		if _, err := e.Fork(ctx, info.ID, keep); !errors.Is(err, ErrForkRange) {
			t.Errorf("Fork(keep %d) = %v; want ErrForkRange", keep, err)
		}
	}
	if _, err := e.Fork(ctx, "no-such-session", 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Fork of a missing session = %v", err)
	}

	f, err := e.Fork(ctx, info.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	if f.ForkOf != info.ID || f.ForkTurns != 2 || f.Turns != 2 || f.Workspace != before.Session.Workspace || !strings.Contains(f.Title, "(fork at turn 2)") {
		t.Fatalf("the fork = %+v", f)
	}
	got, err := e.Transcript(ctx, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	type seen struct{ Request, Answer, Status, Code, Output string }
	view := func(tr Transcript, n int) []seen {
		var out []seen
		for _, tv := range tr.Turns[:n] {
			s := seen{Request: tv.Request, Answer: tv.Answer, Status: tv.Status}
			for _, it := range tv.Iterations {
				s.Code += it.Code
				s.Output += it.Output
			}
			out = append(out, s)
		}
		return out
	}
	if diff := cmp.Diff(view(before, 2), view(got, len(got.Turns))); diff != "" {
		t.Errorf("the fork's turns (-parent's first two +fork's):\n%s", diff)
	}
	list, err := e.ListSessions(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if s.ID == f.ID && (s.ForkOf != info.ID || s.ForkTurns != 2) {
			t.Errorf("the list shows the fork as %+v", s)
		}
		if s.ID == info.ID && s.ForkOf != "" {
			t.Errorf("the parent shows as a fork: %+v", s)
		}
	}

	// The fork's own turn: a fresh sandbox, and the recap says why.
	r, err := e.RunTurn(ctx, SendRequest{SessionID: f.ID, Text: "go on"})
	if err != nil || r.Status != "done" {
		t.Fatalf("the fork's turn: %+v, %v", r, err)
	}
	after, _ := e.Transcript(ctx, f.ID)
	if out := after.Turns[2].Iterations[0]; !strings.Contains(out.Output+out.Error, "x") || strings.Contains(out.Output, "42") {
		t.Errorf("the fork's sandbox knew the parent's x: %+v", out)
	}
	reqs := llm.Requests()
	first := reqs[len(reqs)-2] // the fork's first request
	var all strings.Builder
	for _, m := range first.Messages {
		all.WriteString(strings.TrimSpace(strings.Join(strings.Fields(toText(m["content"])), " ")))
	}
	if !strings.Contains(all.String(), "This session was forked from session "+info.ID+" after this turn") || !strings.Contains(all.String(), "sandbox started fresh") {
		t.Errorf("the fork's first request does not say it is a fork:\n%s", all.String())
	}

	// The parent is unchanged.
	again, err := e.Transcript(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(view(before, 3), view(again, len(again.Turns))); diff != "" {
		t.Errorf("the parent changed (-before +after):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(ws)); err != nil {
		t.Fatal(err)
	}
}

// toText is a message content as text (a string, or the text parts).
func toText(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, p := range v {
			if m, ok := p.(map[string]any); ok {
				if s, ok := m["text"].(string); ok {
					b.WriteString(s)
				}
			}
		}
		return b.String()
	}
	return ""
}
