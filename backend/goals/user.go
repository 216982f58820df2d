package goals

import (
	"context"
	"strings"

	"github.com/visdesktop/vis/backend/store"
)

// User controls of a goal (Control) and the actions of a `/goal` command.
const (
	ActionPause  = "pause"
	ActionResume = "resume"
	ActionCancel = "cancel"
	ActionClear  = "clear"
)

// Set creates the session's goal or replaces it (user path only). The
// objective is trimmed and must have 1–8192 characters; budget is nil (no
// goal-specific limit) or 1…2^53−1 loop iterations. The goal gets a new
// identity, status active, version 1 and zero usage, whatever the session
// had before. Its clock is stopped: the next turn starts it (StartClock).
func (s *Service) Set(ctx context.Context, sessionID, objective string, budget *int64) (Goal, error) {
	objective = strings.TrimSpace(objective)
	if err := checkObjective(objective); err != nil {
		return Goal{}, err
	}
	if err := checkBudget(budget); err != nil {
		return Goal{}, err
	}
	id := s.newID()
	var b int64
	if budget != nil {
		b = *budget
	}
	g, _, err := s.mutate(ctx, "set goal", sessionID, func(store.Goal, bool) (store.Goal, write, error) {
		return store.Goal{GoalID: id, Objective: objective, Status: StatusActive, IterationBudget: b, Version: 1}, writeGoal, nil
	})
	if err != nil {
		return Goal{}, err
	}
	return fromStore(g), nil
}

// Control applies a user control (ActionPause, ActionResume, ActionCancel,
// ActionClear) and returns the goal afterwards.
//
//   - pause: active → paused.
//   - resume: paused or blocked → active; refused when the iteration budget is
//     spent. It never resets usage or enlarges the budget, and leaves the
//     clock stopped: the turn that follows starts it (StartClock).
//   - cancel: any status but cancelled → cancelled.
//   - clear: any status → cleared (the goal stops, leaves the model's context
//     and clients hide it; the record stays). Idempotent: clearing a cleared
//     goal, or a session without a goal, changes nothing and succeeds.
//
// A cleared goal counts as no goal for pause, resume and cancel (ErrNoGoal).
// Every status change bumps the version; a change away from active stops
// the goal's clock. Refusals are *RefusedError.
func (s *Service) Control(ctx context.Context, sessionID, action string) (Goal, error) {
	switch action {
	case ActionPause, ActionResume, ActionCancel, ActionClear:
	default:
		return Goal{}, refuse("Unknown goal control %q: use pause, resume, cancel or clear.", action)
	}
	g, exists, err := s.mutate(ctx, action+" goal", sessionID, func(cur store.Goal, exists bool) (store.Goal, write, error) {
		if action == ActionClear {
			if !exists || cur.Status == StatusCleared {
				return cur, noWrite, nil
			}
			return withStatus(cur, StatusCleared), writeGoal, nil
		}
		if !exists || cur.Status == StatusCleared {
			return cur, noWrite, ErrNoGoal
		}
		var next string
		switch action {
		case ActionPause:
			if cur.Status == StatusActive {
				next = StatusPaused
			}
		case ActionResume:
			if cur.Status == StatusBudgetLimited || (budgetSpent(cur) && (cur.Status == StatusPaused || cur.Status == StatusBlocked)) {
				return cur, noWrite, refuse("Goal iteration budget is exhausted (%d of %d iterations used). Set a new explicit goal and budget.",
					cur.IterationsUsed, cur.IterationBudget)
			}
			if cur.Status == StatusPaused || cur.Status == StatusBlocked {
				next = StatusActive
			}
		case ActionCancel:
			if cur.Status != StatusCancelled {
				next = StatusCancelled
			}
		}
		if next == "" {
			return cur, noWrite, refuse("Cannot %s %s %s goal.", action, article(cur.Status), cur.Status)
		}
		return withStatus(cur, next), writeGoal, nil
	})
	if err != nil {
		return Goal{}, err
	}
	if !exists {
		return Goal{}, nil
	}
	return fromStore(g), nil
}

// ResumeForUserTurn resumes a paused or blocked goal that has budget left,
// for a genuine new user message, and reports whether it did. Usage and
// budget are kept, and the clock stays stopped until the turn calls
// StartClock. No goal, a spent budget, any other status, or a goal that
// a user control (or anything else) changed since this call read it are left
// exactly as they are. The caller must not call it for synthetic wakes,
// command-only turns (`/goal …`) or cancelled turns.
func (s *Service) ResumeForUserTurn(ctx context.Context, sessionID string) (Goal, bool, error) {
	seen, exists, err := s.read(ctx, sessionID)
	if err != nil {
		return Goal{}, false, err
	}
	if !exists {
		return Goal{}, false, nil
	}
	if (seen.Status != StatusPaused && seen.Status != StatusBlocked) || budgetSpent(seen) {
		return fromStore(seen), false, nil
	}
	resumed := false
	g, _, err := s.mutate(ctx, "resume goal for user turn", sessionID, func(cur store.Goal, exists bool) (store.Goal, write, error) {
		resumed = false // a lost compare-and-set calls this again
		if !exists || cur.GoalID != seen.GoalID || cur.Version != seen.Version || cur.Status != seen.Status || budgetSpent(cur) {
			return cur, noWrite, nil
		}
		resumed = true
		return withStatus(cur, StatusActive), writeGoal, nil
	})
	if err != nil {
		return Goal{}, false, err
	}
	return fromStore(g), resumed, nil
}

// withStatus returns g with a new status and the next version.
func withStatus(g store.Goal, status string) store.Goal {
	g.Status = status
	g.Version++
	return g
}

func article(status string) string {
	if status != "" && strings.ContainsRune("aeiou", rune(status[0])) {
		return "an"
	}
	return "a"
}
