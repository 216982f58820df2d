package loop

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/chat"
)

// Folding (fold_session, spec §1.4, §12.2). The model folds settled work
// out of its context; the engine's fold_session builtin checks the key
// (FoldKey), stores the fold, and hands the running turn's part to the
// loop through State.Fold. At the end of the iteration whose program
// folded, the loop:
//
//   - removes the folded iterations' messages (the assistant program and
//     its tool results) from the wire messages;
//   - puts a breadcrumb `# ⋯ folded t4/i1-i3 · <gist>` at the top of the
//     first tool result after each folded run (the folding iteration's
//     own result when the run ends just before it), together with the
//     `session[...]` delta lines the removed results carried, in their
//     order, so the model's picture of the session dict stays exact;
//   - rebuilds the turn's initial messages when an earlier turn was folded
//     (Turn.Recap renders the recap with the folds applied).
//
// The rewritten messages are the prefix from then on; the next request is
// recorded as sent (store.Iteration.RequestJSON), as after a compaction, so
// the prompt inspector shows it exactly. The store and the transcript keep
// every folded output.

// foldedPrefix opens a fold breadcrumb line.
const foldedPrefix = "# ⋯ folded "

var crumbRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^# ⋯ folded t(\d+)/i(\d+)(?:-i(\d+))? · `) })

// iterSpan is where an iteration of the running turn has its messages in
// turnRun.msgs: [from, to).
type iterSpan struct{ iter, from, to int }

// liveTurn is the running turn as fold_session sees it.
type liveTurn struct {
	tr      *turnRun
	pending []pendingFold
	recap   bool // an earlier turn was folded: rebuild the initial messages
}

type pendingFold struct {
	iters map[int]bool
	gist  string
}

// FoldSaving is what a fold takes out of the next request, estimated.
type FoldSaving struct {
	Chars, Tokens int
}

// ErrNoTurn is returned by State.Fold when no turn of the session runs.
var ErrNoTurn = errors.New("no turn is running")

// Live returns the running turn's position and its running iteration (0, 0
// when no turn runs). Like Fold, call it only from a program of the
// running turn (the loop's goroutine).
func (s *State) Live() (turn, iter int) {
	if s == nil || s.live == nil {
		return 0, 0
	}
	return s.live.tr.pos, s.live.tr.iter
}

// Fold queues a fold of the running turn: iters are settled iterations of
// it (already checked, see FoldKey.Resolve) and recap says that earlier
// turns were folded too (Turn.Recap now renders them folded). It is applied
// when the running iteration ends; the returned saving is measured on the
// messages as they will be sent. Call it only from a program the running
// turn executes: the loop's goroutine is then inside that program.
func (s *State) Fold(iters []int, gist string, recap bool) (FoldSaving, error) {
	if s == nil || s.live == nil {
		return FoldSaving{}, ErrNoTurn
	}
	lt := s.live
	tr := lt.tr
	var save FoldSaving
	if len(iters) > 0 {
		set := map[int]bool{}
		for _, i := range iters {
			if i < 1 || i >= tr.iter {
				return FoldSaving{}, refuse("t%d/i%d is not a settled iteration of the running turn", tr.pos, i)
			}
			set[i] = true
		}
		// Measure on the messages with the pending folds applied.
		msgs, spans := append([]chat.Message(nil), tr.msgs...), append([]iterSpan(nil), tr.spans...)
		for _, p := range lt.pending {
			msgs, spans, _ = foldMessages(tr.pos, msgs, spans, p.iters, p.gist)
		}
		after, _, orphan := foldMessages(tr.pos, msgs, spans, set, gist)
		save.Chars = messagesChars(msgs) - messagesChars(after) - utf8.RuneCountInString(orphan)
		save.Tokens = EstimateTokens(msgs) - EstimateTokens(after) - (len(orphan)+charsPerToken-1)/charsPerToken
		lt.pending = append(lt.pending, pendingFold{iters: set, gist: gist})
	}
	if recap && tr.t.Recap != nil {
		init := tr.t.Recap.Build(tr.fold)
		save.Chars += messagesChars(tr.msgs[:tr.base]) - messagesChars(init)
		save.Tokens += EstimateTokens(tr.msgs[:tr.base]) - EstimateTokens(init)
		lt.recap = true
	}
	return save, nil
}

// applyFolds applies the folds queued during the iteration that is being
// persisted and returns appendedFrom moved by the messages removed before
// it (the iteration's own messages stay).
func (tr *turnRun) applyFolds(appendedFrom int) int {
	lt := tr.live
	if lt == nil || (len(lt.pending) == 0 && !lt.recap) {
		return appendedFrom
	}
	for _, p := range lt.pending {
		n := len(tr.msgs)
		var orphan string
		tr.msgs, tr.spans, orphan = foldMessages(tr.pos, tr.msgs, tr.spans, p.iters, p.gist)
		appendedFrom -= n - len(tr.msgs)
		if orphan != "" { // no result after the run (cannot happen: the folding program's result follows)
			tr.msgs = append(tr.msgs, chat.User(orphan))
		}
	}
	if lt.recap && tr.t.Recap != nil {
		before := tr.base
		tr.replaceInitial(tr.t.Recap.Build(tr.fold))
		appendedFrom += tr.base - before
	}
	lt.pending, lt.recap = nil, false
	tr.gen++ // the next request is no longer the stored prefix plus appends
	return appendedFrom
}

