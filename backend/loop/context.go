package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/provider"
)

// Context management (spec §1.5 step 6, §1.7, §2.9). A turn keeps its
// request inside the model's window three ways:
//
//   - at turn start, when the initial messages exceed the fold budget, the
//     recap (CONVERSATION-SO-FAR, Turn.Recap) gives way before the first
//     request: the programs of the oldest prior turns first, whole turns
//     only as the last resort;
//   - before a request, when the model's window is known (Turn.ContextLimit)
//     and the request would exceed it, the request is compacted as below;
//   - when the provider refuses a request as too long before any output, the
//     request is compacted and re-issued, up to MaxEmergencyFolds times, each
//     attempt strictly smaller than the last (targets 0.9, 0.7, 0.5 of the
//     window, measured in the provider's tokens when its refusal says how
//     many; blind cuts to 0.5, 0.25, 0.1 of the refused size when it does
//     not). After that the turn ends with ErrContextTooSmall's message.
//
// Compaction gives way in this order, each step only while the request is
// still over its target (seed 000: every prior answer is rendered in full):
//
//  1. the bodies of the turn's settled program outputs (every iteration but
//     the newest), oldest first, become a one-line stub naming their size;
//  2. the programs of the recap's prior turns, oldest turn first, become
//     one line per turn saying how many were folded (requests and answers
//     stay);
//  3. the newest iteration's own outputs keep their head and tail;
//  4. the requests and answers of the recap's prior turns, oldest first,
//     keep their heads (prompt.RecapHeadChars) with a line saying how much
//     was cut: every turn and every answer is still there;
//  5. only then, when even that does not fit, the oldest prior turns are
//     dropped whole, answers with them, and the warning says so.
//
// Each compaction publishes a warning event whose Context says what gave
// way (the turn's marker in the window's transcript, `vis run --json`) and
// is recorded with the turn (Turn.OnFold), so `vis show` and a reloaded
// transcript say it too. Only the wire messages shrink: the store and the transcript keep every
// output, and the iteration whose request was compacted records that
// request as sent (store.Iteration.RequestJSON; a fold at turn start is
// the stored turn prompt instead). The compacted messages are the turn's
// messages from then on, so later requests are again byte-exact prefixes
// of each other.

// DefaultPromptBudgetTokens is the window assumed when the model's is
// unknown, and the largest fold budget.
const DefaultPromptBudgetTokens = 200000

// MaxEmergencyFolds bounds the compactions after context-overflow refusals
// in one iteration.
const MaxEmergencyFolds = 3

// Targets of the emergency folds: fractions of the window when the provider
// said how large the request was, else fractions of the refused request.
var (
	foldMargins = [MaxEmergencyFolds]float64{0.9, 0.7, 0.5}
	blindCuts   = [MaxEmergencyFolds]float64{0.5, 0.25, 0.1}
)

// Estimator constants: ~4 bytes of text per token, a few tokens of framing
// per message, a flat cost per image (a data URL's length says nothing
// about its tokens).
const (
	charsPerToken      = 4
	tokensPerMessage   = 4
	tokensPerImagePart = 1000
)

// ErrContextTooSmall is the start of a turn's error when its request could
// not be made to fit the model's context window.
const ErrContextTooSmall = "the context window is too small for the current request"

// outputDroppedNote marks a settled output replaced to fit the window.
const outputDroppedNote = "# ⋯ output dropped to fit the context window"

// fencedResultPrefix opens a program's result for a model without tools.
const fencedResultPrefix = "[python_execution result]\n"

// Recap lets the loop fold CONVERSATION-SO-FAR in the turn's initial
// messages to fit the window.
type Recap struct {
	// Positions are the prior turns' numbers, oldest first.
	Positions []int
	// Build returns the turn's initial messages with fold applied
	// (prompt.RecapFold): 0 <= fold.Programs, fold.Answers, fold.Drop <=
	// len(Positions).
	// Build(RecapFold{}) is Turn.Messages.
	Build func(fold RecapFold) []chat.Message
}

