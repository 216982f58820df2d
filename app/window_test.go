package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/goals"
)

// The fake engine's answers for the window's other methods (see fakeEngine).

func (f *fakeEngine) SlashCommandsIn(string) []backend.SlashCommand {
	return []backend.SlashCommand{{Name: "/goal", Usage: "Use /goal <objective>", Summary: "Set the goal."}, {Name: "/help", Usage: "/help", Summary: "List commands."}}
}

func (f *fakeEngine) Status(_ context.Context, id, ws string) (backend.StatusView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.statusFor = append(f.statusFor, [2]string{id, ws})
	return f.status, f.err
}

func (f *fakeEngine) RenameSession(_ context.Context, id, title string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renamed = append(f.renamed, [2]string{id, title})
	return f.err
}

func (f *fakeEngine) DeleteSession(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running[id] {
		return backend.ErrBusy
	}
	f.deleted = append(f.deleted, id)
	return f.err
}

func (f *fakeEngine) Search(_ context.Context, q string, limit int) ([]backend.SearchHit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.searched = append(f.searched, q)
	return f.hits, f.err
}

func (f *fakeEngine) Prompt(_ context.Context, id string, turn, iter int) (backend.PromptView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prompted = append(f.prompted, [3]any{id, turn, iter})
	return f.prompt, f.err
}

func (f *fakeEngine) Settings(context.Context) (backend.SettingsView, error) {
	return f.settings, f.err
}

func (f *fakeEngine) SaveSettings(_ context.Context, req backend.SaveSettingsRequest) (backend.SettingsView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = append(f.saved, req)
	return f.settings, f.err
}

func (f *fakeEngine) ListModels(_ context.Context, base string, key *string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keysTried = append(f.keysTried, key)
	return f.models, f.err
}

func (f *fakeEngine) TestConnection(_ context.Context, base, model string, key *string) backend.ConnectionVerdict {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keysTried = append(f.keysTried, key)
	return f.verdict
}

func (f *fakeEngine) DetectLocal(context.Context) []config.Preset { return f.local }

// The goal methods go to a real goals.Service when a test set f.goals
// (see goalsEngine); without one a session has no goal.
func (f *fakeEngine) Goal(ctx context.Context, sid string) (*goals.Goal, error) {
	if f.goals == nil {
		return nil, f.err
	}
	g, ok, err := f.goals.Get(ctx, sid)
	if err != nil || !ok || g.Hidden() {
		return nil, err
	}
	return &g, nil
}

func ptr[T any](v T) *T { return &v }

