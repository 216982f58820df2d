package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/internal/golden"
)

// fakeEngine records calls and returns canned answers.
type fakeEngine struct {
	outputAsks [][6]int // CallOutput's turn, iteration, call, offset, limit
	broker     *events.Broker

	mu         sync.Mutex
	sessions   []backend.SessionInfo
	transcript backend.Transcript
	running    map[string]bool
	err        error // returned by every call that can fail
	created    []string
	listed     []string
	stopped    []string
	stop       backend.StopResult

	// Calls to the window's other methods, and what they answer.
	submitted []dispatched
	submit    backend.Accepted
	renamed   [][2]string
	deleted   []string
	searched  []string
	hits      []backend.SearchHit
	prompt    backend.PromptView
	prompted  [][3]any
	settings  backend.SettingsView
	saved     []backend.SaveSettingsRequest
	keysTried []*string
	models    []string
	verdict   backend.ConnectionVerdict
	local     []config.Preset
	status    backend.StatusView
	statusFor [][2]string
	goals     *goals.Service // nil: no goals (set by goalsEngine)
	res       fakeResources
	noVision  bool // CheckImages answers as for a model without vision
}

func newFakeEngine() *fakeEngine {
	return &fakeEngine{broker: events.New(), running: map[string]bool{}}
}

func (f *fakeEngine) Close() error           { return nil }
func (f *fakeEngine) Events() *events.Broker { return f.broker }

func (f *fakeEngine) ListSessions(_ context.Context, ws string) ([]backend.SessionInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listed = append(f.listed, ws)
	return f.sessions, f.err
}

func (f *fakeEngine) SessionExists(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.sessions {
		if s.ID == id {
			return true, f.err
		}
	}
	return false, f.err
}

func (f *fakeEngine) LatestSession(context.Context, string) (backend.SessionInfo, error) {
	return backend.SessionInfo{}, f.err
}

func (f *fakeEngine) CreateSession(_ context.Context, ws string) (backend.SessionInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return backend.SessionInfo{}, f.err
	}
	f.created = append(f.created, ws)
	return backend.SessionInfo{ID: "new", Workspace: ws}, nil
}

func (f *fakeEngine) Transcript(_ context.Context, id string) (backend.Transcript, error) {
	return f.transcript, f.err
}

func (f *fakeEngine) CallOutput(_ context.Context, id string, turn, iter, call, offset, limit int) (backend.OutputPage, error) {
	f.outputAsks = append(f.outputAsks, [6]int{turn, iter, call, offset, limit})
	return backend.OutputPage{Text: "page", Offset: offset, Next: offset + 4, Kept: 8, Total: 9}, f.err
}

// dispatched is one Dispatch call the fake engine saw.
type dispatched struct {
	Session string
	In      backend.Input
}

func (f *fakeEngine) Dispatch(_ context.Context, sid string, in backend.Input) (backend.Accepted, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.submitted = append(f.submitted, dispatched{sid, in})
	if f.err != nil {
		return backend.Accepted{}, f.err
	}
	return f.submit, nil
}

func (f *fakeEngine) Stop(_ context.Context, sid string) (backend.StopResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, sid)
	return f.stop, f.err
}

func (f *fakeEngine) Queue(context.Context, string) ([]backend.QueuedInput, error) {
	return []backend.QueuedInput{}, f.err
}
func (f *fakeEngine) EditQueued(context.Context, string, int64, string) error { return f.err }
func (f *fakeEngine) RemoveQueued(context.Context, string, int64) error       { return f.err }
func (f *fakeEngine) ReleaseQueue(context.Context, string) error              { return f.err }

func (f *fakeEngine) Running(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.running[id]
}

// fakeShell stands in for the window.
type fakeShell struct {
	*recEmitter
	pick    string
	pickErr error
	asked   []string // default dirs the chooser opened in
}

func (s *fakeShell) PickDirectory(title, dflt string) (string, error) {
	s.asked = append(s.asked, dflt)
	return s.pick, s.pickErr
}
func (s *fakeShell) Focus() {}

var t0 = time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)

