package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A session that outgrows a small window: the third turn's request folds
// the first turn's programs and keeps both earlier answers; `vis run
// --json` prints the warning with the turn's fold, `vis show` marks the
// turn, and `vis show --json` carries context_fold.
func TestContextFoldIsShown(t *testing.T) {
	t.Parallel()
	const programs = 30
	var script []providertest.Reply
	for n := 1; n <= 2; n++ {
		for k := 1; k <= programs; k++ {
			script = append(script, providertest.Reply{Code: fmt.Sprintf("print(%d) # turn %d program %d %s", k, n, k, strings.Repeat("p", 80))})
		}
		script = append(script, providertest.Reply{Content: []string{fmt.Sprintf("Answer %d, kept.", n)}})
	}
	script = append(script, providertest.Reply{Content: []string{"Answer 3."}})
	e := newEnv(t, script...)
	cfg := "providers:\n  - id: local\n    base_url: " + e.llm.URL + "\n    models: [{name: fake-model, context: 4000}]\n"
	if err := os.WriteFile(filepath.Join(e.home, "config.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.run("", "run", "--workspace", e.ws, "--json", "question 1")
	if r.code != 0 {
		t.Fatalf("turn 1: %+v", r)
	}
	var id string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["session_id"] != nil && id == "" {
			id, _ = m["session_id"].(string)
		}
	}
	if id == "" {
		t.Fatalf("no session id in:\n%s", r.stdout)
	}
	if r := e.run("", "run", "--session", id, "question 2"); r.code != 0 {
		t.Fatalf("turn 2: %+v", r)
	}
	from := len(e.llm.Requests())
	r = e.run("", "run", "--session", id, "--json", "question 3")
	if r.code != 0 || !strings.Contains(r.stdout, `"programs_folded":`) || !strings.Contains(r.stdout, "Earlier programs folded to fit the context: ") {
		t.Fatalf("turn 3: exit %d, no fold in its events:\n%s", r.code, r.stdout)
	}
	reqs := e.llm.Requests()
	if len(reqs) != from+1 {
		t.Fatalf("%d requests for turn 3", len(reqs)-from)
	}
	user := fmt.Sprint(reqs[from].Messages[len(reqs[from].Messages)-1]["content"])
	if !strings.Contains(user, "Answer 1, kept.") || !strings.Contains(user, "Answer 2, kept.") || !strings.Contains(user, "program(s) folded to fit the context window") ||
		strings.Contains(user, "dropped turn(s)") {
		t.Fatalf("turn 3's request:\n%s", user)
	}
	r = e.run("", "show", id)
	turn3 := r.stdout[strings.Index(r.stdout, "## turn 3"):]
	if r.code != 0 || !strings.Contains(turn3, "\n⋯ Earlier programs folded to fit the context: ") || !strings.Contains(turn3, "every answer kept.") {
		t.Errorf("show: exit %d:\n%s", r.code, turn3)
	}
	r = e.run("", "show", "--json", id)
	var tr struct {
		Turns []struct {
			ContextFold *struct {
				ProgramsFolded int    `json:"programs_folded"`
				Note           string `json:"note"`
			} `json:"context_fold"`
		} `json:"turns"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &tr); err != nil || len(tr.Turns) != 3 {
		t.Fatalf("show --json: %v\n%.300s", err, r.stdout)
	}
	if f := tr.Turns[2].ContextFold; f == nil || f.ProgramsFolded == 0 || f.Note == "" {
		t.Errorf("turn 3's context_fold = %+v", f)
	}
	if tr.Turns[0].ContextFold != nil {
		t.Errorf("turn 1 fitted, yet context_fold = %+v", tr.Turns[0].ContextFold)
	}
}