// RecapFold is how much of the recap gives way: the programs of the oldest
// Programs prior turns, then the requests and answers of the oldest Answers
// turns cut to their heads, then (the last resort) the oldest Drop prior
// turns whole. It mirrors prompt.RecapFold.
type RecapFold struct {
	Programs int
	Answers  int
	Drop     int
}

// FoldBudget is the request size, in tokens, above which the loop folds:
// 90 % of the window when it is below DefaultPromptBudgetTokens, else
// DefaultPromptBudgetTokens. window <= 0 means unknown (200,000).
func FoldBudget(window int) int {
	if window <= 0 {
		window = DefaultPromptBudgetTokens
	}
	if window < DefaultPromptBudgetTokens {
		return window * 9 / 10
	}
	return DefaultPromptBudgetTokens
}

// EstimateTokens estimates what messages cost in tokens: ~4 bytes of text
// (content, text parts, tool-call names and arguments) per token, 4 tokens
// of framing per message and 1,000 per image.
func EstimateTokens(msgs []chat.Message) int {
	n := 0
	for i := range msgs {
		n += messageTokens(&msgs[i])
	}
	return n
}

func messageTokens(m *chat.Message) int {
	chars := len(m.Content)
	n := tokensPerMessage
	for _, p := range m.Parts {
		if p.Type == "image_url" {
			n += tokensPerImagePart
			continue
		}
		chars += len(p.Text)
	}
	for _, c := range m.ToolCalls {
		chars += len(c.Name) + len(c.Arguments)
	}
	return n + (chars+charsPerToken-1)/charsPerToken
}

var (
	limitREs = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`(?i)maximum context length is (\d[\d,]*)`),
			regexp.MustCompile(`(?i)(\d[\d,]*) tokens? maximum`),
			regexp.MustCompile(`(?i)> (\d[\d,]*) maximum`),
			regexp.MustCompile(`(?i)context (?:length|size|window) of (?:only )?(\d[\d,]*)`),
			regexp.MustCompile(`(?i)available context size \((\d[\d,]*)`),
		}
	})
	measuredREs = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`(?i)\((\d[\d,]*) in the messages`),
			regexp.MustCompile(`(?i)(?:resulted in|you requested|prompt is too long:) (\d[\d,]*) tokens`),
			regexp.MustCompile(`(?i)request \((\d[\d,]*) tokens\)`),
		}
	})
)

// parseOverflow reads the window and the refused request's size, in
// tokens, from a provider's context-overflow message (OpenAI, vLLM,
// Anthropic, LM Studio, llama.cpp wordings); 0 when it does not say.
func parseOverflow(msg string) (limit, measured int) {
	num := func(res []*regexp.Regexp) int {
		for _, re := range res {
			if m := re.FindStringSubmatch(msg); m != nil {
				if n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); err == nil && n > 0 {
					return n
				}
			}
		}
		return 0
	}
	return num(limitREs()), num(measuredREs())
}

// windowTokens is the window the turn works with: the model's, else
// DefaultPromptBudgetTokens.
func (tr *turnRun) windowTokens() int {
	if tr.t.ContextLimit > 0 {
		return tr.t.ContextLimit
	}
	return DefaultPromptBudgetTokens
}

// ratio is how many provider tokens one estimated token is worth, measured
// on this session's last request (1 until measured).
func (tr *turnRun) ratio() float64 {
	if tr.State != nil && tr.State.TokenRatio > 0 {
		return tr.State.TokenRatio
	}
	return 1
}

// calibrateMin is the smallest request worth calibrating on: below it the
// provider's fixed overhead (the tool definition) would dominate the ratio.
const calibrateMin = 1000

// calibrate records the provider's count of a request against its estimate.
func (tr *turnRun) calibrate(measured, estimated int) {
	if tr.State == nil || measured <= 0 || estimated < calibrateMin {
		return
	}
	tr.State.TokenRatio = min(max(float64(measured)/float64(estimated), 0.5), 4)
}

// compaction is what one compaction dropped.
type compaction struct {
	outputs  int // settled outputs replaced by stubs
	programs int // prior turns of the recap whose programs are now folded (cumulative)
	clipped  int // outputs of the newest iteration clipped in the middle
	answers  int // prior turns of the recap whose request and answer keep their heads (cumulative)
	turns    int // prior turns of the recap now dropped whole (cumulative; the last resort)
}

