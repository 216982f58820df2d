// Package loop runs one turn: it sends the assembled prompt to the provider,
// runs every python_execution program the model writes in the session's
// sandbox, feeds the printed output back (one tool result per tool call, with
// the `session[...] = ...` delta lines after the first), persists every
// iteration, and ends on a prose answer, a fatal provider error, three empty
// replies in a row, or cancellation.
//
// Concurrency: a Runner serves one session and runs one turn at a time; the
// caller (the engine) guarantees that. Cancellation is the ctx of Run: it
// stops the provider stream and the running program at once; what settled
// before it is kept and the turn is recorded as cancelled with the best
// answer so far.
//
// Within a turn the messages only grow: request k is a byte-exact prefix of
// request k+1, so providers can cache the prompt. The exceptions are
// context management (context.go): when a request does not fit the model's
// window (the provider refused it, or the known window says it would not
// fit), the turn's settled outputs and then parts of the
// recap give way in the wire messages (its programs, and only as the last
// resort whole turns), with a warning event and the turn's marker; and
// folding (fold.go): the model's fold_session replaces settled iterations
// with a one-line gist. The rewritten messages are the prefix from then on.
// The store keeps every output in full, and records the rewritten request
// of the iteration that sent it (store.Iteration.RequestJSON), so the
// prompt inspector shows the messages that were sent, not the full ones.
package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/store"
)

// Streamer is the provider as the loop uses it (*provider.Client).
type Streamer interface {
	Stream(ctx context.Context, req provider.Request, on func(provider.Delta)) (provider.Response, error)
}

// Executor runs programs (*sandbox.Interp).
type Executor interface {
	Exec(ctx context.Context, code string, session map[string]any) sandbox.Result
}

// Statuses of a finished turn.
const (
	StatusDone      = "done"
	StatusError     = "error"
	StatusCancelled = "cancelled"
	StatusHalted    = "halted"
)

// EmptyReplyLimit is how many empty replies in a row stop a turn.
const EmptyReplyLimit = 3

// IterationErrorLimit is how many iteration errors in a row end a turn.
const IterationErrorLimit = 3

// emptyReplyMessage is fed back after an empty reply.
const emptyReplyMessage = "Your reply was empty — no tool call and no answer. Either call python_execution with a program that print()s what you need, or reply with your final answer as plain text."

// EmptyStopAnswer is the answer of a turn stopped by empty replies.
const EmptyStopAnswer = "The model returned empty replies repeatedly, so the turn was stopped."

// State is what a session carries from turn to turn inside one process: the
// delta baseline of the `session` dict. The engine owns one per session.
type State struct {
	Baseline map[string]any
	// TokenRatio is the provider's token count of the session's last
	// measured request divided by EstimateTokens of it (0 = not measured):
	// the loop's size estimates are scaled by it.
	TokenRatio float64
	// RecapFolded: the last turn's request gave way to fit the window
	// (context.go). Folding is a long session's steady state on a small
	// window: the banner is raised when it starts, not on every turn after.
	RecapFolded bool
	// live is the running turn, for fold_session (Live, Fold).
	live *liveTurn
	// cache holds the input and cached tokens of the session's last
	// CacheWindow measured requests, for utilization's cache_hit_rate.
	cache []cacheSample
}

// CacheWindow is how many of the latest measured requests
// utilization's cache_hit_rate is computed over.
const CacheWindow = 8

type cacheSample struct{ input, cached int }

// cacheHitRate is the share of input tokens the provider served from its
// prompt cache over the window, token-weighted, in whole percent; ok is
// false until a request was measured.
func (s *State) cacheHitRate() (pct, window int, ok bool) {
	in, cached := 0, 0
	for _, c := range s.cache {
		in, cached = in+c.input, cached+min(c.cached, c.input)
	}
	if in == 0 {
		return 0, 0, false
	}
	return (cached*100 + in/2) / in, len(s.cache), true
}

func (s *State) measure(u chat.Usage) {
	s.cache = append(s.cache, cacheSample{u.InputTokens, u.CachedTokens})
	if n := len(s.cache); n > CacheWindow {
		s.cache = append([]cacheSample(nil), s.cache[n-CacheWindow:]...)
	}
}

