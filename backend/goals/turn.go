package goals

import (
	"context"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/store"
)

// Ticket is the goal as it was at one moment of a turn: its identity,
// lifecycle version and status. GoalID "" means the session had no goal.
type Ticket struct {
	SessionID string
	GoalID    string
	Version   int64
	Status    string
}

// Capture takes a Ticket of the session's goal now. The loop takes one when
// a turn starts (after ResumeForUserTurn, for StartClock, HaltCheck,
// StopCheck, TurnHalt and FinishTurn) and one when each model request
// starts (for Account and the update_goal builtin).
func (s *Service) Capture(ctx context.Context, sessionID string) (Ticket, error) {
	g, exists, err := s.cachedRead(ctx, sessionID)
	if err != nil {
		return Ticket{}, err
	}
	if !exists {
		return Ticket{SessionID: sessionID}, nil
	}
	return Ticket{SessionID: sessionID, GoalID: g.GoalID, Version: g.Version, Status: g.Status}, nil
}

func (t Ticket) active() bool { return t.GoalID != "" && t.Status == StatusActive }

func (t Ticket) same(g store.Goal) bool { return g.GoalID == t.GoalID && g.Version == t.Version }

// Account charges one loop response to the goal captured when its request
// started: iterations_used +1 and tokens_used + input + output tokens (cached
// and reasoning tokens are not added again; tokens are statistics only). Call
// it once per provider response — empty and prose responses included, and
// the response whose programs complete the goal — right after the response
// arrives and before its programs run. Provider retries inside one request
// are one response. It changes nothing unless the ticket's goal was active,
// complete or blocked and is still the same goal at the same version. The
// write happens even when ctx is cancelled (a cancelled turn's last response
// still counts).
func (s *Service) Account(ctx context.Context, t Ticket, usage chat.Usage) error {
	if t.GoalID == "" || (t.Status != StatusActive && t.Status != StatusComplete && t.Status != StatusBlocked) {
		return nil
	}
	tokens := int64(max(0, usage.InputTokens)) + int64(max(0, usage.OutputTokens))
	_, _, err := s.mutate(context.WithoutCancel(ctx), "account goal iteration", t.SessionID, func(cur store.Goal, exists bool) (store.Goal, write, error) {
		if !exists || !t.same(cur) {
			return cur, noWrite, nil
		}
		cur.IterationsUsed++
		cur.TokensUsed += tokens
		return cur, writeGoal, nil
	})
	return err
}

// Kinds of Halt.
const (
	HaltNone     = ""
	HaltBudget   = "budget_limited" // success: the turn ends with Halt.Message as its answer
	HaltStopped  = "stopped"        // the user paused, cancelled, cleared, or paused and resumed the goal
	HaltReplaced = "replaced"       // the user set a new goal
	HaltComplete = "complete"       // TurnHalt only: the turn completed its goal
	HaltBlocked  = "blocked"        // TurnHalt only: the turn blocked its goal
)

// Halt messages.
const (
	BudgetHaltMessage   = "Goal iteration budget reached. Work stopped before the next model request; the goal is not complete. See the transcript for progress. Set a new explicit goal and iteration budget to continue."
	StoppedHaltMessage  = "Goal stopped by the user."
	ReplacedHaltMessage = "Goal replaced; previous goal work stopped."
	CompleteHaltMessage = "Goal complete."
	BlockedHaltMessage  = "Goal blocked."
)

// Halt tells the loop to stop the goal work of a turn. Kind HaltNone: go on.
// HaltBudget ends the turn successfully with Message as its answer;
// HaltStopped and HaltReplaced end it as stopped by the user, with Message.
type Halt struct {
	Kind    string
	Message string
}

// Halted reports whether the turn's goal work must stop.
func (h Halt) Halted() bool { return h.Kind != HaltNone }

// HaltCheck runs at the top of every loop iteration, after the previous
// iteration's programs finished and before any model request. turnStart is
// the ticket taken when the turn started; only a turn that started with an
// active goal can halt. If that goal is still active at the same version and
// its iteration budget is spent, it becomes budget_limited (its active time
// stops) and the halt is HaltBudget with BudgetHaltMessage. A user stop or a
// replacement halts too (see StopCheck). A completed or blocked goal does not
// halt here: the next request writes the final reply.
func (s *Service) HaltCheck(ctx context.Context, turnStart Ticket) (Halt, error) {
	if !turnStart.active() {
		return Halt{}, nil
	}
	g, exists, err := s.mutate(ctx, "enforce goal budget", turnStart.SessionID, func(cur store.Goal, exists bool) (store.Goal, write, error) {
		if !exists || !turnStart.same(cur) || cur.Status != StatusActive || !budgetSpent(cur) {
			return cur, noWrite, nil
		}
		return withStatus(cur, StatusBudgetLimited), writeGoal, nil
	})
	if err != nil {
		return Halt{}, err
	}
	return haltOf(turnStart, g, exists), nil
}

