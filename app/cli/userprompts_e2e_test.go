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

// vis run "/name args" runs a prompt file of $VIS_HOME/prompts as the
// turn's request, arguments put in; vis show prints the expanded text as
// the person's message; an unknown /name exits 1 naming it; /help lists
// the file with its description.
func TestRunUserPromptCommand(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"looked"}})
	dir := filepath.Join(e.home, "prompts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "look.md"), []byte("---\ndescription: Look at one file\n---\nLook at $1 and say what $2 does."), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.run("", "run", "/look main.go 'the loop'")
	if r.code != 0 || !strings.Contains(r.stdout, "looked") {
		t.Fatalf("vis run /look: %+v", r)
	}
	want := "Look at main.go and say what the loop does."
	if got := fmt.Sprint(e.llm.Requests()[0].Messages[len(e.llm.Requests()[0].Messages)-1]["content"]); !strings.Contains(got, want) {
		t.Errorf("the request:\n%s\nwant %q", got, want)
	}
	var sessions []map[string]any
	if r := e.run("", "sessions", "--json"); r.code != 0 || json.Unmarshal([]byte(r.stdout), &sessions) != nil || len(sessions) != 1 {
		t.Fatalf("vis sessions: %+v", r)
	}
	if r := e.run("", "show", fmt.Sprint(sessions[0]["id"])); r.code != 0 || !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "/look") {
		t.Errorf("vis show: %+v", r)
	}
	if r := e.run("", "run", "/nosuch x"); r.code != 1 || !strings.Contains(r.stderr, "unknown command /nosuch") {
		t.Errorf("unknown command: %+v", r)
	}
	if r := e.run("", "run", "/help"); r.code != 0 || !strings.Contains(r.stdout, "`/look` — Look at one file (home, ") {
		t.Errorf("/help: %+v", r)
	}
}