// Goal lets a session goal (seed 003) steer a turn. The engine adapts
// backend/goals to it; a session without a goal answers "go on" everywhere.
type Goal interface {
	// Halt runs at the top of every iteration, after the previous programs
	// finished and before any model call. A non-empty message ends the turn
	// as halted with that message as its answer.
	Halt(ctx context.Context) (message string, err error)
	// Request marks the start of a model request; Account charges its
	// response (every response counts, empty and prose ones included).
	Request(ctx context.Context)
	Account(ctx context.Context, usage chat.Usage)
	// Continuation returns the prompt that continues the turn after a prose
	// reply while a goal is active (the prose is progress); "" when the
	// prose is the final answer.
	Continuation(ctx context.Context) string
}

// Turn describes one turn to run.
type Turn struct {
	SessionID string
	Request   string
	Channel   string
	ModelName string
	// NoTools: the model cannot call tools; it writes one fenced block.
	NoTools bool
	// ReasoningEffort is sent to models that reason natively.
	ReasoningEffort string
	// ContextLimit is the model's input window in tokens (0 = unknown:
	// 200,000 is assumed for the fold budget, and requests are compacted
	// only when the provider refuses them).
	ContextLimit int
	// Recap, when set, lets the loop fold CONVERSATION-SO-FAR to fit the
	// window (at turn start when Messages exceed FoldBudget, and after a
	// context overflow): earlier programs first, whole turns last.
	Recap *Recap
	// Messages are the turn's initial messages (stable prefix + user message).
	Messages []chat.Message
	// View returns the `session` dict for the given scope. Called before
	// every block and after every executed iteration (for the delta).
	View func(turn, iter int, utilization map[string]any) map[string]any
	// Goal, when set, applies the session goal's budget, stops and
	// continuation (nil = no goal machinery).
	Goal Goal
	// OnStart, when set, runs once the turn is recorded (e.g. to link the
	// message's images to it).
	OnStart func(ctx context.Context, turnID int64)
	// AfterPrograms, when set, is called once an iteration's program
	// results are in the conversation; a message it returns (the images
	// the programs' tools returned) follows them, and is persisted with
	// the iteration, as are the images it returns (the transcript shows
	// them, also to a person whose model has no vision).
	AfterPrograms func() (*chat.Message, []store.Image)
	// OnUsage, when set, is called as each response's usage arrives (before
	// its programs run) with the turn's position, its usage so far and the
	// response's own, so the footer's figures follow the turn live.
	OnUsage func(turn int, soFar, last chat.Usage)
	// DeferEnd: Run does not publish turn-end; the caller publishes
	// EndEvent(result) once it has finished its own after-turn work (so a
	// client reacting to turn-end finds the session free).
	DeferEnd bool
}

// Result is the outcome of a turn.
type Result struct {
	TurnID int64
	Turn   int
	Status string
	Answer string
	Error  string
	// ErrorCode: the provider failure's code (provider.Code*), else "".
	ErrorCode  string
	Iterations int
	Usage      chat.Usage
	DurationMs int64
	SessionID  string
}

// EndEvent is the turn-end event of a finished turn.
func EndEvent(r Result) events.Event {
	return events.Event{Phase: events.PhaseTurnEnd, SessionID: r.SessionID, Turn: r.Turn, Data: events.TurnEnd{
		Status: r.Status, Answer: r.Answer, Error: r.Error, ErrorCode: r.ErrorCode,
		Iterations: r.Iterations, Usage: events.Usage(r.Usage), DurationMs: r.DurationMs,
	}}
}

// Runner runs turns of one session.
type Runner struct {
	Store    *store.Store
	Broker   *events.Broker
	Provider Streamer
	Exec     Executor
	State    *State
	Now      func() time.Time // nil = time.Now
}

