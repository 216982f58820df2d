package cli_test

import (
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// vis diff --all: every file the session's turns changed, with the turns
// and the net change; a file a later turn put back has no net change.
func TestDiffAll(t *testing.T) {
	e := newEnv(t,
		providertest.Reply{Code: `write("a.txt", "one\n")
write("tmp.txt", "x\n")`},
		providertest.Reply{Content: []string{"One."}},
		providertest.Reply{Code: `write("a.txt", "one\ntwo\n")
shell("rm tmp.txt")`},
		providertest.Reply{Content: []string{"Two."}},
	)
	if r := e.run("", "run", "first"); r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	if r := e.run("", "run", "--continue", "second"); r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	r := e.run("", "diff", "--all", "--stat")
	if r.code != 0 || !strings.Contains(r.stdout, "turns 1-2: 2 files touched, net +2 -0\n") ||
		!strings.Contains(r.stdout, "added     a.txt  +2 -0  (turns 1, 2)\n") || !strings.Contains(r.stdout, "unchanged tmp.txt  (turns 1, 2)\n") {
		t.Fatalf("diff --all --stat: %+v", r)
	}
	if r := e.run("", "diff", "--all"); r.code != 0 || !strings.Contains(r.stdout, "+one\n+two\n") {
		t.Fatalf("diff --all: %+v", r)
	}
	if r := e.run("", "diff", "--all", "--turn", "1"); r.code != 2 {
		t.Fatalf("diff --all --turn: %+v", r)
	}
}
