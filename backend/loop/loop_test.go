package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/store"
)

type rig struct {
	t      testing.TB
	llm    *providertest.Server
	store  *store.Store
	broker *events.Broker
	runner *Runner
	sid    string
}

func newRig(t testing.TB, noTools bool, replies ...providertest.Reply) *rig {
	t.Helper()
	llm := providertest.New(replies...)
	t.Cleanup(llm.Close)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "vis.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sid := store.NewID()
	if err := st.CreateSession(context.Background(), store.Session{ID: sid, Workspace: t.TempDir(), Created: time.Now(), Updated: time.Now()}); err != nil {
		t.Fatal(err)
	}
	client, err := provider.New(provider.Config{BaseURL: llm.URL, Model: "m", NoTools: noTools, RetryBase: time.Millisecond, RetryMax: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	in, err := sandbox.New(sandbox.Options{WallLimit: 30 * time.Second}, []hostfn.Builtin{{
		Name: "boom", Doc: "boom() always fails.",
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			return nil, &hostfn.ToolError{Message: "it broke", Hint: "do not call boom"}
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := events.New()
	return &rig{t: t, llm: llm, store: st, broker: b, sid: sid,
		runner: &Runner{Store: st, Broker: b, Provider: client, Exec: in, State: &State{Baseline: map[string]any{"id": sid}}}}
}

func (r *rig) turn(ctx context.Context, text string, noTools bool) Result {
	r.t.Helper()
	return r.run(ctx, text, noTools, []chat.Message{chat.System("SYS"), chat.User(text)})
}

func (r *rig) turnWith(ctx context.Context, msgs []chat.Message) Result {
	return r.run(ctx, msgs[len(msgs)-1].Content, false, msgs)
}

func (r *rig) run(ctx context.Context, text string, noTools bool, msgs []chat.Message) Result {
	r.t.Helper()
	res, err := r.runner.Run(ctx, Turn{
		SessionID: r.sid, Request: text, Channel: "cli", ModelName: "m", NoTools: noTools,
		Messages: msgs,
		View: func(turn, iter int, util map[string]any) map[string]any {
			v := map[string]any{"id": r.sid, "turn": turn, "scope": map[string]any{"turn": turn, "iter": iter}}
			if util != nil {
				v["utilization"] = util
			}
			return v
		},
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return res
}

func lastContent(rec providertest.Recorded, n int) []string {
	var out []string
	ms := rec.Messages
	for _, m := range ms[len(ms)-n:] {
		out = append(out, fmt.Sprint(m["content"]))
	}
	return out
}

func TestIterationsRunAndFeedBack(t *testing.T) {
	t.Parallel()
	r := newRig(t, false,
		providertest.Reply{Content: []string{"Let me compute."}, Code: "x = 6 * 7\nprint(x)", Usage: &chat.Usage{InputTokens: 10, OutputTokens: 3}},
		providertest.Reply{Code: "print(x + 1)\nboom()\nprint('never')"},
		providertest.Reply{Code: "print(session['scope'])"},
		providertest.Reply{Content: []string{"The answer ", "is 42."}, Usage: &chat.Usage{InputTokens: 20, OutputTokens: 4}},
	)
	res := r.turn(context.Background(), "compute", false)
	if res.Status != StatusDone || res.Answer != "The answer is 42." || res.Iterations != 4 {
		t.Fatalf("result = %+v", res)
	}
	if res.Usage.InputTokens != 30 || res.Usage.OutputTokens != 7 {
		t.Fatalf("usage = %+v", res.Usage)
	}
	reqs := r.llm.Requests()
	first := lastContent(reqs[1], 1)[0]
	if !strings.HasPrefix(first, "# t1/i1\n42\n") {
		t.Fatalf("first result = %q", first)
	}
	// The session delta rides after the first result.
	if !strings.Contains(first, "42\n\nsession[\"turn\"] = 1\n") || !strings.Contains(first, `session["utilization"] = {`) {
		t.Fatalf("no delta lines after one blank line in %q", first)
	}
	second := lastContent(reqs[2], 1)[0]
	// Later results carry only what the model should be told: the
	// iteration counter is the result's header, so nothing here.
	if !strings.HasPrefix(second, "# t1/i2\n") || strings.Contains(second, `session[`) {
		t.Fatalf("second delta = %q", second)
	}
	if !strings.Contains(second, "43\n") || !strings.Contains(second, "✗ tool error: boom: it broke (line 2)") || !strings.Contains(second, "hint: do not call boom") || strings.Contains(second, "never") {
		t.Fatalf("second result = %q", second)
	}
	if third := lastContent(reqs[3], 1)[0]; !strings.Contains(third, `'iter': 3`) {
		t.Fatalf("session dict not rebuilt per block: %q", third)
	}
	// Every request is a byte-exact prefix of the next one.
	for i := 1; i < len(reqs); i++ {
		a, _ := json.Marshal(reqs[i-1].Body["messages"])
		b, _ := json.Marshal(reqs[i].Body["messages"])
		if !strings.HasPrefix(string(b), string(a[:len(a)-1])) {
			t.Fatalf("request %d is not a prefix of request %d", i, i+1)
		}
	}
	// Persisted: every iteration with its code and output.
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	its, _ := r.store.ListIterations(context.Background(), turns[0].ID)
	if len(its) != 4 || its[0].Output != "42\n" || its[0].Prose != "Let me compute." || its[1].Status != "error" || its[3].Answer != "The answer is 42." {
		t.Fatalf("iterations = %+v", its)
	}
	if !strings.Contains(its[1].ToolCallsJSON, `"tools":[{"name":"boom"`) || !strings.Contains(its[1].ToolCallsJSON, `"error":"it broke"`) {
		t.Fatalf("tool calls not recorded for the transcript: %s", its[1].ToolCallsJSON)
	}
	if turns[0].Status != StatusDone || turns[0].Answer != "The answer is 42." {
		t.Fatalf("turn = %+v", turns[0])
	}
}

func TestParallelCallsGetOneResultEach(t *testing.T) {
	t.Parallel()
	r := newRig(t, false,
		providertest.Reply{Calls: []providertest.Call{{Args: `{"code":"print('a')"}`}, {Args: `{"code":"print('b')"}`}}, Interleave: true},
		providertest.Reply{Content: []string{"ok"}},
	)
	if res := r.turn(context.Background(), "two", false); res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	msgs := r.llm.Requests()[1].Messages
	a, b := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if a["role"] != "tool" || b["role"] != "tool" || a["tool_call_id"] == b["tool_call_id"] {
		t.Fatalf("tool messages = %v / %v", a, b)
	}
	if ac, bc := fmt.Sprint(a["content"]), fmt.Sprint(b["content"]); !strings.Contains(ac, "(call 1 of 2)\na\n") || bc != "# t1/i1 (call 2 of 2)\nb" {
		t.Fatalf("outputs crossed: %v / %v", a["content"], b["content"])
	}
}

func TestPreflightAndEmptyResults(t *testing.T) {
	t.Parallel()
	r := newRig(t, false,
		providertest.Reply{Code: `"just a string"`},
		providertest.Reply{Code: "x = 1"},
		providertest.Reply{Content: []string{"done"}},
	)
	r.turn(context.Background(), "p", false)
	reqs := r.llm.Requests()
	if c := lastContent(reqs[1], 1)[0]; !strings.Contains(c, "DON'T call python_execution") {
		t.Fatalf("bare string not rejected: %q", c)
	}
	if c := lastContent(reqs[2], 1)[0]; !strings.Contains(c, "(no return — python_execution returns what it print()s") {
		t.Fatalf("no-output hint missing: %q", c)
	}
}

func TestEmptyRepliesStopTheTurn(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, providertest.Reply{}, providertest.Reply{}, providertest.Reply{})
	res := r.turn(context.Background(), "e", false)
	if res.Status != StatusError || res.Answer != EmptyStopAnswer || res.Iterations != 3 {
		t.Fatalf("%+v", res)
	}
	if c := lastContent(r.llm.Requests()[1], 1)[0]; c != emptyReplyMessage {
		t.Fatalf("empty reply not fed back: %q", c)
	}
}

func TestFatalProviderErrorEndsTurn(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, providertest.Reply{Status: 404, Message: "model m not found"})
	res := r.turn(context.Background(), "x", false)
	if res.Status != StatusError || !strings.Contains(res.Error, "m") {
		t.Fatalf("%+v", res)
	}
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	if turns[0].Status != StatusError || turns[0].Error == "" {
		t.Fatalf("turn = %+v", turns[0])
	}
}

func TestBrokenStreamAfterOutputIsAnIterationError(t *testing.T) {
	t.Parallel()
	r := newRig(t, false,
		providertest.Reply{Content: []string{"partial ", "text ", "more"}, CutAfter: 2},
		providertest.Reply{Content: []string{"recovered"}},
	)
	res := r.turn(context.Background(), "x", false)
	if res.Status != StatusDone || res.Answer != "recovered" {
		t.Fatalf("%+v", res)
	}
	if c := lastContent(r.llm.Requests()[1], 1)[0]; !strings.Contains(c, "[Iteration 1]") || !strings.Contains(c, "llm-provider-error") {
		t.Fatalf("iteration error not fed back: %q", c)
	}
}

func TestFencedFallbackForModelsWithoutTools(t *testing.T) {
	t.Parallel()
	r := newRig(t, true,
		providertest.Reply{Content: []string{"I will count.\n```python\nprint(len('abc'))\n```\n"}},
		providertest.Reply{Content: []string{"Three."}},
	)
	res := r.turn(context.Background(), "count", true)
	if res.Status != StatusDone || res.Answer != "Three." {
		t.Fatalf("%+v", res)
	}
	req := r.llm.Requests()[1]
	if _, ok := req.Body["tools"]; ok {
		t.Fatal("tools sent to a model without tool calling")
	}
	if c := lastContent(req, 1)[0]; !strings.Contains(c, "[python_execution result]") || !strings.Contains(c, "3\n") {
		t.Fatalf("fenced result = %q", c)
	}
}

func TestCancelWhileStreamingKeepsSettledWork(t *testing.T) {
	t.Parallel()
	r := newRig(t, false,
		providertest.Reply{Content: []string{"Step one."}, Code: "print('settled')"},
		providertest.Reply{Hang: true},
	)
	ch, stop := r.broker.Subscribe(256)
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		calls := 0
		for e := range ch {
			if e.Phase == events.PhaseProviderCall {
				if calls++; calls == 2 {
					cancel()
					return
				}
			}
		}
	}()
	res := r.turn(ctx, "c", false)
	if res.Status != StatusCancelled || res.Answer != "Step one." {
		t.Fatalf("%+v", res)
	}
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	its, _ := r.store.ListIterations(context.Background(), turns[0].ID)
	if turns[0].Status != StatusCancelled || len(its) < 1 || its[0].Output != "settled\n" {
		t.Fatalf("turn %+v iterations %+v", turns[0], its)
	}
}

func TestCancelInsideARunningProgram(t *testing.T) {
	t.Parallel()
	r := newRig(t, false, providertest.Reply{Code: "print('before')\nwhile True:\n    pass"})
	ch, stop := r.broker.Subscribe(256)
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for e := range ch {
			if e.Phase == events.PhaseFormStart {
				time.Sleep(20 * time.Millisecond)
				cancel()
				return
			}
		}
	}()
	res := r.turn(ctx, "spin", false)
	if res.Status != StatusCancelled {
		t.Fatalf("%+v", res)
	}
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	its, _ := r.store.ListIterations(context.Background(), turns[0].ID)
	if len(its) != 1 || its[0].Status != "cancelled" || its[0].Output != "before\n" {
		t.Fatalf("iterations %+v", its)
	}
}

func TestProgramHelpers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw, code string
		ok        bool
	}{
		{`{"code":"print(1)"}`, "print(1)", true},
		{`{":code":"print(2)"}`, "print(2)", true},
		{`{"source":"print(3)"}`, "print(3)", true},
		{`print(4)`, "print(4)", true},
		{`{"code": 5}`, "", false},
		{`{"code":"x`, "", false},
		{`[1,2]`, "", false},
	}
	for _, c := range cases {
		code, ok := codeFromArguments(c.raw)
		if code != c.code || ok != c.ok {
			t.Errorf("codeFromArguments(%q) = %q, %v", c.raw, code, ok)
		}
	}
	for in, want := range map[string]bool{`"abc"`: true, `'a\'b'`: true, `"a" + "b"`: false, `"""doc"""`: true, `print("x")`: false} {
		if got := isStringLiteral(in); got != want {
			t.Errorf("isStringLiteral(%q) = %v", in, got)
		}
	}
	if p := preflight(program{Code: "```python\nprint(1)\n```"}); p.Code != "print(1)" || p.Reject != "" {
		t.Errorf("fence not repaired: %+v", p)
	}
	if p := preflight(program{Code: "# plan\n# more"}); p.Reject == "" {
		t.Error("comment-only program accepted")
	}
	if got := partialCode(`{"code": "print(\"hi\")\nx = 1`); got != "print(\"hi\")\nx = 1" {
		t.Errorf("partialCode = %q", got)
	}
	if got := proseBeyondCode("```python\nprint(1)\n```", []string{"print(1)"}); got != "" {
		t.Errorf("prose = %q", got)
	}
	if code, prose, ok := fencedProgram("Plan:\n```\nprint(1)\n```\nthen"); !ok || code != "print(1)\n" || prose != "Plan:\n\nthen" {
		t.Errorf("fencedProgram = %q %q %v", code, prose, ok)
	}
}

// A program that prints more than the model's limit: the model gets its
// clipped copy with the note, the record says it was clipped and how many
// bytes were printed and kept, and the whole output is kept in the store
// for its call (the second of the reply here).
func TestClippedOutputIsKeptWhole(t *testing.T) {
	t.Parallel()
	long := `for i in range(5000):\n    print('line %d of 5000 ' % (i + 1) + '.' * 20)`
	r := newRig(t, false,
		providertest.Reply{Calls: []providertest.Call{{Args: `{"code":"print('short')"}`}, {Args: `{"code":"` + long + `"}`}}},
		providertest.Reply{Content: []string{"ok"}},
	)
	ch, cancel := r.broker.Subscribe(4096)
	defer cancel()
	if res := r.turn(context.Background(), "print a lot", false); res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	var sent []events.FormResult
	for len(ch) > 0 {
		if fr, ok := (<-ch).Data.(events.FormResult); ok {
			sent = append(sent, fr)
		}
	}
	var want strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&want, "line %d of 5000 %s\n", i, strings.Repeat(".", 20))
	}
	if len(sent) != 2 || !sent[1].Clipped || !sent[1].OutputClipped || sent[1].OutputBytes != want.Len() || sent[1].KeptBytes != want.Len() {
		t.Errorf("form-result events: %d, the last %+v", len(sent), sent[len(sent)-1].OutputBytes)
	}
	msgs := r.llm.Requests()[1].Messages
	model := fmt.Sprint(msgs[len(msgs)-1]["content"])
	if !strings.Contains(model, "# ⋯ output clipped at 65536/") || strings.Contains(model, "line 5000 of") {
		t.Errorf("the model's copy is not clipped as before: …%s", model[max(0, len(model)-200):])
	}

	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	its, _ := r.store.ListIterations(context.Background(), turns[0].ID)
	var recs []events.CallRecord
	if err := json.Unmarshal([]byte(its[0].ToolCallsJSON), &recs); err != nil || len(recs) != 2 {
		t.Fatalf("records %v: %s", err, its[0].ToolCallsJSON)
	}
	if recs[0].OutputClipped || recs[0].OutputBytes != 6 || recs[0].KeptBytes != 0 {
		t.Errorf("short record = %+v", recs[0])
	}
	if got := recs[1]; !got.OutputClipped || got.OutputBytes != want.Len() || got.KeptBytes != want.Len() || len([]rune(got.Output)) != 65536 {
		t.Errorf("long record: clipped %v, %d bytes, %d kept, %d chars shown; want %d", got.OutputClipped, got.OutputBytes, got.KeptBytes, len([]rune(got.Output)), want.Len())
	}
	p, err := r.store.KeptOutput(context.Background(), r.sid, 1, 1, 1, 0, 0)
	if err != nil || p.Text != want.String() || !p.Done() || p.Total != want.Len() {
		t.Errorf("kept output: %d bytes of %d, done %v, err %v", len(p.Text), p.Total, p.Done(), err)
	}
	if _, err := r.store.KeptOutput(context.Background(), r.sid, 1, 1, 0, 0, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a short output was kept apart too: %v", err)
	}
}
