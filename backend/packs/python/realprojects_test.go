package python

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
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

// pristineRefs holds each project's own command's output on a pristine
// copy, run once per test binary: the suite and the format test compare
// against it.
var pristineRefs sync.Map // project name -> *pristineRef

type pristineRef struct {
	once sync.Once
	out  string
}

// pristineReference is reference on a fresh copy of project name, run
// once; env gets the copy's directory.
func pristineReference(t *testing.T, name string, env func(dir string) []string, argv ...string) string {
	t.Helper()
	v, _ := pristineRefs.LoadOrStore(name, &pristineRef{})
	r := v.(*pristineRef)
	r.once.Do(func() {
		dir, err := os.MkdirTemp("", "vis-ref-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		copyProject(t, name, dir)
		var vars []string
		if env != nil {
			vars = env(dir)
		}
		r.out = reference(t, dir, vars, argv...)
	})
	return r.out
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
	t.Parallel()
	w := newWorld(t, Options{})
	copyProject(t, "more-itertools", w.ws)
	out := moreItertoolsReference(t)
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

// moreItertoolsReference is the project's own command (Makefile, tox.ini)
// on a pristine copy.
func moreItertoolsReference(t *testing.T) string {
	return pristineReference(t, "more-itertools", nil, "python3", "-m", "unittest", "-v")
}

var (
	passedRe  = regexp.MustCompile(`(\d+) passed`)
	skippedRe = regexp.MustCompile(`(\d+) skipped`)
)

// cachetoolsEnv is tox's environment for the package as tox installs it
// (src on the path); its command minus the coverage plugin is
// `python -m pytest`.
func cachetoolsEnv(dir string) []string {
	return []string{"THREADING_TESTS=1", "PYTHONPATH=" + filepath.Join(dir, "src")}
}

// cachetools (MIT): src layout, tests under tests/, tox runs
// `py.test --basetemp=... --cov=cachetools ...` with THREADING_TESTS=1 on
// the installed package. Without a venv, src must reach PYTHONPATH or
// every module fails to collect.
func TestRealProjectCachetoolsPytestSrcLayout(t *testing.T) {
	t.Parallel()
	py := pytestPython(t)
	w := newWorld(t, Options{Interpreter: []string{py}})
	copyProject(t, "cachetools", w.ws)
	out := pristineReference(t, "cachetools", cachetoolsEnv, py, "-m", "pytest", "-p", "no:cacheprovider")
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

// unformat applies edits (old, new pairs that only change layout) to rel
// in w's workspace, calls format_code on the file as the model would, and
// checks the formatter put back the project's own bytes and said so in
// the file's delta.
func unformat(t *testing.T, w *world, rel, formatter string, edits ...[2]string) map[string]any {
	t.Helper()
	p := filepath.Join(w.ws, rel)
	pristine, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		edit(t, w.ws, rel, e[0], e[1])
	}
	bad, _ := os.ReadFile(p)
	r := w.call(t, langtools.VerbFormat, "python", map[string]any{"paths": []any{rel}})
	delta := utf8.RuneCount(pristine) - utf8.RuneCount(bad)
	wantFiles := []any{map[string]any{"file": rel, "changed": true, "delta": delta}}
	if r["formatter"] != formatter || r["changed"] != 1 || r["checked"] != 1 || !cmp.Equal(wantFiles, r["files"]) || delta == 0 {
		t.Errorf("format_code(%s) = %v; want %s rewriting it with delta %d", rel, r, formatter, delta)
	}
	if after, _ := os.ReadFile(p); string(after) != string(pristine) {
		t.Errorf("%s after format_code is not the project's own formatting:\n%s", rel, clip(string(after), 3000))
	}
	return r
}

// more-itertools configures ruff ([tool.ruff.format]): format_code with
// ruff restores a recipe made badly formatted, the project's own command
// still passes every test, and the REPL imports the project from the
// workspace and calls into it (the reformatted take too).
func TestRealProjectMoreItertoolsFormatAndREPL(t *testing.T) {
	t.Parallel()
	_, getenv := ruffFor(t)
	w := newWorld(t, Options{Getenv: getenv})
	copyProject(t, "more-itertools", w.ws)
	r := unformat(t, w, "more_itertools/recipes.py", "ruff",
		[2]string{"\n\n\ndef take(n, iterable):", "\ndef take( n,iterable ) :"},
		[2]string{"    return list(islice(iterable, n))\n", "    return list( islice(iterable,n) )\n"})
	if why, _ := r["why"].(string); !strings.HasPrefix(why, "pyproject.toml [tool.ruff") {
		t.Errorf("why = %q", why)
	}
	want := atoiMatch(t, regexp.MustCompile(`(?m)^Ran (\d+) tests`), moreItertoolsReference(t))
	out := reference(t, w.ws, nil, "python3", "-m", "unittest", "-v")
	if got := atoiMatch(t, regexp.MustCompile(`(?m)^Ran (\d+) tests`), out); want == 0 || got != want || !strings.Contains(out, "\nOK") {
		t.Errorf("after format_code the project's own command ran %d tests (pristine %d):\n%s", got, want, clip(out, 3000))
	}

	if st := w.call(t, langtools.VerbStart, "python"); st["result"] != "started" || st["pythonpath"] != nil {
		t.Fatalf("repl_start = %v", st)
	}
	for _, tc := range []struct {
		code, value string
		data        any
	}{
		{"from more_itertools import chunked\nlist(chunked([1, 2, 3, 4, 5], 2))", "[[1, 2], [3, 4], [5]]",
			[]any{[]any{int64(1), int64(2)}, []any{int64(3), int64(4)}, []any{int64(5)}}},
		{"from more_itertools import take\ntake(3, range(10))", "[0, 1, 2]", []any{int64(0), int64(1), int64(2)}},
		{"import more_itertools\nmore_itertools.__file__", "", filepath.Join(w.ws, "more_itertools", "__init__.py")},
	} {
		r := w.eval(t, tc.code)
		if d := cmp.Diff(tc.data, r["data"]); d != "" || r["ok"] != true || (tc.value != "" && r["value"] != tc.value) {
			t.Errorf("repl_eval(%q) = %v; data (-want +got):\n%s", tc.code, r, d)
		}
	}
}

// cachetools names black (tox's flake8-black): format_code restores
// keys.py made badly formatted and the project's pytest run still passes
// with the same counts. Its package lives under src/ and is not
// installed, so repl_start puts src/ on the REPL's PYTHONPATH as
// run_tests does, and the REPL uses the project's caches.
func TestRealProjectCachetoolsFormatAndREPL(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("black"); err != nil {
		t.Skip("black not installed")
	}
	py := pytestPython(t)
	w := newWorld(t, Options{Interpreter: []string{py}})
	copyProject(t, "cachetools", w.ws)
	unformat(t, w, "src/cachetools/keys.py", "black",
		[2]string{"        return _HashedTuple(args + _kwmark + tuple(sorted(kwargs.items())))", "        return _HashedTuple(args+_kwmark+tuple(sorted(kwargs.items( ))))"},
		[2]string{"def methodkey(self, *args, **kwargs):", "def methodkey(self,*args,**kwargs) :"},
		[2]string{"    return hashkey(*args, **kwargs)\n", "    return hashkey( *args,**kwargs )\n"})
	ref := pristineReference(t, "cachetools", cachetoolsEnv, py, "-m", "pytest", "-p", "no:cacheprovider")
	out := reference(t, w.ws, cachetoolsEnv(w.ws), py, "-m", "pytest", "-p", "no:cacheprovider")
	passed, skipped := atoiMatch(t, passedRe, out), atoiMatch(t, skippedRe, out)
	if passed == 0 || passed != atoiMatch(t, passedRe, ref) || skipped != atoiMatch(t, skippedRe, ref) || strings.Contains(out, "failed") || strings.Contains(out, "error") {
		t.Errorf("after format_code the project's own command: %d passed, %d skipped; pristine:\n%s\nnow:\n%s", passed, skipped, clip(ref, 1500), clip(out, 3000))
	}

	st := w.call(t, langtools.VerbStart, "python")
	if st["result"] != "started" || st["pythonpath"] != "src" || !strings.Contains(st["note"].(string), "src/ on PYTHONPATH (src layout, cachetools is not installed)") {
		t.Fatalf("repl_start = %v", st)
	}
	for _, tc := range []struct {
		code string
		data any
	}{
		{"import cachetools\nc = cachetools.LRUCache(maxsize=2)\nc['a'] = 1\nc['b'] = 2\nc['a']\nc['c'] = 3\nsorted(c.items())",
			[]any{[]any{"a", int64(1)}, []any{"c", int64(3)}}},
		{"from cachetools.keys import hashkey, methodkey\n[methodkey(None, 1, 2) == hashkey(1, 2), hashkey(1, x=2) == hashkey(1, x=2)]", []any{true, true}},
		{"cachetools.__file__", filepath.Join(w.ws, "src", "cachetools", "__init__.py")},
	} {
		r := w.eval(t, tc.code)
		if d := cmp.Diff(tc.data, r["data"]); d != "" || r["ok"] != true {
			t.Errorf("repl_eval(%q) = %v; data (-want +got):\n%s", tc.code, r, d)
		}
	}
}
