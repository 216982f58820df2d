package cli_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// vis show says when a program's output is clipped and how much it
// printed; vis show --full prints all of it (line 5000 of 5000).
func TestShowClippedOutput(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "for i in range(5000):\n    print('line %04d of 5000 ' % (i + 1) + '-' * 40)"},
		providertest.Reply{Content: []string{"printed"}},
	)
	if r := e.run("", "run", "--workspace", e.ws, "print a lot"); r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	r := e.run("", "sessions", "--json")
	var ss []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &ss); err != nil || len(ss) != 1 {
		t.Fatalf("sessions = %s (%v)", r.stdout, err)
	}
	id := ss[0]["id"].(string)
	const total = 5000 * 59
	r = e.run("", "show", id)
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("✂ program 1's output is clipped at 65536 of %d bytes printed (vis show --full prints the %d kept)", total, total)) ||
		strings.Contains(r.stdout, "line 5000 of 5000") {
		t.Errorf("show: exit %d, no clip note or too much:\n…%s", r.code, r.stdout[max(0, len(r.stdout)-400):])
	}
	r = e.run("", "show", "--full", id)
	if r.code != 0 || !strings.Contains(r.stdout, "line 5000 of 5000 "+strings.Repeat("-", 40)+"\n```") || strings.Contains(r.stdout, "✂") ||
		strings.Count(r.stdout, "\nline ") != 5000 {
		t.Errorf("show --full: exit %d, %d lines:\n…%s", r.code, strings.Count(r.stdout, "\nline "), r.stdout[max(0, len(r.stdout)-400):])
	}
}
