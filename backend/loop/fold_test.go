package loop

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// withFold gives the rig's sandbox a fold(key, gist) builtin that folds
// the running turn's settled iterations, as the engine's fold_session does
// for them.
func (r *rig) withFold() *rig {
	st := r.runner.State
	in, err := sandbox.New(sandbox.Options{WallLimit: 30 * time.Second}, []hostfn.Builtin{{
		Name: "fold", Params: []hostfn.Param{{Name: "key", Required: true}, {Name: "gist", Required: true}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			turn, iter := st.Live()
			k, err := ParseFoldKey(args["key"].(string))
			if err != nil {
				return nil, err
			}
			spans, norm, err := k.Resolve(Settled{Current: turn, Running: iter})
			if err != nil {
				return nil, err
			}
			var its []int
			for _, sp := range spans {
				for i := sp.From; i <= sp.To; i++ {
					its = append(its, i)
				}
			}
			save, err := st.Fold(its, args["gist"].(string), false)
			if err != nil {
				return nil, err
			}
			return map[string]any{"folded": norm, "chars_saved": save.Chars, "tokens_saved": save.Tokens}, nil
		},
	}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.runner.Exec = in
	return r
}

func roles(rec providertest.Recorded) string {
	var rs []string
	for _, m := range rec.Messages {
		rs = append(rs, fmt.Sprint(m["role"]))
	}
	return strings.Join(rs, ",")
}

// A turn that folds its own t1/i1-i2 sends the next request without their
// programs and outputs, with the breadcrumb and the session lines they
// carried at the top of the folding iteration's result; the request is
// recorded as sent, later requests extend it again, and the store keeps the
// folded outputs.
func TestFoldRemovesSettledIterationsFromTheRequest(t *testing.T) {
	t.Parallel()
	withUsage := printing("B", 3000) // its usage brings `utilization` into the second result's delta
	withUsage.Usage = &chat.Usage{InputTokens: 1000}
	r := newRig(t, false,
		printing("A", 3000),
		withUsage,
		providertest.Reply{Code: `r = fold("t1/i1-i2", "A and B are 3000 characters each")` + "\nprint(r)"},
		printing("C", 10),
		providertest.Reply{Content: []string{"done"}},
	).withFold()
	if res := r.turn(context.Background(), "print them", false); res.Status != StatusDone || res.Iterations != 5 {
		t.Fatalf("result = %+v", res)
	}
	reqs := r.llm.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests", len(reqs))
	}
	four := reqs[3]
	body := wireJSON(four)
	if strings.Contains(body, strings.Repeat("A", 100)) || strings.Contains(body, strings.Repeat("B", 100)) || strings.Contains(body, `print(\"A\"`) {
		t.Error("the request after the fold still carries the folded programs or outputs")
	}
	if got := roles(four); got != "system,user,assistant,tool" {
		t.Errorf("request 4 roles = %s, want the prompt and iteration 3 only", got)
	}
	result := lastContent(four, 1)[0]
	crumb := "# ⋯ folded t1/i1-i2 · A and B are 3000 characters each\n"
	if !strings.HasPrefix(result, crumb) {
		t.Fatalf("iteration 3's result does not open with the breadcrumb:\n%.600s", result)
	}
	head, rest, ok := strings.Cut(result, "# t1/i3\n")
	if !ok {
		t.Fatalf("no # t1/i3 header after the breadcrumb:\n%.600s", result)
	}
	// The delta lines of the removed results ride with the breadcrumb, in order.
	turnLine, utilLine := strings.Index(head, `session["turn"] = 1`), strings.Index(head, `session["utilization"] = {`)
	if turnLine < 0 || utilLine < turnLine {
		t.Errorf("the removed results' session lines are not carried in order:\n%s", head)
	}
	if !strings.Contains(rest, `'folded': 't1/i1-i2'`) || !strings.Contains(rest, `'chars_saved': `) {
		t.Fatalf("fold() printed %q", rest)
	}
	var saved int
	if _, err := fmt.Sscanf(rest[strings.Index(rest, `'chars_saved': `):], `'chars_saved': %d`, &saved); err != nil || saved < 6000 || saved > 6300 {
		t.Errorf("chars_saved = %d (%v), want about the two outputs and programs (6,000+)", saved, err)
	}
	// The prefix resets once, then requests extend each other again.
	if isPrefix(reqs[2], reqs[3]) {
		t.Error("request 4 extends request 3: nothing was folded")
	}
	if !isPrefix(reqs[3], reqs[4]) {
		t.Error("request 5 does not extend request 4")
	}
	for n := 1; n <= 5; n++ {
		msgs, from := r.storedRequest(t, n)
		if want := map[int]int{4: 4, 5: 4}[n]; from != want {
			t.Errorf("iteration %d rebuilds from %d, want %d", n, from, want)
		}
		sameAsSent(t, fmt.Sprintf("iteration %d's stored request", n), reqs[n-1], msgs)
	}
	turns, _ := r.store.ListTurns(context.Background(), r.sid)
	its, _ := r.store.ListIterations(context.Background(), turns[0].ID)
	if !strings.Contains(its[0].Output, strings.Repeat("A", 3000)) {
		t.Error("the store lost the folded output")
	}
}

// A second fold that covers the first replaces its breadcrumb; a fold of
// the running iteration is refused with the settled range; a model
// without tools folds the same way.
func TestFoldOverAFoldAndRefusals(t *testing.T) {
	t.Parallel()
	for _, noTools := range []bool{false, true} {
		t.Run(fmt.Sprintf("noTools=%v", noTools), func(t *testing.T) {
			prog := func(code string) providertest.Reply {
				if noTools {
					return providertest.Reply{Content: []string{"```python\n" + code + "\n```"}}
				}
				return providertest.Reply{Code: code}
			}
			r := newRig(t, noTools,
				prog(`print("A" * 500)`),
				prog(`print("B" * 500)`),
				prog(`print(fold("t1/i1", "A printed"))`),
				prog(`print(fold("t1/i1-i3", "A and B printed, first fold"))`),
				prog(`fold("t1/i5", "the running one")`),
				providertest.Reply{Content: []string{"done"}},
			).withFold()
			if res := r.turn(context.Background(), "go", noTools); res.Status != StatusDone {
				t.Fatalf("result = %+v", res)
			}
			reqs := r.llm.Requests()
			five := reqs[4]
			body := wireJSON(five)
			if strings.Contains(body, "A printed\\n") || strings.Count(body, "# ⋯ folded") != 1 || !strings.Contains(body, "# ⋯ folded t1/i1-i3 · A and B printed, first fold") {
				t.Errorf("request 5 does not carry exactly the covering breadcrumb:\n%.2000s", body)
			}
			if strings.Contains(body, strings.Repeat("B", 100)) {
				t.Error("request 5 still carries output B")
			}
			want := "system,user,assistant,tool"
			if noTools {
				want = "system,user,assistant,user"
			}
			if got := roles(five); got != want {
				t.Errorf("request 5 roles = %s, want %s", got, want)
			}
			refusal := lastContent(reqs[5], 1)[0]
			if !strings.Contains(refusal, "t1/i5, the iteration running now") || !strings.Contains(refusal, "t1/i1–i4 is settled") {
				t.Errorf("the refusal does not name the running iteration and the settled range:\n%s", refusal)
			}
			for n := 1; n <= 6; n++ {
				msgs, _ := r.storedRequest(t, n)
				sameAsSent(t, fmt.Sprintf("iteration %d's stored request", n), reqs[n-1], msgs)
			}
		})
	}
}

// An emergency compaction keeps a fold's breadcrumb and carried lines when
// it stubs the output under them.
func TestStubKeepsBreadcrumbs(t *testing.T) {
	t.Parallel()
	in := "# ⋯ folded t1/i1-i2 · gist\nsession[\"turn\"] = 1\n# t1/i3\n" + strings.Repeat("x", 500)
	got, ok := stubOutput(in)
	if !ok || !strings.HasPrefix(got, "# ⋯ folded t1/i1-i2 · gist\nsession[\"turn\"] = 1\n# t1/i3\n"+outputDroppedNote) {
		t.Errorf("stubOutput = %q", got)
	}
	// foldMessages leaves its input alone.
	msgs := []chat.Message{chat.User("u"), {Role: chat.RoleAssistant, Content: "a"}, {Role: chat.RoleTool, Content: "# t1/i1\nx"}, {Role: chat.RoleAssistant}, {Role: chat.RoleTool, Content: "# t1/i2\ny"}}
	spans := []iterSpan{{1, 1, 3}, {2, 3, 5}}
	out, keep, orphan := foldMessages(1, msgs, spans, map[int]bool{1: true}, "g")
	if len(msgs) != 5 || msgs[4].Content != "# t1/i2\ny" || len(out) != 3 || out[2].Content != "# ⋯ folded t1/i1 · g\n# t1/i2\ny" || orphan != "" || keep[0] != (iterSpan{2, 1, 3}) {
		t.Errorf("foldMessages = %+v %+v %q (input now %+v)", out, keep, orphan, msgs)
	}
}

// cache_hit_rate is the provider's cached share of the input tokens over
// the last 8 measured requests, token-weighted, in percent; absent until a
// request is measured.
func TestCacheHitRate(t *testing.T) {
	t.Parallel()
	const rate = "u = session['utilization']\nprint(u['cache_hit_rate'], u['cache_hit_window'])"
	r := newRig(t, false,
		providertest.Reply{Code: rate, Usage: &chat.Usage{InputTokens: 1000}},
		providertest.Reply{Code: rate, Usage: &chat.Usage{InputTokens: 1000, CachedTokens: 900}},
		providertest.Reply{Code: rate, Usage: &chat.Usage{InputTokens: 2000, CachedTokens: 1900}},
		providertest.Reply{Content: []string{"ok"}})
	if res := r.turn(context.Background(), "go", false); res.Status != StatusDone {
		t.Fatalf("%+v", res)
	}
	reqs := r.llm.Requests()
	// The first result's delta brings the utilization; later ones hold
	// its figures (prompt.ShownSession) and each program reads the
	// current rate from `session`.
	if got := lastContent(reqs[1], 1)[0]; !strings.Contains(got, `"cache_hit_rate": 0, "cache_hit_window": 1`) {
		t.Errorf("result 1 lacks the utilization:\n%s", got)
	}
	for i, want := range []string{"0 1", "45 2", "70 3"} {
		if got := lastContent(reqs[i+1], 1)[0]; !strings.Contains(got+"\n", fmt.Sprintf("# t1/i%d\n%s\n", i+1, want)) {
			t.Errorf("program %d printed no %q:\n%s", i+1, want, got)
		}
	}
	var s State
	if _, _, ok := s.cacheHitRate(); ok {
		t.Error("a cache hit rate before any request was measured")
	}
	for i := range 10 {
		s.measure(chat.Usage{InputTokens: 100, CachedTokens: 10 * i})
	}
	// The last 8: cached 20..90 of 100 each.
	if pct, n, ok := s.cacheHitRate(); !ok || n != CacheWindow || pct != 55 {
		t.Errorf("cacheHitRate over 10 requests = %d%% of %d, %v; want 55%% of the last 8", pct, n, ok)
	}
}