func (c compaction) any() bool {
	return c.outputs > 0 || c.programs > 0 || c.answers > 0 || c.turns > 0 || c.clipped > 0
}

// isResult reports whether msgs[i] is a program's output.
func isResult(m *chat.Message) bool {
	return m.Role == chat.RoleTool || (m.Role == chat.RoleUser && strings.HasPrefix(m.Content, fencedResultPrefix))
}

// compact shrinks tr.msgs toward target estimated tokens, in the order the
// package comment gives: settled outputs (oldest first), the recap's
// programs (oldest turn first), the newest outputs' middles, and only then
// the oldest prior turns whole. It stops as soon as the estimate is at or
// below target and returns what it did.
func (tr *turnRun) compact(target int) compaction {
	var c compaction
	est := EstimateTokens(tr.msgs)
	// The newest iteration's outputs follow the last assistant message.
	newest := len(tr.msgs)
	for i := len(tr.msgs) - 1; i >= tr.base; i-- {
		if tr.msgs[i].Role == chat.RoleAssistant {
			newest = i
			break
		}
	}
	if newest == len(tr.msgs) {
		newest = tr.base // no assistant message: nothing of this turn is settled
	}
	for i := tr.base; i < newest && est > target; i++ {
		m := &tr.msgs[i]
		if !isResult(m) {
			continue
		}
		stub, ok := stubOutput(m.Content)
		if !ok {
			continue
		}
		before := messageTokens(m)
		m.Content = stub
		est += messageTokens(m) - before
		c.outputs++
	}
	// refold rebuilds the initial messages with the smallest count k in
	// (cur, n] that set(k) makes fit, else the smallest that saves all
	// there is to save (turns without programs save nothing), and returns
	// it; cur when no count makes them smaller.
	sizes := map[RecapFold]int{} // each fold's initial messages, in estimated tokens
	refold := func(cur int, set func(f *RecapFold, k int)) int {
		n := len(tr.t.Recap.Positions)
		rest := EstimateTokens(tr.msgs[tr.base:])
		at := func(k int) RecapFold { f := tr.fold; set(&f, k); return f }
		size := func(k int) int {
			f := at(k)
			if v, ok := sizes[f]; ok {
				return v
			}
			v := EstimateTokens(tr.t.Recap.Build(f))
			sizes[f] = v
			return v
		}
		k := cur + 1 + sort.Search(n-cur, func(j int) bool { return size(cur+1+j)+rest <= target })
		if k > n {
			least := size(n)
			k = cur + 1 + sort.Search(n-cur, func(j int) bool { return size(cur+1+j) <= least })
		}
		if size(k) >= size(cur) {
			return cur
		}
		base := tr.base
		tr.fold = at(k)
		tr.replaceInitial(tr.t.Recap.Build(tr.fold))
		newest += tr.base - base
		est = EstimateTokens(tr.msgs)
		return k
	}
	if est > target && tr.t.Recap != nil && tr.fold.Programs < len(tr.t.Recap.Positions) {
		if cur := tr.fold.Programs; refold(cur, func(f *RecapFold, k int) { f.Programs = k }) > cur {
			c.programs = tr.fold.Programs
		}
	}
	// The newest iteration's own outputs, which the model is about to read,
	// keep their head and tail (what ran, how it ended).
	for i := newest; i < len(tr.msgs) && est > target; i++ {
		m := &tr.msgs[i]
		if !isResult(m) {
			continue
		}
		before := messageTokens(m)
		keep := (before - (est - target)) * 4 // chars, at the estimate's ~4 per token
		clipped, ok := clipOutput(m.Content, max(keep, minClipChars))
		if !ok {
			continue
		}
		m.Content = clipped
		est += messageTokens(m) - before
		c.clipped++
	}
	// Then the oldest answers keep their heads: every turn stays.
	if est > target && tr.t.Recap != nil && tr.fold.Answers < len(tr.t.Recap.Positions) {
		if cur := tr.fold.Answers; refold(cur, func(f *RecapFold, k int) { f.Answers = k }) > cur {
			c.answers = tr.fold.Answers
		}
	}
	// The last resort: whole answers give way only when nothing else is left.
	if est > target && tr.t.Recap != nil && tr.fold.Drop < len(tr.t.Recap.Positions) {
		if cur := tr.fold.Drop; refold(cur, func(f *RecapFold, k int) { f.Drop = k }) > cur {
			c.turns = tr.fold.Drop
		}
	}
	if c.any() {
		tr.gen++ // the next request is no longer the stored prefix plus appends
	}
	return c
}

