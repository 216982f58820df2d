package backend

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/visdesktop/vis/backend/checkpoint"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/store"
	"github.com/visdesktop/vis/backend/workspace"
)

// Every error class a front tells apart has its code, also when wrapped
// with context on the way out.
func TestErrorCodeClasses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{&provider.Error{Kind: provider.KindAuth, Status: 401}, "provider_auth"},
		{&provider.Error{Kind: provider.KindRateLimit, Status: 429}, "provider_rate_limit"},
		{&HeldElsewhereError{SessionID: "s", PID: 7}, CodeConflict},
		{&checkpoint.ConflictError{Files: []string{"a"}}, CodeConflict},
		{ErrBusy, CodeConflict},
		{ErrUndoBusy, CodeConflict},
		{goals.ErrConflict, CodeConflict},
		{ErrApproved, CodeConflict},
		{store.ErrNotFound, CodeNotFound},
		{ErrNoCheckpoint, CodeNotFound},
		{checkpoint.ErrNotInTurn, CodeNotFound},
		{ErrNoQuestion, CodeNotFound},
		{ErrForkRange, CodeNotFound},
		{ErrNothingQueued, CodeNotFound},
		{ErrConfig, CodeConfig},
		{config.ErrNotConfigured, CodeConfig},
		{goals.ErrNoGoal, CodeRefused},
		{&goals.CommandError{Err: goals.ErrNoGoal}, CodeRefused}, // a refusal stays one inside a command's error
		{ErrNotRefused, CodeRefused},
		{workspace.ErrOutside, CodeRefused},
		{&goals.CommandError{Err: errors.New("unknown flag --x")}, CodeInput},
		{ErrUnknownCommand, CodeInput},
		{ErrMCPInput, CodeInput},
		{workspace.ErrBadPattern, CodeInput},
		{errors.New("disk full"), CodeInternal},
	}
	for _, tc := range tests {
		if got := ErrorCode(tc.err); got != tc.want {
			t.Errorf("ErrorCode(%v) = %q, want %q", tc.err, got, tc.want)
		}
		if tc.err == nil {
			continue
		}
		if got := ErrorCode(fmt.Errorf("front: %w", tc.err)); got != tc.want {
			t.Errorf("ErrorCode(wrapped %v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// The engine's own failures carry their codes: checked on a real engine,
// not on sentinels built by hand.
func TestErrorCodeFromTheEngine(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()

	_, err := e.Transcript(ctx, "no-such-session")
	if got := ErrorCode(err); got != CodeNotFound {
		t.Errorf("Transcript of an unknown session: %v = %q, want not_found", err, got)
	}
	_, err = e.Dispatch(ctx, "", Input{Workspace: ws, Text: "/frobnicate"})
	if got := ErrorCode(err); got != CodeInput {
		t.Errorf("an unknown command: %v = %q, want input", err, got)
	}
	_, err = e.CallOutput(ctx, "no-such-session", 1, 1, 1, 0, 10)
	if got := ErrorCode(err); got != CodeNotFound {
		t.Errorf("CallOutput of an unknown session: %v = %q, want not_found", err, got)
	}
}
