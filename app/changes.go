package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/visdesktop/vis/backend"
)

// TurnDiff is a turn's diff for the turn card's "N files changed" view:
// each file with its status, +A −D and unified diff.
type TurnDiff = backend.TurnDiff

// UndoOutcome is an Undo turn answer: what was undone, or, when files
// changed since the turn and nothing was undone, those files (the page
// asks: undo the rest, overwrite, or cancel).
type UndoOutcome struct {
	Undo      *backend.UndoView `json:"undo"`
	Conflicts []string          `json:"conflicts"`
}

// TurnDiff returns what turn (0: the latest with changes) of the session
// changed in the workspace's files.
func (a *App) TurnDiff(sessionID string, turn int) (TurnDiff, error) {
	if strings.TrimSpace(sessionID) == "" || turn < 0 {
		return TurnDiff{}, fmt.Errorf("diff: %w: need a session and a turn (got %q, %d)", ErrInput, sessionID, turn)
	}
	ctx, _ := a.base()
	d, err := a.eng.TurnDiff(ctx, sessionID, turn, true)
	if err != nil {
		return TurnDiff{}, fmt.Errorf("diff: %w", err)
	}
	return d, nil
}

// UndoTurn puts the files turn changed back as they were before it. mode
// is "" (refuse when files changed since: the answer lists them), "rest"
// (leave those, undo the others) or "overwrite".
func (a *App) UndoTurn(sessionID string, turn int, mode string) (UndoOutcome, error) {
	if strings.TrimSpace(sessionID) == "" || turn < 1 {
		return UndoOutcome{}, fmt.Errorf("undo: %w: need a session and a turn (got %q, %d)", ErrInput, sessionID, turn)
	}
	m := backend.UndoRefuse
	switch mode {
	case "":
	case "rest":
		m = backend.UndoRest
	case "overwrite":
		m = backend.UndoOverwrite
	default:
		return UndoOutcome{}, fmt.Errorf("undo: %w: mode %q (want \"\", rest or overwrite)", ErrInput, mode)
	}
	ctx, _ := a.base()
	u, err := a.eng.UndoTurn(ctx, sessionID, turn, m)
	var ce *backend.ConflictError
	if errors.As(err, &ce) {
		return UndoOutcome{Conflicts: ce.Files}, nil
	}
	if err != nil {
		return UndoOutcome{}, fmt.Errorf("undo: %w", err)
	}
	return UndoOutcome{Undo: &u, Conflicts: []string{}}, nil
}

// RevertOutcome is a Revert answer: what was reverted (Held: a turn is
// running, and the revert is applied when it ends), or, when the file
// changed since the turn and nothing was reverted, the file (the page
// asks: overwrite, or cancel).
type RevertOutcome struct {
	Revert    *backend.UndoView `json:"revert"`
	Conflicts []string          `json:"conflicts"`
}

// RevertChange takes back one file (hunk -1) or one hunk (0-based, as the
// file's patch in TurnDiff shows it) of turn's changes. mode is "" (refuse
// when the file changed since: the answer names it) or "overwrite" (files
// only).
func (a *App) RevertChange(sessionID string, turn int, path string, hunk int, mode string) (RevertOutcome, error) {
	if strings.TrimSpace(sessionID) == "" || turn < 1 || strings.TrimSpace(path) == "" || hunk < -1 {
		return RevertOutcome{}, fmt.Errorf("revert: %w: need a session, a turn, a file and a hunk (got %q, %d, %q, %d)", ErrInput, sessionID, turn, path, hunk)
	}
	m := backend.UndoRefuse
	switch mode {
	case "":
	case "overwrite":
		m = backend.UndoOverwrite
	default:
		return RevertOutcome{}, fmt.Errorf("revert: %w: mode %q (want \"\" or overwrite)", ErrInput, mode)
	}
	ctx, _ := a.base()
	v, err := a.eng.RevertChange(ctx, sessionID, turn, path, hunk, m)
	var ce *backend.ConflictError
	if errors.As(err, &ce) {
		return RevertOutcome{Conflicts: ce.Files}, nil
	}
	if err != nil {
		return RevertOutcome{}, fmt.Errorf("revert: %w", err)
	}
	return RevertOutcome{Revert: &v, Conflicts: []string{}}, nil
}

// SessionChanges lists every file the session's turns changed, with the
// turns that changed each and its net change (the session's Changes view).
func (a *App) SessionChanges(sessionID string) (backend.SessionChanges, error) {
	if strings.TrimSpace(sessionID) == "" {
		return backend.SessionChanges{}, fmt.Errorf("changes: %w: need a session", ErrInput)
	}
	ctx, _ := a.base()
	c, err := a.eng.SessionChanges(ctx, sessionID)
	if err != nil {
		return backend.SessionChanges{}, fmt.Errorf("changes: %w", err)
	}
	return c, nil
}

// SessionFileDiff is one file's net diff over the session, with its patch.
func (a *App) SessionFileDiff(sessionID, path string) (backend.FileChange, error) {
	if strings.TrimSpace(sessionID) == "" || strings.TrimSpace(path) == "" {
		return backend.FileChange{}, fmt.Errorf("changes: %w: need a session and a file (got %q, %q)", ErrInput, sessionID, path)
	}
	ctx, _ := a.base()
	f, err := a.eng.SessionFileDiff(ctx, sessionID, path)
	if err != nil {
		return backend.FileChange{}, fmt.Errorf("changes: %w", err)
	}
	return f, nil
}
