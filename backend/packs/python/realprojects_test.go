package python

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/langtools"
)

// The real-projects suite: pinned copies of small third-party projects
// (testdata/projects/<name>, each with its LICENSE). Each test runs the
// project's own command for reference counts, then run_tests(), which
// must match them, and a copy made to fail, whose rows must point at the
// failing line with the assertion's message.

// copyProject copies testdata/projects/<name> into dst.
func copyProject(t *testing.T, name, dst string) {
	t.Helper()
	src := filepath.Join("testdata", "projects", name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == "__pycache__" || d.Name() == ".pytest_cache" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// edit replaces old (which must occur) in a workspace file and returns the
// 1-based line where the replacement starts.
func edit(t *testing.T, root, rel, old, new string) int {
	t.Helper()
	p := filepath.Join(root, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), old)
	if i < 0 {
		t.Fatalf("%s: %q not found", rel, old)
	}
	if err := os.WriteFile(p, []byte(string(b[:i])+new+string(b[i+len(old):])), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b[:i]), "\n") + 1
}

// reference runs the project's own command in dir (PYTHONDONTWRITEBYTECODE
// keeps the fixture clean) and returns its combined output.
func reference(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1"), env...)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func atoiMatch(t *testing.T, re *regexp.Regexp, s string) int {
	t.Helper()
	m := re.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func row(t *testing.T, r map[string]any, test string) map[string]any {
	t.Helper()
	for _, f := range r["failures"].([]any) {
		if m := f.(map[string]any); strings.Contains(m["test"].(string), test) {
			return m
		}
	}
	t.Fatalf("no failure row for %s in %v", test, r["failures"])
	return nil
}

// more-itertools (MIT): its Makefile and tox.ini run `python -m unittest -v`,
// whose tests/test_recipes.py adds the recipes' doctests with load_tests.
// pytest would run 145 of its 196 tests, silently dropping the doctests.
func TestRealProjectMoreItertoolsUnittestWithDoctests(t *testing.T) {
	w := newWorld(t, Options{})
	copyProject(t, "more-itertools", w.ws)
	out := reference(t, w.ws, nil, "python3", "-m", "unittest", "-v")
	want := atoiMatch(t, regexp.MustCompile(`(?m)^Ran (\d+) tests`), out)
	if want == 0 || !strings.Contains(out, "\nOK") {
		t.Fatalf("the project's own command did not pass:\n%s", clip(out, 3000))
	}
	doctests := strings.Count(out, "(more_itertools.recipes)")
	if doctests == 0 {
		t.Fatalf("no doctests in the project's own run")
	}
	r := w.call(t, langtools.VerbTest)
	if r["runner"] != "unittest" || r["total"] != want || r["pass"] != want || r["is_pass"] != true {
		t.Errorf("run_tests() = runner %v total %v pass %v is_pass %v; the project's own command ran %d (%d doctests)\n%v",
			r["runner"], r["total"], r["pass"], r["is_pass"], want, doctests, r["output"])
	}
	if why, _ := r["why"].(string); !strings.Contains(why, "tox.ini") || !strings.Contains(why, "-m unittest") {
		t.Errorf("why = %q", why)
	}

	// made to fail: one assertEqual and one doctest
	w2 := newWorld(t, Options{})
	copyProject(t, "more-itertools", w2.ws)
	assertLine := edit(t, w2.ws, "tests/test_recipes.py", "self.assertEqual(t, [0, 1, 2, 3, 4])", "self.assertEqual(t, [0, 1, 2, 3, 5])")
	docLine := edit(t, w2.ws, "more_itertools/recipes.py", ">>> take(3, range(10))\n        [0, 1, 2]", ">>> take(3, range(10))\n        [0, 1, 9]")
	r = w2.call(t, langtools.VerbTest)
	if r["total"] != want || r["fail"] != 2 || r["is_pass"] != false {
		t.Fatalf("failing copy: total %v fail %v is_pass %v\n%v", r["total"], r["fail"], r["is_pass"], r["output"])
	}
	f := row(t, r, "test_simple_take")
	if f["file"] != "tests/test_recipes.py" || f["line"] != assertLine {
		t.Errorf("assert row at %v:%v, want tests/test_recipes.py:%d", f["file"], f["line"], assertLine)
	}
	if msg := f["message"].(string); !strings.HasPrefix(msg, "AssertionError: Lists differ: [0, 1, 2, 3, 4] != [0, 1, 2, 3, 5]") || strings.Contains(msg, "?") {
		t.Errorf("assert row message = %q", msg)
	}
	d := row(t, r, "more_itertools.recipes.take")
	if d["file"] != "more_itertools/recipes.py" || d["line"] != docLine {
		t.Errorf("doctest row at %v:%v, want more_itertools/recipes.py:%d", d["file"], d["line"], docLine)
	}
	if msg := d["message"].(string); !strings.Contains(msg, "Expected:\n[0, 1, 9]\nGot:\n[0, 1, 2]") {
		t.Errorf("doctest row message = %q", msg)
	}
}

var (
	passedRe  = regexp.MustCompile(`(\d+) passed`)
	skippedRe = regexp.MustCompile(`(\d+) skipped`)
)

// cachetools (MIT): src layout, tests under tests/, tox runs
// `py.test --basetemp=... --cov=cachetools ...` with THREADING_TESTS=1 on
// the installed package. Without a venv, src must reach PYTHONPATH or
// every module fails to collect.
func TestRealProjectCachetoolsPytestSrcLayout(t *testing.T) {
	py := pytestPython(t)
	w := newWorld(t, Options{Interpreter: []string{py}})
	copyProject(t, "cachetools", w.ws)
	// tox's command, on the package as tox installs it (src on the path), minus the coverage plugin
	out := reference(t, w.ws, []string{"THREADING_TESTS=1", "PYTHONPATH=" + filepath.Join(w.ws, "src")}, py, "-m", "pytest", "-p", "no:cacheprovider")
	passed, skipped := atoiMatch(t, passedRe, out), atoiMatch(t, skippedRe, out)
	if passed == 0 || strings.Contains(out, "failed") || strings.Contains(out, "error") {
		t.Fatalf("the project's own command did not pass:\n%s", clip(out, 3000))
	}
	r := w.call(t, langtools.VerbTest)
	if r["runner"] != "pytest" || r["total"] != passed+skipped || r["pass"] != passed || r["skipped"] != skipped || r["is_pass"] != true {
		t.Errorf("run_tests() = runner %v total %v pass %v skipped %v; the project's own: %d passed, %d skipped\n%v",
			r["runner"], r["total"], r["pass"], r["skipped"], passed, skipped, r["output"])
	}
	if why, _ := r["why"].(string); !strings.Contains(why, "tox.ini") || !strings.Contains(why, "src/ on PYTHONPATH") || r["pythonpath"] != "src" {
		t.Errorf("why = %q, pythonpath = %v", why, r["pythonpath"])
	}

	// made to fail: an assertEqual in a test file
	line := edit(t, w.ws, "tests/test_keys.py", "self.assertEqual(key(1, 2, 3), key(1, 2, 3))", "self.assertEqual(key(1, 2, 3), key(1, 2, 4))")
	r = w.call(t, langtools.VerbTest)
	if r["fail"] != 1 || r["is_pass"] != false {
		t.Fatalf("failing copy: fail %v is_pass %v\n%v", r["fail"], r["is_pass"], r["output"])
	}
	f := r["failures"].([]any)[0].(map[string]any)
	if f["file"] != "tests/test_keys.py" || f["line"] != line || !strings.HasPrefix(f["message"].(string), "AssertionError: (1, 2, 3) != (1, 2, 4)") {
		t.Errorf("failure row = %v, want tests/test_keys.py:%d with the assertion's message", f, line)
	}

	// a module that does not import is a row with its real error
	writeFile(t, w.ws, "tests/test_broken.py", "import os\nimport no_such_module_here\n")
	r = w.call(t, langtools.VerbTest)
	f = row(t, r, "tests/test_broken.py")
	if f["file"] != "tests/test_broken.py" || f["line"] != 2 || f["message"] != "ModuleNotFoundError: No module named 'no_such_module_here'" || r["is_pass"] != false {
		t.Errorf("collection error row = %v (is_pass %v)", f, r["is_pass"])
	}
}
