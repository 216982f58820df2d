package backend

// "Run again without the sandbox": when the OS sandbox refused something a
// program started (its CallRecord carries sandbox_refused), the window
// offers the person one approval that re-runs THAT program once in full
// mode. It is never automatic, and headless fronts never ask.
//
// The re-run is a turn of its own (channel "approval", no model involved),
// like a person's `!cmd`: its request says what was approved, its one
// iteration is the program with what it printed, its answer says how it
// ended. So the transcript records the approval and its result, and the
// model's next turn sees both in its recap. It runs in the session's
// sandbox interpreter (the program's defs and helpers are there), with a
// full-mode policy on every tool call's ctx for this run only; the next
// turn's plan sets the session's own mode again.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/store"
)

// ChannelApproval marks a turn that ran a program again without the
// sandbox, approved by the person.
const ChannelApproval = "approval"

// queueRerun is the job kind of an approved re-run (never queued: the
// session must be idle).
const queueRerun = "rerun"

// ErrNotRefused: the program named was not refused by the sandbox, so
// there is nothing to approve.
var ErrNotRefused = errors.New("the sandbox did not refuse this program")

// ErrApproved: the program already ran again without the sandbox (an
// approval is for one run).
var ErrApproved = errors.New("already approved")

// RerunUnconfined runs again, once and without the sandbox, program call
// (0-based) of iteration iter of turn turn, which the sandbox refused. The
// session must be idle (ErrBusy otherwise: approve it after the running
// turn). It returns when the re-run started; its turn streams like any
// other.
func (e *Engine) RerunUnconfined(ctx context.Context, sessionID string, turn, iter, call int) (Accepted, error) {
	t, err := e.Transcript(ctx, sessionID)
	if err != nil {
		return Accepted{SessionID: sessionID}, err
	}
	var rec *events.CallRecord
	for _, tv := range t.Turns {
		if tv.Position != turn {
			continue
		}
		for _, it := range tv.Iterations {
			if it.Position == iter && call >= 0 && call < len(it.Calls) {
				rec = &it.Calls[call]
			}
		}
	}
	if rec == nil {
		return Accepted{SessionID: sessionID}, fmt.Errorf("turn %d has no program %d in iteration %d", turn, call+1, iter)
	}
	if rec.SandboxRefused == "" {
		return Accepted{SessionID: sessionID}, ErrNotRefused
	}
	if rec.SandboxAsked == "approved" {
		return Accepted{SessionID: sessionID}, fmt.Errorf("%w: the person approved it at the call, and it ran there without the sandbox", ErrApproved)
	}
	text := fmt.Sprintf("Run again without the sandbox (approved by the person): program %d of turn %d, iteration %d", call+1, turn, iter)
	for _, tv := range t.Turns {
		if tv.Channel == ChannelApproval && tv.Request == text {
			return Accepted{SessionID: sessionID}, fmt.Errorf("%w: it ran again without the sandbox in turn %d already", ErrApproved, tv.Position)
		}
	}
	s, err := e.store.GetSession(ctx, sessionID)
	if err != nil {
		return Accepted{SessionID: sessionID}, err
	}
	rt, err := e.runtimeFor(s)
	if err != nil {
		return Accepted{SessionID: sessionID}, err
	}
	req := SendRequest{SessionID: sessionID, Channel: ChannelApproval, Text: text}
	j := newJob(queueRerun, req)
	j.code = rec.Code
	rt.ctlMu.Lock()
	defer rt.ctlMu.Unlock()
	if rt.ctl.running != nil {
		return Accepted{SessionID: sessionID}, ErrBusy
	}
	if qs, err := e.store.ListQueue(ctx, sessionID); err != nil {
		return Accepted{SessionID: sessionID}, err
	} else if len(qs) > 0 {
		return Accepted{SessionID: sessionID}, fmt.Errorf("%w: inputs are queued; approve the re-run when they are done", ErrBusy)
	}
	if other, err := e.store.ClaimSession(ctx, sessionID); err != nil {
		return Accepted{SessionID: sessionID}, err
	} else if other != "" {
		return Accepted{SessionID: sessionID}, fmt.Errorf("%w: another Vis process runs this session", ErrBusy)
	}
	e.start(rt, sessionID, j)
	return Accepted{SessionID: sessionID, Kind: KindTurn, Started: true, job: j}, nil
}

