package backend

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"!ls -la":              "shell",
		"  /goal fix it":       "command /goal",
		"/HELP":                "command /help",
		"/etc/hosts is broken": "turn",
		"/ tmp":                "turn",
		"fix /goal later":      "turn",
		"/x":                   "command /x",
	} {
		k, n := classify(in)
		if got := strings.TrimSpace(k + " " + n); got != want {
			t.Errorf("classify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSubmitRoutesShellCommandsAndTurns(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"answered"}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ch, stop := e.Events().Subscribe(1024)
	defer stop()
	ws := t.TempDir()

	ctx := context.Background()
	r, err := e.Dispatch(ctx, "", Input{Workspace: ws, Text: "/help"})
	if err != nil || r.Kind != "command" || !strings.Contains(r.Text, "/goal") || r.SessionID != "" {
		t.Fatalf("/help = %+v, %v", r, err)
	}
	if _, err := e.Dispatch(ctx, "", Input{Workspace: ws, Text: "/frobnicate"}); !errors.Is(err, ErrUnknownCommand) {
		t.Fatalf("unknown command: %v", err)
	}
	if ss, _ := e.ListSessions(context.Background(), ""); len(ss) != 0 {
		t.Fatalf("commands created sessions: %v", ss)
	}
	r, err = e.Dispatch(ctx, "", Input{Workspace: ws, Text: "!echo from-shell"})
	if err != nil || r.Kind != "shell" || !r.Started {
		t.Fatalf("shell = %+v, %v", r, err)
	}
	end := waitFor(t, ch, events.PhaseTurnEnd)
	if end.SessionID != r.SessionID {
		t.Fatalf("turn-end for %s", end.SessionID)
	}
	r2, err := e.Dispatch(ctx, r.SessionID, Input{Text: "a question"})
	if err != nil || r2.Kind != "turn" || r2.SessionID != r.SessionID || !r2.Started {
		t.Fatalf("turn = %+v, %v", r2, err)
	}
	if end := payload[events.TurnEnd](t, waitFor(t, ch, events.PhaseTurnEnd)); end.Answer != "answered" {
		t.Fatalf("turn-end = %+v", end)
	}
	// Whoever hears turn-end finds the session free.
	if e.Running(r.SessionID) {
		t.Fatal("the session still counts as running after its turn-end event")
	}
}

func TestStatusForTheFooter(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Code: "print(1)", Usage: &chat.Usage{InputTokens: 1000, OutputTokens: 100}},
		providertest.Reply{Content: []string{"ok"}, Usage: &chat.Usage{InputTokens: 3000, OutputTokens: 200}},
		providertest.Reply{Hang: true}, // the goal's turn streams until paused
	)
	defer llm.Close()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.yml"), []byte("providers:\n  - id: local\n    base_url: "+llm.URL+"\n    models: [{name: priced, context: 8000, price_in: 2, price_out: 10}]\n"), 0o644)
	e, err := Open(context.Background(), Options{Home: home, Getenv: func(string) string { return "" }, Secrets: secrets.NewWith(filepath.Join(home, "s.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	v, err := e.Status(ctx, "", ws)
	if err != nil || v.Model != "priced" || v.ContextLimit != 8000 || v.CostUSD != nil {
		t.Fatalf("before a session: %+v %v", v, err)
	}
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	v, err = e.Status(ctx, res.SessionID, "")
	if err != nil {
		t.Fatal(err)
	}
	if v.Usage.InputTokens != 4000 || v.Usage.OutputTokens != 300 || v.ContextUsed != 3000 || v.CostUSD == nil || *v.CostUSD != (4000*2+300*10)/1e6 {
		t.Fatalf("status = %+v cost %v", v, v.CostUSD)
	}
	if v.Goal != nil || v.Running {
		t.Fatalf("status = %+v", v)
	}
	budget := int64(5)
	ch, stop := e.Events().Subscribe(1024)
	defer stop()
	if a, err := e.Dispatch(ctx, res.SessionID, Input{Goal: &GoalInput{Action: "set", Objective: "ship it", Budget: &budget}}); err != nil || !a.Started {
		t.Fatalf("set goal = %+v, %v", a, err)
	}
	waitFor(t, ch, events.PhaseProviderCall)
	if v, _ = e.Status(ctx, res.SessionID, ""); v.Goal == nil || v.Goal.Status != "active" || !v.Running {
		t.Fatalf("goal = %+v, running %v", v.Goal, v.Running)
	}
	if _, err := e.Dispatch(ctx, res.SessionID, Input{Goal: &GoalInput{Action: "pause"}}); err != nil {
		t.Fatal(err)
	}
	if end := payload[events.TurnEnd](t, waitFor(t, ch, events.PhaseTurnEnd)); end.Status != "halted" {
		t.Fatalf("the goal turn after pause: %+v", end)
	}
	if g, _ := e.Goal(ctx, res.SessionID); g == nil || g.Status != "paused" {
		t.Fatalf("after pause: %+v", g)
	}
}

// The footer's tokens follow a running turn: once its first response
// arrived (the turn is now in its second model call) they count it, not
// only finished turns.
func TestStatusCountsTheRunningTurn(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Content: []string{"hi"}, Usage: &chat.Usage{InputTokens: 500, OutputTokens: 50}},
		providertest.Reply{Code: "print(1)", Usage: &chat.Usage{InputTokens: 1000, OutputTokens: 100}},
		providertest.Reply{Hang: true},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "first"})
	if err != nil {
		t.Fatal(err)
	}
	ch, stop := e.Events().Subscribe(1024)
	defer stop()
	if a, err := e.Dispatch(ctx, res.SessionID, Input{Text: "second"}); err != nil || !a.Started {
		t.Fatalf("dispatch = %+v, %v", a, err)
	}
	waitFor(t, ch, events.PhaseProviderCall)
	waitFor(t, ch, events.PhaseProviderCall) // the first response arrived and its program ran
	v, err := e.Status(ctx, res.SessionID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !v.Running || v.Usage.InputTokens != 1500 || v.Usage.OutputTokens != 150 || v.ContextUsed != 1000 {
		t.Fatalf("while running: running %v usage %+v context %d; want 1500/150 and 1000", v.Running, v.Usage, v.ContextUsed)
	}
	e.CancelTurn(res.SessionID)
	waitFor(t, ch, events.PhaseTurnEnd)
}

// The footer names the provider as a person knows it, never "app".
func TestStatusProviderName(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	home := t.TempDir()
	e, err := Open(context.Background(), Options{Home: home, Getenv: func(string) string { return "" }, Secrets: secrets.NewWith(filepath.Join(home, "s.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	host := strings.TrimPrefix(strings.TrimSuffix(llm.URL, "/v1"), "http://")
	for _, tt := range []struct{ preset, want string }{{"ollama", "Ollama"}, {"lmstudio", "LM Studio"}, {"custom", host}} {
		if _, err := e.SaveSettings(ctx, SaveSettingsRequest{Preset: tt.preset, BaseURL: llm.URL, Model: "m"}); err != nil {
			t.Fatal(err)
		}
		v, err := e.Status(ctx, "", t.TempDir())
		if err != nil || v.Provider != "app" || v.ProviderName != tt.want {
			t.Errorf("preset %s: provider %q name %q (%v); want app, %q", tt.preset, v.Provider, v.ProviderName, err, tt.want)
		}
	}
}
