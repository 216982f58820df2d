// Package goals implements explicit, durable session goals (seed 003).
//
// One goal per session, persisted by the store. Only the user path (the
// `/goal` command, the window's goal form and buttons) creates or replaces an
// objective (Set) or controls it (Control: pause, resume, cancel, clear). The
// model's only power is UpdateFromModel: mark the active goal complete or
// blocked, through the update_goal builtin (Builtin). A goal keeps no history
// and no reason: the transcript holds earlier goals and the replies that
// explain each status. Completion is a model declaration backed by evidence in
// its final reply, not an independent judge.
//
// The loop drives the rest with Tickets, snapshots of the goal (id, version,
// status) taken with Capture: one when a turn starts (after
// ResumeForUserTurn) and one when each model request starts. StartClock
// (right after the turn's Capture) starts the goal's clock; Account charges
// one loop response to the ticket's goal/version; HaltCheck (top of every
// iteration) enforces the iteration budget and user stops; StopCheck is the
// read-only stop check at tool boundaries; TurnHalt is the read-only check
// after a turn; FinishTurn stops the clock of the turn's goal, and pauses
// that goal when the turn was cancelled, failed or interrupted. The model
// sees only session["goal_status"] (VisibleStatus) and the goal rules
// (SystemPrompt).
//
// Every mutation reads the stored goal, applies a pure transform and writes
// the result with a compare-and-set on the goal's revision; on a conflict it
// re-reads and retries, at most Options.MaxCASRetries times, then fails with
// an error wrapping ErrConflict and leaves the goal as the other writer left
// it. revision grows by one on every write, version by one on every status
// change. A transform that changes nothing writes nothing.
//
// Active wall time (time_used_ms) is the time turns spent working on the
// goal while it was active, measured with the injected clock. The clock runs
// only from StartClock (a turn starts with the active goal) to the end of
// that turn (FinishTurn, whatever the turn's status) or the goal's first
// status change, whichever comes first; active_since is set exactly while it
// runs. A goal that is set, resumed (Control, ResumeForUserTurn) or left
// active between turns does not accrue time: the next turn starts the clock.
// While the clock runs every write checkpoints it (adds the time since
// active_since and moves active_since to now), so time never goes back; Get
// adds the running time since the last checkpoint.
//
// Concurrency: a Service is safe for concurrent use. Writes to one session's
// goal are serialized inside one Service, and Options.OnChange is called
// synchronously after each successful write, in revision order, while that
// session's writes are held: it must be quick and must not mutate goals
// (reads are fine). Services in other processes (the CLI and the window
// share the database) are kept consistent by the compare-and-set alone; their
// writes reach this process's OnChange only through a later read.
//
// Failures: refusals a user or the model must read (invalid transition, spent
// budget, stale model work, bad input) are *RefusedError (ErrNoGoal is one);
// a `/goal` command's errors are *CommandError, whose text ends with the Usage
// line. Every refusal leaves the stored goal unchanged. Store failures are
// returned wrapped; a session that does not exist wraps store.ErrNotFound.
package goals

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/store"
)

// Goal statuses.
const (
	StatusActive        = "active"
	StatusPaused        = "paused"
	StatusBlocked       = "blocked"
	StatusComplete      = "complete"
	StatusCancelled     = "cancelled"
	StatusBudgetLimited = "budget_limited"
	StatusCleared       = "cleared"
)

// Limits of a goal's fields.
const (
	MaxObjectiveChars = 8192
	MaxBudget         = 1<<53 - 1 // 9,007,199,254,740,991 (JSON-safe integer)
)

// DefaultMaxCASRetries is how often a mutation retries after losing a
// compare-and-set when Options.MaxCASRetries is 0.
const DefaultMaxCASRetries = 8

// Goal is a session's goal as clients see it. The zero Goal (Status "") is
// "no goal"; VisibleStatus, SystemPrompt, ContinuationPrompt and Render
// accept it.
type Goal struct {
	ID              string    `json:"id"`
	SessionID       string    `json:"session_id"`
	Objective       string    `json:"objective"`
	Status          string    `json:"status"`
	IterationBudget *int64    `json:"iteration_budget"` // nil = no goal-specific limit
	IterationsUsed  int64     `json:"iterations_used"`
	TokensUsed      int64     `json:"tokens_used"`           // input + output tokens; statistics only
	TimeUsedMs      int64     `json:"time_used_ms"`          // wall time of turns working on the active goal (Get: up to now)
	Version         int64     `json:"version"`               // +1 on every status change
	Revision        int64     `json:"revision"`              // +1 on every write; clients keep the highest seen
	Created         time.Time `json:"created_at"`            // when this goal (identity) was set
	Updated         time.Time `json:"updated_at"`            // last write
	ActiveSince     time.Time `json:"active_since,omitzero"` // last checkpoint while the clock runs; zero when it is stopped
}

