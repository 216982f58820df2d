package goals

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/store"
	"github.com/visdesktop/vis/internal/fixture"
)

var t0 = time.UnixMilli(1_780_000_000_000)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// at sets the clock to t0 + ms.
func (c *clock) at(ms int64) {
	c.mu.Lock()
	c.t = t0.Add(time.Duration(ms) * time.Millisecond)
	c.mu.Unlock()
}

type env struct {
	t       *testing.T
	ctx     context.Context
	st      *store.Store
	svc     *Service
	sid     string
	clock   *clock
	mu      sync.Mutex
	changes []Goal
}

// openStore opens the store at path. A new one starts as a copy of a store
// migrated once per test binary: the migrations are most of a fresh
// Open's time under -race (about 160 ms against 16 ms for a copy), and
// this package opens a hundred.
func openStore(t testing.TB, path string) *store.Store {
	t.Helper()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		name := filepath.Base(path)
		fixture.Template(t, "migrated store "+name, func(dir string) error {
			st, err := store.Open(context.Background(), filepath.Join(dir, name))
			if err != nil {
				return err
			}
			return st.Close()
		}, filepath.Dir(path))
	}
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newSession(t testing.TB, st *store.Store) string {
	t.Helper()
	id := store.NewID()
	if err := st.CreateSession(context.Background(), store.Session{ID: id, Workspace: "/w", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	return id
}

// newEnv opens a real store in a temp dir with one session and a Service on
// a test clock at t0 whose OnChange records every goal.
func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), clock: &clock{t: t0}}
	e.st = openStore(t, filepath.Join(t.TempDir(), "vis.db"))
	e.sid = newSession(t, e.st)
	e.svc = New(e.st, Options{Now: e.clock.Now, OnChange: func(g Goal) {
		e.mu.Lock()
		e.changes = append(e.changes, g)
		e.mu.Unlock()
	}})
	return e
}

func (e *env) get() Goal {
	e.t.Helper()
	g, _, err := e.svc.Get(e.ctx, e.sid)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

func (e *env) set(objective string, budget *int64) Goal {
	e.t.Helper()
	g, err := e.svc.Set(e.ctx, e.sid, objective, budget)
	if err != nil {
		e.t.Fatal(err)
	}
	return g
}

func (e *env) control(action string) Goal {
	e.t.Helper()
	g, err := e.svc.Control(e.ctx, e.sid, action)
	if err != nil {
		e.t.Fatalf("%s: %v", action, err)
	}
	return g
}

func (e *env) model(status string) Goal {
	e.t.Helper()
	g, err := e.svc.UpdateFromModel(e.ctx, e.sid, status)
	if err != nil {
		e.t.Fatalf("update_goal(%q): %v", status, err)
	}
	return g
}

func (e *env) ticket() Ticket {
	e.t.Helper()
	tk, err := e.svc.Capture(e.ctx, e.sid)
	if err != nil {
		e.t.Fatal(err)
	}
	return tk
}

func (e *env) account(tk Ticket, in, out int) {
	e.t.Helper()
	if err := e.svc.Account(e.ctx, tk, chat.Usage{InputTokens: in, OutputTokens: out}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) haltCheck(tk Ticket) Halt {
	e.t.Helper()
	h, err := e.svc.HaltCheck(e.ctx, tk)
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

func (e *env) startClock(tk Ticket) {
	e.t.Helper()
	if err := e.svc.StartClock(e.ctx, tk); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) finishTurn(tk Ticket, status string) {
	e.t.Helper()
	if err := e.svc.FinishTurn(e.ctx, tk, status); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) revisions() []int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	var rs []int64
	for _, g := range e.changes {
		rs = append(rs, g.Revision)
	}
	return rs
}

func ptr(n int64) *int64 { return &n }

// refusal returns the message of a *RefusedError, or fails.
func refusal(t *testing.T, err error) string {
	t.Helper()
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a refusal", err, err)
	}
	return re.Message
}

func TestSetGoalFields(t *testing.T) {
	e := newEnv(t)
	g := e.set("  Verify the SDK  ", ptr(100))
	want := Goal{ID: g.ID, SessionID: e.sid, Objective: "Verify the SDK", Status: StatusActive,
		IterationBudget: ptr(100), Version: 1, Revision: 1, Created: t0, Updated: t0} // clock stopped
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("Set (-want +got):\n%s", diff)
	}
	if g.ID == "" {
		t.Error("goal has no id")
	}
	if diff := cmp.Diff(g, e.get()); diff != "" {
		t.Errorf("Get after Set (-set +get):\n%s", diff)
	}
	if raw, _ := json.Marshal(g); strings.Contains(string(raw), "active_since") {
		t.Errorf("a goal whose clock is stopped has active_since: %s", raw)
	}

	// The JSON document has exactly the schema's keys (active_since while the
	// clock runs): no reason, no token budget.
	if err := e.svc.StartClock(e.ctx, e.ticket()); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(e.get())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	json.Unmarshal(raw, &doc)
	var keys []string
	for k := range doc {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	wantKeys := []string{"active_since", "created_at", "id", "iteration_budget", "iterations_used", "objective",
		"revision", "session_id", "status", "time_used_ms", "tokens_used", "updated_at", "version"}
	if diff := cmp.Diff(wantKeys, keys); diff != "" {
		t.Errorf("JSON keys (-want +got):\n%s", diff)
	}
	if doc["iteration_budget"] != float64(100) {
		t.Errorf("iteration_budget = %v", doc["iteration_budget"])
	}

	if ContinuationPrompt(e.get()) == "" {
		t.Error("no continuation prompt while the goal is active")
	}
	done := e.model(StatusComplete)
	if done.Status != StatusComplete || done.Revision != 3 || done.Version != 2 {
		t.Errorf("after complete: status %s revision %d version %d; want complete 3 2", done.Status, done.Revision, done.Version)
	}
	if got := ContinuationPrompt(e.get()); got != "" {
		t.Errorf("continuation prompt of a complete goal = %q", got)
	}

	// Without a budget the JSON says null.
	g = e.set("x", nil)
	raw, _ = json.Marshal(g)
	if !strings.Contains(string(raw), `"iteration_budget":null`) {
		t.Errorf("no-budget goal JSON: %s", raw)
	}
}

func TestSetValidation(t *testing.T) {
	e := newEnv(t)
	e.set("keep me", ptr(5))
	long := strings.Repeat("é", MaxObjectiveChars)
	tests := []struct {
		name      string
		objective string
		budget    *int64
		wantErr   string // "" = accepted
	}{
		{"blank", "   \n\t", nil, "Goal objective must contain 1–8192 characters."},
		{"empty", "", nil, "Goal objective must contain 1–8192 characters."},
		{"too long", long + "x", nil, "Goal objective must contain 1–8192 characters."},
		{"invalid utf-8", "fix \xff", nil, "Goal objective must be valid UTF-8 text."},
		{"budget 0", "work", ptr(0), "Goal iteration budget must be an integer from 1 to 9007199254740991."},
		{"budget -1", "work", ptr(-1), "Goal iteration budget must be an integer from 1 to 9007199254740991."},
		{"budget too large", "work", ptr(MaxBudget + 1), "Goal iteration budget must be an integer from 1 to 9007199254740991."},
		{"longest objective", " " + long + " ", nil, ""},
		{"largest budget", "work", ptr(MaxBudget), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur := e.get()
			g, err := e.svc.Set(e.ctx, e.sid, tc.objective, tc.budget)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if g.Objective != strings.TrimSpace(tc.objective) || g.Revision != cur.Revision+1 {
					t.Errorf("Set = %+v", g)
				}
				return
			}
			if got := refusal(t, err); got != tc.wantErr {
				t.Errorf("error = %q, want %q", got, tc.wantErr)
			}
			if diff := cmp.Diff(cur, e.get()); diff != "" {
				t.Errorf("refused Set changed the goal (-before +after):\n%s", diff)
			}
		})
	}

	// No such session: an error wrapping store.ErrNotFound, no goal anywhere.
	if _, err := e.svc.Set(e.ctx, "nope", "work", nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Set on a missing session = %v, want ErrNotFound", err)
	}
}

