package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/visdesktop/vis/backend/chat"
	tfix "github.com/visdesktop/vis/internal/fixture"
)

// clock is a fake time source: every reading is 1 ms after the previous one,
// so "newer" is always strictly newer without sleeping.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.UnixMilli(1_750_000_000_000)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// openTest opens a new store in a temporary folder: a copy of one migrated
// once per test binary (the migrations are most of a fresh Open's time
// under -race; TestMigrateFromEveryVersion and the open tests do their own).
func openTest(t testing.TB) *Store {
	t.Helper()
	dir := t.TempDir()
	tfix.Template(t, "migrated store", func(dir string) error {
		s, err := Open(context.Background(), filepath.Join(dir, "vis.db"))
		if err != nil {
			return err
		}
		return s.Close()
	}, dir)
	s, err := Open(context.Background(), filepath.Join(dir, "vis.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.now = newClock().Now
	t.Cleanup(func() { s.Close() })
	return s
}

func mustSession(t testing.TB, s *Store, workspace, title string) Session {
	t.Helper()
	sess := Session{ID: NewID(), Workspace: workspace, Title: title, Model: "m1"}
	if err := s.CreateSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(context.Background(), sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func mustTurn(t testing.TB, s *Store, sessionID, request string) Turn {
	t.Helper()
	turn, err := s.StartTurn(context.Background(), sessionID, request, "desktop")
	if err != nil {
		t.Fatal(err)
	}
	return turn
}

func mustIteration(t testing.TB, s *Store, it Iteration) int64 {
	t.Helper()
	id, err := s.AddIteration(context.Background(), it)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func countRows(t testing.TB, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestOpenCreatesParentDirAndSetsPragmas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// A path with characters that mean something in a URI must still name
	// that very file.
	path := filepath.Join(t.TempDir(), "state dir", "odd?name#1%20", "vis.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file not at %s: %v", path, err)
	}
	// Every pooled connection runs the pragmas: hold two at once.
	for i := range 2 {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var journal string
		var fk, busy, sync int
		for q, dst := range map[string]any{
			"PRAGMA journal_mode": &journal, "PRAGMA foreign_keys": &fk,
			"PRAGMA busy_timeout": &busy, "PRAGMA synchronous": &sync,
		} {
			if err := conn.QueryRowContext(ctx, q).Scan(dst); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if journal != "wal" || fk != 1 || busy != 5000 || sync != 1 {
			t.Errorf("conn %d: journal_mode=%s foreign_keys=%d busy_timeout=%d synchronous=%d; want wal 1 5000 1",
				i, journal, fk, busy, sync)
		}
	}
	if v, err := s.SchemaVersion(ctx); err != nil || v != len(embedded) {
		t.Errorf("SchemaVersion = %d, %v; want %d", v, err, len(embedded))
	}
}

func TestReopenKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	sess := mustSession(t, s, "/w", "kept")
	mustTurn(t, s, sess.ID, "hello")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.GetSession(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "kept" || got.Turns != 1 {
		t.Errorf("after reopen: %+v", got)
	}
}

func TestSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	a := mustSession(t, s, "/proj/a", "first")
	b := mustSession(t, s, "/proj/b", "second")
	c := mustSession(t, s, "/proj/a", "third")

	ids := func(list []Session) []string {
		var out []string
		for _, x := range list {
			out = append(out, x.ID)
		}
		return out
	}
	list := func(ws string) []string {
		t.Helper()
		l, err := s.ListSessions(ctx, ws)
		if err != nil {
			t.Fatal(err)
		}
		return ids(l)
	}
	if diff := cmp.Diff([]string{c.ID, b.ID, a.ID}, list("")); diff != "" {
		t.Errorf("ListSessions(all) newest first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{c.ID, a.ID}, list("/proj/a")); diff != "" {
		t.Errorf("ListSessions(/proj/a) (-want +got):\n%s", diff)
	}
	if got := list("/nowhere"); len(got) != 0 {
		t.Errorf("ListSessions(/nowhere) = %v, want none", got)
	}

	// A turn in a moves it to the top; so does Touch.
	mustTurn(t, s, a.ID, "work")
	if diff := cmp.Diff([]string{a.ID, c.ID, b.ID}, list("")); diff != "" {
		t.Errorf("after StartTurn in a (-want +got):\n%s", diff)
	}
	if err := s.TouchSession(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	latest, err := s.LatestSession(ctx, "")
	if err != nil || latest.ID != b.ID {
		t.Errorf("LatestSession(all) = %s, %v; want %s", latest.ID, err, b.ID)
	}
	latest, err = s.LatestSession(ctx, "/proj/a")
	if err != nil || latest.ID != a.ID || latest.Turns != 1 {
		t.Errorf("LatestSession(/proj/a) = %+v, %v; want %s with 1 turn", latest, err, a.ID)
	}

	if err := s.RenameSession(ctx, a.ID, "renamed"); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := Session{ID: a.ID, Workspace: "/proj/a", Title: "renamed", Model: "m1", Created: a.Created, Turns: 1}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Session{}, "Updated")); diff != "" {
		t.Errorf("GetSession after rename (-want +got):\n%s", diff)
	}
	if !got.Updated.After(a.Updated) {
		t.Errorf("Updated %v not after %v although a turn started", got.Updated, a.Updated)
	}

	if err := s.DeleteSession(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{a.ID}, list("/proj/a")); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
	if err := s.CreateSession(ctx, Session{ID: a.ID}); err == nil {
		t.Error("CreateSession with an existing id succeeded")
	}
	if err := s.CreateSession(ctx, Session{}); err == nil {
		t.Error("CreateSession without id succeeded")
	}
}

func TestErrNotFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	const missing = "01zzzzzzzzzzzzzzzzzzzzzzzz"
	tests := []struct {
		name string
		call func() error
	}{
		{"GetSession", func() error { _, err := s.GetSession(ctx, missing); return err }},
		{"LatestSession", func() error { _, err := s.LatestSession(ctx, "/empty"); return err }},
		{"RenameSession", func() error { return s.RenameSession(ctx, missing, "x") }},
		{"DeleteSession", func() error { return s.DeleteSession(ctx, missing) }},
		{"TouchSession", func() error { return s.TouchSession(ctx, missing) }},
		{"StartTurn", func() error { _, err := s.StartTurn(ctx, missing, "hi", "cli"); return err }},
		{"GetTurn", func() error { _, err := s.GetTurn(ctx, 999); return err }},
		{"SetTurnPrompt", func() error { return s.SetTurnPrompt(ctx, 999, "[]") }},
		{"FinishTurn", func() error { return s.FinishTurn(ctx, 999, TurnOutcome{Status: TurnDone}) }},
		{"AddIteration", func() error { _, err := s.AddIteration(ctx, Iteration{TurnID: 999, Status: IterationDone}); return err }},
		{"GetGoal", func() error { _, err := s.GetGoal(ctx, sess.ID); return err }},
		{"CompareAndSwapGoal", func() error {
			_, err := s.CompareAndSwapGoal(ctx, 0, Goal{SessionID: missing, GoalID: "g", Objective: "o", Status: "active", Revision: 1})
			return err
		}},
		{"GetAttachment", func() error { _, err := s.GetAttachment(ctx, 999); return err }},
		{"AddAttachment", func() error { _, err := s.AddAttachment(ctx, Attachment{SessionID: missing}); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errors.Is(err, ErrNotFound) {
				t.Errorf("error = %v, want ErrNotFound", err)
			}
		})
	}
}

func TestTurnLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "t")
	turn := mustTurn(t, s, sess.ID, "fix the bug")
	if turn.Position != 1 || turn.Status != TurnRunning || turn.ID == 0 || turn.Started.IsZero() {
		t.Fatalf("StartTurn = %+v", turn)
	}
	prompt := `[{"role":"system","content":"sys"},{"role":"user","content":"fix the bug"}]`
	if err := s.SetTurnPrompt(ctx, turn.ID, prompt); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTurnPrompt(ctx, turn.ID, "{not json"); err == nil {
		t.Error("SetTurnPrompt accepted invalid JSON")
	}

	t0 := time.UnixMilli(1_760_000_000_000)
	its := []Iteration{
		{TurnID: turn.ID, Status: IterationError, Code: "print(x)", Error: "NameError: x", Model: "m1",
			Reasoning: "think", Prose: "let me look", ToolCallsJSON: `[{"id":"c1","name":"python_execution"}]`,
			AppendedJSON: `[]`, Usage: chat.Usage{InputTokens: 100, OutputTokens: 10, CachedTokens: 50, ReasoningTokens: 3},
			Started: t0, Finished: t0.Add(900 * time.Millisecond), LLMMs: 800, EvalMs: 100},
		{TurnID: turn.ID, Status: IterationDone, Answer: "fixed", Model: "m1",
			AppendedJSON: `[{"role":"tool","content":"NameError"}]`, Usage: chat.Usage{InputTokens: 200, OutputTokens: 20},
			Started: t0.Add(time.Second), Finished: t0.Add(2 * time.Second), LLMMs: 1000},
	}
	for i := range its {
		its[i].ID = mustIteration(t, s, its[i])
		its[i].Position = i + 1
	}
	gotIts, err := s.ListIterations(ctx, turn.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(its, gotIts); diff != "" {
		t.Errorf("ListIterations (-want +got):\n%s", diff)
	}
	if _, err := s.AddIteration(ctx, Iteration{TurnID: turn.ID, Status: "running"}); err == nil {
		t.Error("AddIteration accepted status running")
	}
	if _, err := s.AddIteration(ctx, Iteration{TurnID: turn.ID, Status: IterationDone, Position: 2}); err == nil {
		t.Error("AddIteration accepted a duplicate position")
	}
	if err := s.FinishTurn(ctx, turn.ID, TurnOutcome{Status: TurnRunning}); err == nil {
		t.Error("FinishTurn accepted status running")
	}

	usage := its[0].Usage.Add(its[1].Usage)
	if err := s.FinishTurn(ctx, turn.ID, TurnOutcome{Status: TurnDone, Answer: "fixed", Iterations: 2,
		Usage: usage, CostUSD: 0.0125, DurationMs: 2000}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTurn(ctx, turn.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := Turn{ID: turn.ID, SessionID: sess.ID, Position: 1, Request: "fix the bug", Channel: "desktop",
		Status: TurnDone, Answer: "fixed", Iterations: 2, Usage: usage, CostUSD: 0.0125, PromptJSON: prompt,
		Started: turn.Started, DurationMs: 2000}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Turn{}, "Finished")); diff != "" {
		t.Errorf("GetTurn (-want +got):\n%s", diff)
	}
	if !got.Finished.After(got.Started) {
		t.Errorf("Finished %v not after Started %v", got.Finished, got.Started)
	}

	second := mustTurn(t, s, sess.ID, "and now?")
	list, err := s.ListTurns(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	want.PromptJSON = "" // ListTurns leaves it out
	want.Finished = got.Finished
	if diff := cmp.Diff([]Turn{want, second}, list); diff != "" {
		t.Errorf("ListTurns (-want +got):\n%s", diff)
	}
	if sg, err := s.GetSession(ctx, sess.ID); err != nil || sg.Turns != 2 {
		t.Errorf("GetSession Turns = %d, %v; want 2", sg.Turns, err)
	}
}

func TestFinishTurnMeasuresDurationWhenNotGiven(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	base := time.UnixMilli(1_770_000_000_000)
	s.now = func() time.Time { return base }
	turn := mustTurn(t, s, sess.ID, "q")
	s.now = func() time.Time { return base.Add(1500 * time.Millisecond) }
	if err := s.FinishTurn(ctx, turn.ID, TurnOutcome{Status: TurnCancelled}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTurn(ctx, turn.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.DurationMs != 1500 || !got.Finished.Equal(base.Add(1500*time.Millisecond)) {
		t.Errorf("DurationMs = %d, Finished = %v; want 1500 and %v", got.DurationMs, got.Finished, base.Add(1500*time.Millisecond))
	}
}

func TestConcurrentPositions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sessions := []Session{mustSession(t, s, "/w", "a"), mustSession(t, s, "/w", "b")}
	const perSession = 25
	var wg sync.WaitGroup
	errs := make(chan error, 2*perSession)
	for _, sess := range sessions {
		for range perSession {
			wg.Go(func() {
				if _, err := s.StartTurn(ctx, sess.ID, "q", "cli"); err != nil {
					errs <- err
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	wantPos := make([]int, perSession)
	for i := range wantPos {
		wantPos[i] = i + 1
	}
	for _, sess := range sessions {
		turns, err := s.ListTurns(ctx, sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		var pos []int
		for _, tr := range turns {
			pos = append(pos, tr.Position)
		}
		if diff := cmp.Diff(wantPos, pos); diff != "" {
			t.Errorf("session %s positions (-want +got):\n%s", sess.Title, diff)
		}
	}

	// The same for iterations added at once to one turn.
	turn := mustTurn(t, s, sessions[0].ID, "iterate")
	ierrs := make(chan error, perSession)
	for range perSession {
		wg.Go(func() {
			if _, err := s.AddIteration(ctx, Iteration{TurnID: turn.ID, Status: IterationDone}); err != nil {
				ierrs <- err
			}
		})
	}
	wg.Wait()
	close(ierrs)
	for err := range ierrs {
		t.Error(err)
	}
	its, err := s.ListIterations(ctx, turn.ID)
	if err != nil {
		t.Fatal(err)
	}
	var pos []int
	for _, it := range its {
		pos = append(pos, it.Position)
	}
	if diff := cmp.Diff(wantPos, pos); diff != "" {
		t.Errorf("iteration positions (-want +got):\n%s", diff)
	}
	if got, err := s.GetTurn(ctx, turn.ID); err != nil || got.Iterations != perSession {
		t.Errorf("turn Iterations = %d, %v; want %d", got.Iterations, err, perSession)
	}
}

// An iteration records its request only when the loop compacted it;
// RecordedRequest finds the newest one at or before an iteration, and an
// ordinary iteration stores NULL (nothing).
func TestRecordedRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "t")
	turn := mustTurn(t, s, sess.ID, "long work")
	req := map[int]string{
		2: `[{"role":"user","content":"compacted at 2"}]`,
		4: `[{"role":"user","content":"compacted at 4"}]`,
	}
	for pos := 1; pos <= 5; pos++ {
		mustIteration(t, s, Iteration{TurnID: turn.ID, Status: IterationDone, AppendedJSON: `[]`, RequestJSON: req[pos]})
	}
	tests := []struct {
		iter    int
		wantPos int
	}{{0, 0}, {1, 0}, {2, 2}, {3, 2}, {4, 4}, {5, 4}, {9, 4}}
	for _, tt := range tests {
		pos, got, err := s.RecordedRequest(ctx, turn.ID, tt.iter)
		if err != nil || pos != tt.wantPos || got != req[tt.wantPos] {
			t.Errorf("RecordedRequest(%d) = %d, %q, %v; want %d, %q", tt.iter, pos, got, err, tt.wantPos, req[tt.wantPos])
		}
	}
	if pos, got, err := s.RecordedRequest(ctx, turn.ID+99, 3); err != nil || pos != 0 || got != "" {
		t.Errorf("RecordedRequest of an absent turn = %d, %q, %v", pos, got, err)
	}
	var nulls int
	if err := s.db.QueryRow(`SELECT count(*) FROM iterations WHERE turn_id = ? AND request_json IS NULL`, turn.ID).Scan(&nulls); err != nil || nulls != 3 {
		t.Errorf("%d iterations store no request (%v), want the 3 uncompacted ones", nulls, err)
	}
	its, err := s.ListIterations(ctx, turn.ID)
	if err != nil || len(its) != 5 || its[1].RequestJSON != "" {
		t.Errorf("ListIterations = %d iterations, %v; RequestJSON must stay unread", len(its), err)
	}
	if _, err := s.AddIteration(ctx, Iteration{TurnID: turn.ID, Status: IterationDone, RequestJSON: "[not json"}); err == nil {
		t.Error("AddIteration accepted a request that is not JSON")
	}
}

func TestCascadeDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	doomed := mustSession(t, s, "/w", "doomed")
	kept := mustSession(t, s, "/w", "kept")
	for _, sess := range []Session{doomed, kept} {
		turn := mustTurn(t, s, sess.ID, "unicorn "+sess.Title)
		itID := mustIteration(t, s, Iteration{TurnID: turn.ID, Status: IterationDone})
		for _, a := range []Attachment{
			{SessionID: sess.ID, TurnID: turn.ID, MediaType: "image/png", Bytes: []byte("png")},
			{SessionID: sess.ID, TurnID: turn.ID, IterationID: itID, MediaType: "image/png", Bytes: []byte("out")},
		} {
			if _, err := s.AddAttachment(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		if ok, err := s.CompareAndSwapGoal(ctx, 0, Goal{SessionID: sess.ID, GoalID: "g", Objective: "o",
			Status: "active", Version: 1, Revision: 1}); err != nil || !ok {
			t.Fatalf("goal: %v %v", ok, err)
		}
	}
	if err := s.DeleteSession(ctx, doomed.ID); err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]int{"sessions": 1, "turns": 1, "iterations": 1, "attachments": 2, "goals": 1} {
		if got := countRows(t, s, table); got != want {
			t.Errorf("%s rows after delete = %d, want %d (the kept session's)", table, got, want)
		}
	}
	hits, err := s.Search(ctx, "unicorn", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].SessionID != kept.ID {
		t.Errorf("Search after delete = %+v, want only the kept session", hits)
	}
	if _, err := s.GetGoal(ctx, kept.ID); err != nil {
		t.Errorf("kept session lost its goal: %v", err)
	}
}

func TestInterruptRunning(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	done := mustTurn(t, s, sess.ID, "finished one")
	if err := s.FinishTurn(ctx, done.ID, TurnOutcome{Status: TurnDone, Answer: "ok", Iterations: 1}); err != nil {
		t.Fatal(err)
	}
	doneBefore, err := s.GetTurn(ctx, done.ID)
	if err != nil {
		t.Fatal(err)
	}
	running := mustTurn(t, s, sess.ID, "cut off")
	lastFinish := running.Started.Add(4 * time.Second)
	mustIteration(t, s, Iteration{TurnID: running.ID, Status: IterationDone, Usage: chat.Usage{InputTokens: 10, OutputTokens: 1},
		Started: running.Started, Finished: running.Started.Add(time.Second)})
	mustIteration(t, s, Iteration{TurnID: running.ID, Status: IterationError, Usage: chat.Usage{InputTokens: 20, OutputTokens: 2, CachedTokens: 5},
		Started: running.Started.Add(time.Second), Finished: lastFinish})
	other := mustSession(t, s, "/other", "")
	empty := mustTurn(t, s, other.ID, "no iteration yet")

	// A turn of this (live) process is left alone: another process, such
	// as the window, may be running it.
	if n, err := s.InterruptRunning(ctx); err != nil || n != 0 {
		t.Fatalf("InterruptRunning with a live owner = %d, %v; want 0", n, err)
	}
	// The process that ran them is gone.
	if _, err := s.db.ExecContext(ctx, `UPDATE turns SET owner = ? WHERE status = 'running'`, deadOwner(t)); err != nil {
		t.Fatal(err)
	}

	n, err := s.InterruptRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("InterruptRunning = %d, want 2", n)
	}
	got, err := s.GetTurn(ctx, running.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := Turn{ID: running.ID, SessionID: sess.ID, Position: 2, Request: "cut off", Channel: "desktop",
		Status: TurnInterrupted, Error: InterruptedError, Iterations: 2,
		Usage:   chat.Usage{InputTokens: 30, OutputTokens: 3, CachedTokens: 5},
		Started: running.Started, Finished: lastFinish, DurationMs: 4000}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("interrupted turn (-want +got):\n%s", diff)
	}
	gotEmpty, err := s.GetTurn(ctx, empty.ID)
	if err != nil {
		t.Fatal(err)
	}
	if gotEmpty.Status != TurnInterrupted || gotEmpty.DurationMs != 0 || !gotEmpty.Finished.Equal(gotEmpty.Started) {
		t.Errorf("interrupted turn without iterations = %+v", gotEmpty)
	}
	doneAfter, err := s.GetTurn(ctx, done.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(doneBefore, doneAfter); diff != "" {
		t.Errorf("a finished turn changed (-before +after):\n%s", diff)
	}
	if n, err := s.InterruptRunning(ctx); err != nil || n != 0 {
		t.Errorf("second InterruptRunning = %d, %v; want 0", n, err)
	}
}

func TestAttachments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	t1 := mustTurn(t, s, sess.ID, "look at this")
	t2 := mustTurn(t, s, sess.ID, "and this")
	in := Attachment{SessionID: sess.ID, TurnID: t1.ID, MediaType: "image/png", Filename: "shot.png", Bytes: []byte{0x89, 'P', 'N', 'G'}}
	id1, err := s.AddAttachment(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := s.AddAttachment(ctx, Attachment{SessionID: sess.ID, TurnID: t2.ID, Kind: "file", Filename: "b.txt", Bytes: []byte("b")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.GetAttachment(ctx, id1)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.ID, want.Kind, want.SizeBytes = id1, "image", 4
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Attachment{}, "Created")); diff != "" {
		t.Errorf("GetAttachment (-want +got):\n%s", diff)
	}
	all, err := s.ListAttachments(ctx, sess.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != id1 || all[1].ID != id2 || all[0].Bytes != nil || all[0].SizeBytes != 4 {
		t.Errorf("ListAttachments(all) = %+v", all)
	}
	only2, err := s.ListAttachments(ctx, sess.ID, t2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(only2) != 1 || only2[0].ID != id2 || only2[0].Kind != "file" {
		t.Errorf("ListAttachments(turn 2) = %+v", only2)
	}
}

func TestWriteWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	s.wsem <- struct{}{} // another writer holds the turn
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.TouchSession(ctx, sess.ID); !errors.Is(err, context.Canceled) {
		t.Errorf("TouchSession while the writer slot is taken and ctx is done = %v, want context.Canceled", err)
	}
	<-s.wsem
	if err := s.TouchSession(context.Background(), sess.ID); err != nil {
		t.Errorf("TouchSession after the slot is free: %v", err)
	}
}

func TestNewID(t *testing.T) {
	const n = 10000
	ids := make([]string, n)
	seen := map[string]bool{}
	for i := range ids {
		ids[i] = NewID()
		if len(ids[i]) != 26 {
			t.Fatalf("NewID() = %q, want 26 characters", ids[i])
		}
		if seen[ids[i]] {
			t.Fatalf("duplicate id %s", ids[i])
		}
		seen[ids[i]] = true
	}
	if !slices.IsSorted(ids) {
		t.Error("ids made one after another do not sort in creation order")
	}
	// The first 10 characters are the creation time in milliseconds.
	before := time.Now().UnixMilli()
	id := NewID()
	after := time.Now().UnixMilli()
	var stamp int64
	for _, c := range id[:10] {
		stamp = stamp<<5 | int64(strings.IndexRune(crockford, c))
	}
	if stamp < before-1 || stamp > after+1 { // +-1: the monotonic rule may step one ms
		t.Errorf("id %s carries time %d, want within [%d, %d]", id, stamp, before, after)
	}
	// Ids made later sort later, even when the clock steps back. (The
	// generator's state is restored afterwards, so later NewID calls carry the
	// real time again.)
	idState.Lock()
	savedMs, savedHi, savedLo := idState.ms, idState.hi, idState.lo
	idState.Unlock()
	defer func() {
		idState.Lock()
		idState.ms, idState.hi, idState.lo = savedMs, savedHi, savedLo
		idState.Unlock()
	}()
	future := time.Now().Add(time.Hour)
	a, b := newIDAt(future), newIDAt(future.Add(time.Millisecond))
	c := newIDAt(future.Add(-time.Minute))
	if !(a < b && b < c) {
		t.Errorf("ids out of order: %s, %s, then (clock stepped back) %s", a, b, c)
	}
}

// deadOwner returns the owner string of a process that has exited.
func deadOwner(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	o := ownerOf(cmd.Process.Pid)
	if ownerAlive(o) {
		t.Fatalf("owner %s of an exited process counts as alive", o)
	}
	return o
}

func TestOwnerLiveness(t *testing.T) {
	t.Parallel()
	if !ownerAlive(processOwner) {
		t.Fatalf("this process (%s) counts as dead", processOwner)
	}
	for _, o := range []string{"", "x", "0:0", "-5:1", "1:not-the-start-time"} {
		if ownerAlive(o) {
			t.Errorf("ownerAlive(%q) = true", o)
		}
	}
}
