package store

import (
	"context"
	"database/sql"
	"fmt"
)

// TurnChanges is what a turn changed in the workspace's files: the figures
// of its checkpoint diff (backend/checkpoint), and the undo links.
type TurnChanges struct {
	TurnID   int64
	Files    int
	Added    int
	Deleted  int
	UndoOf   int64 // the turn this turn undid (an undo turn), 0 when none
	UndoneBy int64 // the undo turn that undid this turn, 0 when none
}

// SetTurnChanges records (or replaces) a turn's figures; UndoneBy is kept
// as it is.
func (s *Store) SetTurnChanges(ctx context.Context, c TurnChanges) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO turn_changes (turn_id, files, added, deleted, undo_of) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (turn_id) DO UPDATE SET files = excluded.files, added = excluded.added, deleted = excluded.deleted, undo_of = excluded.undo_of`,
			c.TurnID, c.Files, c.Added, c.Deleted, nullID(c.UndoOf))
		return err
	})
	if err != nil {
		return fmt.Errorf("set changes of turn %d: %w", c.TurnID, err)
	}
	return nil
}

// MarkUndone records that undo (a turn) undid turn.
func (s *Store) MarkUndone(ctx context.Context, turn, undo int64) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO turn_changes (turn_id, undone_by) VALUES (?, ?)
			ON CONFLICT (turn_id) DO UPDATE SET undone_by = excluded.undone_by`, turn, undo)
		return err
	})
	if err != nil {
		return fmt.Errorf("mark turn %d undone: %w", turn, err)
	}
	return nil
}

// SessionChanges returns the recorded changes of a session's turns, by
// turn id.
func (s *Store) SessionChanges(ctx context.Context, sessionID string) (map[int64]TurnChanges, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.turn_id, c.files, c.added, c.deleted, COALESCE(c.undo_of, 0), COALESCE(c.undone_by, 0)
		FROM turn_changes c JOIN turns t ON t.id = c.turn_id WHERE t.session_id = ?`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("changes of session %s: %w", sessionID, err)
	}
	defer rows.Close()
	out := map[int64]TurnChanges{}
	for rows.Next() {
		var c TurnChanges
		if err := rows.Scan(&c.TurnID, &c.Files, &c.Added, &c.Deleted, &c.UndoOf, &c.UndoneBy); err != nil {
			return nil, fmt.Errorf("changes of session %s: %w", sessionID, err)
		}
		out[c.TurnID] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("changes of session %s: %w", sessionID, err)
	}
	return out, nil
}
