package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/store"
)

// visBin is the real binary, built once from the repository root.
var visBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vis-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	visBin = filepath.Join(dir, "vis")
	build := exec.Command("go", "build", "-o", visBin, ".")
	build.Dir = "../.."
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build vis:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type env struct {
	t    *testing.T
	home string
	ws   string
	llm  *providertest.Server
	vars []string
}

func newEnv(t *testing.T, replies ...providertest.Reply) *env {
	t.Helper()
	llm := providertest.New(replies...)
	t.Cleanup(llm.Close)
	e := &env{t: t, home: t.TempDir(), ws: t.TempDir(), llm: llm}
	e.vars = []string{"VIS_HOME=" + e.home, "VIS_BASE_URL=" + llm.URL, "VIS_MODEL=fake-model", "HOME=" + e.home, "PATH=" + os.Getenv("PATH")}
	return e
}

type run struct {
	code           int
	stdout, stderr string
}

func (e *env) cmd(args ...string) *exec.Cmd {
	c := exec.Command(visBin, args...)
	c.Dir = e.ws
	c.Env = e.vars
	return c
}

func (e *env) run(stdin string, args ...string) run {
	e.t.Helper()
	c := e.cmd(args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	c.Stdin = strings.NewReader(stdin)
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return run{code, out.String(), errb.String()}
}

// waitRequests waits until the fake LLM has received n requests.
func waitRequests(t *testing.T, llm *providertest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(llm.Requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the fake LLM received %d requests, want %d", len(llm.Requests()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// intact opens the env's database (the process that wrote it is gone),
// checks it with SQLite's integrity check and returns the session's
// stored iterations, turn by turn, for a before/after comparison.
func (e *env) intact(t *testing.T, sid string) []store.Iteration {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(e.home, "desktop", "vis.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	its, err := st.SessionIterations(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	return its
}

func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q (%v)", line, err)
		}
		out = append(out, m)
	}
	return out
}

func phases(lines []map[string]any) []string {
	var ps []string
	for _, l := range lines {
		ps = append(ps, l["event"].(string))
	}
	return ps
}

func contains(ps []string, p string) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}

func TestRunJSONStreamsEveryPhaseAndEndsWithResult(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Reasoning: []string{"look ", "first"}, Code: "r = ls()\nprint(sorted([x['name'] for x in r['entries']]))", Usage: &chat.Usage{InputTokens: 100, OutputTokens: 20}},
		providertest.Reply{Content: []string{"The folder ", "holds a.txt."}, Usage: &chat.Usage{InputTokens: 150, OutputTokens: 5}},
	)
	os.WriteFile(filepath.Join(e.ws, "a.txt"), []byte("hello\n"), 0o644)
	r := e.run("", "run", "--json", "what is here?")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	lines := jsonLines(t, r.stdout)
	ps := phases(lines)
	for _, want := range []string{"turn-start", "provider-call", "reasoning", "tool-preview", "form-start", "tool-start", "form-result", "iteration-final", "content", "turn-end", "result"} {
		if !contains(ps, want) {
			t.Errorf("no %q event in %v", want, ps)
		}
	}
	var lastSeq float64
	for _, l := range lines[:len(lines)-1] {
		if l["session_id"] == "" || l["seq"] == nil {
			t.Fatalf("event without envelope: %v", l)
		}
		if s := l["seq"].(float64); s <= lastSeq {
			t.Fatalf("seq not increasing: %v after %v", s, lastSeq)
		} else {
			lastSeq = s
		}
	}
	res := lines[len(lines)-1]
	if res["event"] != "result" || res["status"] != "done" || res["answer"] != "The folder holds a.txt." || res["iterations"] != float64(2) || res["turn"] != float64(1) {
		t.Fatalf("result = %v", res)
	}
	if u := res["usage"].(map[string]any); u["input_tokens"] != float64(250) || u["output_tokens"] != float64(25) {
		t.Fatalf("usage = %v", u)
	}
	// The program's printed output went back to the model as the tool result.
	reqs := e.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last["role"] != "tool" || !strings.Contains(fmt.Sprint(last["content"]), "['a.txt']") {
		t.Fatalf("tool result = %v", last)
	}
	// Prompt caching: request 1 is a byte-exact prefix of request 2.
	m1, _ := json.Marshal(reqs[0].Body["messages"])
	m2, _ := json.Marshal(reqs[1].Body["messages"])
	if !bytes.HasPrefix(m2, m1[:len(m1)-1]) {
		t.Fatalf("request 1 messages are not a prefix of request 2")
	}
}

