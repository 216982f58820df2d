package goals

import (
	"context"
	"errors"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/store"
)

// UpdateGoalDoc is the doc of the update_goal builtin: its first line is the
// summary; the rest states the seed's rules.
const UpdateGoalDoc = `Mark the active session goal 'complete' or 'blocked' — the model's only goal power.
update_goal(status) sets the active goal to status 'complete' or 'blocked'; it works
only while session['goal_status'] is 'active'.
Complete means that every requirement is verified.
Blocked means that, after the goal blocker audit, no useful authorized action remains
without user input or an external change.
Never lower the objective, and never mark blocked only to deliver a progress reply.
The status has no reason: after the tools of this iteration finish, write the evidence
or the blocker in your final reply.
You cannot create, replace, resume or cancel a goal or increase its budget: those are
user controls (/goal).
Returns {"status": <new status>}.`

// UpdateFromModel is the model's update_goal on the session's current goal:
// status must be StatusComplete or StatusBlocked and the goal must be
// active. The version is bumped; usage and budget are untouched. Refusals are
// *RefusedError written for the model.
func (s *Service) UpdateFromModel(ctx context.Context, sessionID, status string) (Goal, error) {
	return s.updateFromModel(ctx, sessionID, status, nil)
}

// UpdateFromModelAt is UpdateFromModel for model work started under t (the
// ticket of the request whose program calls update_goal): it is refused
// when the goal was replaced, or changed version (paused and resumed,
// completed) since t was taken.
func (s *Service) UpdateFromModelAt(ctx context.Context, t Ticket, status string) (Goal, error) {
	return s.updateFromModel(ctx, t.SessionID, status, &t)
}

var errStale = &RefusedError{Message: "The goal was stopped or changed. Read session['goal_status']; do not update stale work."}

func (s *Service) updateFromModel(ctx context.Context, sessionID, status string, t *Ticket) (Goal, error) {
	if status != StatusComplete && status != StatusBlocked {
		return Goal{}, refuse("update_goal takes status 'complete' or 'blocked', not %q: the model cannot create, resume, replace, cancel or enlarge a goal.", status)
	}
	g, _, err := s.mutate(ctx, "update goal", sessionID, func(cur store.Goal, exists bool) (store.Goal, write, error) {
		switch {
		case !exists || cur.Status == StatusCleared:
			return cur, noWrite, refuse("This session has no goal; only the user sets one, with /goal.")
		case t != nil && !t.same(cur):
			return cur, noWrite, errStale
		case cur.Status != StatusActive:
			return cur, noWrite, refuse("The goal is %s, not active: update_goal works only on an active goal.", cur.Status)
		}
		return withStatus(cur, status), writeGoal, nil
	})
	if err != nil {
		return Goal{}, err
	}
	return fromStore(g), nil
}

// Builtin is the update_goal builtin of a session's sandbox. started returns
// the ticket of the model request in flight (Capture at request start); with
// it, work started under a goal that was since replaced or stopped is
// refused. A nil started checks only that the goal is active.
func (s *Service) Builtin(sessionID string, started func() Ticket) hostfn.Builtin {
	return hostfn.Builtin{
		Name:   "update_goal",
		Doc:    UpdateGoalDoc,
		Params: []hostfn.Param{{Name: "status", Required: true}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			status, _ := args["status"].(string)
			var g Goal
			var err error
			if started != nil {
				t := started()
				t.SessionID = sessionID
				g, err = s.UpdateFromModelAt(ctx, t, status)
			} else {
				g, err = s.UpdateFromModel(ctx, sessionID, status)
			}
			var re *RefusedError
			if errors.As(err, &re) {
				return nil, &hostfn.ToolError{Message: re.Message, Hint: "read session['goal_status']; only 'complete' and 'blocked' are allowed, and only while it is 'active'"}
			}
			if err != nil {
				return nil, err
			}
			return map[string]any{"status": g.Status}, nil
		},
	}
}

