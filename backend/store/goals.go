package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Goal is a session's durable goal (seed 003), one per session. The goals
// package owns its rules; the store only reads it and swaps it atomically.
type Goal struct {
	SessionID       string
	GoalID          string
	Objective       string
	Status          string // active, paused, blocked, complete, cancelled, budget_limited, cleared
	IterationBudget int64  // 0 = no goal-specific limit
	IterationsUsed  int64
	TokensUsed      int64
	TimeUsedMs      int64
	Version         int64 // lifecycle version: +1 on every status change
	Revision        int64 // CAS counter: +1 on every persisted mutation
	Created         time.Time
	Updated         time.Time
	ActiveSince     time.Time // zero when not running
}

// GetGoal returns the session's goal, or an error wrapping ErrNotFound when it
// has none.
func (s *Store) GetGoal(ctx context.Context, sessionID string) (Goal, error) {
	var g Goal
	var budget, activeSince sql.NullInt64
	var created, updated int64
	q, err := s.prepared(ctx, qGetGoal)
	if err != nil {
		return Goal{}, fmt.Errorf("get goal of session %s: %w", sessionID, err)
	}
	err = q.QueryRowContext(ctx, sessionID).Scan(&g.SessionID, &g.GoalID, &g.Objective, &g.Status,
		&budget, &g.IterationsUsed, &g.TokensUsed, &g.TimeUsedMs, &g.Version, &g.Revision, &created, &updated,
		&activeSince)
	if errors.Is(err, sql.ErrNoRows) {
		return Goal{}, fmt.Errorf("get goal of session %s: %w", sessionID, ErrNotFound)
	}
	if err != nil {
		return Goal{}, fmt.Errorf("get goal of session %s: %w", sessionID, err)
	}
	g.IterationBudget = budget.Int64
	g.Created, g.Updated, g.ActiveSince = fromMs(created), fromMs(updated), fromNullMs(activeSince)
	return g, nil
}

// CompareAndSwapGoal writes g as the goal of g.SessionID if the stored goal's
// revision is still expected (0 = the session has no goal yet). It reports
// false, with a nil error, when another writer got there first; the caller
// re-reads and retries. g.Revision must be expected+1. An absent session is
// reported with ErrNotFound; a status outside the seed's set is an error.
func (s *Store) CompareAndSwapGoal(ctx context.Context, expected int64, g Goal) (bool, error) {
	if g.Revision != expected+1 {
		return false, fmt.Errorf("swap goal of session %s: revision %d must be %d", g.SessionID, g.Revision, expected+1)
	}
	budget := sql.NullInt64{Int64: g.IterationBudget, Valid: g.IterationBudget != 0}
	var swapped bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		args := []any{g.SessionID, g.GoalID, g.Objective, g.Status, budget, g.IterationsUsed, g.TokensUsed,
			g.TimeUsedMs, g.Version, g.Revision, ms(g.Created), ms(g.Updated), nullMs(g.ActiveSince)}
		if expected == 0 {
			res, err = tx.ExecContext(ctx, `
				INSERT INTO goals (session_id, goal_id, objective, status, iteration_budget, iterations_used,
					tokens_used, time_used_ms, version, revision, created_at, updated_at, active_since_ms)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (session_id) DO NOTHING`, args...)
		} else {
			res, err = tx.ExecContext(ctx, `
				UPDATE goals SET goal_id = ?2, objective = ?3, status = ?4, iteration_budget = ?5,
					iterations_used = ?6, tokens_used = ?7, time_used_ms = ?8, version = ?9, revision = ?10,
					created_at = ?11, updated_at = ?12, active_since_ms = ?13
				WHERE session_id = ?1 AND revision = ?14`, append(args, expected)...)
		}
		if isForeignKey(err) {
			return fmt.Errorf("no such session: %w", ErrNotFound)
		}
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		swapped = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("swap goal of session %s: %w", g.SessionID, err)
	}
	return swapped, nil
}

// InterruptedGoalSessions returns the sessions whose goal is active while
// their latest turn ended interrupted (its process died): their goal's
// turn never finished, so the engine pauses it at start-up.
func (s *Store) InterruptedGoalSessions(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT g.session_id FROM goals g
		WHERE g.status = 'active'
		  AND (SELECT t.status FROM turns t WHERE t.session_id = g.session_id ORDER BY t.position DESC LIMIT 1) = 'interrupted'`)
	if err != nil {
		return nil, fmt.Errorf("interrupted goal sessions: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("interrupted goal sessions: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