// Run runs a turn to its end. The returned error is non-nil only when the
// turn could not be recorded at all (the store failed); every other failure
// is a Result with Status error.
func (r *Runner) Run(ctx context.Context, t Turn) (Result, error) {
	now := r.Now
	if now == nil {
		now = time.Now
	}
	started := now()
	bg := context.WithoutCancel(ctx) // store writes must land even after a cancel
	rec, err := r.Store.StartTurn(bg, t.SessionID, t.Request, t.Channel)
	if err != nil {
		return Result{}, fmt.Errorf("start turn: %w", err)
	}
	if raw, err := json.Marshal(t.Messages); err == nil {
		if err := r.Store.SetTurnPrompt(bg, rec.ID, string(raw)); err != nil {
			return Result{}, fmt.Errorf("save turn prompt: %w", err)
		}
	}
	tr := &turnRun{Runner: r, t: t, ctx: ctx, bg: bg, now: now, turnID: rec.ID, pos: rec.Position,
		msgs: append([]chat.Message(nil), t.Messages...), base: len(t.Messages)}
	if r.State != nil {
		tr.live = &liveTurn{tr: tr}
		r.State.live = tr.live
		defer func() { r.State.live = nil }()
	}
	tr.publish(0, events.TurnStart{Request: t.Request, Model: t.ModelName, Channel: t.Channel})
	tr.fitAtStart()
	if tr.gen != tr.storedGen { // the recap was folded: store the folded prompt
		if raw, err := json.Marshal(tr.msgs); err == nil {
			if err := r.Store.SetTurnPrompt(bg, rec.ID, string(raw)); err != nil {
				return Result{}, fmt.Errorf("save turn prompt: %w", err)
			}
			tr.storedGen = tr.gen
		}
	}
	if t.OnStart != nil {
		t.OnStart(bg, rec.ID)
	}
	res := tr.run()
	res.TurnID, res.Turn = rec.ID, rec.Position
	res.Usage = tr.usage
	res.Iterations = tr.iter
	res.SessionID = t.SessionID
	res.DurationMs = now().Sub(started).Milliseconds()
	out := store.TurnOutcome{Status: res.Status, Answer: res.Answer, Error: res.Error, Iterations: res.Iterations, Usage: res.Usage, DurationMs: res.DurationMs}
	if err := r.Store.FinishTurn(bg, rec.ID, out); err != nil {
		return res, fmt.Errorf("finish turn: %w", err)
	}
	if !t.DeferEnd && r.Broker != nil {
		r.Broker.Publish(EndEvent(res))
	}
	return res, nil
}

type turnRun struct {
	*Runner
	t       Turn
	ctx, bg context.Context
	now     func() time.Time
	turnID  int64
	pos     int
	msgs    []chat.Message
	iter    int
	usage   chat.Usage
	lastIn  int
	best    string // the best answer so far (sticky), for a cancelled turn
	// base is where this turn's own messages start in msgs (after the
	// initial messages); fold is how much of the recap the initial
	// messages have folded (Recap.Build(fold) is them).
	base int
	fold RecapFold
	// folded is what gave way in the turn's requests so far (the turn's
	// context marker).
	folded events.ContextCompaction
	// foldedBefore: the session's turn before this one folded too (its
	// warnings are quiet).
	foldedBefore bool
	sentEst      int // EstimateTokens of the last request sent
	// gen counts the compactions that rewrote msgs; storedGen is the one
	// the store's rebuild (turn prompt, or the newest recorded request,
	// plus what iterations appended) stands at. A request sent while they
	// differ is recorded with its iteration: sentJSON, at sentGen.
	gen, storedGen, sentGen int
	sentJSON                string
	// spans locate this turn's iterations in msgs (folded ones removed);
	// live takes the folds fold_session queues while a program runs.
	spans []iterSpan
	live  *liveTurn
	// hintLevel, hint and hintKey are the utilization hint of the current
	// level (1 = 75 %, 2 = 90 %, 3 = over the window) and the fold it
	// names: kept while the level holds (and a fold was named), so the
	// delta repeats the hint only when the level moves.
	hintLevel     int
	hint, hintKey string
	// wire keeps each message's request JSON for the turn's next request:
	// the history is marshalled once, not once per request.
	wire provider.MessageCache
}

func (tr *turnRun) publish(iter int, p events.Payload) {
	if tr.Broker == nil {
		return
	}
	tr.Broker.Publish(events.Event{SessionID: tr.t.SessionID, Turn: tr.pos, Iteration: iter, Data: p})
}