func sampleTranscript() backend.Transcript {
	return backend.Transcript{
		Session: backend.SessionInfo{ID: "s1", Workspace: "/w", Title: "Fix tests", Turns: 1, Created: t0, Updated: t0.Add(time.Minute)},
		Seq:     42,
		Turns: []backend.TurnView{{
			Position: 1, Request: "make the tests pass", Status: "done", Answer: "Done: 3 tests fixed.",
			Usage: chat.Usage{InputTokens: 1200, OutputTokens: 80, CachedTokens: 1000}, DurationMs: 5300, Started: t0,
			Iterations: []backend.IterationView{
				{Position: 1, Status: "done", Code: "print(run_tests())", Output: "3 failed", Model: "m", DurationMs: 2000},
				{Position: 2, Status: "done", Answer: "Done: 3 tests fixed.", Model: "m", Usage: chat.Usage{OutputTokens: 20}},
			},
		}, {
			Position: 2, Request: "now lint", Status: "error", Error: "provider: 401 unauthorized", Started: t0.Add(2 * time.Minute),
		}},
	}
}

func TestOpenTranscriptMapsTheSnapshot(t *testing.T) {
	eng := newFakeEngine()
	eng.transcript = sampleTranscript()
	eng.running["s1"] = true
	a := New(eng, Options{Home: t.TempDir()})

	got, err := a.OpenTranscript("s1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "transcript.json", b)
}

// checkGolden compares got (JSON) with testdata/name (-update rewrites it).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), append(got, '\n'))
}

func TestListSessions(t *testing.T) {
	eng := newFakeEngine()
	a := New(eng, Options{Home: t.TempDir()})

	got, err := a.ListSessions("/w")
	if err != nil {
		t.Fatal(err)
	}
	// No sessions is an empty list, not null: the page iterates it.
	if b, _ := json.Marshal(got); string(b) != "[]" {
		t.Errorf("no sessions marshal to %s, want []", b)
	}

	eng.sessions = []backend.SessionInfo{
		{ID: "b", Workspace: "/w", Title: "Second", Turns: 2, Created: t0, Updated: t0.Add(time.Hour)},
		{ID: "a", Workspace: "/w", Turns: 0},
	}
	got, err = a.ListSessions("/w")
	if err != nil {
		t.Fatal(err)
	}
	want := []Session{
		{ID: "b", Workspace: "/w", Title: "Second", Turns: 2, Created: "2026-03-01T09:30:00Z", Updated: "2026-03-01T10:30:00Z"},
		{ID: "a", Workspace: "/w"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/w", "/w"}, eng.listed); diff != "" {
		t.Errorf("workspace passed to the engine (-want +got):\n%s", diff)
	}
}

func TestEngineErrorsReachThePageWithContext(t *testing.T) {
	eng := newFakeEngine()
	eng.err = errors.New("engine: not wired yet")
	a := New(eng, Options{Home: t.TempDir()})
	ws := t.TempDir()

	calls := []struct {
		name string
		call func() error
		want string
	}{
		{"list", func() error { _, err := a.ListSessions(""); return err }, "list sessions: engine: not wired yet"},
		{"open", func() error { _, err := a.OpenTranscript("s1"); return err }, "open transcript: engine: not wired yet"},
		{"submit", func() error { _, err := a.Submit("", ws, "hi"); return err }, "submit: engine: not wired yet"},
		{"stop", func() error { _, err := a.Stop("s1"); return err }, "stop: engine: not wired yet"},
		{"new", func() error { _, err := a.NewSession(ws); return err }, "new session: engine: not wired yet"},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil || err.Error() != c.want {
				t.Fatalf("error = %v, want %q", err, c.want)
			}
			if !errors.Is(err, eng.err) {
				t.Errorf("error does not wrap the engine's error")
			}
		})
	}
}

