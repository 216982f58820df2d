package store

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// Marks around the matched words in Hit.Snippet.
const (
	HighlightStart = "«"
	HighlightEnd   = "»"
)

// Hit is one turn whose request or answer matches a search.
type Hit struct {
	SessionID    string
	Workspace    string
	Title        string
	TurnPosition int
	Snippet      string // an excerpt, matches between HighlightStart and HighlightEnd
}

// Search finds turns whose request or answer contains every word of query,
// the last word also as a prefix (so a query typed so far matches), best
// matches first. The text is taken literally: quotes, operators (AND, OR,
// NOT, NEAR), '*', '-', ':' and parentheses never change the query's meaning
// nor cause an error. A query without any word returns no hits. limit <= 0
// means 20; it is capped at 200.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if limit <= 0 {
		limit = 20
	}
	limit = min(limit, 200)
	match := ftsQuery(query)
	if match == "" {
		return []Hit{}, nil
	}
	rows, err := s.db.QueryContext(ctx, `
		SELECT t.session_id, s.workspace, s.title, t.position,
			snippet(turns_fts, -1, ?1, ?2, '…', 16)
		FROM turns_fts
		JOIN turns t ON t.id = turns_fts.rowid
		JOIN sessions s ON s.id = t.session_id
		WHERE turns_fts MATCH ?3
		ORDER BY bm25(turns_fts), t.id DESC
		LIMIT ?4`, HighlightStart, HighlightEnd, match, limit)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	defer rows.Close()
	out := []Hit{}
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.SessionID, &h.Workspace, &h.Title, &h.TurnPosition, &h.Snippet); err != nil {
			return nil, fmt.Errorf("search %q: %w", query, err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	return out, nil
}

// ftsQuery turns user text into an FTS5 query that cannot be a syntax error:
// each whitespace-separated word becomes a quoted phrase (inner quotes
// doubled), the last one a prefix phrase; words without a letter or digit
// (which the tokenizer would reduce to nothing) are dropped.
func ftsQuery(q string) string {
	var parts []string
	for _, w := range strings.Fields(q) {
		if !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) {
			continue
		}
		parts = append(parts, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	if len(parts) == 0 {
		return ""
	}
	parts[len(parts)-1] += "*"
	return strings.Join(parts, " ")
}
