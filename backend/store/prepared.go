package store

import (
	"context"
	"database/sql"
)

// The queries a turn runs at every iteration (adding the iteration,
// counting it on its turn, reading the session's goal) and at its start
// (its prompt's blocks) are prepared once
// per Store instead of being compiled by SQLite on every call: compiling
// took more of a long turn's time than running them (issue 17).
// database/sql prepares a statement again on each pooled connection the
// first time that connection runs it, and closes it with the connection.

const (
	qAddIteration = `
			INSERT INTO iterations (turn_id, position, status, code, output, error, prose, reasoning, answer, model,
				tool_calls_json, appended_json, input_tokens, output_tokens, cached_tokens, reasoning_tokens,
				started_at, finished_at, llm_ms, eval_ms, request_json)
			VALUES (?1, CASE WHEN ?2 > 0 THEN ?2 ELSE (SELECT coalesce(max(position), 0) + 1 FROM iterations WHERE turn_id = ?1) END,
				?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, nullif(?21, ''))
			RETURNING id, position`
	qCountIteration = `UPDATE turns SET iterations = max(iterations, ?) WHERE id = ?`
	// A turn's prompt messages (SetTurnPrompt): each stored once.
	qFindPromptBlock     = `SELECT id FROM prompt_blocks WHERE hash = ?`
	qAddPromptBlock      = `INSERT INTO prompt_blocks (hash, text) VALUES (?, ?) RETURNING id`
	qSetTurnPromptBlocks = `UPDATE turns SET prompt_json = '', prompt_blocks = ? WHERE id = ?`
	qGetGoal             = `
		SELECT session_id, goal_id, objective, status, iteration_budget, iterations_used, tokens_used,
			time_used_ms, version, revision, created_at, updated_at, active_since_ms
		FROM goals WHERE session_id = ?`
)

// prepared returns query prepared on s, preparing it at its first use.
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if v, ok := s.stmts.Load(query); ok {
		return v.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if v, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return v.(*sql.Stmt), nil
	}
	return st, nil
}

// txStmt is query prepared on s, for use inside tx.
func (s *Store) txStmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return tx.StmtContext(ctx, st), nil
}