func TestSubmitChecksTheFolder(t *testing.T) {
	ws := t.TempDir()
	file := filepath.Join(ws, "main.go")
	if err := os.WriteFile(file, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name              string
		session, ws, text string
		want              *dispatched
		wantErrContains   string
	}{
		{name: "new session in workspace", ws: ws, text: "fix it",
			want: &dispatched{In: backend.Input{Workspace: ws, Text: "fix it", Channel: backend.ChannelDesktop}}},
		{name: "relative workspace is made absolute", ws: ws + "/./", text: "x",
			want: &dispatched{In: backend.Input{Workspace: ws, Text: "x", Channel: backend.ChannelDesktop}}},
		{name: "existing session keeps its workspace", session: "s1", text: "more\nlines",
			want: &dispatched{Session: "s1", In: backend.Input{Text: "more\nlines", Channel: backend.ChannelDesktop}}},
		{name: "empty text", session: "s1", text: "  \n\t", wantErrContains: "the message is empty"},
		{name: "workspace is a file", ws: file, text: "hi", wantErrContains: "is not a folder"},
		{name: "workspace does not exist", ws: filepath.Join(ws, "gone"), text: "hi", wantErrContains: "gone"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine()
			a := New(eng, Options{Home: t.TempDir()})
			_, err := a.Submit(tc.session, tc.ws, tc.text)
			if tc.want == nil {
				if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.wantErrContains) {
					t.Fatalf("err = %v, want ErrInput containing %q", err, tc.wantErrContains)
				}
				if len(eng.submitted) != 0 {
					t.Errorf("a bad request reached the engine: %+v", eng.submitted)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]dispatched{*tc.want}, eng.submitted); diff != "" {
				t.Errorf("input (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewSessionNeedsAFolder(t *testing.T) {
	eng := newFakeEngine()
	a := New(eng, Options{Home: t.TempDir()})
	if _, err := a.NewSession(""); !errors.Is(err, ErrInput) {
		t.Fatalf("NewSession(\"\") err = %v, want ErrInput", err)
	}
	ws := t.TempDir()
	s, err := a.NewSession(ws)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "new" || s.Workspace != ws {
		t.Errorf("session = %+v", s)
	}
}

func TestOpenTranscriptNeedsAnID(t *testing.T) {
	a := New(newFakeEngine(), Options{Home: t.TempDir()})
	if _, err := a.OpenTranscript(" "); !errors.Is(err, ErrInput) {
		t.Fatalf("err = %v, want ErrInput", err)
	}
}

func TestStopHandsTheQueueBack(t *testing.T) {
	eng := newFakeEngine()
	eng.running["s1"] = true
	eng.stop = backend.StopResult{Cancelled: true, Returned: []backend.ReturnedInput{
		{ID: 4, Text: "then this", Images: []attach.Input{{Name: "a.png", Bytes: []byte("\x89PNG\r\n\x1a\n")}, {Path: "/tmp/b.png", Name: "b.png"}}},
		{ID: 5, Text: "and this", Images: []attach.Input{}},
	}}
	a := New(eng, Options{Home: t.TempDir()})
	if !a.Running("s1") || a.Running("s2") {
		t.Errorf("Running: s1=%v s2=%v, want true false", a.Running("s1"), a.Running("s2"))
	}
	got, err := a.Stop("s1")
	if err != nil {
		t.Fatal(err)
	}
	want := Stopped{Cancelled: true, Returned: []ReturnedInput{
		{ID: 4, Text: "then this", Images: []ImageInput{{Name: "a.png", DataBase64: "data:image/png;base64,iVBORw0KGgo="}, {Path: "/tmp/b.png", Name: "b.png"}}},
		{ID: 5, Text: "and this", Images: []ImageInput{}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Stop (-want +got):\n%s", diff)
	}
	if _, err := a.Stop(" "); !errors.Is(err, ErrInput) {
		t.Errorf("Stop without a session: %v, want ErrInput", err)
	}
	if diff := cmp.Diff([]string{"s1"}, eng.stopped); diff != "" {
		t.Errorf("stopped (-want +got):\n%s", diff)
	}
}

func TestPickedWorkspaceIsRememberedAcrossLaunches(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	a := New(newFakeEngine(), Options{Home: home})
	if _, err := a.PickWorkspace(); err == nil {
		t.Fatal("PickWorkspace before the window exists: want an error")
	}
	sh := &fakeShell{recEmitter: newRecEmitter(), pick: ws}
	a.start(context.Background(), sh, time.Hour)
	defer a.stop()

	got, err := a.PickWorkspace()
	if err != nil || got != ws {
		t.Fatalf("PickWorkspace = %q, %v; want %q", got, err, ws)
	}
	// The next launch starts in the same folder.
	b := New(newFakeEngine(), Options{Home: home})
	st, _ := b.Startup()
	if st.Workspace != ws {
		t.Errorf("next launch workspace = %q, want %q", st.Workspace, ws)
	}
	// And the chooser opens there.
	sh.pick = ""
	got, err = a.PickWorkspace()
	if err != nil || got != "" {
		t.Fatalf("cancelled pick = %q, %v; want \"\", nil", got, err)
	}
	if sh.asked[len(sh.asked)-1] != ws {
		t.Errorf("chooser opened in %q, want %q", sh.asked[len(sh.asked)-1], ws)
	}
	if st, _ := a.Startup(); st.Workspace != ws {
		t.Errorf("a cancelled pick changed the workspace to %q", st.Workspace)
	}
}

func TestStartupWorkspace(t *testing.T) {
	home, remembered, named := t.TempDir(), t.TempDir(), t.TempDir()
	if err := saveState(home, windowState{Width: 900, Height: 600, Workspace: remembered}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, arg, want string
	}{
		{"remembered", "", remembered},
		{"named on the command line wins", named, named},
		{"a bad argument falls back", filepath.Join(named, "missing"), remembered},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logged []string
			a := New(newFakeEngine(), Options{Home: home, Workspace: tc.arg, Version: "v1",
				Logf: func(f string, args ...any) { logged = append(logged, f) }})
			st, err := a.Startup()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(Startup{Workspace: tc.want, Recent: []string{tc.want}, Home: home, Version: "v1"}, st); diff != "" {
				t.Errorf("startup (-want +got):\n%s", diff)
			}
			if (tc.arg != "" && tc.arg != tc.want) != (len(logged) > 0) {
				t.Errorf("logged %q", logged)
			}
		})
	}
}

func TestWindowState(t *testing.T) {
	tests := []struct {
		name    string
		file    string // "" = no file
		want    windowState
		wantErr bool
	}{
		{name: "no file gives defaults", want: windowState{Width: defaultWidth, Height: defaultHeight}},
		{name: "saved geometry", file: `{"width":1300,"height":900,"x":40,"y":30,"placed":true}`,
			want: windowState{Width: 1300, Height: 900, X: 40, Y: 30, Placed: true}},
		{name: "too small is reset", file: `{"width":10,"height":10,"workspace":"/w"}`,
			want: windowState{Width: defaultWidth, Height: defaultHeight, Workspace: "/w"}},
		{name: "broken file gives defaults and an error", file: `{"width":`, wantErr: true,
			want: windowState{Width: defaultWidth, Height: defaultHeight}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if tc.file != "" {
				if err := os.MkdirAll(filepath.Join(home, "desktop"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(statePath(home), []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := loadState(home)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStateRoundTrip(t *testing.T) {
	home := t.TempDir()
	want := windowState{Width: 1234, Height: 777, X: 5, Y: 6, Placed: true, Maximised: true, Workspace: "/p"}
	if err := saveState(home, want); err != nil {
		t.Fatal(err)
	}
	got, err := loadState(home)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// No temp files are left behind.
	ents, _ := os.ReadDir(filepath.Join(home, "desktop"))
	if len(ents) != 1 {
		t.Errorf("desktop dir holds %d entries, want just window.json", len(ents))
	}
}

func TestAppBridgeRunsFromStartToStop(t *testing.T) {
	eng := newFakeEngine()
	a := New(eng, Options{Home: t.TempDir()})
	sh := &fakeShell{recEmitter: newRecEmitter()}
	a.start(context.Background(), sh, time.Millisecond)

	// The bridge subscribes asynchronously: publish until a batch shows up.
	var got []events.Event
	for got == nil {
		eng.broker.Publish(events.Event{Phase: events.PhaseTurnStart, SessionID: "s1"})
		select {
		case got = <-sh.got:
		case <-time.After(10 * time.Millisecond):
		}
	}
	if got[0].SessionID != "s1" || got[0].Phase != events.PhaseTurnStart {
		t.Errorf("first event = %+v", got[0])
	}
	a.stop()
	a.stop() // idempotent
	// After stop the bridge has unsubscribed: must-deliver publishes do not block.
	for range bridgeBuffer + 10 {
		eng.broker.Publish(events.Event{Phase: events.PhaseTurnEnd, SessionID: "s1"})
	}
}

func TestInstanceIDIsPerHome(t *testing.T) {
	a, b := instanceID("/home/x/.vis"), instanceID("/tmp/other")
	if a == b {
		t.Errorf("two homes share the lock id %q", a)
	}
	if a != instanceID("/home/x/.vis/") {
		t.Errorf("the same home gives two lock ids")
	}
}
