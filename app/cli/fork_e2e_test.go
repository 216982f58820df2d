package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// vis fork, as a person runs it: a two-turn session forked at turn 1 gives
// a new session id whose transcript holds turn 1 only, linked to its
// parent; vis run --session continues the fork; the original keeps both
// turns. Bad input: no --turn (usage, exit 2), a turn past the end or an
// unknown session (exit 1, one sentence).
func TestForkFromTheCLI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"one"}}, providertest.Reply{Content: []string{"two"}}, providertest.Reply{Content: []string{"in the fork"}})
	if r := e.run("", "run", "first"); r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	if r := e.run("", "run", "--continue", "second"); r.code != 0 {
		t.Fatalf("run --continue: %+v", r)
	}
	var parent []map[string]any
	if err := json.Unmarshal([]byte(e.run("", "sessions", "--json").stdout), &parent); err != nil || len(parent) != 1 {
		t.Fatalf("sessions: %v %v", parent, err)
	}
	pid := parent[0]["id"].(string)

	if r := e.run("", "fork", "--session", pid); r.code != 2 || !strings.Contains(r.stderr, "--turn N is required") {
		t.Errorf("fork without --turn: %+v", r)
	}
	if r := e.run("", "fork", "--session", pid, "--turn", "3"); r.code != 1 || !strings.Contains(r.stderr, "has turns 1 to 2") {
		t.Errorf("fork past the end: %+v", r)
	}
	if r := e.run("", "fork", "--session", "nope", "--turn", "1"); r.code != 1 || !strings.Contains(r.stderr, "no session nope") {
		t.Errorf("fork of an unknown session: %+v", r)
	}

	r := e.run("", "fork", "--session", pid, "--turn", "1", "--json")
	if r.code != 0 {
		t.Fatalf("fork: %+v", r)
	}
	var info map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &info); err != nil {
		t.Fatalf("fork --json printed %q: %v", r.stdout, err)
	}
	fid, _ := info["id"].(string)
	if fid == "" || fid == pid || info["fork_of"] != pid || info["fork_turns"] != float64(1) {
		t.Fatalf("the fork: %v", info)
	}
	if r := e.run("", "run", "--session", fid, "go on"); r.code != 0 || !strings.Contains(r.stdout, "in the fork") {
		t.Fatalf("run in the fork: %+v", r)
	}
	turns := func(id string) []string {
		var tr struct {
			Turns []struct{ Request string } `json:"turns"`
		}
		if err := json.Unmarshal([]byte(e.run("", "show", "--json", id).stdout), &tr); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, t := range tr.Turns {
			out = append(out, t.Request)
		}
		return out
	}
	if got := strings.Join(turns(fid), "|"); got != "first|go on" {
		t.Errorf("the fork's turns: %s", got)
	}
	if got := strings.Join(turns(pid), "|"); got != "first|second" {
		t.Errorf("the original's turns: %s", got)
	}
	// The plain form prints just the id, for scripts.
	if r := e.run("", "fork", "--session", pid, "--turn", "0"); r.code != 0 || len(strings.Fields(r.stdout)) != 1 {
		t.Errorf("fork --turn 0: %+v", r)
	}
}