// reach puts a fresh goal in the given status.
func (e *env) reach(status string) Goal {
	e.t.Helper()
	switch status {
	case "":
		return Goal{}
	case StatusBudgetLimited:
		e.set("bounded", ptr(1))
		tk := e.ticket()
		e.account(tk, 1, 1)
		if h := e.haltCheck(tk); h.Kind != HaltBudget {
			e.t.Fatalf("halt = %+v", h)
		}
		return e.get()
	}
	e.set("reach "+status, nil)
	switch status {
	case StatusPaused:
		e.control(ActionPause)
	case StatusBlocked, StatusComplete:
		e.model(status)
	case StatusCancelled:
		e.control(ActionCancel)
	case StatusCleared:
		e.control(ActionClear)
	}
	g := e.get()
	if g.Status != status {
		e.t.Fatalf("reached %s, want %s", g.Status, status)
	}
	return g
}

func TestControlTransitions(t *testing.T) {
	tests := []struct {
		from, action string
		want         string // new status, or the refusal
	}{
		{StatusActive, ActionPause, StatusPaused},
		{StatusActive, ActionResume, "Cannot resume an active goal."},
		{StatusActive, ActionCancel, StatusCancelled},
		{StatusActive, ActionClear, StatusCleared},
		{StatusPaused, ActionPause, "Cannot pause a paused goal."},
		{StatusPaused, ActionResume, StatusActive},
		{StatusPaused, ActionCancel, StatusCancelled},
		{StatusBlocked, ActionResume, StatusActive},
		{StatusBlocked, ActionPause, "Cannot pause a blocked goal."},
		{StatusComplete, ActionPause, "Cannot pause a complete goal."},
		{StatusComplete, ActionResume, "Cannot resume a complete goal."},
		{StatusComplete, ActionCancel, StatusCancelled},
		{StatusCancelled, ActionCancel, "Cannot cancel a cancelled goal."},
		{StatusCancelled, ActionResume, "Cannot resume a cancelled goal."},
		{StatusCancelled, ActionClear, StatusCleared},
		{StatusBudgetLimited, ActionResume, "Goal iteration budget is exhausted (1 of 1 iterations used). Set a new explicit goal and budget."},
		{StatusBudgetLimited, ActionPause, "Cannot pause a budget_limited goal."},
		{StatusBudgetLimited, ActionCancel, StatusCancelled},
		{StatusCleared, ActionPause, ErrNoGoal.Message},
		{StatusCleared, ActionResume, ErrNoGoal.Message},
		{StatusCleared, ActionCancel, ErrNoGoal.Message},
		{"", ActionPause, ErrNoGoal.Message},
		{"", ActionResume, ErrNoGoal.Message},
		{"", ActionCancel, ErrNoGoal.Message},
		{StatusActive, "stop", `Unknown goal control "stop": use pause, resume, cancel or clear.`},
	}
	for _, tc := range tests {
		t.Run(tc.from+"/"+tc.action, func(t *testing.T) {
			e := newEnv(t)
			before := e.reach(tc.from)
			g, err := e.svc.Control(e.ctx, e.sid, tc.action)
			if validStatus[tc.want] {
				if err != nil {
					t.Fatal(err)
				}
				want := before
				want.Status, want.Version, want.Revision = tc.want, before.Version+1, before.Revision+1
				// No control starts the clock: a resumed goal waits for its next turn.
				want.ActiveSince = time.Time{}
				if diff := cmp.Diff(want, g); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				return
			}
			if got := refusal(t, err); got != tc.want {
				t.Errorf("refusal %q, want %q", got, tc.want)
			}
			if diff := cmp.Diff(before, e.get()); diff != "" {
				t.Errorf("refused control changed the goal (-before +after):\n%s", diff)
			}
		})
	}
}

