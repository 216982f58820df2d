package app

import (
	"encoding/json"
	"errors"

	"github.com/visdesktop/vis/backend"
)

// Error is a bound method's failure as the page receives it: a stable code
// the page decides by (backend's codes: input, refused, not_found,
// conflict, config, provider_*, internal) and the sentence it shows,
// unchanged from the error's text. Wails rejects the call's promise with
// an Error whose message is this value as JSON text (Run's ErrorFormatter
// is wireError); bridge.ts parses it back, so no page code reads error
// sentences to decide anything.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e Error) Error() string { return e.Message }

// errorOf classifies err: ErrInput (a request the page should not have
// sent) is input, the rest is the engine's code (backend.ErrorCode).
func errorOf(err error) Error {
	if err == nil {
		return Error{}
	}
	code := backend.ErrorCode(err)
	if errors.Is(err, ErrInput) {
		code = backend.CodeInput
	}
	return Error{Code: code, Message: err.Error()}
}

// wireError is the window's ErrorFormatter: errorOf(err) as JSON text.
func wireError(err error) any {
	b, err2 := json.Marshal(errorOf(err))
	if err2 != nil { // a string always marshals; kept for the contract
		return err.Error()
	}
	return string(b)
}
