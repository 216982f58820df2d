package backend

import (
	"errors"

	"github.com/visdesktop/vis/backend/checkpoint"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/store"
	"github.com/visdesktop/vis/backend/workspace"
)

// The stable codes of the errors the engine returns to a front. A front
// decides what to show by the code, never by the error's text; the text
// stays the sentence a person reads. A provider failure's code is
// "provider_" followed by provider.Error.Code() (provider_auth,
// provider_server_down, provider_model_not_found, ...).
const (
	CodeInput    = "input"     // the request itself is wrong: an empty message, an unknown command, a bad pattern or server entry
	CodeRefused  = "refused"   // a well-formed request the rules refuse (goal rules, a path outside the workspace, nothing to re-run)
	CodeNotFound = "not_found" // no such session, turn, checkpoint, queued input, question or output (it may not be written yet)
	CodeConflict = "conflict"  // the state moved under the request: a turn is running, another Vis holds the session, files changed since the turn
	CodeConfig   = "config"    // the configuration is missing or wrong (no endpoint, model or key)
	CodeInternal = "internal"  // anything else: a bug or an I/O failure, worth a log line
	// CodeProviderPrefix starts every provider failure's code.
	CodeProviderPrefix = "provider_"
)

// ErrorCode is err's stable code ("" for nil). It looks through wrapping,
// so a front may add context to an engine error and keep its code.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var (
		pe       *provider.Error
		held     *HeldElsewhereError
		conflict *checkpoint.ConflictError
		refused  *goals.RefusedError
		command  *goals.CommandError
	)
	switch {
	case errors.As(err, &pe):
		return CodeProviderPrefix + pe.Code()
	case errors.As(err, &held), errors.As(err, &conflict),
		errors.Is(err, ErrBusy), errors.Is(err, ErrUndoBusy), errors.Is(err, goals.ErrConflict), errors.Is(err, ErrApproved):
		return CodeConflict
	case errors.Is(err, store.ErrNotFound), errors.Is(err, ErrNoCheckpoint), errors.Is(err, checkpoint.ErrNotInTurn),
		errors.Is(err, ErrNoQuestion), errors.Is(err, ErrForkRange), errors.Is(err, ErrNothingQueued):
		return CodeNotFound
	case errors.Is(err, ErrConfig), errors.Is(err, config.ErrNotConfigured):
		return CodeConfig
	case errors.As(err, &refused), errors.Is(err, ErrNotRefused), errors.Is(err, workspace.ErrOutside):
		return CodeRefused
	case errors.As(err, &command), errors.Is(err, ErrUnknownCommand), errors.Is(err, ErrMCPInput), errors.Is(err, workspace.ErrBadPattern):
		return CodeInput
	}
	return CodeInternal
}