// rerun runs an approved re-run job: a turn with one iteration, the
// program run in full mode.
func (e *Engine) rerun(ctx context.Context, id string, rt *sessionRT, j *job) (TurnResult, func(), error) {
	bg := context.WithoutCancel(ctx)
	res := TurnResult{SessionID: id, Iterations: 1}
	cfg, err := config.LoadTrusting(e.home, rt.workspace, e.getenv, e.trustProject)
	if err != nil {
		return res, func() {}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	policy, _ := e.policyFor(id, rt.workspace, string(confine.Full), cfg)
	policy.Mode = confine.Full
	prev := rt.policy.Swap(&policy)
	defer rt.policy.Store(prev)

	turn, err := e.store.StartTurn(bg, id, j.req.Text, ChannelApproval)
	if err != nil {
		return res, func() {}, err
	}
	res.Turn = turn.Position
	pub := func(p events.Payload) {
		e.broker.Publish(events.Event{SessionID: id, Turn: turn.Position, Iteration: 1, Data: p})
	}
	pub(events.TurnStart{Request: j.req.Text, Channel: ChannelApproval})
	pub(events.FormStart{Code: j.code})
	rt.cur.Store(&[2]int{turn.Position, 1})
	// The session dict the program saw, with the mode it runs in now.
	view := map[string]any{"id": id, "workspace": map[string]any{"root": rt.workspace}}
	for k, v := range rt.blockMap {
		view[k] = v
	}
	view["sandbox"] = sandboxView(policy)
	view["turn"], view["scope"] = turn.Position, map[string]any{"turn": turn.Position, "iter": 1}
	cp := e.newTurnCheckpoint(id, rt.workspace) // the re-run changes files like any program
	cp.start(turn.ID)
	cp.before(ctx)
	started := time.Now()
	out := rt.interp.ExecWith(ctx, j.code, view, blockLimits(cfg, e.home))
	rec := events.CallRecord{Code: j.code, Output: out.Output, OutputBytes: out.Bytes, DurationMs: out.Duration.Milliseconds()}
	it := store.Iteration{TurnID: turn.ID, Position: 1, Code: j.code, Output: out.Output, Started: started, Finished: time.Now(),
		EvalMs: out.Duration.Milliseconds(), Status: store.IterationDone}
	if out.Clipped {
		rec.OutputClipped, rec.KeptBytes = true, len(out.Kept)
		it.Outputs = append(it.Outputs, store.CallOutput{Call: 0, Output: out.Kept, Total: out.Bytes})
	}
	for _, tc := range out.Tools {
		rec.Tools = append(rec.Tools, events.ToolCall(tc))
	}
	status, errText := store.TurnDone, ""
	verdict := "it finished without error"
	if out.Err != nil {
		rec.Error = &events.CallError{Phase: out.Err.Phase, Message: out.Err.Message, Line: out.Err.Line, Hint: out.Err.Hint}
		it.Status, it.Error = store.IterationError, fmt.Sprintf("%s error: %s", out.Err.Phase, out.Err.Message)
		status, errText = store.TurnError, it.Error
		verdict = "it failed: " + it.Error
		if out.Err.Phase == "cancelled" || ctx.Err() != nil {
			status, it.Status, errText = store.TurnCancelled, store.IterationCancelled, "cancelled"
			verdict = "it was cancelled"
		}
	}
	answer := fmt.Sprintf("The person approved running the program again without the sandbox (full access, this once); %s.", verdict)
	if o := strings.TrimSpace(out.Output); o != "" {
		if len(o) > 2000 {
			o = o[:2000] + "\n…"
		}
		answer += "\n\nIt printed:\n```\n" + o + "\n```"
	}
	it.Answer = answer
	raw, _ := json.Marshal([]events.CallRecord{rec})
	it.ToolCallsJSON = string(raw)
	if _, err := e.store.AddIteration(bg, it); err != nil {
		return res, func() {}, err
	}
	pub(events.FormResult{CallRecord: rec, Clipped: out.Clipped})
	turnMs := time.Since(started).Milliseconds()
	if err := e.store.FinishTurn(bg, turn.ID, store.TurnOutcome{Status: status, Answer: answer, Error: errText, Iterations: 1, DurationMs: turnMs}); err != nil {
		return res, func() {}, err
	}
	changes := cp.finish(bg)
	res.Status, res.Answer, res.Error = status, answer, errText
	return res, func() {
		pub(events.TurnEnd{Status: status, Answer: answer, Error: errText, Iterations: 1, DurationMs: turnMs, Changes: changes})
		e.publishSession(id)
	}, nil
}
