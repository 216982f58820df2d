package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// printing returns a reply whose program prints n copies of c.
func printing(c string, n int) providertest.Reply {
	return providertest.Reply{Code: fmt.Sprintf("print(%q * %d)", c, n)}
}

func wireJSON(rec providertest.Recorded) string {
	b, _ := json.Marshal(rec.Body["messages"])
	return string(b)
}

// isPrefix reports whether request a's messages are a byte-exact prefix of b's.
func isPrefix(a, b providertest.Recorded) bool {
	x, y := wireJSON(a), wireJSON(b)
	return strings.HasPrefix(y, x[:len(x)-1])
}

func warnings(ch <-chan events.Event) []string {
	var out []string
	for {
		select {
		case e := <-ch:
			if w, ok := events.As[events.Warning](e); ok {
				out = append(out, w.Message)
			}
		default:
			return out
		}
	}
}

// A turn whose 4th request no longer fits the window: the loop drops the
// settled outputs (iterations 1 and 2, oldest first) from the request,
// re-issues it, and the turn completes; later requests build on the
// compacted messages byte for byte.
func TestOverflowDropsSettledOutputsAndCompletes(t *testing.T) {
	t.Parallel()
	// The fake's window in characters: the 4th request (~12,200) does not
	// fit; the loop aims at 90 % of it, which needs two outputs dropped.
	const window = 8000
	answer := providertest.Reply{Content: []string{"All three read."}, MaxInputChars: window}
	next := printing("D", 100)
	next.MaxInputChars = window
	r := newRig(t, false, printing("A", 4000), printing("B", 4000), printing("C", 4000), next, answer)
	ch, stop := r.broker.Subscribe(1024)
	defer stop()
	res := r.turn(context.Background(), "read them", false)
	if res.Status != StatusDone || res.Answer != "All three read." || res.Iterations != 5 {
		t.Fatalf("result = %+v", res)
	}
	reqs := r.llm.Requests()
	if len(reqs) != 6 || r.llm.Refused() != 1 {
		t.Fatalf("%d requests, %d refused; want 6 and 1", len(reqs), r.llm.Refused())
	}
	refused, reissued := reqs[3], reqs[4]
	if a, b := providertest.InputChars(refused.Messages), providertest.InputChars(reissued.Messages); b >= a || b > window {
		t.Fatalf("re-issued request has %d chars (refused: %d, window %d)", b, a, window)
	}
	var results []string
	for _, m := range reissued.Messages {
		if m["role"] == "tool" {
			results = append(results, fmt.Sprint(m["content"]))
		}
	}
	if len(results) != 3 {
		t.Fatalf("tool results %q", results)
	}
	// The first result keeps its delta lines (the turn's first); the
	// second had none (nothing the model needs moved). The count is the
	// result's characters without print's last newline.
	for i, want := range []string{
		"# t1/i1\n# ⋯ output dropped to fit the context window (4,000 chars) — re-run a narrower program if you need it again\n\nsession[",
		"# t1/i2\n# ⋯ output dropped to fit the context window (4,000 chars) — re-run a narrower program if you need it again",
	} {
		c := string(rune('A' + i))
		if !strings.HasPrefix(results[i], want) || strings.Contains(results[i], c+c) || (i == 1 && results[i] != want) {
			t.Errorf("output %d = %.200q, want the stub %q", i+1, results[i], want)
		}
	}
	if !strings.Contains(results[2], strings.Repeat("C", 4000)) {
		t.Error("the newest output was dropped too")
	}
	if !isPrefix(reissued, reqs[5]) {
		t.Error("the request after the compaction does not extend the compacted request")
	}
	if w := warnings(ch); len(w) != 1 || !strings.HasPrefix(w[0], "Context window full: dropped 2 older output(s) from the request") {
		t.Errorf("warnings = %q", w)
	}
	// The store keeps every output in full.
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	its, _ := r.store.ListIterations(context.Background(), turns[0].ID)
	if len(its) != 5 || its[0].Output != strings.Repeat("A", 4000)+"\n" || its[1].Output != strings.Repeat("B", 4000)+"\n" {
		t.Fatalf("stored iterations lost their outputs: %d iterations", len(its))
	}
}

