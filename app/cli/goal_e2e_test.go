package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A budget of 3 halts the turn after exactly 3 model iterations, however
// much the model would go on.
func TestGoalBudgetHaltsAfterExactlyThreeIterations(t *testing.T) {
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
