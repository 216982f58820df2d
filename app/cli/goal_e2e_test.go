package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/store"
)

// A budget of 3 halts the turn after exactly 3 model iterations, however
// much the model would go on.
func TestGoalBudgetHaltsAfterExactlyThreeIterations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	calls := 0
	e.llm.SetDynamic(func(providertest.Recorded) providertest.Reply {
		calls++
		return providertest.Reply{Code: fmt.Sprintf("print('step %d')", calls)}
	})
	r := e.run("", "run", "--json", "/goal --budget 3 make every test pass")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := jsonLines(t, r.stdout)
	res := lines[len(lines)-1]
	if res["status"] != "halted" || res["iterations"] != float64(3) || !strings.Contains(fmt.Sprint(res["answer"]), "budget reached") {
		t.Fatalf("result = %v", res)
	}
	if n := len(e.llm.Requests()); n != 3 {
		t.Fatalf("%d model requests, want 3", n)
	}
	// The model saw the goal's status and rules, and the objective as its message.
	first := e.llm.Requests()[0]
	sys := fmt.Sprint(first.Messages[0]["content"])
	user := fmt.Sprint(first.Messages[len(first.Messages)-1]["content"])
	if !strings.Contains(user, "/goal --budget 3 make every test pass") || !strings.Contains(sys, "update_goal") {
		t.Fatalf("goal not in the prompt:\nSYSTEM %.300s\nUSER %s", sys, user)
	}
	second := e.llm.Requests()[1]
	if last := fmt.Sprint(second.Messages[len(second.Messages)-1]["content"]); !strings.Contains(last, `session["goal_status"] = "active"`) {
		t.Fatalf("goal_status not in the session delta: %s", last)
	}

	if r := e.run("", "sessions"); !strings.Contains(r.stdout, "make every test pass") || strings.Contains(r.stdout, "--budget") {
		t.Fatalf("the session is not named after the goal's objective:\n%s", r.stdout)
	}
	r = e.run("", "goal", "--json")
	var g map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &g); err != nil {
		t.Fatalf("vis goal --json: %v %q", err, r.stdout)
	}
	for k, want := range map[string]any{"status": "budget_limited", "iterations_used": float64(3), "iteration_budget": float64(3), "objective": "make every test pass"} {
		if g[k] != want {
			t.Errorf("goal[%s] = %v, want %v", k, g[k], want)
		}
	}
	for _, k := range []string{"id", "tokens_used", "time_used_ms", "version", "revision"} {
		if _, ok := g[k]; !ok {
			t.Errorf("vis goal --json lacks %s", k)
		}
	}
	// Resume is refused once the budget is spent: exit 1 with the reason, no model call.
	r = e.run("", "run", "--continue", "/goal --resume")
	if r.code != 1 || r.stderr == "" || len(e.llm.Requests()) != 3 {
		t.Fatalf("resume after budget: exit %d %q, %d requests", r.code, r.stderr, len(e.llm.Requests()))
	}
}

func TestGoalCommandsMakeNoModelCall(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Content: []string{"Working on it: step one done."}},
		providertest.Reply{Code: "update_goal('complete')\nprint('marked')"},
		providertest.Reply{Content: []string{"Done: the README exists (evidence: cat shows it)."}},
	)
	r := e.run("", "run", "/goal write a README")
	if r.code != 0 || !strings.Contains(r.stdout, "Done: the README exists") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	// The first prose reply was progress: the same turn went on with the continuation prompt.
	reqs := e.llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	cont := fmt.Sprint(reqs[1].Messages[len(reqs[1].Messages)-1]["content"])
	if reqs[1].Messages[len(reqs[1].Messages)-1]["role"] != "user" || cont == "" {
		t.Fatalf("no continuation prompt: %v", reqs[1].Messages[len(reqs[1].Messages)-1])
	}
	r = e.run("", "goal", "--json")
	var g map[string]any
	json.Unmarshal([]byte(r.stdout), &g)
	if g["status"] != "complete" {
		t.Fatalf("goal = %v", g)
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"run", "--continue", "/goal"}, 0, "complete"},
		{[]string{"run", "--continue", "/goal --pause"}, 1, "/goal"},
		{[]string{"run", "--continue", "/goal --budget x fix it"}, 1, "Use /goal"},
		{[]string{"run", "--continue", "/goal --clear"}, 0, ""},
		{[]string{"run", "--continue", "/nope"}, 1, "unknown command /nope"},
		{[]string{"run", "--continue", "/help"}, 0, "/goal"},
	} {
		r := e.run("", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.out) {
			t.Errorf("%v: exit %d, out %q err %q", tc.args, r.code, r.stdout, r.stderr)
		}
	}
	if n := len(e.llm.Requests()); n != 3 {
		t.Fatalf("commands called the model: %d requests", n)
	}
	if r := e.run("", "goal"); !strings.Contains(r.stdout, "no goal") {
		t.Fatalf("cleared goal still shown: %q", r.stdout)
	}
}