// One output alone too big for the window: nothing older to drop, so the
// newest output keeps its head and tail with a note, the request fits, and
// the turn goes on; the store keeps the output whole.
func TestOverflowClipsTheNewestOutputAsALastResort(t *testing.T) {
	t.Parallel()
	const window = 6000
	answer := providertest.Reply{Content: []string{"Read the ends."}, MaxInputChars: window}
	r := newRig(t, false, providertest.Reply{Code: "print('HEAD' + 'x' * 20000 + 'TAIL')"}, answer)
	ch, stop := r.broker.Subscribe(1024)
	defer stop()
	res := r.turn(context.Background(), "print a lot", false)
	if res.Status != StatusDone || res.Answer != "Read the ends." {
		t.Fatalf("result = %+v", res)
	}
	reqs := r.llm.Requests()
	sent := reqs[len(reqs)-1]
	if providertest.InputChars(sent.Messages) > window {
		t.Fatalf("the answered request has %d chars, window %d", providertest.InputChars(sent.Messages), window)
	}
	var result string
	for _, m := range sent.Messages {
		if m["role"] == "tool" {
			result = fmt.Sprint(m["content"])
		}
	}
	if !strings.HasPrefix(result, "# t1/i1\nHEAD") || !strings.Contains(result, "TAIL") || !strings.Contains(result, outputClippedNote+": kept the first") ||
		!strings.Contains(result, "of 20,008 chars") || !strings.Contains(result, "session[") {
		t.Errorf("the newest output as sent = %.300q … %.200q", result, result[max(0, len(result)-200):])
	}
	if w := warnings(ch); len(w) != 1 || !strings.Contains(w[0], "the middle of the newest output(s) (1)") {
		t.Errorf("warnings = %q", w)
	}
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	its, _ := r.store.ListIterations(context.Background(), turns[0].ID)
	if len(its) < 1 || !strings.Contains(its[0].Output, strings.Repeat("x", 20000)) {
		t.Fatal("the store lost the clipped output")
	}
}

// The order things give way in: folding the recap's programs, when that is
// enough, leaves the newest output whole and every answer in; a recap of
// answers alone has the newest output clipped first, then its oldest
// answers cut to their heads, every turn still there.
func TestCompactOrder(t *testing.T) {
	t.Parallel()
	out := "# t1/i1\n" + strings.Repeat("z", 12000)
	run := func(programs int) (compaction, *turnRun) {
		init, recap := recapMessages(10, programs, 400+1600*min(1, 40-programs), "now")
		msgs := append(init,
			chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "python_execution", Arguments: `{"code":"print(1)"}`}}},
			chat.Message{Role: chat.RoleTool, ToolCallID: "c1", Content: out})
		tr := &turnRun{t: Turn{Recap: recap}, msgs: msgs, base: len(init)}
		before := EstimateTokens(tr.msgs)
		c := tr.compact(5000)
		if est := EstimateTokens(tr.msgs); est > 5000 {
			t.Errorf("programs %d: still about %d tokens (from %d)", programs, est, before)
		}
		return c, tr
	}
	// 10 turns of 40 programs and a 400-char answer, and a 12,000-char output.
	c, tr := run(40)
	if c.programs == 0 || c.clipped != 0 || c.outputs != 0 || c.turns != 0 {
		t.Fatalf("compaction = %+v", c)
	}
	if got := tr.msgs[len(tr.msgs)-1].Content; got != out {
		t.Errorf("the newest output was cut to %d chars", len(got))
	}
	if user := tr.msgs[1].Content; strings.Count(user, "you answered:") != 10 {
		t.Errorf("answers lost:\n%s", user)
	}
	// 10 turns of no program and a 2,000-char answer.
	c, tr = run(0)
	if c.programs != 0 || c.clipped != 1 || c.answers == 0 || c.turns != 0 {
		t.Fatalf("compaction = %+v", c)
	}
	if user := tr.msgs[1].Content; strings.Count(user, "you answered:\nanswer ") != 10 || strings.Count(user, "(⋯ shortened to fit the context window: ") != c.answers {
		t.Errorf("answers lost or not marked (%d shortened):\n%s", c.answers, user)
	}
	if got := tr.msgs[len(tr.msgs)-1].Content; !strings.Contains(got, outputClippedNote) {
		t.Errorf("the newest output was not clipped before answers went: %d chars", len(got))
	}
}

