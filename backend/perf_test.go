package backend

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// Request and turn figures of a real engine turn against the scripted fake
// LLM (issue 17): the model cats a 100-byte file again and again, then
// answers. The fake reports usage as a provider does (input tokens at 4
// bytes each, the previous request cached), so `session["utilization"]`
// is live.

// catFile is the 100-byte file the model cats.
const catFile = "package demo\n\n// Add returns the sum of a and b, as an int.\nfunc Add(a, b int) int { return a + b }\n"

const catProgram = "print(cat('demo.go'))"

func openEngineTB(tb testing.TB, llm *providertest.Server, home string) *Engine {
	tb.Helper()
	vars := map[string]string{"VIS_BASE_URL": llm.URL, "VIS_MODEL": "m"}
	e, err := Open(context.Background(), Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// catScript answers every request of a turn with the cat program until
// the turn has made iters program iterations, then with "done".
func catScript(llm *providertest.Server, iters int) {
	var turnStart int
	llm.SetDynamic(func(r providertest.Recorded) providertest.Reply {
		n := len(llm.Requests()) // this request is recorded already
		prev := 0
		if reqs := llm.Requests(); n >= 2 {
			prev = len(reqs[n-2].Raw) / 4
		}
		u := &chat.Usage{InputTokens: len(r.Raw) / 4, OutputTokens: 20, CachedTokens: prev}
		if n-turnStart > iters {
			turnStart = n
			return providertest.Reply{Content: []string{"done"}, Usage: u}
		}
		return providertest.Reply{Code: catProgram, Usage: u}
	})
}

// catTurn runs one turn of iters cat iterations in a new session and
// returns its requests as the fake received them.
func catTurn(tb testing.TB, e *Engine, llm *providertest.Server, ws string) []providertest.Recorded {
	tb.Helper()
	before := len(llm.Requests())
	res, err := e.RunTurn(context.Background(), SendRequest{Workspace: ws, Text: "Read demo.go again and again."})
	if err != nil || res.Status != "done" {
		tb.Fatalf("turn: %+v %v", res, err)
	}
	return llm.Requests()[before:]
}

func catWorkspace(tb testing.TB) string {
	ws := tb.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "demo.go"), []byte(catFile), 0o644); err != nil {
		tb.Fatal(err)
	}
	return ws
}

// growth is each request's size minus the previous one's, from the second
// request on.
func growth(reqs []providertest.Recorded) []int {
	var g []int
	for i := 1; i < len(reqs); i++ {
		g = append(g, len(reqs[i].Raw)-len(reqs[i-1].Raw))
	}
	return g
}

