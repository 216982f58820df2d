package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/visdesktop/vis/backend/store"
)

// Forking (issue 21): a new session that starts as a copy of another's
// first turns, to try another instruction from there without losing the
// original. The window's "Edit" on a message forks before that message
// (and sends the edited text as the fork's first turn of its own); "Fork
// here" forks after it; `vis fork --session ID --turn N` keeps turns 1..N.
// The copy is the settled history (store.ForkSession); the fork gets a
// fresh sandbox and no REPLs (it has no runtime until its first turn) and
// the workspace's files as they are now: nothing with side effects is
// replayed. Its first recap says so (forkNote). The parent is unchanged.

// ErrForkRange: a fork must keep between 0 and all of the session's turns.
var ErrForkRange = errors.New("no such turn to fork at")

// Fork creates a session holding copies of the first keep turns of
// sessionID (0 = none) and returns it.
func (e *Engine) Fork(ctx context.Context, sessionID string, keep int) (SessionInfo, error) {
	parent, err := e.store.GetSession(ctx, sessionID)
	if err != nil {
		return SessionInfo{}, err
	}
	if keep < 0 || keep > parent.Turns {
		return SessionInfo{}, fmt.Errorf("%w: session %s has turns 1 to %d; cannot keep %d of them", ErrForkRange, sessionID, parent.Turns, keep)
	}
	title := strings.TrimSpace(parent.Title)
	if title == "" {
		title = "Untitled session"
	}
	child := store.Session{ID: store.NewID(), Workspace: parent.Workspace, Title: fmt.Sprintf("%s (fork at turn %d)", title, keep), Model: parent.Model}
	if err := e.store.ForkSession(ctx, sessionID, keep, child); err != nil {
		return SessionInfo{}, err
	}
	s, err := e.store.GetSession(ctx, child.ID)
	if err != nil {
		return SessionInfo{}, err
	}
	e.publishSession(child.ID)
	info := sessionInfo(s)
	info.ForkOf, info.ForkTurns = sessionID, keep
	return info, nil
}

// withForks fills in where each of infos came from.
func (e *Engine) withForks(ctx context.Context, infos []SessionInfo) {
	forks, err := e.store.Forks(ctx)
	if err != nil || len(forks) == 0 {
		return
	}
	for i := range infos {
		if f, ok := forks[infos[i].ID]; ok {
			infos[i].ForkOf, infos[i].ForkTurns = f.Parent, f.Turns
		}
	}
}

// forkNote is what the recap adds after the last copied turn of a fork:
// its position and the sentence ("" when the session is not a fork or
// copied no turns).
func (e *Engine) forkNote(ctx context.Context, id string) (int, string) {
	f, ok, err := e.store.ForkOf(ctx, id)
	if err != nil || !ok || f.Turns == 0 {
		return 0, ""
	}
	return f.Turns, fmt.Sprintf("\n\n[This session was forked from session %s after this turn. Its sandbox started fresh: no variables, definitions or REPLs from the turns above exist now. The files are as they are now, not as they were at this turn: check before relying on what the turns above changed.]", f.Parent)
}
