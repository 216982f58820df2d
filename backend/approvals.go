package backend

// Asking the person at the call ("ask" mode, docs/SECURITY.md): in the
// window, with permissions.ask on (Settings, or `vis-desktop --ask`), a
// command the OS sandbox refuses does not just fail: the program waits at
// that call while the window asks "Run it without the sandbox?". Approved,
// the command runs once more unconfined and the program goes on with its
// result; declined or unanswered (AskWait, or the turn stopped), the
// refusal stands. Either way the call record says what the person answered
// (sandbox_asked), so the transcript keeps the decision and the model sees
// it in what the call returned. Headless fronts (Options.CanAsk false)
// never ask; without "ask", the window offers "Run again without the
// sandbox" after the program instead (rerun.go).

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
)

// AskWait is how long a question waits for the person before it counts as
// unanswered and the refusal stands.
const AskWait = 10 * time.Minute

// ErrNoQuestion: no question with that id is waiting (answered already,
// or its turn ended).
var ErrNoQuestion = errors.New("no such question is waiting")

// approvals are the questions waiting for the person, by id.
type approvals struct {
	mu      sync.Mutex
	waiting map[string]*question
}

type question struct {
	session string
	turn    int
	iter    int
	ev      events.Approval
	answer  chan confine.Answer // buffered 1
}

// asks reports whether a turn planned under cfg asks the person.
func (e *Engine) asks(cfg *config.Config) bool {
	return e.canAsk && (e.ask || cfg.Permissions.AskOn())
}

// askFunc is the AskFunc a session's tool calls carry while its turn asks.
func (e *Engine) askFunc(sid string, rt *sessionRT) confine.AskFunc {
	return func(ctx context.Context, q confine.Question) (confine.Answer, error) {
		var b [8]byte
		_, _ = rand.Read(b[:])
		t, i := rt.position()
		qq := &question{session: sid, turn: t, iter: i, answer: make(chan confine.Answer, 1), ev: events.Approval{
			ID: hex.EncodeToString(b[:]), State: "asked", Tool: q.Tool, Command: q.Command, Why: q.Why,
			WaitSeconds: int(AskWait / time.Second),
		}}
		e.approvals.mu.Lock()
		if e.approvals.waiting == nil {
			e.approvals.waiting = map[string]*question{}
		}
		e.approvals.waiting[qq.ev.ID] = qq
		e.approvals.mu.Unlock()
		e.broker.Publish(events.Event{SessionID: sid, Turn: t, Iteration: i, Data: qq.ev})

		answer, err := confine.Unanswered, error(nil)
		wait := time.NewTimer(AskWait)
		defer wait.Stop()
		select {
		case answer = <-qq.answer:
		case <-ctx.Done():
			err = context.Cause(ctx)
		case <-wait.C:
			err = fmt.Errorf("no answer within %s", AskWait)
		}
		e.approvals.mu.Lock()
		delete(e.approvals.waiting, qq.ev.ID)
		e.approvals.mu.Unlock()
		done := qq.ev
		done.State, done.Answer = "answered", string(answer)
		e.broker.Publish(events.Event{SessionID: sid, Turn: t, Iteration: i, Data: done})
		return answer, err
	}
}

// AnswerApproval answers a waiting question of a session: approve runs the
// refused command once more without the sandbox. ErrNoQuestion when none
// with that id waits (answered already, or its turn ended).
func (e *Engine) AnswerApproval(sessionID, id string, approve bool) error {
	e.approvals.mu.Lock()
	q := e.approvals.waiting[id]
	if q != nil && q.session == sessionID {
		delete(e.approvals.waiting, id)
	} else {
		q = nil
	}
	e.approvals.mu.Unlock()
	if q == nil {
		return ErrNoQuestion
	}
	a := confine.Declined
	if approve {
		a = confine.Approved
	}
	q.answer <- a
	return nil
}

// Questions are a session's questions waiting for the person (a program
// waits on one at a time; a window opened or reloaded meanwhile shows it).
func (e *Engine) Questions(sessionID string) []events.Approval {
	e.approvals.mu.Lock()
	defer e.approvals.mu.Unlock()
	var out []events.Approval
	for _, q := range e.approvals.waiting {
		if q.session == sessionID {
			out = append(out, q.ev)
		}
	}
	return out
}