// StopCheck is the read-only stop check at a request or tool boundary: it
// halts the turn's goal work, without a model call, when the goal the turn
// started with was replaced (HaltReplaced), is budget_limited (HaltBudget),
// or was paused, cancelled, cleared, or paused and resumed by the user
// (HaltStopped). Only a turn that started with an active goal can halt.
func (s *Service) StopCheck(ctx context.Context, turnStart Ticket) (Halt, error) {
	if !turnStart.active() {
		return Halt{}, nil
	}
	g, exists, err := s.read(ctx, turnStart.SessionID)
	if err != nil {
		return Halt{}, err
	}
	return haltOf(turnStart, g, exists), nil
}

// TurnHalt is the read-only check after a turn: the halt of the goal the
// turn started with (as StopCheck), or HaltComplete/HaltBlocked when the
// turn completed or blocked it. A halted goal starts no more provider work
// (not even a title request).
func (s *Service) TurnHalt(ctx context.Context, turnStart Ticket) (Halt, error) {
	if !turnStart.active() {
		return Halt{}, nil
	}
	g, exists, err := s.read(ctx, turnStart.SessionID)
	if err != nil {
		return Halt{}, err
	}
	if h := haltOf(turnStart, g, exists); h.Halted() {
		return h, nil
	}
	switch {
	case g.GoalID == turnStart.GoalID && g.Status == StatusComplete:
		return Halt{Kind: HaltComplete, Message: CompleteHaltMessage}, nil
	case g.GoalID == turnStart.GoalID && g.Status == StatusBlocked:
		return Halt{Kind: HaltBlocked, Message: BlockedHaltMessage}, nil
	}
	return Halt{}, nil
}

// haltOf is the halt of goal work started under t, given the goal now.
func haltOf(t Ticket, g store.Goal, exists bool) Halt {
	if !t.active() {
		return Halt{}
	}
	switch {
	case !exists || g.GoalID != t.GoalID:
		return Halt{Kind: HaltReplaced, Message: ReplacedHaltMessage}
	case g.Status == StatusBudgetLimited:
		return Halt{Kind: HaltBudget, Message: BudgetHaltMessage}
	case g.Status == StatusPaused, g.Status == StatusCancelled, g.Status == StatusCleared,
		g.Status == StatusActive && g.Version != t.Version:
		return Halt{Kind: HaltStopped, Message: StoppedHaltMessage}
	}
	return Halt{}
}

// Turn statuses after which FinishTurn pauses the turn's goal.
const (
	TurnCancelled   = "cancelled"
	TurnError       = "error"
	TurnInterrupted = "interrupted"
)

// StartClock starts the clock of the goal a turn starts with: call it when
// the turn starts, right after its Capture, with that ticket. If the
// ticket's goal is still the same goal at the same version, active, and its
// clock is stopped, the clock starts now (a write: revision +1, OnChange);
// otherwise nothing changes. FinishTurn stops it again.
func (s *Service) StartClock(ctx context.Context, t Ticket) error {
	if !t.active() {
		return nil
	}
	_, _, err := s.mutate(ctx, "start goal clock", t.SessionID, func(cur store.Goal, exists bool) (store.Goal, write, error) {
		if !exists || !t.same(cur) || cur.Status != StatusActive || !cur.ActiveSince.IsZero() {
			return cur, noWrite, nil
		}
		return cur, writeStartClock, nil
	})
	return err
}

// FinishTurn ends a turn's goal work, for any turnStatus. If the goal the
// turn started with is still the same goal at the same version and its clock
// runs, the clock stops (the time so far is added to time_used_ms). A
// cancelled, failed or interrupted turn (turnStatus TurnCancelled,
// TurnError, TurnInterrupted) also pauses that goal, if it is still active
// at the same version, in the same write; the turn error in the transcript
// tells why it stopped. A goal set, resumed or completed meanwhile is left
// alone. The write happens even when ctx is cancelled.
func (s *Service) FinishTurn(ctx context.Context, turnStart Ticket, turnStatus string) error {
	if turnStart.GoalID == "" {
		return nil
	}
	pause := false
	switch turnStatus {
	case TurnCancelled, TurnError, TurnInterrupted:
		pause = true
	}
	_, _, err := s.mutate(context.WithoutCancel(ctx), "finish goal turn", turnStart.SessionID, func(cur store.Goal, exists bool) (store.Goal, write, error) {
		if !exists || !turnStart.same(cur) || cur.Status != StatusActive {
			return cur, noWrite, nil
		}
		if pause {
			return withStatus(cur, StatusPaused), writeStopClock, nil
		}
		if cur.ActiveSince.IsZero() {
			return cur, noWrite, nil
		}
		return cur, writeStopClock, nil
	})
	return err
}