func median[T int | float64 | time.Duration](xs []T) T {
	s := append([]T(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// messagesPrefix is a request body up to the end of its last message.
func messagesPrefix(raw []byte) []byte {
	i := bytes.Index(raw, []byte(`}],"stream":`))
	if i < 0 {
		i = bytes.Index(raw, []byte(`}],"max_tokens":`))
	}
	if i < 0 {
		return nil
	}
	return raw[:i+1]
}

// A steady iteration grows the request by the echoed call and the printed
// text (print's last newline left out), and the engine adds only the
// result's `# tN/iM` header: the
// per-block counters no longer ride on every result (issue 17: they took
// ~170 of the 513 bytes an iteration grew by). The session delta rides on
// the first result, and every request is still a byte-exact prefix of the
// next.
func TestRequestGrowthPerIteration(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	catScript(llm, 12)
	e := openEngineTB(t, llm, t.TempDir())
	defer e.Close()
	reqs := catTurn(t, e, llm, catWorkspace(t))
	if len(reqs) != 13 {
		t.Fatalf("%d requests, want 13", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		a, b := messagesPrefix(reqs[i-1].Raw), messagesPrefix(reqs[i].Raw)
		if a == nil || !bytes.HasPrefix(b, a) {
			t.Fatalf("request %d's messages are not a prefix of request %d's", i, i+1)
		}
	}
	first := reqs[1].Messages[len(reqs[1].Messages)-1]["content"].(string)
	for _, want := range []string{`session["turn"] = 1`, `session["scope"] = {"iter": 2, "turn": 1}`, `session["utilization"] = {`} {
		if !strings.Contains(first, want) {
			t.Errorf("the first result lacks %s:\n%s", want, first)
		}
	}
	// What the engine adds to a steady iteration beyond the model's call
	// and the program's printed output, in request bytes.
	printed := func(k int) string { // iteration k's output as the program printed it
		t.Helper()
		sessions, err := e.store.ListSessions(context.Background(), "")
		if err != nil || len(sessions) == 0 {
			t.Fatal(err)
		}
		turns, err := e.store.ListTurns(context.Background(), sessions[0].ID)
		if err != nil || len(turns) != 1 {
			t.Fatal(turns, err)
		}
		its, err := e.store.ListIterations(context.Background(), turns[0].ID)
		if err != nil || len(its) < k {
			t.Fatal(err)
		}
		return its[k-1].Output
	}
	jsonLen := func(s string) int { b, _ := json.Marshal(s); return len(b) }
	var added []int
	for i := 2; i < len(reqs); i++ {
		last := reqs[i].Messages[len(reqs[i].Messages)-1]["content"].(string)
		if strings.Contains(last, "session[") {
			t.Errorf("result %d repeats per-block counters:\n%s", i, last)
		}
		added = append(added, jsonLen(last)-jsonLen(printed(i)))
	}
	if m := median(added); m > 12 {
		t.Errorf("the engine adds %d bytes to a steady iteration's result, want only the # tN/iM header (%v)", m, added)
	}
	// The target, ≤ 370 B per iteration of which ~345 B are the
	// model's echoed call and the printed file, leaves Vis 25 B: the
	// header and cat's line numbers together. This fixture's call and
	// framing are longer than the (the fake's 25-character call id
	// twice), so the budget is checked on what Vis adds to the file's
	// bytes in the result; the rest of the growth is the model's message
	// and the API's tool-message framing, which no engine can shorten.
	var vis []int
	for i := 2; i < len(reqs); i++ {
		last := reqs[i].Messages[len(reqs[i].Messages)-1]["content"].(string)
		vis = append(vis, jsonLen(last)-jsonLen(catFile))
	}
	if m := median(vis); m > 25 {
		t.Errorf("Vis adds %d bytes to the 100-byte file's text in a steady result (header and line numbers), want at most 25 (%v)", m, vis)
	}
	// The whole growth, on the program a model writes first to read a
	// file (print(cat(path)) prints the numbered lines): the issue's
	// target. Sizes are exact, so this is no timing assertion.
	if m := median(growth(reqs[2:])); m > 370 {
		t.Errorf("a steady iteration grows the request by %d bytes, want at most 370 (%v)", m, growth(reqs[2:]))
	}
	t.Logf("growth per iteration %v bytes, of which the engine's %v, the engine's and cat's %v", growth(reqs[1:]), added, vis)
}

// BenchmarkTurnGap runs 200-iteration turns and reports the engine's own
// time between a response (the fake's last byte flushed) and the next
// request (its last byte received), over iterations 1-10 and 191-200, and
// the request sizes: the first, the growth per iteration (median) and the
// 200th.
func BenchmarkTurnGap(b *testing.B) {
	const iters = 200
	llm := providertest.New()
	defer llm.Close()
	catScript(llm, iters)
	e := openEngineTB(b, llm, b.TempDir())
	defer e.Close()
	ws := catWorkspace(b)
	var early, late []time.Duration
	var reqs []providertest.Recorded
	for b.Loop() {
		reqs = catTurn(b, e, llm, ws)
		for k := 1; k < len(reqs); k++ { // the gap after response k
			gap := reqs[k].Received.Sub(reqs[k-1].Answered)
			switch {
			case k <= 10:
				early = append(early, gap)
			case k > iters-10 && k <= iters:
				late = append(late, gap)
			}
		}
	}
	b.ReportMetric(float64(median(early).Microseconds())/1000, "gap-ms@1-10")
	b.ReportMetric(float64(median(late).Microseconds())/1000, "gap-ms@191-200")
	b.ReportMetric(float64(len(reqs[0].Raw)), "B/request1")
	b.ReportMetric(float64(median(growth(reqs[1:]))), "B/iteration")
	b.ReportMetric(float64(len(reqs[iters-1].Raw)), "B/request200")
}

// oneTurnSessions runs one-turn sessions (a question, a prose answer) in
// a new engine and, after each count of sessions in at, returns the
// database's bytes after a checkpoint and the bytes of the user's and the
// model's own text so far.
func oneTurnSessions(tb testing.TB, at ...int) (dbBytes, textBytes []int64) {
	tb.Helper()
	const answer = "The function Add in demo.go returns the sum of its two int arguments."
	llm := providertest.New()
	defer llm.Close()
	llm.SetDynamic(func(r providertest.Recorded) providertest.Reply {
		return providertest.Reply{Content: []string{answer}, Usage: &chat.Usage{InputTokens: len(r.Raw) / 4, OutputTokens: 16}}
	})
	home := tb.TempDir()
	e := openEngineTB(tb, llm, home)
	defer e.Close()
	ws := catWorkspace(tb)
	var text int64
	for i := 1; len(at) > 0; i++ {
		q := "What does Add in demo.go return? (" + strconv.Itoa(i) + ")"
		if _, err := e.RunTurn(context.Background(), SendRequest{Workspace: ws, Text: q}); err != nil {
			tb.Fatal(err)
		}
		text += int64(len(q) + len(answer))
		if i < at[0] {
			continue
		}
		at = at[1:]
		size, err := e.store.SizeAfterCheckpoint(context.Background())
		if err != nil {
			tb.Fatal(err)
		}
		dbBytes, textBytes = append(dbBytes, size), append(textBytes, text)
	}
	if keep := os.Getenv("VIS_PERF_KEEP_DB"); keep != "" { // for a look with sqlite3's dbstat
		if b, err := os.ReadFile(e.store.Path()); err == nil {
			os.WriteFile(keep, b, 0o600)
		}
	}
	return dbBytes, textBytes
}

// BenchmarkStoreBytesPerTurn reports the database's bytes per one-turn
// session after 1,000 of them (after a checkpoint), and those beyond the
// user's and the model's own text.
func BenchmarkStoreBytesPerTurn(b *testing.B) {
	const n = 1000
	var db, text []int64
	for b.Loop() {
		db, text = oneTurnSessions(b, n)
	}
	b.ReportMetric(float64(db[0])/n, "B/session")
	b.ReportMetric(float64(db[0]-text[0])/n, "B/session-beyond-text")
}

// A one-turn session costs the database at most 2 KB beyond the user's and
// the model's own text once the prompt's shared messages are stored once
// (issue 17: 13.3 KB before): measured as what sessions 21 to 120 added,
// so the empty schema's pages do not count.
func TestStoreBytesPerOneTurnSession(t *testing.T) {
	t.Parallel()
	db, text := oneTurnSessions(t, 20, 120)
	if per := (db[1] - db[0] - (text[1] - text[0])) / 100; per > 2048 {
		t.Errorf("%d bytes per one-turn session beyond its text, want ≤ 2048", per)
	} else {
		t.Logf("%d bytes per one-turn session beyond its text", per)
	}
}