// utilization is the `session["utilization"]` of the model's next
// program; settled is how many iterations of this turn that program can
// fold.
func (tr *turnRun) utilization(settled int) map[string]any {
	if tr.lastIn == 0 {
		return nil
	}
	limit := tr.windowTokens()
	sat := (tr.lastIn*100 + limit/2) / limit
	u := map[string]any{
		"last_request_tokens": tr.lastIn,
		"turn_total_tokens":   tr.usage.InputTokens + tr.usage.OutputTokens,
		"auto_compress_above": FoldBudget(limit),
		"model_input_limit":   limit,
		"saturation":          sat,
		"headroom_tokens":     limit - tr.lastIn,
	}
	if tr.State != nil {
		if pct, n, ok := tr.State.cacheHitRate(); ok {
			u["cache_hit_rate"], u["cache_hit_window"] = pct, n
		}
	}
	if h := tr.utilizationHint(limit, settled); h != "" {
		u["hint"] = h
	}
	return u
}

// hintLevelOf is the hint level of a request of last tokens in a window of
// limit: 0 below 75 %, 1 from 75 %, 2 from 90 %, 3 above the window.
func hintLevelOf(last, limit int) int {
	switch pct := last * 100 / limit; {
	case last > limit:
		return 3
	case pct >= 90:
		return 2
	case pct >= 75:
		return 1
	}
	return 0
}

// utilizationHint is the hint for the current level, kept while the level
// holds (see turnRun.hint).
func (tr *turnRun) utilizationHint(limit, settled int) string {
	level := hintLevelOf(tr.lastIn, limit)
	if level != tr.hintLevel || tr.hintKey == "" {
		tr.hintKey = foldSuggestion(tr.pos, settled, level)
		tr.hintLevel, tr.hint = level, utilizationHint(tr.lastIn, limit, tr.hintKey)
	}
	return tr.hint
}

// foldSuggestion names the oldest settled work as a fold key for the hint:
// at 75 % the older half of this turn's settled iterations, from 90 % all
// of them (either way with every earlier turn: `-tN/iK`); at a turn's first
// iteration the earlier turns (`-tN`); "" when nothing is settled.
func foldSuggestion(turn, settled, level int) string {
	k := settled
	if level == 1 {
		k = (settled + 1) / 2
	}
	switch {
	case k >= 1:
		return fmt.Sprintf("-t%d/i%d", turn, k)
	case turn > 1:
		return fmt.Sprintf("-t%d", turn-1)
	}
	return ""
}

// utilizationHint tells the model how full the window is once it is at
// least 75 % full (spec §1.7), names the fold that would free it (key, a
// fold key for fold_session; "" when nothing is settled), and says what
// happens otherwise: the loop drops older outputs on its own, so the facts
// that matter must live in a gist, the answer or files.
func utilizationHint(last, limit int, key string) string {
	const keep = "Keep the important facts (paths, findings, decisions) in your gists, your answer or files, and print only what you need."
	fold := ""
	if key != "" {
		fold = fmt.Sprintf(`Fold settled work with fold_session(%q, gist): a one-line gist of what it found replaces it. `, key)
	}
	switch hintLevelOf(last, limit) {
	case 3:
		return "ACTION REQUIRED: the last request was larger than the context window; older outputs are being dropped from the request automatically. " + fold + keep + " Finish the work soon."
	case 2:
		return "FOLD NOW: the context window is over 90% full. " + fold + "When it fills, the oldest outputs of this turn, then the programs of earlier turns, are folded in the request automatically (earlier answers stay). " + keep
	case 1:
		return "FOLD SOON: the context window is over 75% full. " + fold + "When it fills, older outputs are dropped from the request automatically. " + keep
	}
	return ""
}

// HaltCause is the cancel cause (context.WithCancelCause) of a turn that a
// session goal stopped mid-stream or mid-program (the user paused,
// cancelled, cleared or replaced the goal): the turn ends halted with
// Message as its answer, as a halt at the top of an iteration does, not
// cancelled.
type HaltCause struct{ Message string }

func (h *HaltCause) Error() string { return "goal halt: " + h.Message }

// halting reports whether a goal's HaltCause ended the turn's ctx.
func (tr *turnRun) halting() bool {
	var h *HaltCause
	return errors.As(context.Cause(tr.ctx), &h)
}

