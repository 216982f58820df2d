package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A fault is one turn's script for the fake LLM that attacks the app: a
// hostile program (the model's) or a broken provider. The turn must end
// with Status and its error (or what the model was fed back) must say Says.
type fault struct {
	name    string
	replies []providertest.Reply
	status  string
	says    []string // any one of them, in the turn's error or the model's last input
}

// ok is the model's closing reply after its program ran.
var ok = providertest.Reply{Content: []string{"noted"}}

// faultConfig is the configuration the faults run under: small limits so a
// bomb or a silent provider costs seconds, not minutes.
const (
	faultHomeConfig      = "provider: {idle_timeout_seconds: 1}\n"
	faultWorkspaceConfig = "sandbox: {wall_limit_seconds: 5, memory_limit_mb: 64}\n"
	// faultWall is that wall limit as the timeout error says it. The deep
	// list is 200,000 levels, not a million: building a million-deep one
	// took over 5 s under -race on a machine running two CI runs at once,
	// and any depth past 200 proves the check.
	faultWall = "wall limit of 5s"
)

func retryAfter(status int, times int, then ...providertest.Reply) []providertest.Reply {
	var rs []providertest.Reply
	for range times {
		rs = append(rs, providertest.Reply{Status: status, RetryAfter: "0.001"})
	}
	return append(rs, then...)
}

// hostileFaults are issue 16's programs and provider faults.
func hostileFaults() []fault {
	code := func(src string) []providertest.Reply { return []providertest.Reply{{Code: src}, ok} }
	return []fault{
		{"a list containing itself passed to a tool", code("a = []\na.append(a)\nls(a)"), "done", []string{"contains itself"}},
		{"a dict containing itself passed to write", code("d = {}\nd['x'] = d\nwrite('d.txt', d)"), "done", []string{"contains itself"}},
		{"a 200,000-deep list passed to write", code("x = []\nfor i in range(200000):\n    x = [x]\nwrite('deep.txt', x)"), "done", []string{"more than 200 levels"}},
		{"json three million levels deep", code("import json\njson.loads('[' * 3000000 + ']' * 3000000)"), "done", []string{"RecursionError"}},
		{"a memory bomb", code("a = []\nfor i in range(4000):\n    a.append('x' * 1000000)"), "done", []string{"memory limit 64 MB exceeded"}},
		{"an endless loop", code("x = 0\nfor i in range(1000000000000):\n    x += i"), "done", []string{faultWall, "execution steps"}},
		{"a block that sleeps past its limit", code("time.sleep(60)"), "done", []string{faultWall}},
		{"huge output", code("for i in range(100000):\n    print('line %d ' % i + 'x' * 100)"), "done", []string{"output clipped"}},
		{"odd tool inputs", code("for f, a in [(ls, [None]), (cat, [[1, 2]]), (write, [1, 2]), (grep, [{}]), (patch, [None, None])]:\n    print(f, f(*a))"), "done", []string{"error"}},
		{"shell children that fork", code("print(shell('for i in 1 2 3 4; do sleep 300 & done; (sleep 300 &); echo forked')['output'])"), "done", []string{"forked"}},
		{"a reply cut at the token limit", []providertest.Reply{{Calls: []providertest.Call{{Args: `{"code": "write('cut.txt', 'ran')\nx = 1`}}, Finish: "length"}, ok}, "done", []string{"cut off at the output-token limit"}},
		{"tool arguments that are not JSON", []providertest.Reply{{Calls: []providertest.Call{{Args: `{"code": print(1)}`}}}, ok}, "done", []string{"nothing ran"}},
		{"a 500 then an answer", retryAfter(500, 1, ok), "done", nil},
		{"a 429 with Retry-After then an answer", retryAfter(429, 2, ok), "done", nil},
		{"500 until the retries run out", retryAfter(500, 5), "error", []string{"failed (500)"}},
		{"an error body that is not JSON", []providertest.Reply{{Status: 502, RawBody: "<html><body>Bad gateway {", RetryAfter: "0.001"}, ok}, "done", nil},
		{"a stream cut before any output", []providertest.Reply{{Content: []string{"a", "b", "c"}, CutAfter: 1}, ok}, "done", nil},
		{"a stream cut after some output", []providertest.Reply{{Content: []string{"a", "b", "c", "d", "e"}, CutAfter: 3}, ok}, "done", nil},
		{"a silent stream", []providertest.Reply{{Hang: true}, ok}, "done", nil},
		{"a stream that goes silent mid-reply", []providertest.Reply{{Content: []string{"a", "b", "c", "d"}, HangAfter: 3}, ok}, "done", nil},
	}
}

// runFault runs f as a turn of session id (new when "") and checks how it
// ended; it returns the session.
func runFault(t testing.TB, e *Engine, llm *providertest.Server, ws, id string, f fault) (string, TurnResult) {
	t.Helper()
	before := len(llm.Requests())
	llm.Push(f.replies...)
	res, err := e.Run(context.Background(), id, Input{Workspace: ws, Text: "fault: " + f.name})
	if err != nil {
		t.Fatalf("%s: Run: %v", f.name, err)
	}
	if res.Status != f.status {
		t.Fatalf("%s: status %q (%s), want %q", f.name, res.Status, res.Error, f.status)
	}
	if len(f.says) > 0 {
		reqs := llm.Requests()
		fed := res.Error
		if len(reqs) > before {
			fed += "\n" + userMessage(reqs[len(reqs)-1])
		}
		found := false
		for _, s := range f.says {
			found = found || strings.Contains(fed, s)
		}
		if !found {
			t.Fatalf("%s: neither the error nor the model's input says any of %q:\n%.2000s", f.name, f.says, fed)
		}
	}
	if n := llm.Pending(); n != 0 {
		t.Fatalf("%s: %d scripted replies were not used", f.name, n)
	}
	return res.SessionID, res
}

// Every fault of issue 16 ends its own turn with the stated outcome, in
// one engine, one session: the app lives on, the database passes SQLite's
// integrity check after each, and what earlier turns settled is unchanged.
func TestFaultsEndTheirTurnAndKeepTheDatabaseIntact(t *testing.T) {
	// Not parallel: its wall-limit cases (a 200,000-deep list under -race)
	// need the CPU to themselves to fail the way they are meant to.
	llm := providertest.New()
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yml"), []byte(faultHomeConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "vis.yml"), []byte(faultWorkspaceConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()
	id, _ := runFault(t, e, llm, ws, "", fault{name: "a good turn", replies: []providertest.Reply{{Code: "print(6 * 7)"}, ok}, status: "done", says: []string{"42"}})
	for _, f := range hostileFaults() {
		settled, err := e.store.SessionIterations(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		runFault(t, e, llm, ws, id, f)
		if err := e.store.IntegrityCheck(ctx); err != nil {
			t.Fatalf("after %s: %v", f.name, err)
		}
		after, err := e.store.SessionIterations(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) < len(settled) {
			t.Fatalf("after %s: %d iterations, were %d", f.name, len(after), len(settled))
		}
		if diff := cmp.Diff(settled, after[:len(settled)]); diff != "" {
			t.Fatalf("after %s the settled iterations changed (-before +after):\n%s", f.name, diff)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "cut.txt")); err == nil {
		t.Error("the program cut at the token limit ran")
	}
}
