package backend

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/store"
)

// Program outputs for "open full output". The transcript's record of a
// program holds its output cut at the model's limit (64 Ki chars); a longer
// output is kept whole, up to sandbox.keep_output_bytes, in the store's
// call_outputs table beside its iteration. SQLite rather than spill files
// under VIS_HOME: the kept copy is written in the iteration's own
// transaction (no orphan or missing file after a crash), goes when its
// session is deleted (ON DELETE CASCADE, no sweeper), is seen by every
// process that shares the database (the window, `vis show`), and a separate
// table keeps tool_calls_json, read for every snapshot, as small as before.

// OutputPage is a piece of a program's kept output: Text starts at byte
// Offset of it; Next is where the next page starts. Kept is how many bytes
// are kept, Total how many the program printed (more than Kept when the
// keep cap cut the output). Done: this is the last page.
type OutputPage struct {
	Text   string `json:"text"`
	Offset int    `json:"offset"`
	Next   int    `json:"next"`
	Kept   int    `json:"kept_bytes"`
	Total  int    `json:"total_bytes"`
	Done   bool   `json:"done"`
}

// CallOutput returns up to limit bytes (≤ 0 or above store.MaxOutputPage:
// that page size) of the output of program call (0-based, the order of
// the transcript's Calls) of iteration iter of turn turn (positions) of
// the session, from byte offset. A page not the last ends at a line. An
// output that was never clipped comes from the transcript's record. An
// unknown session, turn, iteration or call is ErrNotFound.
func (e *Engine) CallOutput(ctx context.Context, sessionID string, turn, iter, call, offset, limit int) (OutputPage, error) {
	p, err := e.store.KeptOutput(ctx, sessionID, turn, iter, call, offset, limit)
	if err == nil {
		return OutputPage{Text: p.Text, Offset: p.Offset, Next: p.Next, Kept: p.Kept, Total: p.Total, Done: p.Done()}, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return OutputPage{}, err
	}
	t, err := e.Transcript(ctx, sessionID)
	if err != nil {
		return OutputPage{}, err
	}
	for _, tv := range t.Turns {
		if tv.Position != turn {
			continue
		}
		for _, it := range tv.Iterations {
			if it.Position != iter || call < 0 || call >= len(it.Calls) {
				continue
			}
			c := it.Calls[call]
			out := c.Output
			start := min(max(offset, 0), len(out))
			for start > 0 && start < len(out) && !utf8.RuneStart(out[start]) {
				start--
			}
			// An unclipped record holds all of it; an older record cut
			// at the model's limit says no more than its own length.
			total := max(c.OutputBytes, len(out))
			return OutputPage{Text: out[start:], Offset: start, Next: len(out), Kept: len(out), Total: total, Done: true}, nil
		}
	}
	return OutputPage{}, fmt.Errorf("output of %s t%d/i%d call %d: %w", sessionID, turn, iter, call, ErrNotFound)
}