// cancelled is the result of a turn whose ctx ended: halted when a goal's
// HaltCause ended it, else cancelled with the best answer so far.
func (tr *turnRun) cancelled() Result {
	var h *HaltCause
	if errors.As(context.Cause(tr.ctx), &h) {
		tr.publish(tr.iter, events.IterationFinal{Done: true, Final: h.Message, Halted: true})
		return Result{Status: StatusHalted, Answer: h.Message}
	}
	return Result{Status: StatusCancelled, Answer: tr.best}
}

func (tr *turnRun) run() Result {
	empties, iterErrors := 0, 0
	reason := "user-submit"
	for {
		if tr.ctx.Err() != nil {
			return tr.cancelled()
		}
		if g := tr.t.Goal; g != nil {
			msg, err := g.Halt(tr.bg)
			if err != nil {
				return Result{Status: StatusError, Error: "goal check: " + err.Error(), Answer: tr.best}
			}
			if msg != "" {
				tr.publish(tr.iter, events.IterationFinal{Done: true, Final: msg, Halted: true})
				return Result{Status: StatusHalted, Answer: msg}
			}
		}
		tr.iter++
		it := store.Iteration{TurnID: tr.turnID, Position: tr.iter, Model: tr.t.ModelName, Started: tr.now()}
		tr.fitBeforeRequest()
		appendedFrom := len(tr.msgs)
		tr.publish(tr.iter, events.ProviderCall{Model: tr.t.ModelName, Reason: reason})
		if g := tr.t.Goal; g != nil {
			g.Request(tr.bg)
		}
		resp, err := tr.stream()
		if pe := (*provider.Error)(nil); err != nil && errors.As(err, &pe) && pe.Kind == provider.KindContextOverflow && !pe.Partial && tr.ctx.Err() == nil {
			resp, err = tr.overflow(pe)
			appendedFrom = len(tr.msgs) // the recap may have changed the count of initial messages
		}
		// A response a goal halt cut off is not a loop response: nothing of
		// it runs, so the goal is not charged for it.
		if g := tr.t.Goal; g != nil && !tr.halting() && (err == nil || resp.Content != "" || len(resp.ToolCalls) > 0 || resp.HasUsage) {
			g.Account(tr.bg, resp.Usage)
		}
		it.LLMMs = tr.now().Sub(it.Started).Milliseconds()
		it.Reasoning, it.Usage = resp.Reasoning, resp.Usage
		tr.usage = tr.usage.Add(resp.Usage)
		if tr.t.OnUsage != nil && resp.HasUsage {
			tr.t.OnUsage(tr.pos, tr.usage, resp.Usage)
		}
		if resp.HasUsage && resp.Usage.InputTokens > 0 {
			if tr.State != nil {
				tr.State.measure(resp.Usage)
			}
			tr.lastIn = resp.Usage.InputTokens
			tr.calibrate(resp.Usage.InputTokens, tr.sentEst)
		}
		if err != nil {
			var pe *provider.Error
			errors.As(err, &pe)
			if tr.ctx.Err() != nil || (pe != nil && pe.Kind == provider.KindCancelled) {
				it.Status, it.Error, it.Prose = "cancelled", "cancelled", resp.Content
				tr.persist(it, appendedFrom)
				return tr.cancelled()
			}
			// A person reads the failure as one sentence with what to do
			// (provider.Explain), never Go's error text.
			code, said := provider.Explain(err)
			if oe := (*overflowError)(nil); said == "" || errors.As(err, &oe) {
				said = err.Error() // the overflow's own sentence names the model's window
			}
			it.Status, it.Error, it.Prose = "error", said, resp.Content
			tr.publish(tr.iter, events.IterationError{Error: said, Kind: kindOf(pe), Code: code})
			if pe == nil || !pe.Partial {
				// Fatal, or retries exhausted: the provider is not usable now.
				tr.persist(it, appendedFrom)
				return Result{Status: StatusError, Error: said, ErrorCode: code, Answer: tr.best}
			}
			iterErrors++
			tr.msgs = append(tr.msgs, chat.User(iterationErrorMessage(tr.iter, pe)))
			tr.persist(it, appendedFrom)
			if iterErrors >= IterationErrorLimit {
				return Result{Status: StatusError, Error: fmt.Sprintf("%d provider errors in a row; the last: %s", iterErrors, said), ErrorCode: code, Answer: tr.best}
			}
			reason = "iteration-error"
			continue
		}
		iterErrors = 0

		calls := resp.ToolCalls
		content := resp.Content
		fenced := false
		if tr.t.NoTools && len(calls) == 0 {
			if code, prose, ok := fencedProgram(content); ok {
				calls = []chat.ToolCall{{ID: fmt.Sprintf("fenced_%d", tr.iter), Name: provider.ToolName, Arguments: mustJSON(map[string]string{"code": code})}}
				content, fenced = prose, true
			}
		}

		if len(calls) == 0 {
			answer := strings.TrimSpace(content)
			if answer != "" && resp.FinishReason != "length" && tr.t.Goal != nil {
				if cont := tr.t.Goal.Continuation(tr.bg); cont != "" {
					// A goal is active: the prose is progress, the turn goes on.
					tr.best = answer
					it.Status, it.Prose = "done", answer
					tr.msgs = append(tr.msgs, chat.Message{Role: chat.RoleAssistant, Content: resp.Content}, chat.User(cont))
					tr.persist(it, appendedFrom)
					tr.publish(tr.iter, events.AssistantProse{Text: answer, Progress: true})
					tr.publish(tr.iter, events.IterationFinal{Done: false, Progress: true})
					reason = "goal-continuation"
					continue
				}
			}
			if answer != "" && resp.FinishReason != "length" {
				it.Status, it.Answer = "done", answer
				tr.msgs = append(tr.msgs, chat.Message{Role: chat.RoleAssistant, Content: resp.Content})
				tr.persist(it, appendedFrom)
				tr.publish(tr.iter, events.IterationFinal{Done: true, Final: answer})
				return Result{Status: StatusDone, Answer: answer}
			}
			if answer != "" { // cut off at the output limit
				tr.best = answer
				it.Status, it.Prose = "error", answer
				it.Error = "the reply hit the output token limit"
				tr.msgs = append(tr.msgs, chat.Message{Role: chat.RoleAssistant, Content: resp.Content},
					chat.User("Your reply was cut off at the output token limit. Continue: either call python_execution, or give a shorter final answer."))
				tr.persist(it, appendedFrom)
				reason = "iteration-error"
				continue
			}
			empties++
			it.Status, it.Error = "error", "empty reply"
			tr.msgs = append(tr.msgs, chat.User(emptyReplyMessage))
			tr.persist(it, appendedFrom)
			tr.publish(tr.iter, events.IterationError{Error: "empty reply", Kind: "empty", Streak: empties})
			if empties >= EmptyReplyLimit {
				ans := tr.best
				if ans == "" || (tr.t.Goal != nil && tr.t.Goal.Continuation(tr.bg) != "") {
					// With an active goal the stop is a failure, so the goal pauses.
					if ans == "" {
						ans = EmptyStopAnswer
					}
					return Result{Status: StatusError, Error: EmptyStopAnswer, Answer: ans}
				}
				return Result{Status: StatusDone, Answer: ans}
			}
			reason = "empty-reply"
			continue
		}
		empties = 0

		progs := programsFromResponse(calls, provider.ToolName, resp.FinishReason == "length")
		var codes []string
		for _, p := range progs {
			codes = append(codes, p.Code)
		}
		if prose := proseBeyondCode(content, codes); prose != "" {
			it.Prose = prose
			tr.best = prose
			tr.publish(tr.iter, events.AssistantProse{Text: prose})
		}
		if fenced {
			tr.msgs = append(tr.msgs, chat.Message{Role: chat.RoleAssistant, Content: resp.Content})
		} else {
			tr.msgs = append(tr.msgs, chat.Message{Role: chat.RoleAssistant, Content: resp.Content, ToolCalls: normalizeCallIDs(calls, tr.iter)})
			for i := range progs {
				progs[i].CallID = tr.msgs[len(tr.msgs)-1].ToolCalls[i].ID
			}
		}
		results, stopped := tr.execute(&it, progs)
		if fenced {
			tr.msgs = append(tr.msgs, chat.User("[python_execution result]\n"+results[0]))
		} else {
			for i, p := range progs {
				tr.msgs = append(tr.msgs, chat.Message{Role: chat.RoleTool, ToolCallID: p.CallID, Content: results[i]})
			}
		}
		if tr.t.AfterPrograms != nil {
			m, imgs := tr.t.AfterPrograms()
			if m != nil {
				tr.msgs = append(tr.msgs, *m)
			}
			it.Images = append(it.Images, imgs...)
		}
		tr.persist(it, appendedFrom)
		if stopped {
			return tr.cancelled()
		}
		tr.publish(tr.iter, events.IterationFinal{Done: false})
		reason = "tool-result"
	}
}

