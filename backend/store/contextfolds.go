package store

import (
	"context"
	"database/sql"
	"fmt"
)

// SetContextFold records (or replaces) what gave way in a turn's request to
// fit the model's context window: the loop's summary, as JSON the store
// does not read (migration 0015).
func (s *Store) SetContextFold(ctx context.Context, turnID int64, foldJSON string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO turn_context_folds (turn_id, fold) VALUES (?, ?)
			ON CONFLICT (turn_id) DO UPDATE SET fold = excluded.fold`, turnID, foldJSON)
		return err
	})
	if err != nil {
		return fmt.Errorf("set context fold of turn %d: %w", turnID, err)
	}
	return nil
}

// SessionContextFolds returns the recorded context folds of a session's
// turns (SetContextFold's JSON), by turn id.
func (s *Store) SessionContextFolds(ctx context.Context, sessionID string) (map[int64]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.turn_id, f.fold FROM turn_context_folds f
		JOIN turns t ON t.id = f.turn_id WHERE t.session_id = ?`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("context folds of session %s: %w", sessionID, err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var fold string
		if err := rows.Scan(&id, &fold); err != nil {
			return nil, fmt.Errorf("context folds of session %s: %w", sessionID, err)
		}
		out[id] = fold
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("context folds of session %s: %w", sessionID, err)
	}
	return out, nil
}
