package backend

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A frozen nREPL (SIGSTOP): the next turn's probe tells the model it is
// unresponsive, with the failed form and the hint, and the window hears the
// same through a resources event and Resources.
func TestUnresponsiveClojureREPLReachesModelAndWindow(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/share/java/nrepl.jar"); err != nil {
		t.Skip("Debian's clojure and libnrepl-clojure are not installed (scripts/deps.sh test installs them)")
	}
	llm := providertest.New(
		providertest.Reply{Code: "r = repl_start('clojure')\nprint(r['result'], r['pid'])"},
		providertest.Reply{Content: []string{"started"}},
		providertest.Reply{Content: []string{"checked"}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "src", "demo"), 0o755)
	os.WriteFile(filepath.Join(ws, "deps.edn"), []byte("{:paths [\"src\"]}\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "src", "demo", "core.clj"), []byte("(ns demo.core)\n"), 0o644)
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "start a REPL"})
	if err != nil {
		t.Fatal(err)
	}
	fed := fmt.Sprint(llm.Requests()[1].Messages[len(llm.Requests()[1].Messages)-1]["content"])
	m := regexp.MustCompile(`started (\d+)`).FindStringSubmatch(fed)
	if m == nil {
		t.Fatalf("no pid in %s", fed)
	}
	pid, _ := strconv.Atoi(m[1])
	if err := syscall.Kill(-pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(-pid, syscall.SIGCONT)

	ch, stop := e.Events().Subscribe(1024)
	defer stop()
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: res.SessionID, Text: "is it there?"}); err != nil {
		t.Fatal(err)
	}
	req := fmt.Sprint(llm.Requests()[2].Messages)
	if !strings.Contains(req, "unresponsive") || !strings.Contains(req, "(+ 1 1)") {
		t.Errorf("the model was not told the REPL is unresponsive:\n%s", req)
	}
	// The window hears it as a resources event; the registry may publish it
	// after the turn's reply, so wait for it rather than read what is
	// buffered (a busy machine delivers it later). A liveness probe of its
	// own may mark it unresponsive first, without the turn's failed form:
	// wait for the entry that carries the form.
	var seen, last *events.Resource
	deadline := time.After(30 * time.Second)
	for seen == nil {
		var ev events.Event
		select {
		case ev = <-ch:
		case <-deadline:
			t.Fatalf("no resources event marked the REPL unresponsive with the failed form (last unresponsive entry: %+v)", last)
		}
		p, ok := events.As[events.Resources](ev)
		if !ok {
			continue
		}
		for _, r := range p.Resources {
			if r.Status == "unresponsive" {
				last = &r
				if r.Detail["form"] == "(+ 1 1)" {
					seen = &r
				}
			}
		}
	}
	if seen.Detail["hint"] == nil {
		t.Errorf("resources event entry = %+v", seen)
	}
	list := e.Resources(ctx, res.SessionID)
	if len(list) != 1 || list[0].Status != "unresponsive" || list[0].Detail["form"] != "(+ 1 1)" {
		t.Errorf("Resources = %+v", list)
	}
}

// A new turn's first message says what moved in the session dict since the
// model last saw it: the recap carries no deltas, and the standing block is
// frozen at the session's first turn.
func TestNewTurnCarriesTheSessionDelta(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	llm := providertest.New(
		providertest.Reply{Code: "r = repl_start('python')\nprint(r['result'])"},
		providertest.Reply{Content: []string{"started"}},
		providertest.Reply{Content: []string{"still there"}},
		providertest.Reply{Content: []string{"nothing moved"}},
	)
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "main.py"), []byte("print(1)\n"), 0o644)
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "start a REPL"})
	if err != nil {
		t.Fatal(err)
	}
	first := fmt.Sprint(llm.Requests()[0].Messages[len(llm.Requests()[0].Messages)-1]["content"])
	if strings.Contains(first, "SESSION-DELTA") {
		t.Errorf("the session's first message carries a delta:\n%s", first)
	}
	for i, want := range []bool{true, true} { // every later turn: its model sees only the block and the recap
		if _, err := e.RunTurn(ctx, SendRequest{SessionID: res.SessionID, Text: fmt.Sprintf("turn %d", i+2)}); err != nil {
			t.Fatal(err)
		}
		reqs := llm.Requests()
		user := fmt.Sprint(reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1]["content"])
		has := strings.Contains(user, ";; -- SESSION-DELTA --\nsession[\"resources\"]") && strings.Contains(user, "pyrepl:")
		if has != want {
			t.Errorf("turn %d: a resources delta = %v, want %v:\n%s", i+2, has, want, user)
		}
		if strings.Contains(user, `del session["turn"]`) || strings.Contains(user, `del session["goal_status"]`) {
			t.Errorf("turn %d: the delta drops per-iteration keys:\n%s", i+2, user)
		}
	}
}