// A goal whose turn died with the process is paused at the next start, and
// a genuine message resumes it.
func TestGoalOfAKilledTurnIsPaused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Code: "print('working')"}, providertest.Reply{Hang: true})
	c := e.cmd("run", "--json", "/goal finish the migration")
	stdout, _ := c.StdoutPipe()
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
				waitRequests(t, e.llm, 2)
				c.Process.Kill()
				break
			}
		}
	}
	c.Wait()
	r := e.run("", "goal", "--json")
	var g map[string]any
	json.Unmarshal([]byte(r.stdout), &g)
	if g["status"] != "paused" {
		t.Fatalf("goal after the kill = %v (%s)", g, r.stderr)
	}
	e.llm.Push(providertest.Reply{Code: "update_goal('complete')\nprint('ok')"}, providertest.Reply{Content: []string{"Migrated."}})
	if r := e.run("", "run", "--continue", "carry on"); r.code != 0 {
		t.Fatalf("carry on: %d %s", r.code, r.stderr)
	}
	r = e.run("", "goal", "--json")
	json.Unmarshal([]byte(r.stdout), &g)
	if g["status"] != "complete" {
		t.Fatalf("goal = %v", g)
	}
}

// `vis goal set` runs the goal's turn like `vis run`: the objective is the
// model's message, the session is named after it.
func TestGoalSetRunsTheGoalsTurn(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "update_goal('complete')\nprint('checked')"},
		providertest.Reply{Content: []string{"The parser handles every case: verified."}},
	)
	r := e.run("", "goal", "set", "--budget", "4", "--json", "port", "the", "parser")
	if r.code != 0 {
		t.Fatalf("vis goal set: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	res := lastJSON(t, r.stdout)
	if res["event"] != "result" || res["status"] != "done" || res["answer"] != "The parser handles every case: verified." {
		t.Fatalf("result = %v", res)
	}
	reqs := e.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if user := fmt.Sprint(reqs[0].Messages[len(reqs[0].Messages)-1]["content"]); !strings.Contains(user, "/goal --budget 4 port the parser") {
		t.Fatalf("the model's message lacks the objective:\n%s", user)
	}
	g := goalJSON(t, e)
	if g["status"] != "complete" || g["objective"] != "port the parser" || g["iterations_used"] != float64(2) {
		t.Fatalf("goal = %v", g)
	}
	if r := e.run("", "sessions"); !strings.Contains(r.stdout, "port the parser") {
		t.Fatalf("the session is not named after the objective:\n%s", r.stdout)
	}
	// Refusals say why and change nothing.
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"goal", "resume"}, 1, "Cannot resume a complete goal."},
		{[]string{"goal", "pause"}, 1, "Cannot pause a complete goal."},
		{[]string{"goal", "set"}, 2, "missing OBJECTIVE"},
		{[]string{"goal", "frobnicate"}, 2, "unknown verb"},
		{[]string{"goal", "pause", "now"}, 2, "unexpected"},
	} {
		if r := e.run("", c.args...); r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("vis %v = %d %q; want %d with %q", c.args, r.code, r.stderr, c.code, c.want)
		}
	}
	if g2 := goalJSON(t, e); g2["revision"] != g["revision"] {
		t.Errorf("a refusal wrote the goal: %v", g2)
	}
	if r := e.run("", "goal", "clear"); r.code != 0 || !strings.Contains(r.stdout, "no goal") {
		t.Fatalf("vis goal clear: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if len(e.llm.Requests()) != 2 {
		t.Fatalf("controls called the model")
	}
}

