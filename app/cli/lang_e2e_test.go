package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The model starts a Python REPL, evaluates in it, and sees the value in
// the next request; the REPL is listed by repl_status and in the session
// dict, and dies with the process.
func TestPythonREPLThroughTheModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "r = repl_start('python')\nprint(r['result'], r['id'])\nv = repl_eval('python', {'code': 'sum(i*i for i in range(101))'})\nprint('value', v['value'])"},
		providertest.Reply{Code: "s = repl_status('python')\nfor x in s['resources']:\n    print('live', x['id'], x['status'], x.get('pid'))"},
		providertest.Reply{Content: []string{"338350"}},
	)
	os.WriteFile(filepath.Join(e.ws, "main.py"), []byte("print('hi')\n"), 0o644)
	r := e.run("", "run", "sum the squares")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "338350" {
		t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	reqs := e.llm.Requests()
	sys := ""
	for _, m := range reqs[0].Messages {
		if m["role"] == "system" {
			sys += fmt.Sprint(m["content"])
		}
	}
	if !strings.Contains(sys, "LANGUAGE TOOLS") || !strings.Contains(sys, "python") {
		t.Fatalf("no LANGUAGE TOOLS matrix for python in the prompt")
	}
	first := fmt.Sprint(reqs[1].Messages[len(reqs[1].Messages)-1]["content"])
	if !strings.Contains(first, "started pyrepl:") || !strings.Contains(first, "value 338350") {
		t.Fatalf("repl result not fed back: %s", first)
	}
	second := fmt.Sprint(reqs[2].Messages[len(reqs[2].Messages)-1]["content"])
	m := regexp.MustCompile(`live pyrepl:\S+ up (\d+)`).FindStringSubmatch(second)
	if m == nil {
		t.Fatalf("repl_status did not list the live REPL: %s", second)
	}
	if !strings.Contains(first, `session["resources"] = [{`) || !strings.Contains(first, `"kind": "repl"`) {
		t.Fatalf("the REPL is not in the session dict delta: %s", first)
	}
	pid, _ := strconv.Atoi(m[1])
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("REPL pid %d survived the vis process", pid)
	}
}

// Node's REPL through the model, in a JavaScript workspace.
func TestNodeREPLThroughTheModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t,
		providertest.Reply{Code: "repl_start('javascript')\nv = repl_eval('javascript', {'code': 'const xs = [1, 2, 3]; xs.reduce((a, b) => a + b, 0)'})\nprint('value', v['value'])\nw = repl_eval('javascript', {'code': 'await Promise.resolve(xs.length)'})\nprint('again', w['value'])"},
		providertest.Reply{Content: []string{"6"}},
	)
	os.WriteFile(filepath.Join(e.ws, "package.json"), []byte(`{"name":"x","version":"1.0.0"}`), 0o644)
	os.WriteFile(filepath.Join(e.ws, "index.js"), []byte("console.log(1)\n"), 0o644)
	r := e.run("", "run", "add them")
	if r.code != 0 {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	res := fmt.Sprint(e.llm.Requests()[1].Messages[len(e.llm.Requests()[1].Messages)-1]["content"])
	if !strings.Contains(res, "value 6") || !strings.Contains(res, "again 3") {
		t.Fatalf("node REPL result: %s", res)
	}
}

// The model starts a Clojure REPL in a project, evaluates in it, sees the
// value and the nREPL slice of the session dict, and stops it.
func TestClojureREPLThroughTheModel(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/share/java/nrepl.jar"); err != nil {
		t.Skip("Debian's clojure and libnrepl-clojure are not installed (scripts/deps.sh test installs them)")
	}
	e := newEnv(t,
		providertest.Reply{Code: "r = repl_start('clojure')\nprint(r['result'], r['id'])\nv = repl_eval('clojure', {'code': '(+ 1 2)'})\nprint('value', v['value'])"},
		providertest.Reply{Code: "s = repl_stop(session['env']['languages']['clojure']['nrepl']['default'])\nprint(s['result'])"},
		providertest.Reply{Content: []string{"3"}},
	)
	os.MkdirAll(filepath.Join(e.ws, "src", "demo"), 0o755)
	os.WriteFile(filepath.Join(e.ws, "deps.edn"), []byte("{:paths [\"src\"]}\n"), 0o644)
	os.WriteFile(filepath.Join(e.ws, "src", "demo", "core.clj"), []byte("(ns demo.core)\n(defn add [a b] (+ a b))\n"), 0o644)
	r := e.run("", "run", "add one and two in the REPL")
	if r.code != 0 {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	reqs := e.llm.Requests()
	first := fmt.Sprint(reqs[1].Messages[len(reqs[1].Messages)-1]["content"])
	if !strings.Contains(first, "started nrepl:") || !strings.Contains(first, "value 3") {
		t.Fatalf("REPL result not fed back: %s", first)
	}
	if !strings.Contains(first, `session["env"]["languages"]`) || !strings.Contains(first, `"nrepl"`) {
		t.Fatalf("no nREPL delta in the session dict: %s", first)
	}
	second := fmt.Sprint(reqs[2].Messages[len(reqs[2].Messages)-1]["content"])
	if !strings.Contains(second, "stopped") {
		t.Fatalf("repl_stop: %s", second)
	}
}
