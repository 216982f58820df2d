package sandbox

import (
	"context"
	"sync"
)

// A builtin's call may say that the OS sandbox refused what it started (a
// confined shell command that failed with "Permission denied" outside the
// workspace): the call's ToolCall carries the sentence (SandboxRefused), so
// a front can offer to run the program again without the sandbox.

type refusedKey struct{}

type refusal struct {
	mu    sync.Mutex
	why   string
	asked string
}

// RefusedBySandbox records why on the builtin call running under ctx (the
// first sentence wins). Outside a builtin call it does nothing. Safe from
// any goroutine.
func RefusedBySandbox(ctx context.Context, why string) {
	r, _ := ctx.Value(refusedKey{}).(*refusal)
	if r == nil || why == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.why == "" {
		r.why = why
	}
}

func (r *refusal) get() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.why
}

// AskedPerson records, on the builtin call running under ctx, the person's
// answer when the call asked them to run a refused command without the
// sandbox ("approved", "declined", "unanswered"; the last one wins).
// Outside a builtin call it does nothing. Safe from any goroutine.
func AskedPerson(ctx context.Context, answer string) {
	r, _ := ctx.Value(refusedKey{}).(*refusal)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = answer
}

func (r *refusal) answer() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.asked
}