// A pause from another process stops a goal turn that streams in this
// one: the running `vis goal resume` ends halted with the goal's message,
// and no model request is sent after the pause.
func TestGoalPauseFromAnotherProcessStopsTheStream(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Code: "print('step one')"}, providertest.Reply{Hang: true})
	c := e.cmd("goal", "set", "--json", "migrate the database")
	var out bytes.Buffer
	c.Stdout = &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitRequests(t, e.llm, 2) // the second request streams (hangs)
	r := e.run("", "goal", "pause", "--json")
	if r.code != 0 {
		t.Fatalf("vis goal pause: %d %s", r.code, r.stderr)
	}
	var paused map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &paused); err != nil || paused["status"] != "paused" {
		t.Fatalf("pause printed %q (%v)", r.stdout, err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the goal turn's process: %v\n%s", err, out.String())
		}
	case <-time.After(60 * time.Second):
		c.Process.Kill()
		t.Fatalf("the streaming goal turn did not stop after the pause:\n%s", out.String())
	}
	res := lastJSON(t, out.String())
	if res["status"] != "halted" || res["answer"] != "Goal stopped by the user." {
		t.Fatalf("result = %v", res)
	}
	if n := len(e.llm.Requests()); n != 2 {
		t.Fatalf("%d requests after the pause, want 2", n)
	}
	// Resume from the CLI starts the goal's turn again, with the neutral
	// resume prompt.
	e.llm.Push(providertest.Reply{Content: []string{"Still migrating; next table."}}, providertest.Reply{Code: "update_goal('blocked')"}, providertest.Reply{Content: []string{"Blocked: the staging DB is down."}})
	r = e.run("", "goal", "resume", "--json")
	if r.code != 0 || lastJSON(t, r.stdout)["answer"] != "Blocked: the staging DB is down." {
		t.Fatalf("vis goal resume: %d %s %s", r.code, r.stdout, r.stderr)
	}
	reqs := e.llm.Requests()
	if user := fmt.Sprint(reqs[2].Messages[len(reqs[2].Messages)-1]["content"]); !strings.Contains(user, "/goal --resume") || !strings.Contains(user, "The user resumed the session goal") {
		t.Fatalf("the resume turn's message:\n%s", user)
	}
	if g := goalJSON(t, e); g["status"] != "blocked" {
		t.Fatalf("goal = %v", g)
	}
}

func lastJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("last line is not JSON: %q", lines[len(lines)-1])
	}
	return m
}

func goalJSON(t *testing.T, e *env) map[string]any {
	t.Helper()
	r := e.run("", "goal", "--json")
	var g map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &g); err != nil {
		t.Fatalf("vis goal --json: %v %q %q", err, r.stdout, r.stderr)
	}
	return g
}

