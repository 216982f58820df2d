package python

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/resources"
)

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestActivation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files []string
		exts  []string
		want  bool
	}{
		{"pyproject", []string{"pyproject.toml"}, nil, true},
		{"setup.py", []string{"setup.py"}, nil, true},
		{"setup.cfg", []string{"setup.cfg"}, nil, true},
		{"requirements", []string{"requirements.txt"}, nil, true},
		{"Pipfile", []string{"Pipfile"}, nil, true},
		{"uv.lock", []string{"uv.lock"}, nil, true},
		{"a .py file", nil, []string{".py"}, true},
		{"a go module", []string{"go.mod"}, []string{".go"}, false},
		{"empty", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := ext.Environment{
				Files:  func(rel string) bool { return contains(tt.files, rel) },
				HasExt: func(e ...string) bool { return contains(tt.exts, e[0]) },
			}
			ok, err := Extension().Activate(env)
			if err != nil || ok != tt.want {
				t.Errorf("Activate = %v, %v; want %v", ok, err, tt.want)
			}
		})
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func TestResolveOrder(t *testing.T) {
	t.Parallel()
	home, _ := os.UserHomeDir()
	mk := func(t *testing.T, files ...string) string {
		dir := t.TempDir()
		for _, f := range files {
			writeFile(t, dir, f, "")
		}
		return dir
	}
	onPath := func(names ...string) func(string) (string, error) {
		return func(n string) (string, error) {
			if contains(names, n) {
				return "/usr/bin/" + n, nil
			}
			return "", exec.ErrNotFound
		}
	}
	tests := []struct {
		name  string
		files []string
		pin   []string
		envPy string
		path  []string
		want  func(dir string) Interpreter
		nopy  bool
	}{
		{name: "config pin wins, ~ expanded", files: []string{".venv/bin/python"}, pin: []string{"~/py/bin/python", "-X", "dev"}, path: []string{"python3"},
			want: func(string) Interpreter {
				return Interpreter{[]string{filepath.Join(home, "py/bin/python"), "-X", "dev"}, "config"}
			}},
		{name: "relative pin resolves against the project", pin: []string{"tools/python"},
			want: func(d string) Interpreter { return Interpreter{[]string{filepath.Join(d, "tools/python")}, "config"} }},
		{name: "VIS_PYTHON", files: []string{".venv/bin/python"}, envPy: "/opt/py/bin/python3",
			want: func(string) Interpreter { return Interpreter{[]string{"/opt/py/bin/python3"}, "env"} }},
		{name: ".venv before uv", files: []string{".venv/bin/python", "uv.lock"}, path: []string{"uv", "python3"},
			want: func(d string) Interpreter { return Interpreter{[]string{filepath.Join(d, ".venv/bin/python")}, "venv"} }},
		{name: "venv", files: []string{"venv/bin/python"}, path: []string{"python3"},
			want: func(d string) Interpreter { return Interpreter{[]string{filepath.Join(d, "venv/bin/python")}, "venv"} }},
		{name: "uv.lock and uv", files: []string{"uv.lock", "poetry.lock"}, path: []string{"uv", "poetry", "python3"},
			want: func(string) Interpreter { return Interpreter{[]string{"/usr/bin/uv", "run", "python"}, "uv"} }},
		{name: "uv.lock without uv falls through", files: []string{"uv.lock"}, path: []string{"python3"},
			want: func(string) Interpreter { return Interpreter{[]string{"/usr/bin/python3"}, "path"} }},
		{name: "poetry", files: []string{"poetry.lock"}, path: []string{"poetry", "python3"},
			want: func(string) Interpreter { return Interpreter{[]string{"/usr/bin/poetry", "run", "python"}, "poetry"} }},
		{name: "python when no python3", path: []string{"python"},
			want: func(string) Interpreter { return Interpreter{[]string{"/usr/bin/python"}, "path"} }},
		{name: "nothing", nopy: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := mk(t, tt.files...)
			p := New(Options{Interpreter: tt.pin, LookPath: onPath(tt.path...),
				Getenv: func(k string) string {
					if k == "VIS_PYTHON" {
						return tt.envPy
					}
					return ""
				}})
			got, err := p.Resolve(dir)
			if tt.nopy {
				if !errors.Is(err, ErrNoPython) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want(dir), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// a real [tool.uv] table in pyproject.toml counts like uv.lock
	dir := mk(t)
	writeFile(t, dir, "pyproject.toml", "[project]\nname='x'\n\n[tool.uv]\ndev-dependencies = []\n")
	got, _ := New(Options{LookPath: onPath("uv", "python3"), Getenv: func(string) string { return "" }}).Resolve(dir)
	if got.Source != "uv" {
		t.Errorf("[tool.uv] project resolved to %v", got)
	}
}

func TestHasToolUV(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, toml string
		want       bool
	}{
		{"table", "[tool.uv]\npackage = false\n", true},
		{"spaced table", "[ tool . uv ]\n", true},
		{"sub-table", "[tool.uv.sources]\nfoo = { path = '.' }\n", true},
		{"array of tables", "[[tool.uv.index]]\nurl = 'https://x'\n", true},
		{"dotted key under [tool]", "[tool]\nuv.package = false\n", true},
		{"top-level dotted key", "tool.uv.package = false\n", true},
		{"look-alike table", "[tool.uvicorn]\nport = 1\n", false},
		{"look-alike key", "[tool]\nuvloop = true\n", false},
		{"comment", "# [tool.uv]\n[project]\n", false},
		{"trailing comment", "[project] # [tool.uv]\n", false},
		{"string", "[project]\ndescription = \"[tool.uv]\"\n", false},
		{"multi-line string", "[project]\nreadme = \"\"\"\n[tool.uv]\n\"\"\"\n", false},
		{"literal multi-line string", "notes = '''\n[tool.uv]\n'''\n", false},
		{"other tool", "[tool.ruff]\nline-length = 100\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		if got := hasToolUV(tt.toml); got != tt.want {
			t.Errorf("%s: hasToolUV = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseJUnit(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/junit-xunit1.xml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseJUnit(data, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"total": 5, "pass": 2, "fail": 1, "errored": 1, "skipped": 1,
		"failures": []any{
			map[string]any{"test": "tests/test_calc.py::TestDiv::test_div", "type": "fail", "message": "assert 2 == 3", "file": "tests/test_calc.py", "line": 11},
			map[string]any{"test": "tests/test_calc.py::test_boom", "type": "error", "message": `failed on setup with "fixture 'nope' not found"`, "file": "tests/test_calc.py", "line": 14},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := ParseJUnit([]byte("<testsuites"), "/"); err == nil {
		t.Error("truncated XML: no error")
	}
}

func TestParseUnittest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stderr string
		want         map[string]any
	}{
		{"all pass", "...\n----------------------------------------------------------------------\nRan 3 tests in 0.001s\n\nOK\n",
			map[string]any{"total": 3, "pass": 3, "fail": 0, "errored": 0, "skipped": 0, "failures": []any{}}},
		{"skips", "s.\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nOK (skipped=1)\n",
			map[string]any{"total": 2, "pass": 1, "fail": 0, "errored": 0, "skipped": 1, "failures": []any{}}},
		{"no summary: counts stay absent", "Traceback (most recent call last):\nImportError: x\n",
			map[string]any{"failures": []any{}}},
		{"failures and errors", `F.E
======================================================================
ERROR: test_err (tests.test_m.T.test_err)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/p/tests/test_m.py", line 9, in test_err
    raise ValueError("bad")
ValueError: bad

======================================================================
FAIL: test_fail (tests.test_m.T.test_fail)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/p/tests/test_m.py", line 6, in test_fail
    self.assertEqual(1, 2)
AssertionError: 1 != 2

----------------------------------------------------------------------
Ran 3 tests in 0.002s

FAILED (failures=1, errors=1)
`, map[string]any{"total": 3, "pass": 1, "fail": 1, "errored": 1, "skipped": 0, "failures": []any{
			map[string]any{"test": "tests.test_m.T.test_err", "type": "error", "message": "ValueError: bad", "file": "tests/test_m.py", "line": 9},
			map[string]any{"test": "tests.test_m.T.test_fail", "type": "fail", "message": "AssertionError: 1 != 2", "file": "tests/test_m.py", "line": 6},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ParseUnittest(tt.stderr, "/p")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// ---- real python3 ----

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not on PATH")
	}
}

// world is a workspace with the pack active behind the real facade and a
// real resource registry; cleanup stops everything and checks that no
// child survived.
type world struct {
	ws   string
	pack *Pack
	res  *resources.Registry
	f    *langtools.Facade

	mu   sync.Mutex
	pids []int
}

func newWorld(t *testing.T, opts Options) *world {
	t.Helper()
	needPython(t)
	w := &world{ws: t.TempDir(), pack: New(opts), res: resources.New(resources.Options{})}
	if real, err := filepath.EvalSymlinks(w.ws); err == nil {
		w.ws = real
	}
	reg := ext.NewRegistry()
	if err := reg.Register(w.pack.Extension()); err != nil {
		t.Fatal(err)
	}
	env := ext.Environment{SessionID: "s1", Workspace: w.ws, Languages: []ext.LanguageCount{{Language: "python", Files: 1}},
		Files: func(string) bool { return false }, HasExt: func(...string) bool { return true }}
	w.f = langtools.New(reg.Active(env), ext.ToolEnv{SessionID: "s1", Workspace: w.ws, LogDir: filepath.Join(w.ws, ".logs"), Resources: w.res}, nil)
	t.Cleanup(func() {
		w.res.StopAll(context.Background())
		w.pack.Close()
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, pid := range w.pids {
			if err := syscall.Kill(pid, 0); err == nil {
				t.Errorf("child %d survived the test", pid)
				_ = syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
	})
	return w
}

func (w *world) call(t *testing.T, verb string, args ...any) map[string]any {
	t.Helper()
	res, err := w.f.Call(context.Background(), verb, args, nil)
	if err != nil {
		t.Fatalf("%s%v: %v", verb, args, err)
	}
	if pid, ok := res["pid"].(int); ok && pid > 0 {
		w.mu.Lock()
		w.pids = append(w.pids, pid)
		w.mu.Unlock()
	}
	return res
}

func (w *world) eval(t *testing.T, code string, extra ...map[string]any) map[string]any {
	t.Helper()
	opts := map[string]any{"code": code}
	for _, e := range extra {
		for k, v := range e {
			opts[k] = v
		}
	}
	return w.call(t, langtools.VerbEval, "python", opts)
}

func TestREPLPersistenceValuesAndExceptions(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	start := w.call(t, langtools.VerbStart, "python")
	wantID := DefaultID(w.ws)
	if start["result"] != "started" || start["id"] != wantID || start["status"] != "up" {
		t.Fatalf("start = %v", start)
	}
	if again := w.call(t, langtools.VerbStart, "python"); again["result"] != "already-running" || again["pid"] != start["pid"] {
		t.Errorf("second start = %v", again)
	}

	r := w.eval(t, "x = 41\nprint('side', 'effect')\nx + 1")
	if r["ok"] != true || r["value"] != "42" || r["data"] != int64(42) || r["out"] != "side effect\n" || r["repl"] != wantID {
		t.Errorf("eval = %v", r)
	}
	r = w.eval(t, "x")
	if r["value"] != "41" {
		t.Errorf("globals did not persist: %v", r)
	}
	r = w.eval(t, "sum(i*i for i in range(101))")
	if r["value"] != "338350" {
		t.Errorf("sum = %v", r)
	}
	r = w.eval(t, "import collections\ncollections.Counter('abca')")
	if diff := cmp.Diff(map[string]any{"a": int64(2), "b": int64(1), "c": int64(1)}, r["data"]); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
	r = w.eval(t, "def f():\n    return {}['missing']\nf()")
	if r["ok"] != false || r["type"] != "KeyError" || !strings.Contains(r["exc"].(string), "line 2, in f") {
		t.Errorf("exception = %v", r)
	}
	r = w.eval(t, "import sys\nsys.stderr.write('warn\\n')\nx")
	if r["err"] != "warn\n" || r["value"] != "41" {
		t.Errorf("stderr capture / usable after an exception: %v", r)
	}
	r = w.eval(t, "import os\nos.write(1, b'stray bytes on fd 1\\n')\n'still fine'")
	if r["value"] != "'still fine'" {
		t.Errorf("a write to fd 1 broke the protocol: %v", r)
	}

	// status: the pack's answer plus the session's resources
	st := w.call(t, langtools.VerbStatus, "python")
	if st["running"] != true || len(st["resources"].([]any)) != 1 {
		t.Errorf("status = %v", st)
	}
	// the resource shows in the registry with its pid and log
	infos := w.res.List(context.Background(), "s1")
	if len(infos) != 1 || infos[0].Status != "up" || infos[0].PID != start["pid"] || infos[0].Language != "python" {
		t.Errorf("registry = %+v", infos)
	}
	if logs, err := w.res.Logs("s1", wantID, 5); err != nil || !strings.Contains(logs, "[vis]") {
		t.Errorf("logs = %q, %v", logs, err)
	}
	stop := w.call(t, langtools.VerbStop, wantID)
	if stop["result"] != "stopped" {
		t.Errorf("stop = %v", stop)
	}
	if err := syscall.Kill(start["pid"].(int), 0); err == nil {
		t.Error("the REPL survived repl_stop")
	}
	if _, err := w.f.Call(context.Background(), langtools.VerbEval, []any{"python", map[string]any{"code": "x"}}, nil); err == nil ||
		!strings.Contains(err.Error(), `repl_start("python")`) {
		t.Errorf("eval without a REPL: %v", err)
	}
}

func TestREPLTimeoutInterruptsAndKeepsTheREPL(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	w.call(t, langtools.VerbStart, "python")
	w.eval(t, "kept = 'yes'")
	for _, code := range []string{"while True:\n    pass", "import time\ntime.sleep(600)"} {
		r := w.eval(t, code, map[string]any{"timeout_ms": int64(300)})
		if r["timed_out"] != true || r["ok"] != false || r["type"] != "KeyboardInterrupt" || !strings.Contains(r["message"].(string), "still running") {
			t.Errorf("hung %q: %v", code, r)
		}
		if r := w.eval(t, "kept"); r["value"] != "'yes'" {
			t.Errorf("REPL not usable after the interrupt: %v", r)
		}
	}
}

func TestREPLThatIgnoresInterruptsIsKilled(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{InterruptGrace: 300 * time.Millisecond})
	start := w.call(t, langtools.VerbStart, "python")
	r := w.eval(t, "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass", map[string]any{"timeout_ms": int64(200)})
	if r["timed_out"] != true || !strings.Contains(r["message"].(string), "was killed") {
		t.Errorf("wedged eval: %v", r)
	}
	if err := syscall.Kill(start["pid"].(int), 0); err == nil {
		t.Error("wedged REPL still alive")
	}
	infos := w.res.List(context.Background(), "s1")
	if len(infos) != 1 || infos[0].Status != "failed" {
		t.Errorf("a killed REPL shows as %+v, want failed (kept for its log)", infos)
	}
	// a new start replaces it
	if again := w.call(t, langtools.VerbStart, "python"); again["result"] != "started" {
		t.Errorf("restart after death: %v", again)
	}
}

func TestREPLThatExitsIsReported(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	w.call(t, langtools.VerbStart, "python")
	_, err := w.f.Call(context.Background(), langtools.VerbEval, []any{"python", map[string]any{"code": "import os\nos._exit(3)"}}, nil)
	if !errors.Is(err, ErrREPLExited) || !strings.Contains(err.Error(), "code 3") {
		t.Errorf("eval that kills the REPL: %v", err)
	}
}

func TestSecondREPLWithIDAndTargetResolution(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	writeFile(t, w.ws, "sub/mod.py", "")
	a := w.call(t, langtools.VerbStart, "python")
	b := w.call(t, langtools.VerbStart, "python", map[string]any{"id": "scratch", "cwd": "sub", "env": map[string]any{"VIS_TEST_MARK": "b"}})
	if b["id"] != "scratch" || b["pid"] == a["pid"] {
		t.Fatalf("second REPL = %v", b)
	}
	if r := w.eval(t, "import os\nos.environ.get('VIS_TEST_MARK')", map[string]any{"id": "scratch"}); r["value"] != "'b'" || r["repl"] != "scratch" {
		t.Errorf("eval by id = %v", r)
	}
	// several REPLs, no id: the one owning cwd (default the workspace root)
	if r := w.eval(t, "import os\nos.getcwd()"); r["repl"] != a["id"] {
		t.Errorf("default target = %v", r)
	}
	if r := w.eval(t, "1", map[string]any{"cwd": "sub"}); r["repl"] != "scratch" {
		t.Errorf("cwd target = %v", r)
	}
	if _, err := w.f.Call(context.Background(), langtools.VerbEval, []any{"python", map[string]any{"code": "1", "id": "nope"}}, nil); err == nil ||
		!strings.Contains(err.Error(), "live: ") {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := w.f.Call(context.Background(), langtools.VerbStart, []any{"python", map[string]any{"id": "scratch", "cwd": "sub", "env": map[string]any{"VIS_TEST_MARK": "c"}}}, nil); err == nil ||
		!strings.Contains(err.Error(), "VIS_TEST_MARK") {
		t.Errorf("start with a different env: %v", err)
	}
	// connect is refused
	if _, err := w.f.Call(context.Background(), langtools.VerbConnect, []any{"python", map[string]any{"port": int64(1)}}, nil); err == nil ||
		!strings.Contains(err.Error(), "owned by Vis") {
		t.Errorf("connect: %v", err)
	}
	// closing the session stops both
	w.res.StopSession(context.Background(), "s1")
	for _, r := range []map[string]any{a, b} {
		if err := syscall.Kill(r["pid"].(int), 0); err == nil {
			t.Errorf("%v survived StopSession", r["id"])
		}
	}
}

const calcTests = `import unittest

class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)

    def test_wrong(self):
        self.assertEqual(2 * 2, 5)

    def test_broken(self):
        raise ValueError("broken fixture")

    @unittest.skip("later")
    def test_later(self):
        pass
`

func TestRunTestsUnittest(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	writeFile(t, w.ws, "tests/__init__.py", "")
	writeFile(t, w.ws, "tests/test_calc.py", calcTests)
	writeFile(t, w.ws, "tests/test_other.py", "import unittest\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        pass\n")
	if r, _ := run(context.Background(), []string{"python3", "-c", "import pytest"}, w.ws, "", time.Minute, nil); r.exit == 0 {
		t.Skip("pytest is importable: the pytest test covers run_tests")
	}
	r := w.call(t, langtools.VerbTest)
	want := map[string]any{"total": 5, "pass": 2, "fail": 1, "errored": 1, "skipped": 1, "is_pass": false, "runner": "unittest", "target": "full suite"}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("full run %s = %v, want %v (output %s)", k, r[k], v, r["output"])
		}
	}
	fails := r["failures"].([]any)
	if len(fails) != 2 {
		t.Fatalf("failures = %v", fails)
	}
	f0 := fails[0].(map[string]any)
	if f0["type"] != "error" || f0["test"] != "tests.test_calc.TestCalc.test_broken" || f0["message"] != "ValueError: broken fixture" || !strings.HasSuffix(f0["file"].(string), "tests/test_calc.py") {
		t.Errorf("failure row = %v", f0)
	}
	// a node id selects one test
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"paths": []any{"tests/test_calc.py::TestCalc::test_add"}})
	if r["total"] != 1 || r["is_pass"] != true || r["target"] != "tests/test_calc.py::TestCalc::test_add" {
		t.Errorf("node id run = %v", r)
	}
	// ::name finds the test wherever it lives
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"paths": []any{"::test_ok"}})
	if r["total"] != 1 || r["is_pass"] != true {
		t.Errorf("::name run = %v", r)
	}
	// a directory
	r = w.call(t, langtools.VerbTest, "tests/test_other.py")
	if r["total"] != 1 || r["is_pass"] != true {
		t.Errorf("file run = %v", r)
	}
	// nothing to run is not a pass
	writeFile(t, w.ws, "empty/readme.txt", "")
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"cwd": "empty"})
	if r["total"] != 0 || r["is_pass"] != false {
		t.Errorf("empty run = %v", r)
	}
	// tags need pytest
	if _, err := w.f.Call(context.Background(), langtools.VerbTest, []any{"python", map[string]any{"include": []any{"slow"}}}, nil); err == nil {
		t.Error("include without pytest: no error")
	}
}

func TestRunTestsPytest(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	if r, _ := run(context.Background(), []string{"python3", "-c", "import pytest"}, w.ws, "", time.Minute, nil); r.exit != 0 {
		t.Skip("pytest is not importable by python3 here")
	}
	writeFile(t, w.ws, "tests/test_p.py", "def test_a():\n    assert True\n\ndef test_b():\n    assert 1 == 2\n")
	r := w.call(t, langtools.VerbTest)
	if r["runner"] != "pytest" || r["total"] != 2 || r["fail"] != 1 || r["is_pass"] != false {
		t.Errorf("pytest run = %v", r)
	}
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"paths": []any{"tests/test_p.py::test_a"}})
	if r["total"] != 1 || r["is_pass"] != true {
		t.Errorf("node id = %v", r)
	}
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"paths": []any{"::test_b"}})
	if r["total"] != 1 || r["fail"] != 1 {
		t.Errorf("::name = %v", r)
	}
}