// Hidden reports whether clients hide the goal: a cleared goal stays as a
// record only so that clients can keep the highest revision they saw.
func (g Goal) Hidden() bool { return g.Status == StatusCleared }

// BudgetSpent reports whether the goal has an iteration budget and used it all.
func (g Goal) BudgetSpent() bool {
	return g.IterationBudget != nil && g.IterationsUsed >= *g.IterationBudget
}

// RefusedError is a request the goal rules refuse. Message is written for the
// person or model that asked; the stored goal is unchanged.
type RefusedError struct{ Message string }

func (e *RefusedError) Error() string { return e.Message }

// ErrNoGoal is the refusal of a control when the session has no goal (or
// only a cleared one).
var ErrNoGoal = &RefusedError{Message: "This session has no goal. Use /goal <objective>."}

// ErrConflict is wrapped by a mutation that lost the compare-and-set more
// than Options.MaxCASRetries times in a row.
var ErrConflict = errors.New("the goal changed concurrently; retry")

func refuse(format string, args ...any) error {
	return &RefusedError{Message: fmt.Sprintf(format, args...)}
}

// Options configure a Service.
type Options struct {
	// Now is the clock (nil = time.Now). Times are kept to the millisecond.
	Now func() time.Time
	// OnChange receives every goal this Service writes, with its new
	// revision, in revision order. It runs synchronously while the session's
	// goal writes are held: keep it quick and do not mutate goals from it.
	OnChange func(Goal)
	// MaxCASRetries bounds the retries of a mutation that lost the
	// compare-and-set (0 = DefaultMaxCASRetries; negative = no retry).
	MaxCASRetries int
	// NewID makes goal ids (nil = store.NewID).
	NewID func() string
}

// Service reads and changes session goals in one store.
type Service struct {
	st       *store.Store
	now      func() time.Time
	onChange func(Goal)
	retries  int
	newID    func() string
	locks    [64]sync.Mutex // write locks, striped by session id

	heldMu sync.Mutex
	held   map[string]*heldGoal // sessions whose reads a turn holds (cache.go)

	// beforeWrite and afterWrite, when set (tests), run between the read
	// and the compare-and-set of every write attempt, and between a
	// successful compare-and-set and OnChange.
	beforeWrite, afterWrite func()
}

// New returns a Service over st.
func New(st *store.Store, o Options) *Service {
	s := &Service{st: st, now: o.Now, onChange: o.OnChange, retries: o.MaxCASRetries, newID: o.NewID}
	if s.now == nil {
		s.now = time.Now
	}
	switch {
	case s.retries == 0:
		s.retries = DefaultMaxCASRetries
	case s.retries < 0:
		s.retries = 0
	}
	if s.newID == nil {
		s.newID = store.NewID
	}
	return s
}

// clock returns now, truncated to the millisecond the store keeps.
func (s *Service) clock() time.Time { return time.UnixMilli(s.now().UnixMilli()) }

// Get returns the session's goal and whether it has one (a cleared goal is
// returned, with ok true: check Hidden). While the goal's clock runs,
// TimeUsedMs includes the time since its last checkpoint.
func (s *Service) Get(ctx context.Context, sessionID string) (Goal, bool, error) {
	sg, ok, err := s.cachedRead(ctx, sessionID)
	if err != nil || !ok {
		return Goal{}, false, err
	}
	g := fromStore(sg)
	if g.Status == StatusActive && !g.ActiveSince.IsZero() {
		g.TimeUsedMs += max(0, s.clock().Sub(g.ActiveSince).Milliseconds())
	}
	return g, true, nil
}

func (s *Service) read(ctx context.Context, sessionID string) (store.Goal, bool, error) {
	sg, err := s.st.GetGoal(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) {
		return store.Goal{}, false, nil
	}
	if err != nil {
		return store.Goal{}, false, fmt.Errorf("read goal: %w", err)
	}
	return sg, true, nil
}

func fromStore(sg store.Goal) Goal {
	g := Goal{
		ID: sg.GoalID, SessionID: sg.SessionID, Objective: sg.Objective, Status: sg.Status,
		IterationsUsed: sg.IterationsUsed, TokensUsed: sg.TokensUsed, TimeUsedMs: sg.TimeUsedMs,
		Version: sg.Version, Revision: sg.Revision, Created: sg.Created, Updated: sg.Updated,
		ActiveSince: sg.ActiveSince,
	}
	if sg.IterationBudget != 0 {
		b := sg.IterationBudget
		g.IterationBudget = &b
	}
	return g
}

func budgetSpent(g store.Goal) bool {
	return g.IterationBudget != 0 && g.IterationsUsed >= g.IterationBudget
}