// A provider that never says how large the request was, and keeps refusing:
// three blind cuts, each request smaller than the one before, then the turn
// ends with an error that says what to do.
func TestOverflowThreeAttemptsThenClearError(t *testing.T) {
	t.Parallel()
	var script []providertest.Reply
	for _, c := range "ABCDEFGHIJKLMNOPQRST" { // 20 outputs: enough to drop some at each cut
		script = append(script, printing(string(c), 2000))
	}
	for range 4 {
		script = append(script, providertest.Reply{Status: 400, Message: "Input is too long for the context window."})
	}
	r := newRig(t, false, script...)
	ch, stop := r.broker.Subscribe(1024)
	defer stop()
	res := r.turn(context.Background(), "read them all", false)
	if res.Status != StatusError || !strings.HasPrefix(res.Error, ErrContextTooSmall) {
		t.Fatalf("result = %+v", res)
	}
	for _, what := range []string{"new session", "larger window", "`context:`", "config.yml"} {
		if !strings.Contains(res.Error, what) {
			t.Errorf("error does not say %q: %s", what, res.Error)
		}
	}
	reqs := r.llm.Requests()
	if len(reqs) != 24 || r.llm.Pending() != 0 {
		t.Fatalf("%d requests, %d replies left; want 24 and 0", len(reqs), r.llm.Pending())
	}
	var sizes []int
	for _, rec := range reqs[20:] {
		sizes = append(sizes, providertest.InputChars(rec.Messages))
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] >= sizes[i-1] {
			t.Fatalf("attempt %d is not smaller than the one before: sizes %v", i, sizes)
		}
	}
	if w := warnings(ch); len(w) != 3 || !strings.Contains(w[2], "attempt 3 of 3") {
		t.Errorf("warnings = %q", w)
	}
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	if turns[0].Status != StatusError || !strings.HasPrefix(turns[0].Error, ErrContextTooSmall) {
		t.Errorf("stored turn = %+v", turns[0])
	}
}

// A request that cannot shrink (the user's own message is larger than the
// window) is not re-issued: the error comes at once.
func TestOverflowWithNothingToDrop(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, providertest.Reply{Content: []string{"never"}, MaxInputChars: 100})
	res := r.turn(context.Background(), strings.Repeat("long request ", 20), false)
	if res.Status != StatusError || !strings.HasPrefix(res.Error, ErrContextTooSmall) || !strings.Contains(res.Error, `"m" has a 25-token window`) {
		t.Fatalf("result = %+v", res)
	}
	if n := len(r.llm.Requests()); n != 1 {
		t.Fatalf("%d requests for a request that cannot shrink", n)
	}
}

// recapMessages returns initial messages with n prior turns, each with
// programs one-line programs (~90 chars each in the recap) and an answer
// of answerChars, and the Recap that rebuilds them.
func recapMessages(n, programs, answerChars int, text string) ([]chat.Message, *Recap) {
	var prev []prompt.TurnRecap
	var pos []int
	for i := 1; i <= n; i++ {
		var ran []string
		for k := 1; k <= programs; k++ {
			ran = append(ran, fmt.Sprintf("print(grep('needle %d-%d', path='src')) # %s", i, k, strings.Repeat("y", 80)))
		}
		prev = append(prev, prompt.TurnRecap{Position: i, Request: fmt.Sprintf("question %d", i), Status: prompt.StatusDone, Ran: ran,
			Answer: fmt.Sprintf("answer %d: %s", i, strings.Repeat("x", answerChars))})
		pos = append(pos, i)
	}
	build := func(f RecapFold) []chat.Message {
		return prompt.InitialMessages([]chat.Message{chat.System("SYS")}, prompt.UserInput{Text: text, Previous: prev, Fold: prompt.RecapFold(f)})
	}
	return build(RecapFold{}), &Recap{Positions: pos, Build: build}
}