func TestClearIsIdempotent(t *testing.T) {
	e := newEnv(t)
	if g, err := e.svc.Control(e.ctx, e.sid, ActionClear); err != nil || g.Status != "" {
		t.Fatalf("clear without a goal = %+v, %v; want no goal, no error", g, err)
	}
	e.set("work", nil)
	cleared := e.control(ActionClear)
	again := e.control(ActionClear)
	if diff := cmp.Diff(cleared, again); diff != "" {
		t.Errorf("second clear changed the goal (-first +second):\n%s", diff)
	}
	if got := e.revisions(); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("writes = %v, want [1 2] (the second clear writes nothing)", got)
	}
	g, ok, err := e.svc.Get(e.ctx, e.sid)
	if err != nil || !ok || !g.Hidden() || g.Objective != "work" {
		t.Errorf("Get after clear = %+v, %v, %v; want the record, hidden", g, ok, err)
	}
	if _, visible := VisibleStatus(g); visible || SystemPrompt(g) != "" || ContinuationPrompt(g) != "" {
		t.Error("a cleared goal is still in the model's context")
	}
}

func TestUserControlsAndStaleWork(t *testing.T) {
	e := newEnv(t)
	first := e.set("First", nil)
	start := e.ticket() // a request started under the first goal, version 1
	if g := e.control(ActionPause); g.Status != StatusPaused {
		t.Fatal(g.Status)
	}
	_, err := e.svc.UpdateFromModelAt(e.ctx, start, StatusComplete)
	if refusal(t, err) != errStale.Message {
		t.Errorf("stale update after pause: %v", err)
	}
	if g := e.control(ActionResume); g.Status != StatusActive {
		t.Fatal(g.Status)
	}
	e.account(start, 10, 5) // stale: the goal is at version 3 now
	if g := e.get(); g.IterationsUsed != 0 || g.TokensUsed != 0 {
		t.Errorf("stale accounting counted: %+v", g)
	}
	_, err = e.svc.UpdateFromModelAt(e.ctx, start, StatusBlocked)
	if refusal(t, err) != errStale.Message {
		t.Errorf("stale update after pause+resume: %v", err)
	}
	replacement := e.set("Second", nil)
	if replacement.ID == first.ID || replacement.Revision != 4 || replacement.Version != 1 {
		t.Errorf("replacement: id %s (first %s) revision %d version %d; want new id, revision 4, version 1",
			replacement.ID, first.ID, replacement.Revision, replacement.Version)
	}
	old := start
	old.Version = 3 // even the latest version of the first goal is stale now
	if _, err := e.svc.UpdateFromModelAt(e.ctx, old, StatusBlocked); refusal(t, err) != errStale.Message {
		t.Errorf("update of a replaced goal: %v", err)
	}
	if g := e.control(ActionCancel); g.Status != StatusCancelled {
		t.Fatal(g.Status)
	}
	if _, err := e.svc.Control(e.ctx, e.sid, ActionResume); refusal(t, err) != "Cannot resume a cancelled goal." {
		t.Errorf("resume after cancel: %v", err)
	}
}