// minClipChars is the least of an output the last-resort clip keeps.
const minClipChars = 2000

// outputClippedNote marks an output cut in the middle to fit the window.
const outputClippedNote = "# ⋯ output clipped to fit the context window"

// clipOutput keeps about keep characters of one output's body, its head and
// its tail, with a note of what was cut; the `# tN/iM` header, breadcrumbs
// and `session[...]` lines stay. False when the body is short enough.
func clipOutput(content string, keep int) (string, bool) {
	lead, header, body, delta := cutOutput(content)
	r := []rune(body)
	if len(r) <= keep {
		return content, false
	}
	head, tail := keep/2, keep-keep/2
	note := fmt.Sprintf("\n%s: kept the first %s and last %s of %s chars — narrow the program next time\n",
		outputClippedNote, thousands(head), thousands(tail), thousands(len(r)))
	return lead + header + string(r[:head]) + note + string(r[len(r)-tail:]) + delta, true
}

// replaceInitial swaps the turn's initial messages (before tr.base) for
// init, keeping what the iterations appended.
func (tr *turnRun) replaceInitial(init []chat.Message) {
	rest := tr.msgs[tr.base:]
	msgs := make([]chat.Message, 0, len(init)+len(rest))
	msgs = append(append(msgs, init...), rest...)
	for i := range tr.spans {
		tr.spans[i].from += len(init) - tr.base
		tr.spans[i].to += len(init) - tr.base
	}
	tr.base = len(init)
	tr.msgs = msgs
}

// stubOutput replaces the body of one output with outputDroppedNote and its
// size, keeping the `# tN/iM` header and the `session[...]` delta lines
// after it; false when that would not make it shorter or it is a stub
// already.
func stubOutput(content string) (string, bool) {
	lead, header, body, delta := cutOutput(content)
	if strings.HasPrefix(body, outputDroppedNote) {
		return content, false
	}
	stub := fmt.Sprintf("%s%s%s (%s chars) — re-run a narrower program if you need it again%s",
		lead, header, outputDroppedNote, thousands(len([]rune(body))), delta)
	if len(stub) >= len(content) {
		return content, false
	}
	return stub, true
}

// cutOutput cuts one output into what a stub or a clip keeps around its
// body: lead (the fenced-result prefix, a fold's breadcrumb and the lines
// it carried), the `# tN/iM` header line (newline included), and delta
// (the trailing `session[...]` lines, with the blank line before them).
func cutOutput(content string) (lead, header, body, delta string) {
	lead, crumbs, deltas, body := splitResult(content)
	if kept := append(crumbs, deltas...); len(kept) > 0 {
		lead += strings.Join(kept, "\n") + "\n"
	}
	if strings.HasPrefix(body, "# t") {
		if i := strings.IndexByte(body, '\n'); i > 0 {
			header, body = body[:i+1], body[i+1:]
		} else {
			header, body = body+"\n", ""
		}
	}
	if i := strings.LastIndex(body, "\n\n"); i >= 0 && isDeltaLines(body[i+2:]) {
		delta, body = body[i:], body[:i]
	}
	return lead, header, body, delta
}

// isDeltaLines reports whether s is only `session[...]` / `del session[...]`
// lines.
func isDeltaLines(s string) bool {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return false
	}
	for _, l := range strings.Split(s, "\n") {
		if !isDeltaLine(l) {
			return false
		}
	}
	return true
}