// contextFolds returns the Context of each warning.
func contextFolds(ch <-chan events.Event) (msgs []string, folds []events.ContextCompaction) {
	for {
		select {
		case e := <-ch:
			if w, ok := events.As[events.Warning](e); ok {
				msgs = append(msgs, w.Message)
				if w.Context != nil {
					folds = append(folds, *w.Context)
				}
			}
		default:
			return msgs, folds
		}
	}
}

func (r *rig) turnRecap(ctx context.Context, limit int, msgs []chat.Message, recap *Recap) Result {
	r.t.Helper()
	res, err := r.runner.Run(ctx, Turn{SessionID: r.sid, Request: "now", Channel: "cli", ModelName: "m",
		ContextLimit: limit, Messages: msgs, Recap: recap,
		View: func(turn, iter int, util map[string]any) map[string]any { return map[string]any{"id": r.sid} }})
	if err != nil {
		r.t.Fatal(err)
	}
	return res
}

// At turn start, a recap larger than the fold budget gives way programs
// first: the oldest turns' programs fold, every request and every answer
// stays, and the turn carries a marker saying what was folded (the warning
// event's Context, and the store's record for `vis show`).
func TestRecapFoldedAtTurnStart(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, providertest.Reply{Content: []string{"ok"}})
	ch, stop := r.broker.Subscribe(256)
	defer stop()
	// 10 turns of 40 programs (~3,700 chars) and a 400-char answer ≈ 10,000
	// tokens; a 4,000-token window folds at 3,600.
	msgs, recap := recapMessages(10, 40, 400, "now")
	res := r.turnRecap(context.Background(), 4000, msgs, recap)
	if res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	user := fmt.Sprint(r.llm.Requests()[0].Messages[1]["content"])
	for i := 1; i <= 10; i++ {
		if !strings.Contains(user, fmt.Sprintf("question %d\n", i)) || !strings.Contains(user, fmt.Sprintf("you answered:\nanswer %d: %s", i, strings.Repeat("x", 400))) {
			t.Fatalf("turn %d's request or answer is missing from the first request's user message:\n%s", i, user)
		}
	}
	if strings.Contains(user, "dropped turn(s)") || !strings.Contains(user, "# ── turn 1 ──\nuser asked:\nquestion 1\nyou ran:\n"+prompt.ProgramsFoldedLine(40)+"\n") ||
		!strings.Contains(user, "needle 10-40") || strings.Contains(user, "needle 1-1'") || !strings.HasSuffix(user, ";; -- CURRENT-USER-MESSAGE --\nnow\n") {
		t.Fatalf("first request's user message:\n%s", user)
	}
	if got := providertest.InputChars(r.llm.Requests()[0].Messages) / 4; got > FoldBudget(4000) {
		t.Errorf("request of about %d tokens, budget %d", got, FoldBudget(4000))
	}
	folded := strings.Count(user, "program(s) folded to fit the context window")
	if folded < 6 || folded > 9 {
		t.Errorf("%d turns' programs folded, want the fewest that fit (6-9)", folded)
	}
	w, folds := contextFolds(ch)
	span := fmt.Sprintf("1–%d", folded)
	if len(w) != 1 || w[0] != "Context window full: folded the programs of turn(s) "+span+" from the request; every answer is kept; the transcript keeps everything." {
		t.Errorf("warnings = %q", w)
	}
	note := fmt.Sprintf("Earlier programs folded to fit the context: %d turn(s) (%s); every answer kept.", folded, span)
	if len(folds) != 1 || folds[0].ProgramsFolded != folded || folds[0].TurnsDropped != 0 || folds[0].Note != note {
		t.Errorf("warning contexts = %+v, want %d programs folded and the note %q", folds, folded, note)
	}
	// The stored prompt is what was sent, and the turn keeps its marker.
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	full, _ := r.store.GetTurn(context.Background(), turns[0].ID)
	if !strings.Contains(full.PromptJSON, "program(s) folded to fit") || strings.Contains(full.PromptJSON, "needle 1-1'") {
		t.Error("the stored turn prompt is not the folded one")
	}
	rec, err := r.store.SessionContextFolds(context.Background(), r.sid)
	if err != nil || !strings.Contains(rec[turns[0].ID], `"programs_folded":`+fmt.Sprint(folded)) || !strings.Contains(rec[turns[0].ID], note) {
		t.Errorf("stored context folds = %v, %v", rec, err)
	}
}