// Two processes never run turns of one session at once: a `vis run
// --continue --wait` while another process's turn runs waits in the
// session's queue, runs when that turn ends, and prints its own answer.
// (Without --wait it is refused: TestSecondProcessIsRefused.)
func TestSecondProcessWaitsForTheRunningTurn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"first"}})
	if r := e.run("", "run", "start"); r.code != 0 {
		t.Fatalf("first turn: %d %s", r.code, r.stderr)
	}
	e.llm.Push(
		providertest.Reply{Content: []string{"slow ", "answer ", "one ", "word ", "at ", "a ", "time"}, Delay: 150 * time.Millisecond},
		providertest.Reply{Content: []string{"second answer"}},
	)
	a := e.cmd("run", "--continue", "the slow one")
	var outA bytes.Buffer
	a.Stdout = &outA
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	waitRequests(t, e.llm, 2)
	r := e.run("", "run", "--continue", "--wait", "the second one")
	if err := a.Wait(); err != nil {
		t.Fatalf("the first process: %v", err)
	}
	if r.code != 0 || strings.TrimSpace(r.stdout) != "second answer" {
		t.Fatalf("the second process: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if strings.TrimSpace(outA.String()) != "slow answer one word at a time" {
		t.Fatalf("the first process printed %q", outA.String())
	}
	r = e.run("", "show", "--json", sessionOf(t, e))
	var show struct {
		Turns []struct {
			Request string    `json:"request"`
			Status  string    `json:"status"`
			Started time.Time `json:"started"`
			Dur     int64     `json:"duration_ms"`
		} `json:"turns"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &show); err != nil || len(show.Turns) != 3 {
		t.Fatalf("vis show: %v %s", err, r.stdout)
	}
	slow, second := show.Turns[1], show.Turns[2]
	if slow.Request != "the slow one" || second.Request != "the second one" || slow.Status != "done" || second.Status != "done" {
		t.Fatalf("turns = %+v", show.Turns)
	}
	if end := slow.Started.Add(time.Duration(slow.Dur) * time.Millisecond); second.Started.Before(end.Add(-5 * time.Millisecond)) {
		t.Fatalf("the second turn started at %s, before the first ended at %s", second.Started, end)
	}
}

// One writer per session: while a process runs a session's turn, a second
// `vis run --continue` (or --session) is refused at once, exit 1, with the
// sentence naming the other process, and a JSON error event with the code
// "conflict" under --json; the running turn is untouched, the database
// intact, and once the first process is gone the session takes turns again.
func TestSecondProcessIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"first"}})
	if r := e.run("", "run", "start"); r.code != 0 {
		t.Fatalf("first turn: %d %s", r.code, r.stderr)
	}
	sid := sessionOf(t, e)
	e.llm.Push(providertest.Reply{Code: "print('settled')"}, providertest.Reply{Hang: true})
	a := e.cmd("run", "--continue", "the long one")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	waitRequests(t, e.llm, 3) // its second request streams (hangs)
	want := fmt.Sprintf("session %s is running in another Vis (pid %d)", sid, a.Process.Pid)
	r := e.run("", "run", "--continue", "me too")
	if r.code != 1 || !strings.Contains(r.stderr, want) || r.stdout != "" {
		t.Errorf("plain: exit %d, stdout %q, stderr %q; want 1 and %q", r.code, r.stdout, r.stderr, want)
	}
	r = e.run("", "run", "--json", "--session", sid, "me too")
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("--json: exit %d, stderr %q", r.code, r.stderr)
	}
	if ev := lastJSON(t, r.stdout); ev["event"] != "error" || ev["code"] != "conflict" || ev["pid"] != float64(a.Process.Pid) || ev["session_id"] != sid || ev["error"] != want {
		t.Errorf("--json error event = %v", ev)
	}
	if n := len(e.llm.Requests()); n != 3 {
		t.Errorf("the refused runs reached the model: %d requests", n)
	}
	a.Process.Kill()
	a.Wait()
	// The holder is dead: its claim is taken over at once.
	e.llm.Push(providertest.Reply{Content: []string{"after"}})
	if r := e.run("", "run", "--continue", "go on"); r.code != 0 || strings.TrimSpace(r.stdout) != "after" {
		t.Fatalf("after the holder died: %d %q %q", r.code, r.stdout, r.stderr)
	}
	st, err := store.Open(context.Background(), filepath.Join(e.home, "desktop", "vis.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.IntegrityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
	its, err := st.SessionIterations(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	var outputs []string
	for _, it := range its {
		outputs = append(outputs, it.Output)
	}
	if !slices.Contains(outputs, "settled\n") {
		t.Errorf("the killed turn's settled iteration is gone: %q", outputs)
	}
}

func sessionOf(t *testing.T, e *env) string {
	t.Helper()
	r := e.run("", "sessions", "--json")
	var ss []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ss); err != nil || len(ss) != 1 {
		t.Fatalf("vis sessions: %v %s", err, r.stdout)
	}
	return ss[0].ID
}