func TestIterationBudget(t *testing.T) {
	e := newEnv(t)
	e.set("Bounded work", ptr(1))
	turn := e.ticket()
	req := e.ticket()
	if err := e.svc.Account(e.ctx, req, chat.Usage{InputTokens: 10, OutputTokens: 7, CachedTokens: 8, ReasoningTokens: 3}); err != nil {
		t.Fatal(err)
	}
	if g := e.get(); g.Status != StatusActive || g.IterationsUsed != 1 || g.TokensUsed != 17 {
		t.Fatalf("after one response: %s, %d iterations, %d tokens; want active, 1, 17", g.Status, g.IterationsUsed, g.TokensUsed)
	}
	// The last allowed iteration's tools may still run: no stop at a tool boundary.
	if h, err := e.svc.StopCheck(e.ctx, turn); err != nil || h.Halted() {
		t.Fatalf("StopCheck at the budget = %+v, %v; want no halt", h, err)
	}
	h := e.haltCheck(turn)
	if diff := cmp.Diff(Halt{Kind: HaltBudget, Message: BudgetHaltMessage}, h); diff != "" {
		t.Errorf("HaltCheck (-want +got):\n%s", diff)
	}
	limited := e.get()
	if limited.Status != StatusBudgetLimited || limited.IterationsUsed != 1 || limited.TokensUsed != 17 || limited.Version != 2 {
		t.Errorf("after the halt: %+v", limited)
	}
	if st, ok := VisibleStatus(limited); !ok || st != StatusBudgetLimited {
		t.Errorf("model sees %q, %v; want budget_limited", st, ok)
	}
	if ContinuationPrompt(limited) != "" {
		t.Error("continuation prompt for a budget-limited goal")
	}
	if _, err := e.svc.Control(e.ctx, e.sid, ActionResume); !strings.Contains(refusal(t, err), "Set a new explicit goal and budget") {
		t.Errorf("resume after budget: %v", err)
	}
	if _, err := e.svc.UpdateFromModel(e.ctx, e.sid, StatusComplete); refusal(t, err) != "The goal is budget_limited, not active: update_goal works only on an active goal." {
		t.Errorf("update after budget: %v", err)
	}
	if _, resumed, err := e.svc.ResumeForUserTurn(e.ctx, e.sid); err != nil || resumed {
		t.Errorf("ResumeForUserTurn after budget = %v, %v", resumed, err)
	}
	// A second check reports the same halt and writes nothing.
	if h := e.haltCheck(turn); h.Kind != HaltBudget {
		t.Errorf("second HaltCheck = %+v", h)
	}
	if diff := cmp.Diff(limited, e.get()); diff != "" {
		t.Errorf("refused requests changed the goal (-before +after):\n%s", diff)
	}
}

func TestUsageSurvivesResumeAndResetsOnlyOnNewGoal(t *testing.T) {
	e := newEnv(t)
	e.set("Bounded", ptr(3))
	e.account(e.ticket(), 100, 20)
	e.control(ActionPause)
	resumed := e.control(ActionResume)
	if resumed.IterationsUsed != 1 || resumed.TokensUsed != 120 || *resumed.IterationBudget != 3 {
		t.Fatalf("after pause+resume: %+v", resumed)
	}
	turn := e.ticket()
	e.account(e.ticket(), 1, 1)
	if g := e.get(); g.IterationsUsed != 2 {
		t.Fatalf("iterations_used = %d, want 2", g.IterationsUsed)
	}
	if h := e.haltCheck(turn); h.Halted() {
		t.Fatalf("halt at 2 of 3: %+v", h)
	}
	e.account(e.ticket(), 1, 1)
	if h := e.haltCheck(turn); h.Kind != HaltBudget {
		t.Fatalf("no budget halt at 3 of 3: %+v", h)
	}
	e.clock.at(60_000)
	replacement := e.set("New scope", nil)
	want := Goal{ID: replacement.ID, SessionID: e.sid, Objective: "New scope", Status: StatusActive,
		Version: 1, Revision: replacement.Revision, Created: e.clock.Now(), Updated: e.clock.Now()}
	if diff := cmp.Diff(want, replacement); diff != "" {
		t.Errorf("replacement (-want +got):\n%s", diff)
	}
}

func TestActiveWallClock(t *testing.T) {
	e := newEnv(t)
	check := func(step string, want int64) {
		t.Helper()
		if g := e.get(); g.TimeUsedMs != want {
			t.Errorf("%s: time_used_ms = %d, want %d", step, g.TimeUsedMs, want)
		}
	}
	e.set("Timed", nil)
	e.clock.at(5_000)
	check("set, no turn yet", 0)
	e.startClock(e.ticket()) // a turn starts
	e.clock.at(10_000)
	e.account(e.ticket(), 1, 1) // a checkpoint while running
	check("first response", 5_000)
	e.clock.at(13_000)
	e.control(ActionPause)
	check("pause", 8_000)
	e.clock.at(100_000) // paused time does not count
	check("while paused", 8_000)
	e.control(ActionResume)
	e.clock.at(150_000) // resumed but no turn yet: no time
	check("resumed, no turn", 8_000)
	e.startClock(e.ticket())
	e.clock.at(155_000)
	e.model(StatusBlocked)
	check("blocked", 13_000)
	e.clock.at(200_000)
	check("while blocked", 13_000)
	if _, resumed, err := e.svc.ResumeForUserTurn(e.ctx, e.sid); err != nil || !resumed {
		t.Fatalf("ResumeForUserTurn = %v, %v", resumed, err)
	}
	turn := e.ticket()
	e.clock.at(210_000)
	check("resumed for a user turn, before it starts", 13_000)
	e.startClock(turn)
	e.clock.at(212_500)
	check("running (live)", 15_500)
	e.clock.at(215_000)
	e.model(StatusComplete)
	check("complete", 18_000)
	e.clock.at(300_000)
	e.account(e.ticket(), 1, 1) // the final reply after completion counts, but not as time
	e.finishTurn(turn, "done")
	g := e.get()
	if g.TimeUsedMs != 18_000 || g.IterationsUsed != 2 {
		t.Errorf("after the final reply: time %d, iterations %d; want 18000, 2", g.TimeUsedMs, g.IterationsUsed)
	}
}