// Answers give way last: a recap of answers alone larger than the window
// keeps every turn and every answer, the oldest cut to their heads with a
// line saying so (seed 000: history is never truncated).
func TestRecapShortensAnswersBeforeDroppingATurn(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, providertest.Reply{Content: []string{"ok"}})
	ch, stop := r.broker.Subscribe(256)
	defer stop()
	msgs, recap := recapMessages(5, 2, 2000, "now")
	// 5 turns of ~2,200 chars ≈ 2,750 tokens; a 2,000-token window folds at
	// 1,800: every turn's programs fold, then the oldest answers keep their
	// first 400 characters, the newest whole.
	res := r.turnRecap(context.Background(), 2000, msgs, recap)
	if res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	user := fmt.Sprint(r.llm.Requests()[0].Messages[1]["content"])
	short := strings.Count(user, "(⋯ shortened to fit the context window: ")
	if strings.Contains(user, "dropped turn(s)") || strings.Count(user, "you answered:\nanswer ") != 5 || short == 0 ||
		!strings.Contains(user, "# ── turn 1 ──\nuser asked:\nquestion 1\nyou ran:\n"+prompt.ProgramsFoldedLine(2)+"\nyou answered:\nanswer 1: xxx") ||
		!strings.Contains(user, "answer 5: "+strings.Repeat("x", 2000)) || strings.Contains(user, "needle") || !strings.HasSuffix(user, ";; -- CURRENT-USER-MESSAGE --\nnow\n") {
		t.Fatalf("first request's user message (%d shortened):\n%.1200s", short, user)
	}
	w, folds := contextFolds(ch)
	if len(w) != 1 || !strings.HasPrefix(w[0], "Context window full: folded the programs of turn(s) 1–5 and cut the requests and answers of turn(s) 1–") || !strings.Contains(w[0], "every answer is kept") {
		t.Errorf("warnings = %q", w)
	}
	if len(folds) != 1 || folds[0].AnswersShortened != short || folds[0].TurnsDropped != 0 || !strings.Contains(folds[0].Note, "cut to their first 400 characters; every answer kept") {
		t.Errorf("warning contexts = %+v", folds)
	}
}

// Turns go whole only when even every answer's head does not fit: 60
// turns in a 2,000-token window.
func TestRecapDropsTurnsOnlyAsTheLastResort(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, providertest.Reply{Content: []string{"ok"}})
	ch, stop := r.broker.Subscribe(256)
	defer stop()
	msgs, recap := recapMessages(60, 2, 2000, "now")
	res := r.turnRecap(context.Background(), 2000, msgs, recap)
	if res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	user := fmt.Sprint(r.llm.Requests()[0].Messages[1]["content"])
	if !strings.HasPrefix(user, ";; -- CONVERSATION-SO-FAR --\n# ⋯ dropped turn(s) 1–") || !strings.Contains(user, "(⋯ shortened to fit the context window: ") ||
		!strings.Contains(user, "answer 60: ") || strings.Contains(user, "needle") || !strings.HasSuffix(user, ";; -- CURRENT-USER-MESSAGE --\nnow\n") {
		t.Fatalf("first request's user message:\n%.400s", user)
	}
	w, folds := contextFolds(ch)
	if len(w) != 1 || !strings.Contains(w[0], "and cut the requests and answers of turn(s) 1–60 to their heads and dropped turn(s) 1–") || !strings.Contains(w[0], "whole, answers too, from the request") {
		t.Errorf("warnings = %q", w)
	}
	if len(folds) != 1 || folds[0].TurnsDropped == 0 || folds[0].AnswersShortened != 60 || !strings.Contains(folds[0].Note, "dropped whole, answers too") {
		t.Errorf("warning contexts = %+v", folds)
	}
}