// foldMessages removes the messages of the iterations in set from msgs
// (spans say where each iteration's are) and puts a breadcrumb naming each
// removed run, with the lines the removed results carried, at the top of
// the first result after the run. It returns new slices (msgs is not
// modified) and the lines of a run that has no result after it.
func foldMessages(turn int, msgs []chat.Message, spans []iterSpan, set map[int]bool, gist string) ([]chat.Message, []iterSpan, string) {
	out := append([]chat.Message(nil), msgs...)
	var keep []iterSpan
	var orphan []string
	// Runs of consecutive spans in set; handled from the last, so earlier
	// indices stay valid.
	type run struct{ first, last int } // indices into spans
	var runs []run
	for i, sp := range spans {
		if !set[sp.iter] {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].last == i-1 {
			runs[n-1].last = i
		} else {
			runs = append(runs, run{i, i})
		}
	}
	if len(runs) == 0 {
		return out, append([]iterSpan(nil), spans...), ""
	}
	removedBefore := make([]int, len(spans)) // messages removed before span i
	for r := len(runs) - 1; r >= 0; r-- {
		ru := runs[r]
		from, to := spans[ru.first].from, spans[ru.last].to
		lo, hi := spans[ru.first].iter, spans[ru.last].iter
		var crumbs, deltas []string
		for _, m := range out[from:to] {
			if !isResult(&m) {
				continue
			}
			_, c, d, rest := splitResult(m.Content)
			crumbs = append(crumbs, c...)
			deltas = append(append(deltas, d...), trailingDeltas(rest)...)
		}
		target := -1
		for j := to; j < len(out); j++ {
			if isResult(&out[j]) {
				target = j
				break
			}
		}
		var tfp, trest string
		var tcrumbs, tdeltas []string
		if target >= 0 {
			tfp, tcrumbs, tdeltas, trest = splitResult(out[target].Content)
		}
		// Breadcrumbs of earlier folds inside this one give way to it.
		sub := func(cs []string) []string {
			var kept []string
			for _, c := range cs {
				if a, b, ok := crumbRange(c, turn); ok && coveredAll(set, a, b) {
					lo, hi = min(lo, a), max(hi, b)
					continue
				}
				kept = append(kept, c)
			}
			return kept
		}
		crumbs, tcrumbs = sub(crumbs), sub(tcrumbs)
		crumb := foldedPrefix + iterSpanKey(turn, lo, hi) + " · " + gist
		lines := append(append(append(crumbs, crumb), tcrumbs...), append(deltas, tdeltas...)...)
		if target >= 0 {
			out[target].Content = tfp + strings.Join(lines, "\n") + "\n" + trest
		} else {
			orphan = append(lines, orphan...)
		}
		out = append(out[:from], out[to:]...)
		for i := ru.last + 1; i < len(spans); i++ {
			removedBefore[i] += to - from
		}
	}
	inRun := map[int]bool{}
	for _, ru := range runs {
		for i := ru.first; i <= ru.last; i++ {
			inRun[i] = true
		}
	}
	for i, sp := range spans {
		if !inRun[i] {
			keep = append(keep, iterSpan{sp.iter, sp.from - removedBefore[i], sp.to - removedBefore[i]})
		}
	}
	return out, keep, strings.Join(orphan, "\n")
}

// crumbRange reads the iterations a breadcrumb of turn names.
func crumbRange(line string, turn int) (int, int, bool) {
	m := crumbRe().FindStringSubmatch(line)
	if m == nil {
		return 0, 0, false
	}
	t, _ := strconv.Atoi(m[1])
	a, _ := strconv.Atoi(m[2])
	b := a
	if m[3] != "" {
		b, _ = strconv.Atoi(m[3])
	}
	return a, b, t == turn
}

func coveredAll(set map[int]bool, a, b int) bool {
	for i := a; i <= b; i++ {
		if !set[i] {
			return false
		}
	}
	return true
}

// splitResult cuts a program's result into the fenced-result prefix (for
// models without tools), the breadcrumb and delta lines a fold put above
// its `# tN/iM` header, and the rest (the header, the output and its own
// delta lines).
func splitResult(content string) (prefix string, crumbs, deltas []string, rest string) {
	if strings.HasPrefix(content, fencedResultPrefix) {
		prefix, content = fencedResultPrefix, content[len(fencedResultPrefix):]
	}
	for content != "" {
		line, after, _ := strings.Cut(content, "\n")
		switch {
		case strings.HasPrefix(line, foldedPrefix):
			crumbs = append(crumbs, line)
		case isDeltaLine(line):
			deltas = append(deltas, line)
		default:
			return prefix, crumbs, deltas, content
		}
		content = after
	}
	return prefix, crumbs, deltas, ""
}

// trailingDeltas returns the `session[...]` lines after the last blank line
// of a result, if that is all there is after it.
func trailingDeltas(rest string) []string {
	i := strings.LastIndex(rest, "\n\n")
	if i < 0 || !isDeltaLines(rest[i+2:]) {
		return nil
	}
	return strings.Split(strings.TrimRight(rest[i+2:], "\n"), "\n")
}

func isDeltaLine(l string) bool {
	return strings.HasPrefix(l, "session[") || strings.HasPrefix(l, "del session[")
}

// messagesChars counts the characters a request carries for messages:
// contents, text parts, tool-call names and arguments.
func messagesChars(msgs []chat.Message) int {
	n := 0
	for i := range msgs {
		m := &msgs[i]
		n += utf8.RuneCountInString(m.Content)
		for _, p := range m.Parts {
			n += utf8.RuneCountInString(p.Text)
		}
		for _, c := range m.ToolCalls {
			n += utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Arguments)
		}
	}
	return n
}