func TestTimeStops(t *testing.T) {
	tests := []struct {
		name string
		stop func(e *env, turn Ticket)
		want string
	}{
		{"budget", func(e *env, turn Ticket) {
			e.account(e.ticket(), 1, 1)
			e.haltCheck(turn)
		}, StatusBudgetLimited},
		{"cancel", func(e *env, turn Ticket) { e.control(ActionCancel) }, StatusCancelled},
		{"failed turn", func(e *env, turn Ticket) {
			if err := e.svc.FinishTurn(e.ctx, turn, TurnError); err != nil {
				e.t.Fatal(err)
			}
		}, StatusPaused},
		{"cleared", func(e *env, turn Ticket) { e.control(ActionClear) }, StatusCleared},
		{"finished turn", func(e *env, turn Ticket) {
			if err := e.svc.FinishTurn(e.ctx, turn, "done"); err != nil {
				e.t.Fatal(err)
			}
		}, StatusActive},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.set("Timed", ptr(1))
			turn := e.ticket()
			e.startClock(turn)
			e.clock.at(4_000)
			tc.stop(e, turn)
			g := e.get()
			if g.Status != tc.want || g.TimeUsedMs != 4_000 || !g.ActiveSince.IsZero() {
				t.Fatalf("at the stop: %s, %d ms, running since %v; want %s, 4000 ms, not running", g.Status, g.TimeUsedMs, g.ActiveSince, tc.want)
			}
			e.clock.at(3_600_000)
			if g := e.get(); g.TimeUsedMs != 4_000 {
				t.Errorf("an hour later: %d ms, want 4000", g.TimeUsedMs)
			}
		})
	}
}

func TestModelCannotCreateOrExpand(t *testing.T) {
	e := newEnv(t)
	_, err := e.svc.UpdateFromModel(e.ctx, e.sid, StatusComplete)
	if refusal(t, err) != "This session has no goal; only the user sets one, with /goal." {
		t.Errorf("update without a goal: %v", err)
	}
	if _, ok, _ := e.svc.Get(e.ctx, e.sid); ok {
		t.Fatal("the model created a goal")
	}
	goal := e.set("Original scope", ptr(2))
	for _, status := range []string{StatusActive, StatusPaused, StatusCancelled, StatusCleared, StatusBudgetLimited, "", "COMPLETE", "done"} {
		_, err := e.svc.UpdateFromModel(e.ctx, e.sid, status)
		if !strings.HasPrefix(refusal(t, err), "update_goal takes status 'complete' or 'blocked'") {
			t.Errorf("update_goal(%q): %v", status, err)
		}
	}
	// Through the real sandbox: only a status parameter, no budget, no objective.
	in, err := sandbox.New(sandbox.Options{}, []hostfn.Builtin{e.svc.Builtin(e.sid, nil)})
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		`update_goal("active")`,
		`update_goal(status="complete", budget=100)`,
		`update_goal("complete", "all done")`,
		`update_goal()`,
	} {
		if r := in.Exec(e.ctx, code, nil); r.Err == nil {
			t.Errorf("%s succeeded: %s", code, r.Wire())
		}
	}
	if diff := cmp.Diff(goal, e.get()); diff != "" {
		t.Errorf("the model changed the goal (-before +after):\n%s", diff)
	}
	r := in.Exec(e.ctx, `print(update_goal("blocked"))`, nil)
	if r.Err != nil || !strings.Contains(r.Output, `'status': 'blocked'`) {
		t.Fatalf("update_goal(blocked) = %s", r.Wire())
	}
	// Blocked is not active: the model cannot resume it.
	r = in.Exec(e.ctx, `update_goal("complete")`, nil)
	if r.Err == nil || !strings.Contains(r.Err.Message, "The goal is blocked, not active") {
		t.Errorf("update of a blocked goal = %s", r.Wire())
	}
	if g := e.get(); g.Status != StatusBlocked || *g.IterationBudget != 2 || g.Objective != "Original scope" {
		t.Errorf("after the model: %+v", g)
	}
}

func TestBuiltinRefusesStaleRequest(t *testing.T) {
	e := newEnv(t)
	e.set("First", nil)
	var mu sync.Mutex
	var current Ticket
	started := func() Ticket { mu.Lock(); defer mu.Unlock(); return current }
	begin := func() { tk := e.ticket(); mu.Lock(); current = tk; mu.Unlock() }
	in, err := sandbox.New(sandbox.Options{}, []hostfn.Builtin{e.svc.Builtin(e.sid, started)})
	if err != nil {
		t.Fatal(err)
	}
	begin()
	e.set("Replacement set while the program ran", nil)
	r := in.Exec(e.ctx, `update_goal("complete")`, nil)
	if r.Err == nil || r.Err.Phase != sandbox.PhaseTool || !strings.Contains(r.Err.Message, "do not update stale work") {
		t.Errorf("stale update_goal = %s", r.Wire())
	}
	if g := e.get(); g.Status != StatusActive {
		t.Errorf("the replacement became %s", g.Status)
	}
	begin()
	if r := in.Exec(e.ctx, `update_goal("complete")`, nil); r.Err != nil {
		t.Errorf("current update_goal = %s", r.Wire())
	}
	if g := e.get(); g.Status != StatusComplete {
		t.Errorf("status %s, want complete", g.Status)
	}
}

func TestListenersSeeEveryMutation(t *testing.T) {
	e := newEnv(t)
	var want []Goal
	step := func(g Goal) { want = append(want, g) }
	step(e.set("Notify", ptr(5)))
	e.get() // reads do not notify
	e.account(e.ticket(), 3, 4)
	step(e.get())
	step(e.control(ActionPause))
	e.control(ActionClear)
	step(e.get())
	e.control(ActionClear) // no change, no event
	step(e.set("Again", nil))
	step(e.model(StatusComplete))
	e.mu.Lock()
	got := e.changes
	e.mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OnChange (-want +got):\n%s", diff)
	}
	if rs := e.revisions(); !slices.Equal(rs, []int64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("revisions = %v", rs)
	}
}

