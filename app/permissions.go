package app

import (
	"fmt"
	"strings"
)

// The window's side of the OS sandbox (docs/SECURITY.md): the session's
// permission mode (the footer's control and Settings), the one approval
// that runs a refused program again without the sandbox, and "Trust this
// folder".

// SetSessionMode remembers mode (read-only, workspace, full; "" = the
// config's) for the session; its next turn runs in it.
func (a *App) SetSessionMode(sessionID, mode string) error {
	if strings.TrimSpace(sessionID) == "" {
		return fmt.Errorf("permission mode: %w: no session yet (send a message first)", ErrInput)
	}
	ctx, _ := a.base()
	if err := a.eng.SetSessionMode(ctx, sessionID, mode); err != nil {
		return fmt.Errorf("permission mode: %w", err)
	}
	return nil
}

// RerunUnconfined is the person's approval: program call (0-based) of
// iteration iteration of turn turn, which the sandbox refused, runs again
// once in full mode, as a turn of its own.
func (a *App) RerunUnconfined(sessionID string, turn, iteration, call int) (SubmitResult, error) {
	if strings.TrimSpace(sessionID) == "" || turn < 1 || iteration < 1 || call < 0 {
		return SubmitResult{}, fmt.Errorf("run again: %w: need a session, a turn, an iteration and a call", ErrInput)
	}
	ctx, _ := a.base()
	res, err := a.eng.RerunUnconfined(ctx, sessionID, turn, iteration, call)
	if err != nil {
		return SubmitResult{SessionID: sessionID}, fmt.Errorf("run again: %w", err)
	}
	return toSubmitResult(res), nil
}

// TrustWorkspace trusts the folder: its held-back project settings apply
// from the next turn.
func (a *App) TrustWorkspace(workspace string) error {
	dir, err := checkDir(workspace)
	if err != nil {
		return fmt.Errorf("trust folder: %w", err)
	}
	ctx, _ := a.base()
	if err := a.eng.TrustWorkspace(ctx, dir); err != nil {
		return fmt.Errorf("trust folder: %w", err)
	}
	return nil
}

// AnswerApproval answers a program waiting at a call the sandbox refused
// ("ask" mode): approve runs that command once more without the sandbox.
func (a *App) AnswerApproval(sessionID, id string, approve bool) error {
	if strings.TrimSpace(sessionID) == "" || strings.TrimSpace(id) == "" {
		return fmt.Errorf("answer: %w: need a session and a question", ErrInput)
	}
	if err := a.eng.AnswerApproval(sessionID, id, approve); err != nil {
		return fmt.Errorf("answer: %w", err)
	}
	return nil
}

// SetAskOnRefusal saves whether a command the sandbox refuses waits for
// the person's answer at its call (from the next turn).
func (a *App) SetAskOnRefusal(on bool) error {
	if err := a.eng.SetAskOnRefusal(on); err != nil {
		return fmt.Errorf("ask setting: %w", err)
	}
	return nil
}
