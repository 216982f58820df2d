package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// In "ask" mode a command the sandbox refuses waits at its call for the
// person: approved, it runs once more unconfined and the program goes on
// with that result; declined, the refusal stands; a turn stopped while it
// waits ends, and its question with it. Every answer is on the call record.
// A headless engine (CanAsk false) never asks, even with Ask set.
func TestAskAtTheCall(t *testing.T) {
	t.Parallel()
	confine.SkipWithoutLandlock(t)
	ctx := context.Background()
	home, ws, outside := sandboxDirs(t)
	write := func(name string) providertest.Reply {
		return providertest.Reply{Code: fmt.Sprintf("r = shell('echo hi > %s')\nprint('exit', r['exit_code'], r.get('sandbox_asked', ''))\nprint('after the call')", filepath.Join(outside, name))}
	}
	llm := providertest.New(
		write("approved.txt"), providertest.Reply{Content: []string{"one"}},
		write("declined.txt"), providertest.Reply{Content: []string{"two"}},
		write("stopped.txt"), // stopped while it asks: no second reply
		write("headless.txt"), providertest.Reply{Content: []string{"four"}},
	)
	defer llm.Close()
	open := func(canAsk bool) *Engine {
		vars := map[string]string{"VIS_BASE_URL": llm.URL, "VIS_MODEL": "m"}
		e, err := Open(ctx, Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil), CanAsk: canAsk, Ask: true})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := open(true)
	info, err := e.CreateSession(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	id := info.ID
	ch, stop := e.Events().Subscribe(4096)
	defer stop()

	// turn sends text, waits for the question, answers it with answer
	// ("" = stop the turn instead) and returns the program's record.
	turn := func(text, answer string) (events.Approval, events.FormResult, TurnResult) {
		t.Helper()
		res := make(chan TurnResult, 1)
		go func() {
			r, err := e.RunTurn(ctx, SendRequest{SessionID: id, Text: text})
			if err != nil {
				t.Error(err)
			}
			res <- r
		}()
		q := payload[events.Approval](t, waitFor(t, ch, events.PhaseApproval))
		if q.State != "asked" || q.Tool != "shell" || !strings.Contains(q.Command, "echo hi >") || !strings.Contains(q.Why, "workspace mode") || q.WaitSeconds != int(AskWait.Seconds()) {
			t.Fatalf("question = %+v", q)
		}
		tr, err := e.Transcript(ctx, id)
		if err != nil || len(tr.Questions) != 1 || tr.Questions[0].ID != q.ID {
			t.Fatalf("the transcript while it waits has questions %+v (%v); want %s", tr.Questions, err, q.ID)
		}
		if err := e.AnswerApproval("another-session", q.ID, true); !errors.Is(err, ErrNoQuestion) {
			t.Errorf("another session answered the question: %v", err)
		}
		switch answer {
		case "":
			if _, err := e.Stop(ctx, id); err != nil {
				t.Fatal(err)
			}
		default:
			if err := e.AnswerApproval(id, q.ID, answer == "approve"); err != nil {
				t.Fatal(err)
			}
		}
		done := payload[events.Approval](t, waitFor(t, ch, events.PhaseApproval))
		if done.ID != q.ID || done.State != "answered" {
			t.Errorf("answered event = %+v", done)
		}
		fr := payload[events.FormResult](t, waitFor(t, ch, events.PhaseFormResult))
		return done, fr, <-res
	}

	done, fr, _ := turn("approve", "approve")
	if _, err := os.Stat(filepath.Join(outside, "approved.txt")); err != nil || done.Answer != "approved" || fr.SandboxAsked != "approved" ||
		!strings.Contains(fr.Output, "exit 0 the person approved") || !strings.Contains(fr.Output, "after the call") {
		t.Errorf("approved: file %v, answer %q, record %q, output %q", err, done.Answer, fr.SandboxAsked, fr.Output)
	}
	if err := e.AnswerApproval(id, done.ID, true); !errors.Is(err, ErrNoQuestion) {
		t.Errorf("a question was answered twice: %v", err)
	}

	done, fr, _ = turn("decline", "decline")
	if _, err := os.Stat(filepath.Join(outside, "declined.txt")); err == nil || done.Answer != "declined" || fr.SandboxAsked != "declined" ||
		!strings.Contains(fr.Output, "exit 1 the person declined") || fr.SandboxRefused == "" {
		t.Errorf("declined: file written %v, answer %q, record %+v", err == nil, done.Answer, fr.CallRecord)
	}

	done, fr, r := turn("stop", "")
	if _, err := os.Stat(filepath.Join(outside, "stopped.txt")); err == nil || done.Answer != "unanswered" || r.Status != "cancelled" {
		t.Errorf("stopped while asking: file written %v, answer %q, turn %q", err == nil, done.Answer, r.Status)
	}
	if tr, _ := e.Transcript(ctx, id); len(tr.Questions) != 0 {
		t.Errorf("a question outlived its turn: %+v", tr.Questions)
	}
	e.Close()

	// Headless: the refusal stands and nobody is asked.
	e = open(false)
	defer e.Close()
	ch2, stop2 := e.Events().Subscribe(4096)
	defer stop2()
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: id, Text: "headless"}); err != nil {
		t.Fatal(err)
	}
	for timeout := time.After(30 * time.Second); ; {
		var ev events.Event
		select {
		case ev = <-ch2:
		case <-timeout:
			t.Fatal("no form-result from the headless turn")
		}
		if ev.Phase == events.PhaseApproval {
			t.Fatalf("a headless engine asked: %+v", ev)
		}
		if ev.Phase == events.PhaseFormResult {
			fr := payload[events.FormResult](t, ev)
			if fr.SandboxRefused == "" || fr.SandboxAsked != "" || !strings.Contains(fr.Output, "exit 1") {
				t.Errorf("headless: %+v", fr.CallRecord)
			}
			break
		}
	}
}

// sandboxDirs makes a VIS_HOME, a workspace and a folder outside it (where
// a confined shell may not write) under one temporary folder.
func sandboxDirs(t *testing.T) (home, ws, outside string) {
	t.Helper()
	root := t.TempDir()
	home, ws, outside = filepath.Join(root, "home"), filepath.Join(root, "ws"), filepath.Join(root, "outside")
	for _, d := range []string{home, ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home, ws, outside
}