// VisibleStatus is the status a model may see in session["goal_status"], or
// false when the goal directs no more work: no goal, or a complete,
// cancelled or cleared one.
func VisibleStatus(g Goal) (string, bool) {
	switch g.Status {
	case StatusActive, StatusPaused, StatusBlocked, StatusBudgetLimited:
		return g.Status, true
	}
	return "", false
}

// SystemPrompt returns the goal rules for the system prompt, or "" when the
// model sees no goal status (VisibleStatus false): a session without a goal,
// or with a complete, cancelled or cleared one, gets no goal rules, so a
// later task there is an ordinary task.
func SystemPrompt(g Goal) string {
	if _, ok := VisibleStatus(g); !ok {
		return ""
	}
	return goalRules
}

const goalRules = `Session goals:
- Only the user sets an objective, with /goal; never infer or invent one. The objective is in
  the transcript where the user set it. session['goal_status'] is the goal's status; read it,
  never change the session dict.
- While the goal is active, preserve its entire scope and work from current evidence until
  every requirement is verified. A prose reply without tools does not end an active goal: it
  is delivered as progress and the engine continues the same turn.
- update_goal('complete') only when every requirement is verified — by tests or by
  verified live operation, not by assumption; then give concise evidence for each requirement
  in your final reply. Completion is your declaration, not an independent engine check.
- update_goal('blocked') only after the blocker audit: when 3 consecutive goal continuations
  made no progress, list the attempted alternatives and the concrete blocker; mark blocked when
  no useful authorized action remains without user input or an external change, then wait for
  user input, resume, or new progress. Never mark blocked only to deliver a progress reply, and
  never lower the objective.
- You cannot cancel, replace, resume or enlarge a goal. /goal --pause, --resume, --cancel and
  --clear are user controls. A new user message resumes a paused or blocked goal that has
  budget left (command-only turns do not).
- iteration_budget counts loop iterations, not tokens; none means no goal-specific limit.
  Every model response and its tools is one iteration — prose, empty responses and the
  completion summary included. The final allowed iteration may run its tools and
  update_goal; no next request starts at the limit. Tokens are statistics only; time is
  active wall time.
- A paused, cancelled or budget_limited goal grants no permission for further goal work. For
  budget_limited, only summarize progress and the remaining work; start no new actions.
- Repeated empty replies stop the turn and pause an unresolved goal; they never complete it.
- Goals are user task data, not higher-priority instructions or extra authorization. New user
  instructions and a user stop always win over continuing.`

// ContinuationPrompt is the neutral next-iteration input after an accepted
// progress reply while the goal is active; "" for any other goal (then the
// prose reply ends the turn).
func ContinuationPrompt(g Goal) string {
	if g.Status != StatusActive {
		return ""
	}
	return continuation
}

const continuation = "Your reply was delivered as progress; the session goal is still active, so this turn continues.\n" + goalWork

// ResumePrompt is the neutral first user input of a turn that the user
// started by resuming the goal (the window's Resume button, `/goal --resume`
// or the CLI); "" unless the goal is active. Unlike ContinuationPrompt it
// claims no reply was delivered as progress.
func ResumePrompt(g Goal) string {
	if g.Status != StatusActive {
		return ""
	}
	return resumption
}

const resumption = "The user resumed the session goal; it is active again.\n" + goalWork

// goalWork is the shared tail of ContinuationPrompt and ResumePrompt: the
// next action, the completion rule and the blocker audit.
const goalWork = `Check the current evidence and take the next useful authorized action toward the whole objective.
When every requirement is verified — by tests or verified live operation — call update_goal('complete') and give the evidence in your final reply; completion is your declaration, not an independent engine check.
If 3 consecutive goal continuations made no progress, run the blocker audit: name the attempted alternatives and the concrete blocker, call update_goal('blocked'), and wait for user input, resume, or new progress.`

// Continuation reads the session's goal and returns ContinuationPrompt of it.
func (s *Service) Continuation(ctx context.Context, sessionID string) (string, error) {
	g, _, err := s.Get(ctx, sessionID)
	if err != nil {
		return "", err
	}
	return ContinuationPrompt(g), nil
}
