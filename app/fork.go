package app

import (
	"fmt"
	"strings"
)

// ForkSession starts a new session holding copies of the first keep turns
// of sessionID (the window's "Fork here" keeps the message's turn, "Edit"
// the turns before it and then sends the edited text to the fork). The
// original is unchanged; the fork starts with a fresh sandbox.
func (a *App) ForkSession(sessionID string, keep int) (Session, error) {
	if strings.TrimSpace(sessionID) == "" || keep < 0 {
		return Session{}, fmt.Errorf("fork: %w: need a session and a turn", ErrInput)
	}
	ctx, _ := a.base()
	s, err := a.eng.Fork(ctx, sessionID, keep)
	if err != nil {
		return Session{}, fmt.Errorf("fork: %w", err)
	}
	return toSession(s), nil
}