// After an overflow with no settled outputs to drop, the recap's programs
// fold first and every answer stays.
func TestOverflowFoldsTheRecap(t *testing.T) {
	t.Parallel()
	msgs, recap := recapMessages(6, 20, 200, "now")
	size := 0
	for _, m := range msgs {
		size += len([]rune(m.Content))
	}
	r := newRig(t, false, providertest.Reply{Content: []string{"ok"}, MaxInputChars: size * 2 / 3})
	res := r.turnRecap(context.Background(), 0, msgs, recap)
	if res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	reqs := r.llm.Requests()
	user := fmt.Sprint(reqs[len(reqs)-1].Messages[1]["content"])
	if len(reqs) != 2 || !strings.Contains(user, prompt.ProgramsFoldedLine(20)) || strings.Contains(user, "dropped turn(s)") {
		t.Fatalf("%d requests; last user message:\n%.300s", len(reqs), user)
	}
	for i := 1; i <= 6; i++ {
		if !strings.Contains(user, fmt.Sprintf("answer %d: ", i)) {
			t.Errorf("answer %d is missing after the overflow", i)
		}
	}
}

// With a known window, a request that would not fit is compacted before it
// is sent: no refused round trip.
func TestKnownWindowCompactsBeforeSending(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, printing("A", 2000), printing("B", 2000), printing("C", 2000), printing("D", 2000),
		providertest.Reply{Content: []string{"done"}})
	r.llm.SetContextWindow(1500 * 4)
	res := r.turnRecap(context.Background(), 1500, []chat.Message{chat.System("SYS"), chat.User("go")}, nil)
	if res.Status != StatusDone || r.llm.Refused() != 0 {
		t.Fatalf("result %+v, %d refused", res, r.llm.Refused())
	}
	last := r.llm.Requests()[4].Messages
	if c := fmt.Sprint(last[3]["content"]); !strings.Contains(c, "# ⋯ output dropped to fit the context window (2,000 chars)") {
		t.Errorf("first output not dropped: %.200q", c)
	}
}