// thousands renders n with comma separators: 48213 → "48,213".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fitAtStart folds the recap in the turn's initial messages (compact) when
// they exceed the fold budget (spec §2.9: fold before a request that
// would exceed it rather than wait for a refusal). Folding at turn start is
// a long session's steady state on a small window: every such turn gets
// its marker, but only the first one in a row a banner.
func (tr *turnRun) fitAtStart() {
	if tr.State != nil {
		tr.foldedBefore, tr.State.RecapFolded = tr.State.RecapFolded, false
	}
	if tr.t.Recap == nil || len(tr.t.Recap.Positions) == 0 {
		return
	}
	budget := int(float64(FoldBudget(tr.t.ContextLimit)) / tr.ratio())
	if EstimateTokens(tr.msgs) > budget {
		if c := tr.compact(budget); c.any() {
			tr.warnCompacted(c, "")
		}
	}
}

// fitBeforeRequest compacts the request when the model's window is known and
// the request would exceed it, so no refused round trip is spent.
func (tr *turnRun) fitBeforeRequest() {
	if tr.t.ContextLimit <= 0 {
		return
	}
	r := tr.ratio()
	if float64(EstimateTokens(tr.msgs))*r <= float64(tr.t.ContextLimit) {
		return
	}
	if c := tr.compact(int(foldMargins[0] * float64(tr.t.ContextLimit) / r)); c.any() {
		tr.warnCompacted(c, "")
	}
}

// turnSpan names the first n prior turns of the recap: "1" or "1–4".
func (tr *turnRun) turnSpan(n int) string {
	p := tr.t.Recap.Positions
	span := strconv.Itoa(p[0])
	if n > 1 {
		span += "–" + strconv.Itoa(p[n-1])
	}
	return span
}

// foldNote is the sentence a turn's marker shows for what gave way in all
// so far (tr.folded).
func (tr *turnRun) foldNote() string {
	f := tr.folded
	var what []string
	if f.ProgramsFolded > 0 {
		what = append(what, fmt.Sprintf("Earlier programs folded to fit the context: %d turn(s) (%s)", f.ProgramsFolded, tr.turnSpan(f.ProgramsFolded)))
	}
	if f.OutputsDropped > 0 {
		what = append(what, fmt.Sprintf("%d older output(s) of this turn dropped from the request", f.OutputsDropped))
	}
	if f.OutputsClipped > 0 {
		what = append(what, fmt.Sprintf("the middle of %d newest output(s) clipped", f.OutputsClipped))
	}
	if f.AnswersShortened > 0 {
		what = append(what, fmt.Sprintf("the requests and answers of turn(s) %s cut to their first %d characters", tr.turnSpan(f.AnswersShortened), prompt.RecapHeadChars))
	}
	if f.TurnsDropped > 0 {
		what = append(what, fmt.Sprintf("turn(s) %s dropped whole, answers too: nothing else was left to fold", tr.turnSpan(f.TurnsDropped)))
	} else if tr.t.Recap != nil && len(tr.t.Recap.Positions) > 0 {
		what = append(what, "every answer kept")
	}
	if len(what) == 0 {
		return ""
	}
	note := strings.Join(what, "; ") + "."
	return strings.ToUpper(note[:1]) + note[1:]
}

