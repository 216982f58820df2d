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

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/store"
)

func TestRenameDeleteSearch(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Code: "def keep():\n    return 1\nprint(keep())"}, providertest.Reply{Content: []string{"The flux capacitor is fine."}})
	defer llm.Close()
	home := t.TempDir()
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()
	res, err := e.RunTurn(ctx, SendRequest{Workspace: t.TempDir(), Text: "check the flux capacitor"})
	if err != nil || res.Status != "done" {
		t.Fatalf("%+v %v", res, err)
	}
	hits, err := e.Search(ctx, "capacitor", 10)
	if err != nil || len(hits) != 1 || hits[0].SessionID != res.SessionID || !strings.Contains(hits[0].Snippet, "«capacitor»") {
		t.Fatalf("search = %+v, %v", hits, err)
	}
	if hits, _ := e.Search(ctx, `"unbalanced AND (`, 10); len(hits) != 0 {
		t.Fatalf("hostile query matched %v", hits)
	}
	if err := e.RenameSession(ctx, res.SessionID, "  Flux  "); err != nil {
		t.Fatal(err)
	}
	if err := e.RenameSession(ctx, res.SessionID, " "); err == nil {
		t.Fatal("blank title accepted")
	}
	ss, _ := e.ListSessions(ctx, "")
	if ss[0].Title != "Flux" {
		t.Fatalf("title = %q", ss[0].Title)
	}
	defs := filepath.Join(home, "desktop", "sandbox", res.SessionID+".star")
	if _, err := os.Stat(defs); err != nil {
		t.Fatalf("helper not saved: %v", err)
	}
	if err := e.DeleteSession(ctx, res.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Transcript(ctx, res.SessionID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("transcript after delete: %v", err)
	}
	if _, err := os.Stat(defs); !os.IsNotExist(err) {
		t.Fatal("saved helpers outlived their session")
	}
	if hits, _ := e.Search(ctx, "capacitor", 10); len(hits) != 0 {
		t.Fatalf("deleted session still found: %v", hits)
	}
}

func TestShellCommandIsATurnTheModelSees(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"I see the file."}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "marker.txt"), []byte("x"), 0o644)
	sr, err := e.Run(ctx, "", Input{Workspace: ws, Text: "!ls && exit 3"})
	if err != nil || sr.Status != "error" || sr.Error != "the command exited with code 3" || !strings.Contains(sr.Answer, "marker.txt") || sr.Turn != 1 {
		t.Fatalf("shell = %+v, %v", sr, err)
	}
	if _, err := e.Run(ctx, sr.SessionID, Input{Text: "!  "}); err == nil {
		t.Fatal("empty command accepted")
	}
	if len(llm.Requests()) != 0 {
		t.Fatal("a shell command called the model")
	}
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: sr.SessionID, Text: "what did ls show?"}); err != nil {
		t.Fatal(err)
	}
	msgs := llm.Requests()[0].Messages
	user := fmt.Sprint(msgs[len(msgs)-1]["content"])
	if !strings.Contains(user, "!ls && exit 3") || !strings.Contains(user, "marker.txt") || !strings.Contains(user, "exited with code 3") {
		t.Fatalf("recap lacks the shell turn:\n%s", user)
	}
	tr, _ := e.Transcript(ctx, sr.SessionID)
	if tr.Turns[0].Iterations[0].Output == "" || tr.Turns[0].Status != "done" {
		t.Fatalf("shell turn = %+v", tr.Turns[0])
	}
}

