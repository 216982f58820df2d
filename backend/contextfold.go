package backend

import (
	"context"
	"encoding/json"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/store"
)

// addContextFolds marks the transcript's turns whose request gave way to
// fit the model's context window (the loop's record, store
// SetContextFold): the marker the window and `vis show` print, the same
// Context the turn's warning event carried live.
func (e *Engine) addContextFolds(ctx context.Context, id string, turns []store.Turn, tv []TurnView) {
	folds, err := e.store.SessionContextFolds(ctx, id)
	if err != nil || len(folds) == 0 {
		return
	}
	for i := range tv {
		if i >= len(turns) {
			break
		}
		raw, ok := folds[turns[i].ID]
		if !ok {
			continue
		}
		var f events.ContextCompaction
		if json.Unmarshal([]byte(raw), &f) == nil {
			tv[i].ContextFold = &f
		}
	}
}