// warnCompacted adds c to the turn's fold (tr.folded), records it with the
// turn (the marker of `vis show` and a reloaded transcript) and publishes
// the warning event the window's banner and marker and `vis run --json`
// show. Folding is a long session's steady state on a small window: only
// the first compaction of a run of turns that fold raises a banner, the
// others are Quiet (their marker only).
func (tr *turnRun) warnCompacted(c compaction, why string) {
	quiet := tr.foldedBefore || tr.folded != (events.ContextCompaction{})
	if tr.State != nil {
		tr.State.RecapFolded = true
	}
	var what []string
	if c.outputs > 0 {
		what = append(what, fmt.Sprintf("dropped %d older output(s)", c.outputs))
	}
	if c.programs > 0 {
		what = append(what, "folded the programs of turn(s) "+tr.turnSpan(c.programs))
	}
	if c.clipped > 0 {
		what = append(what, fmt.Sprintf("clipped the middle of the newest output(s) (%d)", c.clipped))
	}
	if c.answers > 0 {
		what = append(what, "cut the requests and answers of turn(s) "+tr.turnSpan(c.answers)+" to their heads")
	}
	if c.turns > 0 {
		what = append(what, "dropped turn(s) "+tr.turnSpan(c.turns)+" whole, answers too,")
	}
	msg := "Context window full: " + strings.Join(what, " and ") + " from the request"
	if why != "" {
		msg += " (" + why + ")"
	}
	if c.turns == 0 && tr.t.Recap != nil && len(tr.t.Recap.Positions) > 0 {
		msg += "; every answer is kept"
	}
	msg += "; the transcript keeps everything."
	f := &tr.folded
	f.OutputsDropped += c.outputs
	f.OutputsClipped += c.clipped
	f.ProgramsFolded = max(f.ProgramsFolded, c.programs)
	f.AnswersShortened = max(f.AnswersShortened, c.answers)
	f.TurnsDropped = max(f.TurnsDropped, c.turns)
	f.RequestTokens = EstimateTokens(tr.msgs)
	f.Note = tr.foldNote()
	if tr.Store != nil {
		if b, err := json.Marshal(f); err == nil {
			if err := tr.Store.SetContextFold(tr.bg, tr.turnID, string(b)); err != nil {
				tr.publish(tr.iter, events.Warning{Message: "The context fold could not be recorded with the turn: " + err.Error()})
			}
		}
	}
	fold := *f
	tr.publish(tr.iter, events.Warning{Message: msg, Context: &fold, Quiet: quiet})
}

// overflowError is the provider's refusal after the loop ran out of ways
// to shrink the request.
type overflowError struct {
	model          string
	window, tokens int
	last           error
}

func (e *overflowError) Error() string {
	return fmt.Sprintf("%s: model %q has a %s-token window and the request is still about %s tokens after dropping older outputs and turns. "+
		"Start a new session, pick a model with a larger window, or set `context:` on the model in config.yml to its real window so older turns are folded before sending. (provider: %v)",
		ErrContextTooSmall, e.model, thousands(e.window), thousands(e.tokens), e.last)
}

func (e *overflowError) Unwrap() error { return e.last }

// overflow handles a context-overflow refusal before any output: it
// compacts the request and re-issues it, up to MaxEmergencyFolds times,
// each attempt strictly smaller than the last. It returns the outcome of
// the last request, or an *overflowError when no attempt fitted or the
// request could not shrink.
func (tr *turnRun) overflow(pe *provider.Error) (provider.Response, error) {
	window, measured := parseOverflow(pe.Message)
	if window == 0 {
		window = tr.windowTokens()
	}
	est := EstimateTokens(tr.msgs)
	if measured > 0 {
		tr.calibrate(measured, est)
	}
	refused := float64(est) * tr.ratio() // provider tokens
	prev := refused
	var last error = pe
	for attempt := 0; attempt < MaxEmergencyFolds; attempt++ {
		target := foldMargins[attempt] * float64(window)
		if target >= prev {
			// The window we know cannot be the one that refused: cut blind.
			target = blindCuts[attempt] * refused
		}
		c := tr.compact(int(target / tr.ratio()))
		size := float64(EstimateTokens(tr.msgs)) * tr.ratio()
		if !c.any() || size >= prev {
			break // nothing left to drop
		}
		prev = size
		tr.warnCompacted(c, fmt.Sprintf("attempt %d of %d after the provider refused a request of about %s tokens",
			attempt+1, MaxEmergencyFolds, thousands(int(math.Round(refused)))))
		tr.publish(tr.iter, events.ProviderCall{Model: tr.t.ModelName, Reason: "context-overflow"})
		resp, err := tr.stream()
		var again *provider.Error
		if err == nil || !errors.As(err, &again) || again.Kind != provider.KindContextOverflow || again.Partial {
			return resp, err
		}
		last = err
		if w, m := parseOverflow(again.Message); w > 0 || m > 0 {
			if w > 0 {
				window = w
			}
			if m > 0 {
				tr.calibrate(m, EstimateTokens(tr.msgs))
				prev = float64(m)
			}
		}
	}
	return provider.Response{}, &overflowError{model: tr.t.ModelName, window: window, tokens: int(math.Round(prev)), last: last}
}