// transform computes the next goal from the current one (exists false: the
// session has none). It returns the write to make (noWrite leaves the goal
// as it is), or a refusal.
type transform func(cur store.Goal, exists bool) (next store.Goal, w write, err error)

// write is what a transform asks mutate to do with the goal's clock.
type write int

const (
	// noWrite leaves the stored goal as it is.
	noWrite write = iota
	// writeGoal writes the goal; its clock keeps running only if it ran for
	// the same goal and the new status is active.
	writeGoal
	// writeStartClock writes the goal and runs its clock if the new status is
	// active (StartClock).
	writeStartClock
	// writeStopClock writes the goal and stops its clock (FinishTurn).
	writeStopClock
)

// mutate applies f with a compare-and-set, retrying on conflicts. It returns
// the goal as it is afterwards (written or unchanged) and whether one exists.
func (s *Service) mutate(ctx context.Context, op, sessionID string, f transform) (store.Goal, bool, error) {
	h := fnv.New32a()
	h.Write([]byte(sessionID))
	mu := &s.locks[h.Sum32()%uint32(len(s.locks))]
	mu.Lock()
	defer mu.Unlock()
	for attempt := 0; ; attempt++ {
		cur, exists, err := s.read(ctx, sessionID)
		if err != nil {
			return store.Goal{}, false, fmt.Errorf("%s: %w", op, err)
		}
		next, w, err := f(cur, exists)
		if err != nil {
			return cur, exists, err
		}
		if w == noWrite {
			return cur, exists, nil
		}
		now := s.clock()
		next.SessionID = sessionID
		running := exists && cur.Status == StatusActive && cur.GoalID == next.GoalID && !cur.ActiveSince.IsZero()
		if running { // checkpoint
			next.TimeUsedMs = cur.TimeUsedMs + max(0, now.Sub(cur.ActiveSince).Milliseconds())
		}
		run := next.Status == StatusActive && (w == writeStartClock || (running && w != writeStopClock))
		if run {
			next.ActiveSince = now
		} else {
			next.ActiveSince = time.Time{}
		}
		next.Revision = cur.Revision + 1
		next.Updated = now
		if next.Created.IsZero() {
			next.Created = now
		}
		if err := validate(next); err != nil {
			return cur, exists, fmt.Errorf("%s: invalid goal state: %w", op, err)
		}
		if s.beforeWrite != nil {
			s.beforeWrite()
		}
		ok, err := s.st.CompareAndSwapGoal(ctx, cur.Revision, next)
		s.invalidate(sessionID) // written, lost to another writer, or failed: read it again
		if err != nil {
			return cur, exists, fmt.Errorf("%s: %w", op, err)
		}
		if ok {
			if s.afterWrite != nil {
				s.afterWrite()
			}
			if s.onChange != nil {
				s.onChange(fromStore(next))
			}
			return next, true, nil
		}
		if attempt >= s.retries {
			return cur, exists, fmt.Errorf("%s: lost %d compare-and-sets in a row: %w", op, attempt+1, ErrConflict)
		}
	}
}

var validStatus = map[string]bool{
	StatusActive: true, StatusPaused: true, StatusBlocked: true, StatusComplete: true,
	StatusCancelled: true, StatusBudgetLimited: true, StatusCleared: true,
}

// validate checks a goal about to be written (the session_goal schema).
func validate(g store.Goal) error {
	switch {
	case g.GoalID == "":
		return errors.New("empty id")
	case !validStatus[g.Status]:
		return fmt.Errorf("unknown status %q", g.Status)
	case g.IterationBudget < 0 || g.IterationBudget > MaxBudget:
		return fmt.Errorf("iteration budget %d out of range", g.IterationBudget)
	case g.IterationsUsed < 0 || g.TokensUsed < 0 || g.TimeUsedMs < 0:
		return errors.New("negative usage")
	case g.Version < 1:
		return fmt.Errorf("version %d", g.Version)
	}
	return checkObjective(g.Objective)
}

// checkObjective refuses an objective that is not already trimmed text of
// 1–8192 characters.
func checkObjective(o string) error {
	if !utf8.ValidString(o) {
		return refuse("Goal objective must be valid UTF-8 text.")
	}
	if n := utf8.RuneCountInString(o); n == 0 || n > MaxObjectiveChars || strings.TrimSpace(o) != o {
		return refuse("Goal objective must contain 1–%d characters.", MaxObjectiveChars)
	}
	return nil
}

func checkBudget(b *int64) error {
	if b != nil && (*b < 1 || *b > MaxBudget) {
		return refuse("Goal iteration budget must be an integer from 1 to %d.", int64(MaxBudget))
	}
	return nil
}
