package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// vis sessions --search finds the turns whose request or answer match, as
// the window's search does: plain (one line a hit, the match marked) and
// --json; a word nothing matches prints no hit and exits 0.
func TestSessionsSearch(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Content: []string{"The flux capacitor needs 1.21 gigawatts."}},
		providertest.Reply{Content: []string{"Bananas are berries."}},
	)
	if r := e.run("", "run", "how much power?"); r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	if r := e.run("", "run", "a fruit fact"); r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	r := e.run("", "sessions", "--search", "gigawatts", "--json")
	var hits []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil || r.code != 0 || len(hits) != 1 {
		t.Fatalf("--search --json: exit %d %s (%v) %s", r.code, r.stdout, err, r.stderr)
	}
	if hits[0]["turn"] != float64(1) || !strings.Contains(hits[0]["snippet"].(string), "«gigawatts»") || hits[0]["title"] != "how much power?" {
		t.Errorf("hit = %v", hits[0])
	}
	r = e.run("", "sessions", "--search", "berries")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], "«berries»") || !strings.Contains(lines[1], "a fruit fact") {
		t.Fatalf("--search: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if id := hits[0]["session_id"].(string); strings.Contains(lines[1], id) {
		t.Errorf("the berries hit names the gigawatts session %s", id)
	}
	r = e.run("", "sessions", "--search", "kumquat", "--json")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("no hit: exit %d %q", r.code, r.stdout)
	}
	if r = e.run("", "sessions", "--search", "kumquat"); r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "no turn matches") {
		t.Errorf("no hit, plain: %+v", r)
	}
}