func TestFinishTurnPausesOnlyItsGoal(t *testing.T) {
	e := newEnv(t)
	e.set("First", nil)
	first := e.ticket()
	if err := e.svc.FinishTurn(e.ctx, first, "done"); err != nil {
		t.Fatal(err)
	}
	if g := e.get(); g.Status != StatusActive {
		t.Fatalf("a finished turn paused its goal: %s", g.Status)
	}
	if err := e.svc.FinishTurn(e.ctx, first, TurnCancelled); err != nil {
		t.Fatal(err)
	}
	if g := e.get(); g.Status != StatusPaused || g.Version != 2 {
		t.Fatalf("after a cancelled turn: %s v%d, want paused v2", g.Status, g.Version)
	}
	replacement := e.set("Replacement", nil)
	for _, st := range []string{TurnError, TurnInterrupted, TurnCancelled} {
		if err := e.svc.FinishTurn(e.ctx, first, st); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(replacement, e.get()); diff != "" {
		t.Errorf("a stopped turn touched the replacement (-want +got):\n%s", diff)
	}
	if h, _ := e.svc.StopCheck(e.ctx, first); h.Kind != HaltReplaced || h.Message != ReplacedHaltMessage {
		t.Errorf("StopCheck of the first turn = %+v", h)
	}
	// A turn that completed its goal and then failed leaves it complete.
	turn := e.ticket()
	e.model(StatusComplete)
	if err := e.svc.FinishTurn(e.ctx, turn, TurnError); err != nil {
		t.Fatal(err)
	}
	if g := e.get(); g.Status != StatusComplete {
		t.Errorf("failed turn after completion: %s", g.Status)
	}
	// The write lands even when the turn's ctx is cancelled.
	e.set("Third", nil)
	turn = e.ticket()
	ctx, cancel := context.WithCancel(e.ctx)
	cancel()
	if err := e.svc.FinishTurn(ctx, turn, TurnCancelled); err != nil {
		t.Fatal(err)
	}
	if g := e.get(); g.Status != StatusPaused {
		t.Errorf("FinishTurn with a cancelled ctx: %s, want paused", g.Status)
	}
}

func TestHalts(t *testing.T) {
	stopped := Halt{Kind: HaltStopped, Message: StoppedHaltMessage}
	tests := []struct {
		name     string
		during   func(e *env)
		halt     Halt // HaltCheck and StopCheck
		turnHalt Halt // TurnHalt
	}{
		{"nothing", func(e *env) {}, Halt{}, Halt{}},
		{"progress", func(e *env) { e.account(e.ticket(), 1, 1) }, Halt{}, Halt{}},
		{"paused", func(e *env) { e.control(ActionPause) }, stopped, stopped},
		{"cancelled", func(e *env) { e.control(ActionCancel) }, stopped, stopped},
		{"cleared", func(e *env) { e.control(ActionClear) }, stopped, stopped},
		{"paused and resumed", func(e *env) { e.control(ActionPause); e.control(ActionResume) }, stopped, stopped},
		{"replaced", func(e *env) { e.set("other", nil) }, Halt{Kind: HaltReplaced, Message: ReplacedHaltMessage}, Halt{Kind: HaltReplaced, Message: ReplacedHaltMessage}},
		{"completed", func(e *env) { e.model(StatusComplete) }, Halt{}, Halt{Kind: HaltComplete, Message: CompleteHaltMessage}},
		{"blocked", func(e *env) { e.model(StatusBlocked) }, Halt{}, Halt{Kind: HaltBlocked, Message: BlockedHaltMessage}},
		// The final allowed iteration completed the goal: no budget halt, the next request writes the reply.
		{"completed at the budget", func(e *env) { e.account(e.ticket(), 1, 1); e.account(e.ticket(), 1, 1); e.model(StatusComplete) }, Halt{}, Halt{Kind: HaltComplete, Message: CompleteHaltMessage}},
		{"completed then cancelled", func(e *env) { e.model(StatusComplete); e.control(ActionCancel) }, stopped, stopped},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.set("Work", ptr(2))
			turn := e.ticket()
			tc.during(e)
			before := e.get()
			if h, err := e.svc.StopCheck(e.ctx, turn); err != nil || h != tc.halt {
				t.Errorf("StopCheck = %+v, %v; want %+v", h, err, tc.halt)
			}
			if h, err := e.svc.TurnHalt(e.ctx, turn); err != nil || h != tc.turnHalt {
				t.Errorf("TurnHalt = %+v, %v; want %+v", h, err, tc.turnHalt)
			}
			if h := e.haltCheck(turn); h != tc.halt {
				t.Errorf("HaltCheck = %+v; want %+v", h, tc.halt)
			}
			if diff := cmp.Diff(before, e.get()); diff != "" {
				t.Errorf("checks changed the goal (-before +after):\n%s", diff)
			}
		})
	}

	// A turn that started without a goal (or with a stopped one) never halts.
	for _, from := range []string{"", StatusPaused, StatusComplete, StatusBudgetLimited} {
		e := newEnv(t)
		e.reach(from)
		turn := e.ticket()
		e.set("set later", ptr(1))
		e.account(e.ticket(), 1, 1)
		for name, check := range map[string]func(context.Context, Ticket) (Halt, error){
			"HaltCheck": e.svc.HaltCheck, "StopCheck": e.svc.StopCheck, "TurnHalt": e.svc.TurnHalt} {
			if h, err := check(e.ctx, turn); err != nil || h.Halted() {
				t.Errorf("turn started with %q: %s = %+v, %v", from, name, h, err)
			}
		}
	}
}

