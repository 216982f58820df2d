package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Session is one conversation in a workspace. Turns is the number of turns
// (filled by reads; ignored by CreateSession).
type Session struct {
	ID        string
	Workspace string
	Title     string
	Model     string
	Created   time.Time
	Updated   time.Time
	Turns     int
	// Mode is the permission mode chosen for the session in the window
	// (read-only, workspace, full); "" = none chosen. Set by SetSessionMode.
	Mode string
}

// sessionCols selects a Session, with its turn count, from sessions s.
const sessionCols = `s.id, s.workspace, s.title, s.model, s.created_at, s.updated_at,
	(SELECT count(*) FROM turns t WHERE t.session_id = s.id), s.sandbox_mode`

func scanSession(sc interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var created, updated int64
	if err := sc.Scan(&s.ID, &s.Workspace, &s.Title, &s.Model, &created, &updated, &s.Turns, &s.Mode); err != nil {
		return Session{}, err
	}
	s.Created, s.Updated = fromMs(created), fromMs(updated)
	return s, nil
}

// CreateSession inserts a session. ID is required (use NewID); a zero Created
// or Updated is set to now.
func (s *Store) CreateSession(ctx context.Context, sess Session) error {
	if sess.ID == "" {
		return errors.New("create session: empty id")
	}
	now := s.now()
	if sess.Created.IsZero() {
		sess.Created = now
	}
	if sess.Updated.IsZero() {
		sess.Updated = sess.Created
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`INSERT INTO sessions (id, workspace, title, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			sess.ID, sess.Workspace, sess.Title, sess.Model, ms(sess.Created), ms(sess.Updated))
		return err
	})
	if err != nil {
		return fmt.Errorf("create session %s: %w", sess.ID, err)
	}
	return nil
}

// GetSession returns the session with its turn count.
func (s *Store) GetSession(ctx context.Context, id string) (Session, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions s WHERE s.id = ?`, id)
	sess, err := scanSession(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("get session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("get session %s: %w", id, err)
	}
	return sess, nil
}

// ListSessions returns the sessions of workspace ("" = every workspace), the
// most recently updated first.
func (s *Store) ListSessions(ctx context.Context, workspace string) ([]Session, error) {
	q := `SELECT ` + sessionCols + ` FROM sessions s ORDER BY s.updated_at DESC, s.id DESC`
	args := []any{}
	if workspace != "" {
		q = `SELECT ` + sessionCols + ` FROM sessions s WHERE s.workspace = ? ORDER BY s.updated_at DESC, s.id DESC`
		args = append(args, workspace)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []Session{}
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, sess)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// LatestSession returns the most recently updated session of workspace
// ("" = any), or an error wrapping ErrNotFound when there is none.
func (s *Store) LatestSession(ctx context.Context, workspace string) (Session, error) {
	q := `SELECT ` + sessionCols + ` FROM sessions s ORDER BY s.updated_at DESC, s.id DESC LIMIT 1`
	args := []any{}
	if workspace != "" {
		q = `SELECT ` + sessionCols + ` FROM sessions s WHERE s.workspace = ? ORDER BY s.updated_at DESC, s.id DESC LIMIT 1`
		args = append(args, workspace)
	}
	sess, err := scanSession(s.db.QueryRowContext(ctx, q, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("latest session in %q: %w", workspace, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("latest session in %q: %w", workspace, err)
	}
	return sess, nil
}

// RenameSession sets the title. It does not change Updated.
func (s *Store) RenameSession(ctx context.Context, id, title string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE id = ?`, title, id)
		if err != nil {
			return err
		}
		return affected(res, "no such session")
	})
	if err != nil {
		return fmt.Errorf("rename session %s: %w", id, err)
	}
	return nil
}

// SessionModes are the permission modes SetSessionMode takes ("" clears
// the choice).
var SessionModes = []string{"", "read-only", "workspace", "full"}

// SetSessionMode remembers the permission mode chosen for a session; ""
// forgets it (the config's mode applies again). It does not change Updated.
func (s *Store) SetSessionMode(ctx context.Context, id, mode string) error {
	ok := false
	for _, m := range SessionModes {
		ok = ok || m == mode
	}
	if !ok {
		return fmt.Errorf("set mode of session %s: %q is not read-only, workspace or full", id, mode)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET sandbox_mode = ? WHERE id = ?`, mode, id)
		if err != nil {
			return err
		}
		return affected(res, "no such session")
	})
	if err != nil {
		return fmt.Errorf("set mode of session %s: %w", id, err)
	}
	return nil
}

// DeleteSession deletes the session with its turns, iterations, attachments
// and goal.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
		if err != nil {
			return err
		}
		return affected(res, "no such session")
	})
	if err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}

// TouchSession sets Updated to now, moving the session to the top of lists.
func (s *Store) TouchSession(ctx context.Context, id string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		return touch(ctx, tx, id, s.now())
	})
	if err != nil {
		return fmt.Errorf("touch session %s: %w", id, err)
	}
	return nil
}

// touch sets a session's updated_at; updated_at never moves backwards.
func touch(ctx context.Context, tx *sql.Tx, id string, now time.Time) error {
	res, err := tx.ExecContext(ctx,
		`UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?`, ms(now), id)
	if err != nil {
		return err
	}
	return affected(res, "no such session")
}