func TestRunPlainPrintsAnswerAndContinueCarriesTheConversation(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "def double(x):\n    \"\"\"Twice x.\"\"\"\n    return 2 * x\nprint(double(2))"},
		providertest.Reply{Content: []string{"Defined **double**."}},
	)
	r := e.run("", "run", "define a helper")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "Defined **double**." {
		t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	// A new process continues the session: the recap carries the first
	// answer and the restored def still works.
	e.llm.Push(
		providertest.Reply{Code: "print(double(21))"},
		providertest.Reply{Content: []string{"42"}},
	)
	r = e.run("", "run", "--continue", "use it")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "42" {
		t.Fatalf("continue: exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	reqs := e.llm.Requests()
	user := fmt.Sprint(reqs[2].Messages[len(reqs[2].Messages)-1]["content"])
	for _, want := range []string{"CONVERSATION-SO-FAR", "define a helper", "Defined **double**.", "CURRENT-USER-MESSAGE", "use it"} {
		if !strings.Contains(user, want) {
			t.Errorf("second turn's user message lacks %q:\n%s", want, user)
		}
	}
	tool := fmt.Sprint(reqs[3].Messages[len(reqs[3].Messages)-1]["content"])
	if !strings.Contains(tool, "42") {
		t.Fatalf("restored def did not run: %s", tool)
	}
	// One session with two turns.
	r = e.run("", "sessions", "--json")
	var ss []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &ss); err != nil || len(ss) != 1 || ss[0]["turns"] != float64(2) {
		t.Fatalf("sessions = %s (%v)", r.stdout, err)
	}
	id := ss[0]["id"].(string)
	r = e.run("", "show", id)
	for _, want := range []string{"define a helper", "def double(x):", "4", "Defined **double**.", "turn 2", "print(double(21))"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, r.stdout)
		}
	}
	// --session ID continues that session too; stdin prompt.
	e.llm.Push(providertest.Reply{Content: []string{"third"}})
	r = e.run("from stdin", "run", "--session", id, "-")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "third" {
		t.Fatalf("--session: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	reqs = e.llm.Requests()
	if user := fmt.Sprint(reqs[4].Messages[len(reqs[4].Messages)-1]["content"]); !strings.Contains(user, "from stdin") {
		t.Fatalf("stdin prompt not sent: %s", user)
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	t.Run("usage", func(t *testing.T) {
		e := newEnv(t)
		if r := e.run("", "run"); r.code != 2 || !strings.Contains(r.stderr, "PROMPT") {
			t.Fatalf("%+v", r)
		}
		if r := e.run("", "run", "--session", "x", "--continue", "hi"); r.code != 2 {
			t.Fatalf("%+v", r)
		}
		if r := e.run("", "run", "--continue", "hi"); r.code != 2 || !strings.Contains(r.stderr, "no session") {
			t.Fatalf("%+v", r)
		}
		if r := e.run("", "show", "nope"); r.code != 2 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("not configured", func(t *testing.T) {
		e := newEnv(t)
		e.vars = []string{"VIS_HOME=" + e.home, "HOME=" + e.home, "PATH=" + os.Getenv("PATH")}
		r := e.run("", "run", "hi")
		if r.code != 2 || !strings.Contains(r.stderr, "VIS_BASE_URL") {
			t.Fatalf("%+v", r)
		}
		if len(e.llm.Requests()) != 0 {
			t.Fatal("a request was sent")
		}
	})
	t.Run("auth error names the endpoint and what to do, never the key", func(t *testing.T) {
		e := newEnv(t, providertest.Reply{Status: 401, Message: "invalid api key"})
		e.vars = append(e.vars, "VIS_API_KEY=sk-secret-123")
		r := e.run("", "run", "hi")
		if r.code != 1 || !strings.Contains(r.stderr, e.llm.URL) || !strings.Contains(r.stderr, "refused the API key (401): check the key") {
			t.Fatalf("%+v", r)
		}
		if strings.Contains(r.stderr+r.stdout, "sk-secret-123") {
			t.Fatal("the key leaked into the output")
		}
	})
}

func TestSIGINTCancelsAndKeepsWhatSettled(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "x = 40 + 2\nprint(x)"},
		providertest.Reply{Hang: true},
	)
	c := e.cmd("run", "--json", "long job")
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	c.Stderr = &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	calls := 0
	var sid string
	for sc.Scan() {
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		sid, _ = m["session_id"].(string)
		if m["event"] == "provider-call" {
			calls++
			if calls == 2 { // the second request hangs: interrupt now
				waitRequests(t, e.llm, 2)
				c.Process.Signal(syscall.SIGINT)
			}
		}
		if m["event"] == "result" && m["status"] != "cancelled" {
			t.Fatalf("result = %v", m)
		}
	}
	err = c.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit = %v, stderr %s", err, errb.String())
	}
	r := e.run("", "show", "--json", sid)
	var tr struct {
		Turns []struct {
			Status     string
			Iterations []struct{ Code, Output, Status string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &tr); err != nil {
		t.Fatal(err, r.stdout)
	}
	if len(tr.Turns) != 1 || tr.Turns[0].Status != "cancelled" {
		t.Fatalf("turns = %+v", tr.Turns)
	}
	if its := tr.Turns[0].Iterations; len(its) < 1 || its[0].Output != "42\n" {
		t.Fatalf("settled iteration lost: %+v", its)
	}
	if its := e.intact(t, sid); len(its) < 1 || its[0].Output != "42\n" {
		t.Fatalf("stored iterations after SIGINT: %+v", its)
	}
}

// Killing the process mid-turn loses at most the iteration in flight: the
// next run marks the turn interrupted and tells the model in its recap.
func TestKilledMidTurnIsInterruptedAndRecapped(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "write('notes.txt', 'step one')\nprint('wrote notes')"},
		providertest.Reply{Hang: true},
	)
	c := e.cmd("run", "--json", "write notes then more")
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	calls := 0
	for sc.Scan() {
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		if m["event"] == "provider-call" {
			if calls++; calls == 2 {
				waitRequests(t, e.llm, 2) // the hanging request is in flight
				c.Process.Kill()          // SIGKILL: no chance to clean up
				break
			}
		}
	}
	c.Wait()
	sid := sessionOf(t, e)
	settled := e.intact(t, sid)
	if len(settled) != 1 || settled[0].Output != "wrote notes\n" {
		t.Fatalf("stored iterations after the kill: %+v", settled)
	}

	e.llm.Push(providertest.Reply{Content: []string{"continued"}})
	r := e.run("", "run", "--continue", "go on")
	if r.code != 0 {
		t.Fatalf("continue: exit %d %s", r.code, r.stderr)
	}
	reqs := e.llm.Requests()
	user := fmt.Sprint(reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1]["content"])
	for _, want := range []string{"write notes then more", "write('notes.txt', 'step one')", "INTERRUPTED"} {
		if !strings.Contains(user, want) {
			t.Errorf("recap lacks %q:\n%s", want, user)
		}
	}
	r = e.run("", "sessions", "--json")
	var ss []map[string]any
	json.Unmarshal([]byte(r.stdout), &ss)
	r = e.run("", "show", "--json", ss[0]["id"].(string))
	var tr struct {
		Turns []struct {
			Status     string
			Iterations []struct{ Output string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 2 || tr.Turns[0].Status != "interrupted" || len(tr.Turns[0].Iterations) != 1 || tr.Turns[0].Iterations[0].Output != "wrote notes\n" {
		t.Fatalf("turns = %+v", tr.Turns)
	}
	if after := e.intact(t, sid); len(after) < len(settled) || !cmp.Equal(settled, after[:len(settled)]) {
		t.Fatalf("the settled iterations changed after the restart:\n%s", cmp.Diff(settled, after))
	}
}

// BenchmarkRunPeakRSS reports the peak resident memory of a whole `vis run`
// process for a 1-iteration and a 50-iteration turn against the fake LLM.
func BenchmarkRunPeakRSS(b *testing.B) {
	for _, n := range []int{1, 50} {
		b.Run(fmt.Sprintf("iterations=%d", n), func(b *testing.B) {
			var peak int64
			for i := 0; i < b.N; i++ {
				llm := providertest.New()
				calls := 0
				llm.SetDynamic(func(providertest.Recorded) providertest.Reply {
					calls++
					if calls >= n {
						return providertest.Reply{Content: []string{"done"}}
					}
					return providertest.Reply{Code: fmt.Sprintf("x = [i * i for i in range(1000)]\nprint(len(x), %d)", calls)}
				})
				home, ws := b.TempDir(), b.TempDir()
				c := exec.Command(visBin, "run", "--json", "bench")
				c.Dir = ws
				c.Env = []string{"VIS_HOME=" + home, "HOME=" + home, "VIS_BASE_URL=" + llm.URL, "VIS_MODEL=m", "PATH=" + os.Getenv("PATH")}
				if out, err := c.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				llm.Close()
				if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > peak {
					peak = ru.Maxrss
				}
			}
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MB")
		})
	}
}
