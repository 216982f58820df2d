package confine

import (
	"context"
	"errors"
)

// Asking the person to leave the sandbox (the window's "ask" setting,
// `vis-desktop --ask`): when the OS sandbox refuses a command a program
// started, a front that can ask puts an AskFunc on the tool call's ctx;
// the tool then asks, at that call, whether to run the command once more
// without confinement, and waits for the answer. Headless fronts never put
// one there, so Ask reports asked=false and the refusal stands (the window
// without "ask" offers "Run again without the sandbox" after the program).

// Question is what a tool asks the person after the sandbox refused a
// command.
type Question struct {
	Tool    string // the tool that started the command ("shell")
	Command string // the command as the program gave it
	Why     string // the refusal, as the sandbox_refused sentence words it
}

// Answer is the person's answer.
type Answer string

const (
	Approved   Answer = "approved"   // run it once more without the sandbox
	Declined   Answer = "declined"   // keep the refusal
	Unanswered Answer = "unanswered" // no answer in time, or the turn ended first
)

// AskFunc asks the person and blocks until they answer, ctx ends or its
// own time runs out (Unanswered, with the reason as the error).
type AskFunc func(ctx context.Context, q Question) (Answer, error)

type askKey struct{}

// WithAsk returns ctx carrying f; a nil f removes asking.
func WithAsk(ctx context.Context, f AskFunc) context.Context {
	return context.WithValue(ctx, askKey{}, f)
}

// ErrNoAsker: nobody can be asked here (headless, or the setting is off).
var ErrNoAsker = errors.New("nobody to ask")

// Ask asks the person through ctx's AskFunc: ErrNoAsker when there is none
// (the caller keeps the refusal without saying anything more).
func Ask(ctx context.Context, q Question) (Answer, error) {
	f, _ := ctx.Value(askKey{}).(AskFunc)
	if f == nil {
		return Unanswered, ErrNoAsker
	}
	return f(ctx, q)
}

// Unconfined is p for one approved run: nothing confined, the hidden
// variables still hidden (no child ever sees a provider key).
func (p Policy) Unconfined() Policy {
	p.Mode = Full
	return p
}