// stream calls the provider and republishes its deltas as events.
func (tr *turnRun) stream() (provider.Response, error) {
	tr.sentEst = EstimateTokens(tr.msgs)
	// The last request of an iteration is the one its record shows; it is
	// recorded in full only when a compaction broke the prefix.
	tr.sentJSON = ""
	if tr.gen != tr.storedGen {
		tr.sentJSON, tr.sentGen = mustJSON(tr.msgs), tr.gen
	}
	req := provider.Request{
		Messages:        tr.msgs,
		ReasoningEffort: tr.t.ReasoningEffort,
		Cache:           &tr.wire,
		OnRetry: func(ri provider.RetryInfo) {
			tr.publish(tr.iter, events.ProviderRetry{Attempt: ri.Attempt, DelayMs: ri.Delay.Milliseconds(), Error: errString(ri.Err)})
		},
	}
	return tr.Provider.Stream(tr.ctx, req, func(d provider.Delta) {
		switch d.Kind {
		case "reasoning":
			tr.publish(tr.iter, events.Delta{Delta: d.Text, Text: d.Total, Reasoning: true})
		case "content":
			tr.publish(tr.iter, events.Delta{Delta: d.Text, Text: d.Total})
		case "tool":
			tr.publish(tr.iter, events.ToolPreview{Index: d.ToolIndex, Code: partialCode(d.Total)})
		}
	})
}

