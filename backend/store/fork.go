package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Forks: a session started as a copy of another's first turns (the
// window's "Edit" and "Fork here" on a message, `vis fork`). The copy is
// the settled history only: the turns with their iterations, the programs'
// kept outputs and the images the turns carried. Nothing else of the
// parent comes along: not its goal, queue, folds, claim, permission mode
// or checkpoints (a fork starts with a fresh sandbox and no REPLs, and its
// files are the workspace's as they are). The parent is never changed.
// session_forks (0014) records the link.

// Fork is where a session came from.
type Fork struct {
	Parent string // the parent session's id
	Turns  int    // how many of the parent's turns it started with
}

// ForkSession creates session child (ID required; Workspace, Title and
// Model as given) holding copies of the first keep turns of parent, all
// settled (a running turn among them is refused), in one transaction.
func (s *Store) ForkSession(ctx context.Context, parent string, keep int, child Session) error {
	if child.ID == "" {
		return errors.New("fork session: empty id")
	}
	if keep < 0 {
		return fmt.Errorf("fork session: keep %d turns?", keep)
	}
	now := s.now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM turns WHERE session_id = ?`, parent).Scan(&n); err != nil {
			return err
		}
		var exists int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id = ?`, parent).Scan(&exists); err != nil {
			return err
		}
		if exists == 0 {
			return ErrNotFound
		}
		if keep > n {
			return fmt.Errorf("the session has %d turns, not %d", n, keep)
		}
		var running int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM turns WHERE session_id = ? AND position <= ? AND status = 'running'`, parent, keep).Scan(&running); err != nil {
			return err
		}
		if running > 0 {
			return errors.New("a turn among them is still running: fork once it ends")
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO sessions (id, workspace, title, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			child.ID, child.Workspace, child.Title, child.Model, ms(now), ms(now)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO session_forks (session_id, parent_id, parent_turns) VALUES (?, ?, ?)`, child.ID, parent, keep); err != nil {
			return err
		}
		// The images first: attachments may point at a blob by hash.
		blobCols, err := columnsBut(ctx, tx, "image_blobs", "id", "session_id")
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO image_blobs (session_id, `+blobCols+`) SELECT ?, `+blobCols+` FROM image_blobs WHERE session_id = ?`, child.ID, parent); err != nil {
			return err
		}
		turnCols, err := columnsBut(ctx, tx, "turns", "id", "session_id")
		if err != nil {
			return err
		}
		iterCols, err := columnsBut(ctx, tx, "iterations", "id", "turn_id")
		if err != nil {
			return err
		}
		outCols, err := columnsBut(ctx, tx, "call_outputs", "iteration_id")
		if err != nil {
			return err
		}
		attCols, err := columnsBut(ctx, tx, "attachments", "id", "session_id", "turn_id", "iteration_id")
		if err != nil {
			return err
		}
		turnIDs, err := idsOf(ctx, tx, `SELECT id FROM turns WHERE session_id = ? AND position <= ? ORDER BY position`, parent, keep)
		if err != nil {
			return err
		}
		for _, old := range turnIDs {
			res, err := tx.ExecContext(ctx, `INSERT INTO turns (session_id, `+turnCols+`) SELECT ?, `+turnCols+` FROM turns WHERE id = ?`, child.ID, old)
			if err != nil {
				return err
			}
			nt, _ := res.LastInsertId()
			// The turn's own images (not an iteration's).
			if _, err := tx.ExecContext(ctx, `INSERT INTO attachments (session_id, turn_id, iteration_id, `+attCols+`) SELECT ?, ?, NULL, `+attCols+` FROM attachments WHERE turn_id = ? AND iteration_id IS NULL`, child.ID, nt, old); err != nil {
				return err
			}
			iterIDs, err := idsOf(ctx, tx, `SELECT id FROM iterations WHERE turn_id = ? ORDER BY position`, old)
			if err != nil {
				return err
			}
			for _, oi := range iterIDs {
				res, err := tx.ExecContext(ctx, `INSERT INTO iterations (turn_id, `+iterCols+`) SELECT ?, `+iterCols+` FROM iterations WHERE id = ?`, nt, oi)
				if err != nil {
					return err
				}
				ni, _ := res.LastInsertId()
				if _, err := tx.ExecContext(ctx, `INSERT INTO call_outputs (iteration_id, `+outCols+`) SELECT ?, `+outCols+` FROM call_outputs WHERE iteration_id = ?`, ni, oi); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO attachments (session_id, turn_id, iteration_id, `+attCols+`) SELECT ?, ?, ?, `+attCols+` FROM attachments WHERE iteration_id = ?`, child.ID, nt, ni, oi); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fork session %s at turn %d: %w", parent, keep, err)
	}
	return nil
}

// ForkOf says where session id came from; ok is false for a session that
// is not a fork.
func (s *Store) ForkOf(ctx context.Context, id string) (Fork, bool, error) {
	var f Fork
	err := s.db.QueryRowContext(ctx, `SELECT parent_id, parent_turns FROM session_forks WHERE session_id = ?`, id).Scan(&f.Parent, &f.Turns)
	if errors.Is(err, sql.ErrNoRows) {
		return Fork{}, false, nil
	}
	if err != nil {
		return Fork{}, false, fmt.Errorf("fork of %s: %w", id, err)
	}
	return f, true, nil
}

// Forks lists every fork link, by the fork's session id.
func (s *Store) Forks(ctx context.Context) (map[string]Fork, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT session_id, parent_id, parent_turns FROM session_forks`)
	if err != nil {
		return nil, fmt.Errorf("forks: %w", err)
	}
	defer rows.Close()
	out := map[string]Fork{}
	for rows.Next() {
		var id string
		var f Fork
		if err := rows.Scan(&id, &f.Parent, &f.Turns); err != nil {
			return nil, fmt.Errorf("forks: %w", err)
		}
		out[id] = f
	}
	return out, rows.Err()
}

// idsOf is the ids a one-column query selects, in its order.
func idsOf(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// columnsBut lists table's columns except those named, comma-separated:
// the copy follows whatever columns later migrations add.
func columnsBut(ctx context.Context, tx *sql.Tx, table string, except ...string) (string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return "", err
		}
		skip := false
		for _, x := range except {
			skip = skip || name == x
		}
		if !skip {
			cols = append(cols, `"`+name+`"`)
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(cols) == 0 {
		return "", fmt.Errorf("table %s has no columns", table)
	}
	return strings.Join(cols, ", "), nil
}
