package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"unicode/utf8"
)

// CallOutput is the kept output of one program of an iteration whose
// output the transcript record holds only clipped (table call_outputs).
// Written with its iteration by AddIteration.
type CallOutput struct {
	Call   int    // the program's 0-based place among the iteration's calls
	CallID string // the provider's call id
	Output string // what it printed, up to the keep cap
	Total  int    // bytes it printed in all (≥ len(Output))
}

// OutputPage is a piece of a kept output: Text starts at byte Offset, and
// Next is where the next page starts (== Kept when this was the last).
type OutputPage struct {
	Text         string
	Offset, Next int
	Kept         int // bytes kept
	Total        int // bytes the program printed in all
}

// Done reports the page is the kept output's last.
func (p OutputPage) Done() bool { return p.Next >= p.Kept }

// MaxOutputPage is the largest page OutputPage returns.
const MaxOutputPage = 1 << 20

// KeptOutput returns up to limit bytes (at most MaxOutputPage; ≤ 0 =
// MaxOutputPage) of the kept output of program call of iteration iter of
// turn turn (positions) of the session, from byte offset. A page ends at
// its last newline when it has one and is not the last, else at a rune
// boundary, so pages concatenate to the output. An output not kept apart
// (it was not clipped) and an absent session, turn or iteration are
// reported with ErrNotFound.
func (s *Store) KeptOutput(ctx context.Context, sessionID string, turn, iter, call, offset, limit int) (OutputPage, error) {
	if limit <= 0 || limit > MaxOutputPage {
		limit = MaxOutputPage
	}
	offset = max(offset, 0)
	p := OutputPage{Offset: offset}
	var b []byte
	// Three bytes more than asked, to finish a rune the limit cuts.
	err := s.db.QueryRowContext(ctx, `
		SELECT substr(o.output, ?5 + 1, ?6 + 3), length(o.output), o.total_bytes
		FROM call_outputs o
		JOIN iterations i ON i.id = o.iteration_id
		JOIN turns t ON t.id = i.turn_id
		WHERE t.session_id = ?1 AND t.position = ?2 AND i.position = ?3 AND o.call = ?4`,
		sessionID, turn, iter, call, offset, limit).Scan(&b, &p.Kept, &p.Total)
	if errors.Is(err, sql.ErrNoRows) {
		return OutputPage{}, fmt.Errorf("kept output of %s t%d/i%d call %d: %w", sessionID, turn, iter, call, ErrNotFound)
	}
	if err != nil {
		return OutputPage{}, fmt.Errorf("kept output of %s t%d/i%d call %d: %w", sessionID, turn, iter, call, err)
	}
	if len(b) > limit || offset+len(b) < p.Kept {
		// Not the last page: end it at a rune boundary within limit, and at
		// its last newline when it has one.
		n := min(limit, len(b))
		for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
			n--
		}
		for i := n - 1; i > 0; i-- {
			if b[i] == '\n' {
				n = i + 1
				break
			}
		}
		if n == 0 { // a rune longer than the page: take it whole
			_, n = utf8.DecodeRune(b)
		}
		b = b[:n]
	}
	p.Text, p.Next = string(b), offset+len(b)
	return p, nil
}

// addOutputs writes an iteration's kept outputs in its transaction.
func addOutputs(ctx context.Context, tx *sql.Tx, iterationID int64, outs []CallOutput) error {
	for _, o := range outs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO call_outputs (iteration_id, call, call_id, output, total_bytes) VALUES (?, ?, ?, ?, ?)`,
			iterationID, o.Call, o.CallID, []byte(o.Output), max(o.Total, len(o.Output))); err != nil {
			return fmt.Errorf("keep output of call %d: %w", o.Call, err)
		}
	}
	return nil
}