// execute runs the programs of one reply in order and returns one wire text
// per program. stopped reports a cancellation (the remaining programs did
// not run).
func (tr *turnRun) execute(it *store.Iteration, progs []program) ([]string, bool) {
	evalStart := tr.now()
	defer func() { it.EvalMs = tr.now().Sub(evalStart).Milliseconds() }()
	results := make([]string, len(progs))
	var codes, outputs, errs []string
	var records []events.CallRecord
	stopped := false
	for i, p := range progs {
		header := fmt.Sprintf("# t%d/i%d", tr.pos, tr.iter)
		if len(progs) > 1 {
			header += fmt.Sprintf(" (call %d of %d)", i+1, len(progs))
		}
		rec := events.CallRecord{CallID: p.CallID, Code: p.Code}
		var body string
		switch {
		case stopped:
			body = "✗ cancelled error: the turn was cancelled before this program ran"
			rec.Error = &events.CallError{Phase: "cancelled", Message: "the turn was cancelled before this program ran"}
		case p.Reject != "":
			body = "✗ preflight error: " + p.Reject
			rec.Error = &events.CallError{Phase: "preflight", Message: p.Reject}
			errs = append(errs, body)
			tr.publish(tr.iter, events.FormResult{CallRecord: rec})
		default:
			codes = append(codes, p.Code)
			tr.publish(tr.iter, events.FormStart{CallID: p.CallID, Code: p.Code, Index: i})
			view := tr.t.View(tr.pos, tr.iter, tr.utilization(tr.iter-1))
			res := tr.Exec.Exec(tr.ctx, p.Code, view)
			body = res.Wire()
			rec.Output, rec.DurationMs, rec.OutputBytes = res.Output, res.Duration.Milliseconds(), res.Bytes
			if res.Clipped {
				// The record keeps the model's copy; the rest goes with the
				// iteration into the store (call_outputs) for "open full output".
				rec.OutputClipped, rec.KeptBytes = true, len(res.Kept)
				it.Outputs = append(it.Outputs, store.CallOutput{Call: i, CallID: p.CallID, Output: res.Kept, Total: res.Bytes})
			}
			if res.Output != "" {
				outputs = append(outputs, res.Output)
			}
			if res.Err != nil {
				rec.Error = &events.CallError{Phase: res.Err.Phase, Message: res.Err.Message, Line: res.Err.Line, Hint: res.Err.Hint}
				errs = append(errs, fmt.Sprintf("%s error: %s", res.Err.Phase, res.Err.Message))
				if res.Err.Phase == "cancelled" || tr.ctx.Err() != nil {
					stopped = true
				}
			}
			for _, tc := range res.Tools {
				if tc.SandboxRefused != "" && rec.SandboxRefused == "" {
					rec.SandboxRefused, rec.SandboxAsked = tc.SandboxRefused, tc.SandboxAsked
				}
			}
			// The event leaves the tools out: tool-start and tool-end sent them.
			tr.publish(tr.iter, events.FormResult{CallRecord: rec, Clipped: res.Clipped})
			for _, tc := range res.Tools {
				rec.Tools = append(rec.Tools, events.ToolCall(tc))
			}
		}
		// print's last newline tells the model nothing: the result ends
		// where the output does (2 request bytes an iteration, issue 17).
		if len(body) > 1 {
			body = strings.TrimSuffix(body, "\n")
		}
		results[i] = header + "\n" + body
		records = append(records, rec)
	}
	// The session delta rides on the first result, after a blank line.
	if tr.t.View != nil && tr.State != nil {
		// Only what the model should be told moves the baseline: the
		// per-block counters are held (prompt.ShownSession).
		cur := prompt.ShownSession(tr.State.Baseline, tr.t.View(tr.pos, tr.iter+1, tr.utilization(tr.iter)))
		if lines := prompt.SessionDelta(tr.State.Baseline, cur); len(lines) > 0 {
			results[0] = strings.TrimRight(results[0], "\n") + "\n\n" + strings.Join(lines, "\n")
		}
		tr.State.Baseline = cur
	}
	it.Code = strings.Join(codes, "\n\n")
	it.Output = strings.Join(outputs, "\n")
	it.Error = strings.Join(errs, "\n")
	it.ToolCallsJSON = mustJSON(records)
	switch {
	case stopped:
		it.Status = "cancelled"
	case len(errs) > 0:
		it.Status = "error"
	default:
		it.Status = "done"
	}
	return results, stopped
}

