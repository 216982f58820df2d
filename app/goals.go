package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/goals"
)

// GoalView is a session's goal as the goal panel shows it. Its JSON has the
// same keys as the engine's "goal" event payload (goals.Goal), so the page
// treats a bound method's answer and an event alike: the one with the
// highest revision wins. IterationBudget is null when the goal has no
// budget of its own.
type GoalView struct {
	ID              string `json:"id"`
	SessionID       string `json:"session_id"`
	Objective       string `json:"objective"`
	Status          string `json:"status"` // active, paused, blocked, complete, cancelled, budget_limited, cleared
	IterationBudget *int64 `json:"iteration_budget"`
	IterationsUsed  int64  `json:"iterations_used"`
	TokensUsed      int64  `json:"tokens_used"`
	TimeUsedMs      int64  `json:"time_used_ms"`
	Version         int64  `json:"version"`
	Revision        int64  `json:"revision"`
	Created         string `json:"created_at"`
	Updated         string `json:"updated_at"`
}

func toGoalView(g goals.Goal) GoalView {
	v := GoalView{
		ID: g.ID, SessionID: g.SessionID, Objective: g.Objective, Status: g.Status,
		IterationsUsed: g.IterationsUsed, TokensUsed: g.TokensUsed, TimeUsedMs: g.TimeUsedMs,
		Version: g.Version, Revision: g.Revision, Created: stamp(g.Created), Updated: stamp(g.Updated),
	}
	if g.IterationBudget != nil {
		b := *g.IterationBudget
		v.IterationBudget = &b
	}
	return v
}

// Goal returns the session's goal, or null when it has none or it was
// cleared.
func (a *App) Goal(sessionID string) (*GoalView, error) {
	if strings.TrimSpace(sessionID) == "" {
		return nil, fmt.Errorf("goal: %w: no session id", ErrInput)
	}
	ctx, _ := a.base()
	g, err := a.eng.Goal(ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("goal: %w", err)
	}
	if g == nil {
		return nil, nil
	}
	v := toGoalView(*g)
	return &v, nil
}

// SetGoal sets (or replaces) the session's goal the way a typed `/goal`
// does: the objective enters the transcript as the person's message and
// the goal's turn starts (queued behind a running turn). budget is the
// iteration budget; 0 means none. sessionID "" starts a new session in
// workspace. The engine's refusal (an empty or too long objective, a budget
// out of range) is the error.
func (a *App) SetGoal(sessionID, workspace, objective string, budget int64) (SubmitResult, error) {
	if strings.TrimSpace(sessionID) == "" && strings.TrimSpace(workspace) == "" {
		return SubmitResult{}, fmt.Errorf("set goal: %w: open a project folder first", ErrInput)
	}
	if budget < 0 {
		return SubmitResult{}, fmt.Errorf("set goal: %w: the iteration budget must be a whole number of at least 1 (or empty for none)", ErrInput)
	}
	var b *int64
	if budget > 0 {
		b = &budget
	}
	r, err := a.dispatch("set goal", sessionID, workspace, backend.Input{Goal: &backend.GoalInput{Action: goals.ActionSet, Objective: objective, Budget: b}})
	return r, refusal(err)
}

// GoalControl pauses, resumes, cancels or clears the session's goal. Pause,
// cancel and clear stop a running goal turn at once (it ends halted with
// the goal's message); resume starts the goal's turn again when none runs.
// The result's Goal is the goal afterwards (null after clear). When the
// goal rules refuse (resuming with the budget spent, pausing a goal that is
// not active) the error is the engine's sentence, unprefixed.
func (a *App) GoalControl(sessionID, action string) (SubmitResult, error) {
	if strings.TrimSpace(sessionID) == "" {
		return SubmitResult{}, fmt.Errorf("goal %s: %w: no session id", action, ErrInput)
	}
	switch action {
	case goals.ActionPause, goals.ActionResume, goals.ActionCancel, goals.ActionClear:
	default:
		return SubmitResult{}, fmt.Errorf("goal control: %w: unknown action %q (pause, resume, cancel or clear)", ErrInput, action)
	}
	r, err := a.dispatch("goal "+action, sessionID, "", backend.Input{Goal: &backend.GoalInput{Action: action}})
	return r, refusal(err)
}

// refusal keeps a goal rule's refusal as the engine wrote it (it is written
// for the person) and wraps anything else with context.
func refusal(err error) error {
	if err == nil {
		return nil
	}
	if re, ok := errors.AsType[*goals.RefusedError](err); ok {
		return re
	}
	return err
}
