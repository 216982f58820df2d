package backend

import (
	"context"

	"github.com/visdesktop/vis/backend/attach"
)

// CheckImages says what a message's intake will do with each image offered
// with it (in order): refused and why, attached and sent, or attached and
// only named because the model of the session (or, with sessionID "", of
// workspace) has no vision. The rules are attach's (attach.Check); the
// window calls this as each image is added, before Send. A configuration
// that names no usable model yet counts as one with vision: Send will say
// what is missing.
func (e *Engine) CheckImages(ctx context.Context, sessionID, workspace string, in []attach.Input) ([]attach.Verdict, error) {
	if sessionID != "" {
		s, err := e.store.GetSession(ctx, sessionID)
		if err != nil {
			return nil, err
		}
		workspace = s.Workspace
	}
	opts := attach.DefaultOptions()
	if rv, err := e.resolve(canonical(workspace), SendRequest{}); err == nil {
		opts.Vision = rv.res.Model.Vision
	}
	return attach.Check(in, opts), nil
}