// persist stores the iteration with the messages it appended, and with the
// messages of its last request when a compaction rewrote them (see
// store.Iteration for how the inspector rebuilds every request from these).
func (tr *turnRun) persist(it store.Iteration, appendedFrom int) {
	appendedFrom = tr.applyFolds(appendedFrom)
	tr.spans = append(tr.spans, iterSpan{iter: it.Position, from: appendedFrom, to: len(tr.msgs)})
	it.Finished = tr.now()
	it.AppendedJSON = mustJSON(tr.msgs[appendedFrom:])
	it.RequestJSON = tr.sentJSON
	if _, err := tr.Store.AddIteration(tr.bg, it); err != nil {
		tr.publish(tr.iter, events.IterationError{Error: "could not save the iteration: " + err.Error(), Kind: "store"})
		return
	}
	if tr.sentJSON != "" {
		tr.storedGen, tr.sentJSON = tr.sentGen, ""
	}
}

// normalizeCallIDs gives every call an id (some servers omit them) and
// returns a copy.
func normalizeCallIDs(calls []chat.ToolCall, iter int) []chat.ToolCall {
	out := append([]chat.ToolCall(nil), calls...)
	for i := range out {
		if out[i].ID == "" {
			out[i].ID = fmt.Sprintf("call_%d_%d", iter, i)
		}
	}
	return out
}

func iterationErrorMessage(iter int, pe *provider.Error) string {
	body := map[string]any{"phase": "provider", "type": string(pe.Kind), "message": pe.Message,
		"hint": "your reply was cut off; nothing of it ran. Continue where you left off."}
	return fmt.Sprintf("[Iteration %d]\n;; llm-provider-error = %s", iter, mustJSON(body))
}

func kindOf(pe *provider.Error) string {
	if pe == nil {
		return "unknown"
	}
	return string(pe.Kind)
}

// errString is a retried failure as a person reads it.
func errString(e *provider.Error) string {
	if e == nil {
		return ""
	}
	return e.Sentence()
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}
