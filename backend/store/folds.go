package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// FoldSpan is part of what a fold covers: the whole turn Turn (From = To =
// 0), or its iterations From..To.
type FoldSpan struct {
	Turn int `json:"turn"`
	From int `json:"from"`
	To   int `json:"to"`
}

// Whole reports whether the span is a whole turn.
func (s FoldSpan) Whole() bool { return s.From == 0 && s.To == 0 }

// Fold is one fold_session call of a session: its normalised key, what it
// covers and the gist that stands for it from then on. Folds only change
// what the model is sent; the turns and iterations they cover are kept.
type Fold struct {
	ID        int64
	SessionID string
	Key       string
	Spans     []FoldSpan
	Gist      string
	Created   time.Time
}

// AddFold records a fold and returns it with its id and creation time. A
// fold must cover something and carry a gist of 1–500 characters; an
// absent session is reported with ErrNotFound.
func (s *Store) AddFold(ctx context.Context, f Fold) (Fold, error) {
	if len(f.Spans) == 0 {
		return Fold{}, fmt.Errorf("add fold %q: it covers nothing", f.Key)
	}
	raw, err := json.Marshal(f.Spans)
	if err != nil {
		return Fold{}, fmt.Errorf("add fold %q: %w", f.Key, err)
	}
	now := s.now()
	err = s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
			INSERT INTO folds (session_id, key, spans_json, gist, created_at) VALUES (?, ?, ?, ?, ?)
			RETURNING id`, f.SessionID, f.Key, string(raw), f.Gist, ms(now)).Scan(&f.ID)
	})
	if err != nil {
		if isForeignKey(err) {
			err = fmt.Errorf("no such session: %w", ErrNotFound)
		}
		return Fold{}, fmt.Errorf("add fold %q to session %s: %w", f.Key, f.SessionID, err)
	}
	f.Created = time.UnixMilli(now.UnixMilli())
	return f, nil
}

// ListFolds returns the session's folds, oldest first (a newer fold wins
// where two cover the same work). An absent session has none.
func (s *Store) ListFolds(ctx context.Context, sessionID string) ([]Fold, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, session_id, key, spans_json, gist, created_at FROM folds
		WHERE session_id = ? ORDER BY id`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list folds of %s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []Fold
	for rows.Next() {
		var f Fold
		var raw string
		var created int64
		if err := rows.Scan(&f.ID, &f.SessionID, &f.Key, &raw, &f.Gist, &created); err != nil {
			return nil, fmt.Errorf("list folds of %s: %w", sessionID, err)
		}
		if err := json.Unmarshal([]byte(raw), &f.Spans); err != nil {
			return nil, fmt.Errorf("list folds of %s: fold %d: %w", sessionID, f.ID, err)
		}
		f.Created = fromMs(created)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list folds of %s: %w", sessionID, err)
	}
	return out, nil
}
