package python

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/langtools"
)

// envTests has one test that passes only when VIS_PY_MARK reaches the test
// process, and one that always passes.
const envTests = `import os
import unittest


class T(unittest.TestCase):
    def test_sees_env(self):
        self.assertEqual(os.environ.get("VIS_PY_MARK"), "marked")

    def test_other(self):
        pass
`

// TestRunTestsEnvArgsUnittest: through the facade, env reaches the
// unittest process and args (-k) its command line.
func TestRunTestsEnvArgsUnittest(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	writeFile(t, w.ws, "tests/__init__.py", "")
	writeFile(t, w.ws, "tests/test_env.py", envTests)
	opts := map[string]any{"runner": "unittest", "env": map[string]any{"VIS_PY_MARK": "marked"}, "args": []any{"-k", "test_sees_env"}}
	r := w.call(t, langtools.VerbTest, "python", opts)
	if r["total"] != 1 || r["pass"] != 1 || r["is_pass"] != true {
		t.Fatalf("env and -k = %v", r)
	}
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"runner": "unittest", "args": []any{"-k", "test_sees_env"}})
	if r["total"] != 1 || r["fail"] != 1 || r["is_pass"] != false {
		t.Fatalf("-k without env = %v", r)
	}
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"runner": "unittest", "env": map[string]any{"VIS_PY_MARK": "marked"}})
	if r["total"] != 2 || r["is_pass"] != true {
		t.Fatalf("env, every test = %v", r)
	}
}

// pytestPython finds an interpreter that imports pytest (the one on PATH,
// else the system's), or skips.
func pytestPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		exe, err := exec.LookPath(py)
		if err != nil {
			continue
		}
		if r, _ := run(context.Background(), []string{exe, "-c", "import pytest"}, t.TempDir(), "", time.Minute, nil); r.exit == 0 {
			return exe
		}
	}
	t.Skip("no python3 here imports pytest (apt-get install python3-pytest)")
	return ""
}

// TestRunTestsEnvArgsPytest: args ["-k", name] select one pytest test and
// env is visible to it.
func TestRunTestsEnvArgsPytest(t *testing.T) {
	t.Parallel()
	py := pytestPython(t)
	w := newWorld(t, Options{Interpreter: []string{py}})
	writeFile(t, w.ws, "tests/test_env.py", envTests)
	r := w.call(t, langtools.VerbTest, "python", map[string]any{"runner": "pytest",
		"env": map[string]any{"VIS_PY_MARK": "marked"}, "args": []any{"-k", "test_sees_env"}})
	if r["runner"] != "pytest" || r["total"] != 1 || r["pass"] != 1 || r["is_pass"] != true {
		t.Fatalf("pytest with env and -k = %v", r)
	}
	if cmd, _ := r["command"].(string); !strings.Contains(cmd, "-k test_sees_env") {
		t.Errorf("command = %q; want the args in it", cmd)
	}
	r = w.call(t, langtools.VerbTest, "python", map[string]any{"runner": "pytest", "args": []any{"-k", "test_sees_env"}})
	if r["total"] != 1 || r["fail"] != 1 || r["is_pass"] != false {
		t.Fatalf("pytest -k without env = %v", r)
	}
}

// TestFormatArgsWithBlack: args reach black (-S keeps single quotes), and
// the result has the shared shape.
func TestFormatArgsWithBlack(t *testing.T) {
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
	r := w.call(t, langtools.VerbFormat, "python", "x = 'a'\n")
	if r["changed"] != true || r["delta"] != 0 || r["chars"] != 8 || r["formatter"] != "black" {
		t.Fatalf("format without -S = %v", r)
	}
	r = w.call(t, langtools.VerbFormat, "python", map[string]any{"code": "x = 'a'\n", "args": []any{"-S"}})
	if r["changed"] != false || r["delta"] != 0 {
		t.Fatalf("format with -S = %v", r)
	}
}

// TestUnknownOptionsAreRefused: a key the Python pack does not take is
// refused before anything runs, naming the keys it does take.
func TestUnknownOptionsAreRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t, Options{})
	for _, tc := range []struct {
		verb string
		opts map[string]any
		want string
	}{
		{langtools.VerbTest, map[string]any{"k": "x"}, `run_tests: unknown option "k"; run_tests for python takes: paths (or path), cwd (or project), runner, include, exclude, timeout_ms, env, args`},
		{langtools.VerbFormat, map[string]any{"code": "x=1", "select": "E"}, `format_code for python takes: code, paths (or path), cwd (or project), line_length, config, timeout_ms, env, args`},
		{langtools.VerbTest, map[string]any{"env": map[string]any{"A": 1}}, `env["A"] must be a string`},
		{langtools.VerbTest, map[string]any{"args": "-k x"}, `args must be a list of strings, one per argument (e.g. {"args": ["-k", "x"]})`},
	} {
		_, err := w.f.Call(context.Background(), tc.verb, []any{"python", tc.opts}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v = %v; want %q", tc.verb, tc.opts, err, tc.want)
		}
	}
}