func TestPromptInspectorShowsExactlyWhatWasSent(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Code: "print('hi')"}, providertest.Reply{Content: []string{"done"}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Be brief.\n"), 0o644)
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "say hi"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Prompt(ctx, res.SessionID, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	sent := llm.Requests()[1].Messages
	if len(v.Messages) != len(sent) {
		t.Fatalf("inspector shows %d messages, %d were sent", len(v.Messages), len(sent))
	}
	var tags []string
	for _, m := range v.Messages {
		for _, b := range m.Blocks {
			tags = append(tags, b.Tag)
			if b.Chars != len([]rune(b.Text)) || (b.Chars > 0 && b.Tokens == 0) {
				t.Errorf("block %s sizes %d/%d", b.Tag, b.Chars, b.Tokens)
			}
		}
	}
	want := "SYSTEM-PROMPT PROJECT-INSTRUCTIONS TURN-SYSTEM-CONTEXT SANDBOX-SHIMS SESSION CURRENT-USER-MESSAGE CODE TOOL-RESULT SESSION-DELTA"
	if strings.Join(tags, " ") != want {
		t.Fatalf("blocks = %v\nwant     %s", tags, want)
	}
	if _, err := e.Prompt(ctx, res.SessionID, 1, 3); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("iteration 3: %v", err)
	}
}

// Stop ends a running `!cmd`: it is the session's running turn, so
// CancelTurn kills its process group and the turn ends cancelled, and the
// session is free again the moment turn-end is published.
func TestStopEndsARunningShellCommand(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(1024)
	defer stop()
	ws := t.TempDir()
	res, err := e.Dispatch(context.Background(), "", Input{Workspace: ws, Text: "!echo started; touch began; sleep 300"})
	if err != nil {
		t.Fatal(err)
	}
	id := res.SessionID
	for ev := range ch {
		if ev.SessionID == id && ev.Phase == events.PhaseFormStart {
			break
		}
	}
	for { // the command has printed once the marker exists
		if _, err := os.Stat(filepath.Join(ws, "began")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !e.Running(id) {
		t.Fatal("Running is false while the command runs")
	}
	if !e.CancelTurn(id) {
		t.Fatal("CancelTurn found nothing to cancel")
	}
	for ev := range ch {
		if ev.SessionID == id && ev.Phase == events.PhaseTurnEnd {
			if end := payload[events.TurnEnd](t, ev); end.Status != store.TurnCancelled {
				t.Fatalf("turn-end = %+v", end)
			}
			if e.Running(id) {
				t.Fatal("Running is still true when turn-end is published")
			}
			break
		}
	}
	tr, err := e.Transcript(context.Background(), id)
	if err != nil || len(tr.Turns) != 1 || tr.Turns[0].Status != store.TurnCancelled {
		t.Fatalf("transcript = %+v, %v", tr, err)
	}
	if out := tr.Turns[0].Iterations[0].Output; !strings.Contains(out, "started") {
		t.Errorf("the output before Stop is lost: %q", out)
	}
	if _, err := e.Dispatch(context.Background(), id, Input{Text: "!echo again"}); err != nil {
		t.Fatalf("the next command after Stop: %v", err)
	}
}

// Each tagged block's text is its body: no header, no leading newline.
func TestSplitBlocksBodies(t *testing.T) {
	t.Parallel()
	m := chat.User(";; -- CONVERSATION-SO-FAR --\n# ── turn 1 ──\nuser asked:\nhi\n\n;; -- CURRENT-USER-MESSAGE --\nfix it\n")
	got := splitBlocks(m)
	if len(got) != 2 || got[0].Tag != "CONVERSATION-SO-FAR" || got[0].Text != "# ── turn 1 ──\nuser asked:\nhi" || got[1].Tag != "CURRENT-USER-MESSAGE" || got[1].Text != "fix it" {
		t.Fatalf("blocks = %+v", got)
	}
}

// SessionExists answers for one session without listing them: a new one
// exists, an unknown id and a deleted session do not.
func TestSessionExists(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	ctx := context.Background()
	s, err := e.CreateSession(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id   string
		want bool
	}{{s.ID, true}, {"no-such-session", false}} {
		if got, err := e.SessionExists(ctx, c.id); err != nil || got != c.want {
			t.Errorf("SessionExists(%q) = %v, %v; want %v", c.id, got, err, c.want)
		}
	}
	if err := e.DeleteSession(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := e.SessionExists(ctx, s.ID); err != nil || got {
		t.Errorf("a deleted session exists: %v, %v", got, err)
	}
}