func TestFormatAndLintWithBlack(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("black"); err != nil {
		t.Skip("black not installed")
	}
	noRuff := func(n string) (string, error) {
		if n == "ruff" {
			return "", exec.ErrNotFound
		}
		return exec.LookPath(n)
	}
	w := newWorld(t, Options{LookPath: noRuff})
	r := w.call(t, langtools.VerbFormat, "python", "x=1")
	if r["changed"] != true || r["delta"] != 3 || r["formatter"] != "black" {
		t.Errorf("format code = %v", r)
	}
	if _, ok := r["code"]; ok {
		t.Error("format returned text")
	}
	r = w.call(t, langtools.VerbFormat, "python", "x = 1\n")
	if r["changed"] != false || r["delta"] != 0 {
		t.Errorf("formatted code = %v", r)
	}
	writeFile(t, w.ws, "pkg/a.py", "def f( a,b ):\n  return a+b\n")
	writeFile(t, w.ws, "pkg/b.py", "y = 2\n")
	writeFile(t, w.ws, ".venv/lib/site.py", "z=3\n")
	r = w.call(t, langtools.VerbFormat, "python", map[string]any{"paths": []any{"pkg"}})
	if r["changed"] != 1 || r["checked"] != 2 {
		t.Errorf("format paths = %v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(w.ws, "pkg/a.py")); string(b) != "def f(a, b):\n    return a + b\n" {
		t.Errorf("a.py after format: %q", b)
	}
	if _, err := w.f.Call(context.Background(), langtools.VerbFormat, []any{"python", "def ("}, nil); err == nil {
		t.Error("formatting broken code: no error")
	}

	writeFile(t, w.ws, "lint/bad.py", "def f(:\n")
	writeFile(t, w.ws, "lint/ugly.py", "x=1\n")
	r = w.call(t, langtools.VerbLint, "python", map[string]any{"paths": []any{"lint"}})
	var types []string
	for _, f := range r["findings"].([]any) {
		m := f.(map[string]any)
		types = append(types, m["file"].(string)+":"+m["type"].(string)+":"+m["level"].(string))
	}
	if diff := cmp.Diff([]string{"lint/bad.py:syntax:error", "lint/ugly.py:format:info"}, types); diff != "" {
		t.Errorf("lint findings (-want +got):\n%s\n%v", diff, r)
	}
	if r["counts"].(map[string]any)["error"] != 1 || !strings.Contains(r["note"].(string), "install ruff") {
		t.Errorf("lint counts/note = %v", r)
	}
}

func TestNoFormatterSaysWhatToInstall(t *testing.T) {
	t.Parallel()
	none := func(n string) (string, error) {
		if n == "python3" {
			return exec.LookPath(n)
		}
		return "", exec.ErrNotFound
	}
	w := newWorld(t, Options{LookPath: none})
	for _, verb := range []string{langtools.VerbFormat, langtools.VerbLint} {
		_, err := w.f.Call(context.Background(), verb, []any{"python", "x=1"}, nil)
		if err == nil || !strings.Contains(err.Error(), "; install ruff or black") {
			t.Errorf("%s: %v", verb, err)
		}
	}
}
