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