func TestAccountAttribution(t *testing.T) {
	e := newEnv(t)
	e.set("Work", nil)
	pre := e.ticket()
	e.control(ActionPause)
	paused := e.ticket()
	e.account(paused, 5, 5) // a request under a paused goal is not goal work
	e.account(pre, 5, 5)    // stale version
	if g := e.get(); g.IterationsUsed != 0 {
		t.Fatalf("counted %d", g.IterationsUsed)
	}
	e.control(ActionResume)
	req := e.ticket()
	e.model(StatusComplete) // the response's program completes the goal after Account
	e.account(req, 5, 5)    // stale: version moved to complete
	done := e.ticket()
	e.account(done, 2, 3) // the final reply after completion counts
	if g := e.get(); g.IterationsUsed != 1 || g.TokensUsed != 5 {
		t.Errorf("after completion: %d iterations, %d tokens; want 1, 5", g.IterationsUsed, g.TokensUsed)
	}
	// No goal: nothing to do, no error.
	if err := e.svc.Account(e.ctx, Ticket{SessionID: e.sid}, chat.Usage{InputTokens: 1}); err != nil {
		t.Error(err)
	}
}

func TestResumeForUserTurn(t *testing.T) {
	for _, from := range []string{"", StatusActive, StatusComplete, StatusCancelled, StatusBudgetLimited, StatusCleared, "exhausted"} {
		t.Run("unchanged/"+from, func(t *testing.T) {
			e := newEnv(t)
			if from == "exhausted" { // paused at the limit before the halt check ran
				e.set("bounded", ptr(1))
				e.account(e.ticket(), 1, 1)
				e.control(ActionPause)
			} else {
				e.reach(from)
			}
			before, _, _ := e.svc.Get(e.ctx, e.sid)
			writes := len(e.revisions())
			g, resumed, err := e.svc.ResumeForUserTurn(e.ctx, e.sid)
			if err != nil || resumed {
				t.Fatalf("= %v, %v; want not resumed", resumed, err)
			}
			if diff := cmp.Diff(before, g); diff != "" {
				t.Errorf("returned goal (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, e.get()); diff != "" {
				t.Errorf("stored goal changed (-before +after):\n%s", diff)
			}
			if len(e.revisions()) != writes {
				t.Error("it wrote")
			}
		})
	}
	for _, from := range []string{StatusPaused, StatusBlocked} {
		t.Run("resumes/"+from, func(t *testing.T) {
			e := newEnv(t)
			e.set("work", ptr(5))
			e.account(e.ticket(), 7, 8)
			if from == StatusPaused {
				e.control(ActionPause)
			} else {
				e.model(StatusBlocked)
			}
			before := e.get()
			g, resumed, err := e.svc.ResumeForUserTurn(e.ctx, e.sid)
			if err != nil || !resumed {
				t.Fatalf("= %v, %v; want resumed", resumed, err)
			}
			want := before
			want.Status, want.Version, want.Revision = StatusActive, before.Version+1, before.Revision+1 // clock stopped
			if diff := cmp.Diff(want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestResumeForUserTurnLosesToUserControls has a user control land between
// the read and the compare-and-set of ResumeForUserTurn (through a second
// Service, as the CLI in another process would).
func TestResumeForUserTurnLosesToUserControls(t *testing.T) {
	tests := []struct {
		name    string
		control func(ctx context.Context, other *Service, sid string) error
		want    string
	}{
		{"cancel", func(ctx context.Context, o *Service, sid string) error {
			_, err := o.Control(ctx, sid, ActionCancel)
			return err
		}, StatusCancelled},
		{"replace", func(ctx context.Context, o *Service, sid string) error {
			if _, err := o.Set(ctx, sid, "new objective", nil); err != nil {
				return err
			}
			_, err := o.Control(ctx, sid, ActionPause)
			return err
		}, StatusPaused},
		{"resume then pause", func(ctx context.Context, o *Service, sid string) error {
			if _, err := o.Control(ctx, sid, ActionResume); err != nil {
				return err
			}
			_, err := o.Control(ctx, sid, ActionPause)
			return err
		}, StatusPaused},
		{"clear", func(ctx context.Context, o *Service, sid string) error {
			_, err := o.Control(ctx, sid, ActionClear)
			return err
		}, StatusCleared},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			other := New(openStore(t, e.st.Path()), Options{Now: e.clock.Now})
			e.set("work", nil)
			e.control(ActionPause)
			fired := false
			e.svc.beforeWrite = func() {
				if !fired {
					fired = true
					if err := tc.control(e.ctx, other, e.sid); err != nil {
						t.Error(err)
					}
				}
			}
			want, _, err := other.Get(e.ctx, e.sid)
			if err != nil {
				t.Fatal(err)
			}
			g, resumed, err := e.svc.ResumeForUserTurn(e.ctx, e.sid)
			if err != nil || resumed {
				t.Fatalf("= %v, %v; want not resumed", resumed, err)
			}
			if !fired {
				t.Fatal("the concurrent control never ran")
			}
			want, _, _ = other.Get(e.ctx, e.sid)
			if want.Status != tc.want {
				t.Fatalf("the control left %s, want %s", want.Status, tc.want)
			}
			if diff := cmp.Diff(want, g); diff != "" {
				t.Errorf("returned goal (-user's +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, e.get()); diff != "" {
				t.Errorf("stored goal (-user's +got):\n%s", diff)
			}
		})
	}
}

func TestCASRetriesAreBounded(t *testing.T) {
	e := newEnv(t)
	other := New(openStore(t, e.st.Path()), Options{Now: e.clock.Now})
	e.svc = New(e.st, Options{Now: e.clock.Now, MaxCASRetries: 2})
	e.set("work", nil)
	attempts := 0
	e.svc.beforeWrite = func() {
		attempts++
		if err := other.Account(e.ctx, mustTicket(t, other, e.sid), chat.Usage{InputTokens: 1}); err != nil {
			t.Error(err)
		}
	}
	_, err := e.svc.Control(e.ctx, e.sid, ActionPause)
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("pause under constant conflict = %v, want ErrConflict", err)
	}
	if attempts != 3 {
		t.Errorf("%d attempts, want 3 (1 + 2 retries)", attempts)
	}
	if g := e.get(); g.Status != StatusActive || g.IterationsUsed != 3 || g.Revision != 4 {
		t.Errorf("goal after the failed pause: %s, %d iterations, revision %d; want the other writer's active, 3, 4", g.Status, g.IterationsUsed, g.Revision)
	}
	// One conflict, then success.
	attempts = 0
	e.svc.beforeWrite = func() {
		attempts++
		if attempts == 1 {
			other.Account(e.ctx, mustTicket(t, other, e.sid), chat.Usage{})
		}
	}
	if g, err := e.svc.Control(e.ctx, e.sid, ActionPause); err != nil || g.Status != StatusPaused || g.IterationsUsed != 4 {
		t.Errorf("pause after one conflict = %+v, %v", g, err)
	}
}

func mustTicket(t *testing.T, s *Service, sid string) Ticket {
	t.Helper()
	tk, err := s.Capture(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func TestVisibleStatusAndSystemPrompt(t *testing.T) {
	tests := []struct {
		status  string
		visible bool
	}{
		{"", false}, {StatusActive, true}, {StatusPaused, true}, {StatusBlocked, true},
		{StatusBudgetLimited, true}, {StatusComplete, false}, {StatusCancelled, false}, {StatusCleared, false},
	}
	for _, tc := range tests {
		g := Goal{Status: tc.status, Objective: "secret objective"}
		st, ok := VisibleStatus(g)
		if ok != tc.visible || (ok && st != tc.status) || (!ok && st != "") {
			t.Errorf("VisibleStatus(%q) = %q, %v", tc.status, st, ok)
		}
		if got := SystemPrompt(g) != ""; got != tc.visible {
			t.Errorf("SystemPrompt(%q) present = %v, want %v", tc.status, got, tc.visible)
		}
		if got := ContinuationPrompt(g) != ""; got != (tc.status == StatusActive) {
			t.Errorf("ContinuationPrompt(%q) present = %v", tc.status, got)
		}
		if got := ResumePrompt(g) != ""; got != (tc.status == StatusActive) {
			t.Errorf("ResumePrompt(%q) present = %v", tc.status, got)
		}
	}
	active := Goal{Status: StatusActive}
	rules, cont, resume := SystemPrompt(active), ContinuationPrompt(active), ResumePrompt(active)
	for _, phrase := range []string{"3 consecutive goal continuations", "verified live operation", "no progress",
		"user input, resume, or new progress", "attempted alternatives", "not an independent engine check"} {
		if !strings.Contains(rules, phrase) || !strings.Contains(cont, phrase) || !strings.Contains(resume, phrase) {
			t.Errorf("%q missing from the rules, the continuation or the resume prompt", phrase)
		}
	}
	if !strings.Contains(cont, "Your reply was delivered as progress") {
		t.Error("continuation does not say the reply was delivered as progress")
	}
	if !strings.HasPrefix(resume, "The user resumed the session goal; it is active again.") ||
		!strings.Contains(resume, "take the next useful authorized action toward the whole objective") {
		t.Errorf("resume prompt = %q", resume)
	}
	if strings.Contains(resume, "delivered as progress") || strings.Contains(resume, "Your reply") {
		t.Errorf("the resume prompt claims a reply was delivered: %q", resume)
	}
	if ResumePrompt(Goal{Status: StatusPaused}) != "" {
		t.Error("resume prompt for a paused goal")
	}
	if strings.Contains(rules, "secret objective") {
		t.Error("the rules carry the objective")
	}
	for _, phrase := range []string{"Complete means that every requirement is verified.",
		"Never lower the objective, and never mark blocked only to deliver a progress reply.",
		"write the evidence\nor the blocker in your final reply"} {
		if !strings.Contains(UpdateGoalDoc, phrase) {
			t.Errorf("UpdateGoalDoc lacks %q", phrase)
		}
	}
}

func TestContinuationMethod(t *testing.T) {
	e := newEnv(t)
	for _, step := range []struct {
		do   func()
		want bool
	}{
		{func() {}, false},
		{func() { e.set("x", nil) }, true},
		{func() { e.control(ActionPause) }, false},
		{func() { e.control(ActionResume) }, true},
		{func() { e.model(StatusComplete) }, false},
	} {
		step.do()
		c, err := e.svc.Continuation(e.ctx, e.sid)
		if err != nil || (c != "") != step.want {
			t.Errorf("status %q: continuation %q, %v", e.get().Status, c, err)
		}
	}
}
