package app

import (
	"fmt"
	"strings"
)

// OutputPage is a piece of a program's kept output, for the read-only
// "open full output" view: text starts at byte offset; next is where the
// next page starts; kept_bytes of total_bytes printed are kept (fewer when
// sandbox.keep_output_bytes cut it); done: the last page.
type OutputPage struct {
	Text   string `json:"text"`
	Offset int    `json:"offset"`
	Next   int    `json:"next"`
	Kept   int    `json:"kept_bytes"`
	Total  int    `json:"total_bytes"`
	Done   bool   `json:"done"`
}

// OutputPageBytes is the page size of CallOutput: a page crosses the
// bridge as one JSON string, so a 4 MiB output comes in a few calls the
// view can show as they arrive.
const OutputPageBytes = 512 << 10

// CallOutput returns the page at byte offset of the whole kept output of
// program call (0-based, the transcript's calls order) of iteration
// iteration of turn turn; a page not the last ends at a line.
func (a *App) CallOutput(sessionID string, turn, iteration, call, offset int) (OutputPage, error) {
	if strings.TrimSpace(sessionID) == "" || turn < 1 || iteration < 1 || call < 0 || offset < 0 {
		return OutputPage{}, fmt.Errorf("output: %w: need a session, a turn, an iteration, a call and an offset (got %q, %d, %d, %d, %d)", ErrInput, sessionID, turn, iteration, call, offset)
	}
	ctx, _ := a.base()
	p, err := a.eng.CallOutput(ctx, sessionID, turn, iteration, call, offset, OutputPageBytes)
	if err != nil {
		return OutputPage{}, fmt.Errorf("output: %w", err)
	}
	return OutputPage(p), nil
}
