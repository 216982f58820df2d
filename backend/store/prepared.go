package store

import (
	"context"
	"database/sql"
)

// Queries a turn runs over and over.

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
)

// txStmt is query prepared inside tx (closed with it).
func (s *Store) txStmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	return tx.PrepareContext(ctx, query)
}