func TestSubmit(t *testing.T) {
	ws := t.TempDir()
	g := goals.Goal{ID: "g1", SessionID: "s1", Objective: "ship", Status: "active", Revision: 3}
	tests := []struct {
		name              string
		session, ws, text string
		answer            backend.Accepted
		want              SubmitResult
		wantIn            *dispatched
		wantErr           string
	}{
		{name: "a message starts a turn in a new session", ws: ws, text: "fix it",
			answer: backend.Accepted{Kind: "turn", SessionID: "s-new", Started: true},
			want:   SubmitResult{Kind: "turn", SessionID: "s-new", Started: true},
			wantIn: &dispatched{In: backend.Input{Workspace: ws, Text: "fix it", Channel: backend.ChannelDesktop}}},
		{name: "a message while a turn runs is queued by the engine", session: "s1", text: "then this",
			answer: backend.Accepted{Kind: "turn", SessionID: "s1", Queued: true, QueueID: 7},
			want:   SubmitResult{Kind: "turn", SessionID: "s1", Queued: true},
			wantIn: &dispatched{Session: "s1", In: backend.Input{Text: "then this", Channel: backend.ChannelDesktop}}},
		{name: "!cmd goes to the engine as typed", session: "s1", text: "!ls -la",
			answer: backend.Accepted{Kind: "shell", SessionID: "s1", Started: true},
			want:   SubmitResult{Kind: "shell", SessionID: "s1", Started: true},
			wantIn: &dispatched{Session: "s1", In: backend.Input{Text: "!ls -la", Channel: backend.ChannelDesktop}}},
		{name: "a slash command needs no folder and prints its result", text: "/help",
			answer: backend.Accepted{Kind: "command", Text: "Commands: ..."},
			want:   SubmitResult{Kind: "command", Text: "Commands: ..."},
			wantIn: &dispatched{In: backend.Input{Text: "/help", Channel: backend.ChannelDesktop}}},
		{name: "a typed goal carries the goal back", session: "s1", text: "/goal ship",
			answer: backend.Accepted{Kind: "turn", SessionID: "s1", Started: true, Goal: &g},
			want:   SubmitResult{Kind: "turn", SessionID: "s1", Started: true, Goal: &GoalView{ID: "g1", SessionID: "s1", Objective: "ship", Status: "active", Revision: 3, Created: stamp(g.Created), Updated: stamp(g.Updated)}},
			wantIn: &dispatched{Session: "s1", In: backend.Input{Text: "/goal ship", Channel: backend.ChannelDesktop}}},
		{name: "empty", session: "s1", text: " \n", wantErr: "the message is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine()
			eng.submit = tc.answer
			a := New(eng, Options{Home: t.TempDir()})
			got, err := a.Submit(tc.session, tc.ws, tc.text)
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want ErrInput with %q", err, tc.wantErr)
				}
				if len(eng.submitted) != 0 {
					t.Errorf("a bad request reached the engine: %+v", eng.submitted)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]dispatched{*tc.wantIn}, eng.submitted); diff != "" {
				t.Errorf("input (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSubmitRefusalKeepsTheUsageLine(t *testing.T) {
	eng := newFakeEngine()
	eng.err = errors.New("objective is empty. " + goals.Usage)
	a := New(eng, Options{Home: t.TempDir()})
	_, err := a.Submit("s1", "", "/goal")
	if err == nil || !strings.HasSuffix(err.Error(), goals.Usage) {
		t.Fatalf("err = %v, want it to end with the usage line", err)
	}
}

func TestRenameDeleteSearch(t *testing.T) {
	eng := newFakeEngine()
	eng.running["busy"] = true
	eng.hits = []backend.SearchHit{{SessionID: "s1", Workspace: "/w", Title: "Fix", Turn: 2, Snippet: "the «tests» pass"}}
	a := New(eng, Options{Home: t.TempDir()})

	if err := a.RenameSession("s1", "  New name "); err != nil {
		t.Fatal(err)
	}
	if err := a.RenameSession("s1", " "); !errors.Is(err, ErrInput) {
		t.Errorf("blank title: err = %v, want ErrInput", err)
	}
	if diff := cmp.Diff([][2]string{{"s1", "New name"}}, eng.renamed); diff != "" {
		t.Errorf("renamed (-want +got):\n%s", diff)
	}

	if err := a.DeleteSession("s1"); err != nil {
		t.Fatal(err)
	}
	err := a.DeleteSession("busy")
	if !errors.Is(err, backend.ErrBusy) || !strings.HasPrefix(err.Error(), "delete session: ") {
		t.Errorf("deleting a running session: err = %v, want ErrBusy with context", err)
	}
	if diff := cmp.Diff([]string{"s1"}, eng.deleted); diff != "" {
		t.Errorf("deleted (-want +got):\n%s", diff)
	}

	got, err := a.Search("tests")
	if err != nil {
		t.Fatal(err)
	}
	want := []SearchHit{{SessionID: "s1", Workspace: "/w", Title: "Fix", Turn: 2, Snippet: "the «tests» pass"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	// A blank query finds nothing without asking the engine, as [] not null.
	got, err = a.Search("  ")
	if b, _ := json.Marshal(got); err != nil || string(b) != "[]" {
		t.Errorf("blank search = %s, %v; want []", b, err)
	}
	if diff := cmp.Diff([]string{"tests"}, eng.searched); diff != "" {
		t.Errorf("searched (-want +got):\n%s", diff)
	}
}

func TestPromptInspector(t *testing.T) {
	eng := newFakeEngine()
	eng.prompt = backend.PromptView{Turn: 1, Iteration: 2, Chars: 30, Tokens: 8, Messages: []backend.PromptMessage{
		{Role: "system", Chars: 20, Tokens: 5, Blocks: []backend.PromptBlock{{Tag: "SYSTEM-PROMPT", Text: "You are Vis.", Chars: 12, Tokens: 3}, {Tag: "PROJECT-INSTRUCTIONS", Text: "Be brief", Chars: 8, Tokens: 2}}},
		{Role: "user", Chars: 10, Tokens: 3, Blocks: []backend.PromptBlock{{Tag: "CURRENT-USER-MESSAGE", Text: "fix tests", Chars: 10, Tokens: 3}}},
	}}
	a := New(eng, Options{Home: t.TempDir()})
	got, err := a.Prompt("s1", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(got, "", "  ")
	checkGolden(t, "prompt.json", b)

	for _, bad := range [][3]any{{"", 1, 1}, {"s1", 0, 1}, {"s1", 1, 0}} {
		if _, err := a.Prompt(bad[0].(string), bad[1].(int), bad[2].(int)); !errors.Is(err, ErrInput) {
			t.Errorf("Prompt%v: err = %v, want ErrInput", bad, err)
		}
	}
	if len(eng.prompted) != 1 {
		t.Errorf("engine asked %d times, want once (bad requests stay in app)", len(eng.prompted))
	}
}

func TestSettingsNeverCarryTheKey(t *testing.T) {
	eng := newFakeEngine()
	eng.settings = backend.SettingsView{
		Provider: &backend.ProviderSettings{Preset: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-x",
			Models: []config.Model{{Name: "gpt-x", Vision: true}, {Name: "old", Tools: ptr(false)}},
			HasKey: true, KeyHint: "sk-…cdef", KeyStore: "file"},
		Presets:    config.Presets,
		Effective:  backend.Effective{Source: "settings", BaseURL: "https://api.openai.com/v1", Model: "gpt-x"},
		ConfigFile: "/h/config.yml",
	}
	a := New(eng, Options{Home: t.TempDir()})
	got, err := a.Settings()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(got, "", "  ")
	checkGolden(t, "settings.json", b)
}

func TestSaveSettingsKeyActions(t *testing.T) {
	models := []ModelInfo{{Name: "gpt-x", Tools: true, Vision: true}, {Name: "old", Tools: false}}
	wantModels := []config.Model{{Name: "gpt-x", Vision: true}, {Name: "old", Tools: ptr(false)}}
	tests := []struct {
		name    string
		in      SettingsInput
		wantKey *string
		wantErr bool
	}{
		{name: "keep", in: SettingsInput{KeyAction: KeyKeep, APIKey: "ignored"}},
		{name: "unset action keeps", in: SettingsInput{}},
		{name: "set", in: SettingsInput{KeyAction: KeySet, APIKey: " sk-new \n"}, wantKey: ptr("sk-new")},
		{name: "delete", in: SettingsInput{KeyAction: KeyDelete}, wantKey: ptr("")},
		{name: "set an empty key is refused", in: SettingsInput{KeyAction: KeySet, APIKey: " "}, wantErr: true},
		{name: "unknown action", in: SettingsInput{KeyAction: "show"}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine()
			a := New(eng, Options{Home: t.TempDir()})
			in := tc.in
			in.Preset, in.BaseURL, in.Model, in.Reasoning, in.Models = "openai", " https://api.openai.com/v1 ", "gpt-x", "high", models
			_, err := a.SaveSettings(in)
			if tc.wantErr {
				if !errors.Is(err, ErrInput) || len(eng.saved) != 0 {
					t.Fatalf("err = %v, saved %d; want ErrInput and nothing saved", err, len(eng.saved))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := backend.SaveSettingsRequest{Preset: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-x", Reasoning: "high", Models: wantModels, APIKey: tc.wantKey}
			if diff := cmp.Diff([]backend.SaveSettingsRequest{want}, eng.saved); diff != "" {
				t.Errorf("saved (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModelsAndConnectionUseTheTypedKeyElseTheStoredOne(t *testing.T) {
	eng := newFakeEngine()
	eng.verdict = backend.ConnectionVerdict{OK: true, Message: "Connected: gpt-x answers."}
	a := New(eng, Options{Home: t.TempDir()})

	ms, err := a.ListModels("http://x/v1", "")
	if b, _ := json.Marshal(ms); err != nil || string(b) != "[]" {
		t.Errorf("no models = %s, %v; want []", b, err)
	}
	v := a.TestConnection("http://x/v1", "gpt-x", " sk-typed ")
	if diff := cmp.Diff(Verdict{OK: true, Message: "Connected: gpt-x answers.", Models: []string{}}, v); diff != "" {
		t.Errorf("verdict (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]*string{nil, ptr("sk-typed")}, eng.keysTried); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if v := a.TestConnection(" ", "m", ""); v.OK || !strings.Contains(v.Message, "base URL") {
		t.Errorf("no base URL: verdict %+v", v)
	}
	if _, err := a.ListModels("", ""); !errors.Is(err, ErrInput) {
		t.Errorf("no base URL: err = %v", err)
	}
}

func TestStatusForTheFooter(t *testing.T) {
	eng := newFakeEngine()
	cost := 0.0123
	eng.status = backend.StatusView{Provider: "settings", Model: "gpt-x", BaseURL: "http://x/v1",
		Usage: chat.Usage{InputTokens: 1000, OutputTokens: 200}, CostUSD: &cost, ContextUsed: 5000, ContextLimit: 128000,
		Packs: nil, REPLs: 0, Goal: &goals.Goal{ID: "g", Objective: "ship", Status: "active", IterationBudget: ptr(int64(20)), IterationsUsed: 3,
			TimeUsedMs: 4500, Revision: 7}, Running: true,
		Sandbox: "full", SandboxSource: backend.ModeFromSession, ProjectHeld: []string{"system_prompt (replace: true)"}}
	a := New(eng, Options{Home: t.TempDir()})
	got, err := a.Status("s1", "/w")
	if err != nil {
		t.Fatal(err)
	}
	want := Status{Provider: "settings", Model: "gpt-x", BaseURL: "http://x/v1", Usage: Usage{InputTokens: 1000, OutputTokens: 200},
		CostUSD: &cost, ContextUsed: 5000, ContextLimit: 128000, Packs: []string{},
		Goal:    &Goal{Objective: "ship", Status: "active", IterationBudget: 20, IterationsUsed: 3, TimeUsedMs: 4500, ID: "g", Revision: 7},
		Running: true, Sandbox: "full", SandboxSource: "session", ProjectHeld: []string{"system_prompt (replace: true)"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	// No price: cost is null, so the footer hides it; no goal is null too.
	eng.status = backend.StatusView{Model: "m"}
	got, _ = a.Status("", "/w")
	b, _ := json.Marshal(got)
	if !strings.Contains(string(b), `"cost_usd":null`) || !strings.Contains(string(b), `"goal":null`) || !strings.Contains(string(b), `"packs":[]`) || !strings.Contains(string(b), `"project_held":[]`) {
		t.Errorf("status JSON = %s", b)
	}
}

func TestRecentFoldersAreRememberedNewestFirst(t *testing.T) {
	home := t.TempDir()
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	a := New(newFakeEngine(), Options{Home: home})
	for _, d := range []string{dirs[0], dirs[1], dirs[2], dirs[0]} {
		if _, err := a.SetWorkspace(d); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{dirs[0], dirs[2], dirs[1]}
	if diff := cmp.Diff(want, a.RecentFolders()); diff != "" {
		t.Errorf("recent (-want +got):\n%s", diff)
	}
	// The next launch has them; a folder deleted meanwhile is left out.
	if err := os.Remove(dirs[2]); err != nil {
		t.Fatal(err)
	}
	st, _ := New(newFakeEngine(), Options{Home: home}).Startup()
	if diff := cmp.Diff([]string{dirs[0], dirs[1]}, st.Recent); diff != "" {
		t.Errorf("recent at the next launch (-want +got):\n%s", diff)
	}
	// At most maxRecent are kept.
	for range maxRecent + 3 {
		if _, err := a.SetWorkspace(t.TempDir()); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(a.RecentFolders()); n != maxRecent {
		t.Errorf("%d recent folders kept, want %d", n, maxRecent)
	}
}

func TestLogFrontendError(t *testing.T) {
	home := t.TempDir()
	a := New(newFakeEngine(), Options{Home: home})
	if err := a.LogFrontendError("TypeError: x is undefined\n  in App", "at f (App.svelte:10)\n\nat g (main.ts:3)\n"); err != nil {
		t.Fatal(err)
	}
	if err := a.LogFrontendError("", ""); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(home, "desktop", "logs", "frontend.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 {
		t.Fatalf("log has %d lines, want 4:\n%s", len(lines), b)
	}
	if _, err := time.Parse(time.RFC3339, strings.Fields(lines[0])[0]); err != nil {
		t.Errorf("entry does not start with a time: %q", lines[0])
	}
	wantRest := []string{"TypeError: x is undefined in App", "    at f (App.svelte:10)", "    at g (main.ts:3)", "(no message)"}
	gotRest := []string{strings.SplitN(lines[0], " ", 2)[1], lines[1], lines[2], strings.SplitN(lines[3], " ", 2)[1]}
	if diff := cmp.Diff(wantRest, gotRest); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
	// A huge report is cut, and a full log is rotated instead of growing forever.
	big := strings.Repeat("x", 2*maxLogReport)
	for range maxLogSize/maxLogReport + 2 {
		if err := a.LogFrontendError("big", big); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(filepath.Join(home, "desktop", "logs", "frontend.log"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > maxLogSize {
		t.Errorf("log is %d bytes, want at most %d", fi.Size(), maxLogSize)
	}
	if _, err := os.Stat(filepath.Join(home, "desktop", "logs", "frontend.log.1")); err != nil {
		t.Errorf("no rotated log: %v", err)
	}
}