// The `session["utilization"]` the model sees carries the fold budget and,
// from 75 % up, a hint that older outputs will be dropped.
func TestUtilizationBudgetAndHint(t *testing.T) {
	t.Parallel()
	r := newRig(t, false,
		providertest.Reply{Code: "print(1)", Usage: &chat.Usage{InputTokens: 800}},
		providertest.Reply{Code: "print(2)", Usage: &chat.Usage{InputTokens: 400}},
		providertest.Reply{Content: []string{"ok"}})
	res, err := r.runner.Run(context.Background(), Turn{SessionID: r.sid, Request: "u", ModelName: "m", ContextLimit: 1000,
		Messages: []chat.Message{chat.System("SYS"), chat.User("u")},
		View: func(turn, iter int, util map[string]any) map[string]any {
			v := map[string]any{"id": r.sid}
			if util != nil {
				v["utilization"] = util
			}
			return v
		}})
	if err != nil || res.Status != StatusDone {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := r.llm.Requests()
	first := lastContent(reqs[1], 1)[0]
	for _, want := range []string{`"auto_compress_above": 900`, `"saturation": 80`, `"hint": "FOLD SOON: the context window is over 75% full.`, "Keep the important facts (paths, findings, decisions)"} {
		if !strings.Contains(first, want) {
			t.Errorf("first delta lacks %s:\n%s", want, first)
		}
	}
	for last, want := range map[int]string{740: "", 750: "FOLD SOON", 900: "FOLD NOW", 1000: "FOLD NOW", 1001: "ACTION REQUIRED"} {
		if got := utilizationHint(last, 1000, "-t1/i2"); !strings.HasPrefix(got, want) || (want == "") != (got == "") ||
			(want != "" && !strings.Contains(got, `fold_session("-t1/i2", gist)`)) {
			t.Errorf("hint at %d of 1000 = %q, want %s naming the fold", last, got, want)
		}
	}
	if got := utilizationHint(800, 1000, ""); strings.Contains(got, "fold_session") || !strings.HasPrefix(got, "FOLD SOON") {
		t.Errorf("with nothing settled the hint = %q; want no fold to name", got)
	}
	// After iteration 1 of turn 1 the oldest settled work is t1/i1.
	if !strings.Contains(first, `fold_session(\"-t1/i1\", gist)`) {
		t.Errorf("the hint does not name a concrete fold:\n%s", first)
	}
	for _, c := range []struct {
		turn, settled, level int
		want                 string
	}{
		{3, 8, 1, "-t3/i4"}, {3, 7, 1, "-t3/i4"}, {3, 1, 1, "-t3/i1"}, {3, 8, 2, "-t3/i8"}, {3, 8, 3, "-t3/i8"},
		{3, 0, 2, "-t2"}, {1, 0, 1, ""},
	} {
		if got := foldSuggestion(c.turn, c.settled, c.level); got != c.want {
			t.Errorf("foldSuggestion(%d, %d, %d) = %q, want %q", c.turn, c.settled, c.level, got, c.want)
		}
	}
	if second := lastContent(reqs[2], 1)[0]; !strings.Contains(second, `del session["utilization"]["hint"]`) {
		t.Errorf("the hint did not go away at 40%%:\n%s", second)
	}
}

func TestContextHelpers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ window, budget int }{{0, 200000}, {8000, 7200}, {128000, 115200}, {200000, 200000}, {1000000, 200000}} {
		if got := FoldBudget(c.window); got != c.budget {
			t.Errorf("FoldBudget(%d) = %d, want %d", c.window, got, c.budget)
		}
	}
	for _, c := range []struct {
		msg             string
		limit, measured int
	}{
		{"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.", 8192, 9000},
		{"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).", 4096, 4000},
		{"prompt is too long: 210000 tokens > 200000 maximum", 200000, 210000},
		{"Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens", 4096, 0},
		{"request (9,000 tokens) exceeds the available context size (8,192 tokens), try increasing it", 8192, 9000},
		{"Input is too long for the context window.", 0, 0},
	} {
		if l, m := parseOverflow(c.msg); l != c.limit || m != c.measured {
			t.Errorf("parseOverflow(%q) = %d, %d; want %d, %d", c.msg, l, m, c.limit, c.measured)
		}
	}
	stubs := []struct{ in, want string }{
		{"# t2/i3\n" + strings.Repeat("x", 1000) + "\n\nsession[\"scope\"][\"iter\"] = 4",
			"# t2/i3\n# ⋯ output dropped to fit the context window (1,000 chars) — re-run a narrower program if you need it again\n\nsession[\"scope\"][\"iter\"] = 4"},
		{"[python_execution result]\n# t1/i1\n" + strings.Repeat("é", 2000) + "\n",
			"[python_execution result]\n# t1/i1\n# ⋯ output dropped to fit the context window (2,001 chars) — re-run a narrower program if you need it again"},
		{"# t1/i1\nshort", "# t1/i1\nshort"}, // a stub would be longer
	}
	for _, c := range stubs {
		got, _ := stubOutput(c.in)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("stubOutput (-want +got):\n%s", diff)
		}
		if again, ok := stubOutput(got); ok || again != got {
			t.Errorf("a stub was stubbed again: %q", again)
		}
	}
	tr := turnRun{Runner: &Runner{State: &State{}}}
	tr.calibrate(400, 10) // a tiny request: the tool definition dominates
	if tr.ratio() != 1 {
		t.Errorf("calibrated on a tiny request: %v", tr.ratio())
	}
	tr.calibrate(3000, 2000)
	if tr.ratio() != 1.5 {
		t.Errorf("ratio = %v, want 1.5", tr.ratio())
	}
	if got := EstimateTokens([]chat.Message{chat.User("12345678"), {Role: chat.RoleUser, Parts: []chat.Part{{Type: "image_url", ImageURL: strings.Repeat("A", 1<<20)}, {Type: "text", Text: "abcd"}}}}); got != 4+2+4+1000+1 {
		t.Errorf("EstimateTokens = %d", got)
	}
}
