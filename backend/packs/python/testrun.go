package python

import (
	"context"
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

const outputLimit = 20000

// test runs the project's tests with the project's own command
// (projectTestCommand: its runner, arguments and environment), else
// pytest when the interpreter can import it, else unittest; a src layout
// whose package the interpreter cannot import gets src on PYTHONPATH. The
// result says which command ran and why. runner "pytest"/"project"
// insists on pytest, "unittest" on unittest. The call's env reaches the runner (and the
// pytest probe); its args go before the paths.
func (p *Pack) test(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	vars, extra, err := c.EnvArgs("python run_tests")
	if err != nil {
		return nil, err
	}
	t := testCall{env: vars, args: extra}
	interp, err := p.Resolve(c.Cwd)
	if err != nil {
		return nil, fmt.Errorf("python run_tests: %w", err)
	}
	runner := strings.ToLower(optString(c.Opts, "runner"))
	switch runner {
	case "", "pytest", "project", "unittest":
	default:
		return nil, fmt.Errorf(`python run_tests: unknown runner %q (use "pytest" or "unittest", or omit it)`, runner)
	}
	timeout := optDuration(c.Opts, "timeout_ms", p.opts.TestTimeout)
	selectors := optStrings(c.Opts, "paths")
	proj, hasProj := projectTestCommand(c.Cwd)
	if runner == "" && hasProj {
		runner = proj.Runner
		t.project = proj
		t.why = "the project's own command (" + proj.Why + ")"
		// the call's env wins over the project's
		t.env = append(append([]string(nil), proj.Env...), t.env...)
	}
	if err := p.srcLayout(ctx, interp, c.Cwd, &t); err != nil {
		return nil, fmt.Errorf("python run_tests: %w", err)
	}
	hasPytest := false
	if runner != "unittest" {
		r, err := run(ctx, append(append([]string(nil), interp.Argv...), "-c", "import pytest"), c.Cwd, "", p.opts.ToolTimeout, t.env)
		if err != nil {
			return nil, fmt.Errorf("python run_tests: %w", err)
		}
		hasPytest = r.exit == 0 && !r.timedOut
		if !hasPytest && (runner == "pytest" || runner == "project") {
			if t.why != "" {
				return nil, fmt.Errorf("python run_tests: the project runs pytest (%s), but pytest is not importable by %s; install it (Debian: python3-pytest) or pin an interpreter that has it", proj.Why, interp)
			}
			return nil, fmt.Errorf("python run_tests: pytest is not importable by %s; install it in the project, or omit runner to use unittest", interp)
		}
	}
	if t.why == "" {
		switch {
		case runner != "":
			t.why = fmt.Sprintf("runner=%q was asked for", runner)
		case hasPytest:
			t.why = "the project names no test command; pytest is importable"
		default:
			t.why = "the project names no test command and pytest is not importable: unittest discovery"
		}
	}
	var out map[string]any
	var err2 error
	if hasPytest {
		out, err2 = p.pytest(ctx, interp, c, t, selectors, timeout)
	} else {
		out, err2 = p.unittest(ctx, interp, c, t, selectors, timeout)
	}
	if out != nil {
		out["why"] = t.why
		if t.pythonpath != "" {
			out["pythonpath"] = t.pythonpath
		}
	}
	return out, err2
}

// srcLayout puts src/ on PYTHONPATH when the project keeps its package
// there and the interpreter (not a venv, uv or poetry) cannot import it.
func (p *Pack) srcLayout(ctx context.Context, interp Interpreter, dir string, t *testCall) error {
	pkg, ok := srcPackage(dir)
	if !ok || interp.Source == "venv" || interp.Source == "uv" || interp.Source == "poetry" {
		return nil
	}
	r, err := run(ctx, append(append([]string(nil), interp.Argv...), "-c", "import "+pkg), dir, "", p.opts.ToolTimeout, t.env)
	if err != nil {
		return err
	}
	if r.exit == 0 && !r.timedOut {
		return nil
	}
	src := filepath.Join(dir, "src")
	prev := ""
	for _, kv := range t.env {
		if v, ok := strings.CutPrefix(kv, "PYTHONPATH="); ok {
			prev = v
		}
	}
	if prev == "" {
		prev = os.Getenv("PYTHONPATH")
	}
	val := src
	if prev != "" {
		val += string(os.PathListSeparator) + prev
	}
	t.env = append(t.env, "PYTHONPATH="+val)
	t.pythonpath = "src"
	t.why += "; src/ on PYTHONPATH (src layout, " + pkg + " is not installed)"
	return nil
}

// testCall is what the call adds to the runner: environment entries and
// extra arguments.
type testCall struct {
	env, args  []string
	project    projectRunner // the project's own command, when it names one
	why        string        // which command runs and why, said in the result
	pythonpath string        // "src" when the src layout was put on PYTHONPATH
}

func (p *Pack) pytest(ctx context.Context, interp Interpreter, c ext.Call, t testCall, selectors []string, timeout time.Duration) (map[string]any, error) {
	tmp, err := os.MkdirTemp(confine.TempDir(ctx), "vis-pytest-")
	if err != nil {
		return nil, fmt.Errorf("python run_tests: %w", err)
	}
	defer os.RemoveAll(tmp)
	xmlPath := filepath.Join(tmp, "junit.xml")
	argv := append(append([]string(nil), interp.Argv...), "-m", "pytest", "-q", "-p", "no:cacheprovider",
		"--junitxml="+xmlPath, "-o", "junit_family=xunit1")
	var names, paths []string
	for _, s := range selectors {
		if strings.HasPrefix(s, "::") {
			names = append(names, strings.TrimPrefix(s, "::"))
		} else {
			paths = append(paths, s)
		}
	}
	if len(names) > 0 {
		argv = append(argv, "-k", strings.Join(names, " or "))
	}
	var marks []string
	if inc := optStrings(c.Opts, "include"); len(inc) > 0 {
		marks = append(marks, "("+strings.Join(inc, " or ")+")")
	}
	if exc := optStrings(c.Opts, "exclude"); len(exc) > 0 {
		marks = append(marks, "not ("+strings.Join(exc, " or ")+")")
	}
	if len(marks) > 0 {
		argv = append(argv, "-m", strings.Join(marks, " and "))
	}
	argv = append(argv, "--tb=short")
	argv = append(argv, t.project.Args...)
	argv = append(argv, t.args...)
	argv = append(argv, paths...)
	r, err := runTests(ctx, argv, c.Cwd, timeout, t.env)
	if err != nil {
		return nil, fmt.Errorf("python run_tests: %w", err)
	}
	out := map[string]any{
		"runner": "pytest", "framework": "pytest", "command": strings.Join(argv[len(interp.Argv)-1:], " "),
		"exit": r.exit, "timed_out": r.timedOut, "output": clip(r.stdout+r.stderr, outputLimit),
	}
	if data, err := os.ReadFile(xmlPath); err == nil {
		res, perr := ParseJUnit(data, c.Cwd)
		if perr == nil {
			for k, v := range res {
				out[k] = v
			}
		} else {
			out["error"] = "could not read pytest's JUnit XML: " + perr.Error()
		}
	} else if !r.timedOut {
		out["error"] = "pytest wrote no report (usage error?); see output"
	}
	switch r.exit {
	case 5:
		out["message"] = "no tests were collected: nothing ran (not a pass)"
		out["total"] = 0
	case 1, 0:
	default:
		if !r.timedOut && out["error"] == nil {
			out["error"] = fmt.Sprintf("pytest exited with code %d (interrupted or usage error); see output", r.exit)
		}
	}
	if r.exit == 5 {
		out["exit"] = 0 // "no tests" is reported by total=0, not as a failure of the runner
	}
	return out, nil
}

// junit XML (pytest, xunit1 family: testcase has file and line).
type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Line      string        `xml:"line,attr"`
	Failure   *junitFailure `xml:"failure"`
	Error     *junitFailure `xml:"error"`
	Skipped   *junitFailure `xml:"skipped"`
}

type junitSuite struct {
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitRoot struct {
	XMLName xml.Name
	Suites  []junitSuite `xml:"testsuite"`
	junitSuite
}

// ParseJUnit reads a JUnit XML report into the test contract's counts and
// failures (one row per failing or erroring test case). Files are made
// relative to dir when they are absolute.
func ParseJUnit(data []byte, dir string) (map[string]any, error) {
	var root junitRoot
	if err := xml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	suites := root.Suites
	if root.XMLName.Local == "testsuite" {
		suites = []junitSuite{root.junitSuite}
	}
	total, fail, errored, skipped := 0, 0, 0, 0
	failures := []any{}
	for _, s := range suites {
		total += s.Tests
		fail += s.Failures
		errored += s.Errors
		skipped += s.Skipped
		for _, tc := range s.Cases {
			var f *junitFailure
			kind := "fail"
			switch {
			case tc.Failure != nil:
				f = tc.Failure
			case tc.Error != nil:
				f, kind = tc.Error, "error"
			default:
				continue
			}
			file := tc.File
			if file == "" {
				file = strings.ReplaceAll(tc.Classname, ".", "/") + ".py"
			}
			if filepath.IsAbs(file) {
				if rel, err := filepath.Rel(dir, file); err == nil {
					file = rel
				}
			}
			test := tc.Name
			if tc.File != "" {
				test = tc.File + "::" + testPath(tc.Classname, tc.File) + tc.Name
			}
			msg := strings.TrimSpace(f.Message)
			if msg == "collection failure" || msg == "" {
				if e := eLines(f.Text); e != "" {
					msg = e
				} else if msg == "" {
					msg = lastLine(f.Text)
				}
			}
			if tc.Name != "" && tc.Classname == "" && tc.File != "" { // a module that failed to collect
				test = tc.File
			}
			row := map[string]any{"test": test, "type": kind, "message": clip(msg, 600), "file": file}
			if n, ok := tracebackLine(f.Text, file); ok {
				row["line"] = n // the failing line in the test file, not the def
			} else if tc.Line != "" {
				if n, err := strconv.Atoi(tc.Line); err == nil {
					row["line"] = n + 1 // pytest reports 0-based lines
				}
			}
			failures = append(failures, row)
		}
	}
	return map[string]any{
		"total": total, "pass": total - fail - errored - skipped, "fail": fail, "errored": errored,
		"skipped": skipped, "failures": failures,
	}, nil
}

var tbEntryRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(\S+?\.py):(\d+): `) })

// tracebackLine is the line of the deepest entry of a pytest traceback
// (--tb=short "file:line: in f" or long "file:line: Error") in file.
func tracebackLine(text, file string) (int, bool) {
	line, found := 0, false
	for _, m := range tbEntryRe().FindAllStringSubmatch(text, -1) {
		if filepath.ToSlash(m[1]) == filepath.ToSlash(file) || strings.HasSuffix(filepath.ToSlash(m[1]), "/"+filepath.ToSlash(file)) {
			if n, err := strconv.Atoi(m[2]); err == nil {
				line, found = n, true
			}
		}
	}
	return line, found
}

// eLines joins pytest's "E   " lines: the real error of a collection
// failure.
func eLines(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(l, "E   "); ok {
			out = append(out, strings.TrimSpace(rest))
		}
	}
	return strings.Join(out, "\n")
}

// testPath turns pytest's classname ("tests.test_a.TestX") into the class
// part of a node id ("TestX::"), given the file ("tests/test_a.py").
func testPath(classname, file string) string {
	mod := strings.TrimSuffix(filepath.ToSlash(file), ".py")
	mod = strings.ReplaceAll(mod, "/", ".")
	rest := strings.TrimPrefix(classname, mod)
	rest = strings.TrimPrefix(rest, ".")
	if rest == "" || rest == classname {
		return ""
	}
	return strings.ReplaceAll(rest, ".", "::") + "::"
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// ---- unittest ----

func (p *Pack) unittest(ctx context.Context, interp Interpreter, c ext.Call, t testCall, selectors []string, timeout time.Duration) (map[string]any, error) {
	if len(optStrings(c.Opts, "include"))+len(optStrings(c.Opts, "exclude")) > 0 {
		return nil, fmt.Errorf("python run_tests: include/exclude select pytest markers, and pytest is not importable here (unittest has no tags)")
	}
	argv := append(append([]string(nil), interp.Argv...), "-m", "unittest")
	var names, targets []string
	for _, s := range selectors {
		if strings.HasPrefix(s, "::") {
			names = append(names, strings.TrimPrefix(s, "::"))
			continue
		}
		mods, err := unittestTargets(c.Cwd, s)
		if err != nil {
			return nil, fmt.Errorf("python run_tests: %w", err)
		}
		targets = append(targets, mods...)
	}
	if len(selectors) > 0 && len(targets) == 0 && len(names) == 0 {
		return nil, fmt.Errorf("python run_tests: no test files (test*.py) under %s", strings.Join(selectors, ", "))
	}
	// -c: interrupted at its timeout, unittest finishes the test running
	// then and reports everything so far (it goes after "discover").
	switch {
	case len(targets) == 0 && len(t.project.Args) > 0 && t.project.Args[0] == "discover":
		argv = append(append(argv, "discover", "-c"), t.project.Args[1:]...)
	case len(targets) == 0 && len(t.project.Args) > 0:
		argv = append(append(argv, "-c"), t.project.Args...) // the project's own discovery
	case len(targets) == 0:
		argv = append(argv, "discover", "-c")
	default:
		argv = append(argv, "-c")
	}
	for _, n := range names {
		argv = append(argv, "-k", n)
	}
	argv = append(argv, t.args...)
	// -v: a line per test as it ends, for the live view and for a run
	// killed before its summary (plain dots name no test).
	verbose := !slices.ContainsFunc(argv, func(a string) bool { return a == "-q" || a == "--quiet" || a == "-v" || a == "--verbose" })
	if verbose {
		argv = append(argv, "-v")
	}
	argv = append(argv, targets...)
	r, err := runTests(ctx, argv, c.Cwd, timeout, t.env)
	if err != nil {
		return nil, fmt.Errorf("python run_tests: %w", err)
	}
	out := ParseUnittest(r.stderr, c.Cwd)
	if _, counted := out["total"]; !counted && r.timedOut {
		partialUnittest(r.stderr, out) // a test that never ended: killed before the report
	}
	out["runner"] = "unittest"
	out["framework"] = "unittest"
	out["command"] = strings.Join(argv[len(interp.Argv)-1:], " ")
	out["exit"] = r.exit
	out["timed_out"] = r.timedOut
	text := r.stdout + r.stderr
	if verbose && !r.timedOut && out["total"] != nil {
		text = passedLineRe().ReplaceAllString(text, "") // our -v: the summary says it, the model needs the failures
	}
	out["output"] = clip(text, outputLimit)
	if t, ok := out["total"].(int); ok && t == 0 {
		out["message"] = "no tests ran (unittest discovers test*.py files): not a pass"
		if r.exit == 5 {
			out["exit"] = 0
		}
	}
	if _, ok := out["total"]; !ok && !r.timedOut {
		out["error"] = fmt.Sprintf("unittest printed no summary (exit %d); see output", r.exit)
	}
	return out, nil
}

// unittestTargets turns a selector (a file, a directory, or a node id
// path::Class::test) into dotted unittest names relative to dir.
func unittestTargets(dir, sel string) ([]string, error) {
	path, rest, _ := strings.Cut(sel, "::")
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, path)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("no such test path: %s", path)
	}
	if fi.IsDir() {
		if rest != "" {
			return nil, fmt.Errorf("%s is a directory: a ::name selector needs a file", path)
		}
		var mods []string
		err := filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != abs && (workspace.SkipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasPrefix(d.Name(), "test") && strings.HasSuffix(d.Name(), ".py") {
				if m, ok := moduleName(dir, p); ok {
					mods = append(mods, m)
				}
			}
			return nil
		})
		return mods, err
	}
	m, ok := moduleName(dir, abs)
	if !ok {
		return nil, fmt.Errorf("%s is not a python file under the project", path)
	}
	if rest != "" {
		m += "." + strings.ReplaceAll(rest, "::", ".")
	}
	return []string{m}, nil
}

func moduleName(dir, file string) (string, bool) {
	rel, err := filepath.Rel(dir, file)
	if err != nil || strings.HasPrefix(rel, "..") || !strings.HasSuffix(rel, ".py") {
		return "", false
	}
	return strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".py"), "/", "."), true
}

var (
	ranRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Ran (\d+) tests? in `) })
	summaryRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(OK|FAILED|NO TESTS RAN)(?: \(([^)]*)\))?\s*$`) })
	blockRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \(([^)]*)\)`)
	})
	fileRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`File "([^"]+)", line (\d+)`) })
)

// ParseUnittest reads unittest's stderr: "Ran N tests", the OK/FAILED
// summary with its counts, and one failure row per FAIL/ERROR block: the
// file (relative to dir when inside it) and line of the deepest traceback
// frame inside dir (else the deepest frame), and the exception's first
// lines as the message; a failed doctest points at its failing example
// and says what was expected and what came. A count unittest did not
// print stays absent.
func ParseUnittest(stderr, dir string) map[string]any {
	out := map[string]any{}
	failures := []any{}
	if m := ranRe().FindAllStringSubmatch(stderr, -1); len(m) > 0 {
		n, _ := strconv.Atoi(m[len(m)-1][1])
		out["total"] = n
	}
	fail, errored, skipped := 0, 0, 0
	if m := summaryRe().FindAllStringSubmatch(stderr, -1); len(m) > 0 {
		last := m[len(m)-1]
		for _, part := range strings.Split(last[2], ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
			if !ok {
				continue
			}
			n, _ := strconv.Atoi(v)
			switch k {
			case "failures":
				fail = n
			case "errors":
				errored = n
			case "skipped":
				skipped = n
			case "unexpected successes":
				fail += n
			}
		}
		if _, ok := out["total"]; ok {
			out["fail"], out["errored"], out["skipped"] = fail, errored, skipped
			out["pass"] = out["total"].(int) - fail - errored - skipped
			if out["pass"].(int) < 0 {
				out["pass"] = 0
			}
		}
	}
	locs := blockRe().FindAllStringSubmatchIndex(stderr, -1)
	for i, loc := range locs {
		end := len(stderr)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		block := stderr[loc[1]:end]
		kind := "fail"
		if stderr[loc[2]:loc[3]] == "ERROR" {
			kind = "error"
		}
		// Python 3.11: "test_x (mod.Class.test_x)"; older ones and doctests:
		// "test_x (mod.Class)", "take (pkg.module)"
		test, short := stderr[loc[6]:loc[7]], stderr[loc[4]:loc[5]]
		if !strings.HasSuffix(test, "."+short) {
			test += "." + short
		}
		failures = append(failures, unittestRow(test, kind, block, dir))
	}
	out["failures"] = failures
	return out
}

// unittest's progress: one character per finished test (plain), or one
// "name (id) ... outcome" line each (-v).
var (
	dotsRe       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[.FEsxu]+$`) })
	passedLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\S+ \([^)]*\)(?:\n[^\n]*)?? \.\.\. ok\n`) })
	verboseRe    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^(\S+) \(([^)]*)\)(?:\n.*)?? \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$`)
	})
)

// partialUnittest counts, for a run killed before its summary, the tests
// its progress output shows finished, and names the failed ones (their
// tracebacks come only with the summary, so the message says so).
func partialUnittest(stderr string, out map[string]any) {
	pass, fail, errored, skipped := 0, 0, 0, 0
	var failures []any
	if ms := verboseRe().FindAllStringSubmatch(stderr, -1); len(ms) > 0 {
		for _, m := range ms {
			switch outcome := m[3]; {
			case outcome == "ok" || outcome == "expected failure":
				pass++
			case outcome == "FAIL" || outcome == "unexpected success":
				fail++
				failures = append(failures, map[string]any{"test": m[2], "type": "fail", "file": "", "message": "killed at the timeout before unittest printed this failure's traceback"})
			case outcome == "ERROR":
				errored++
				failures = append(failures, map[string]any{"test": m[2], "type": "error", "file": "", "message": "killed at the timeout before unittest printed this error's traceback"})
			default:
				skipped++
			}
		}
	} else {
		line, _, _ := strings.Cut(stderr, "\n")
		if !dotsRe().MatchString(line) {
			return
		}
		pass, fail, errored = strings.Count(line, ".")+strings.Count(line, "x"), strings.Count(line, "F")+strings.Count(line, "u"), strings.Count(line, "E")
		skipped = strings.Count(line, "s")
	}
	out["total"], out["pass"], out["fail"], out["errored"], out["skipped"] = pass+fail+errored+skipped, pass, fail, errored, skipped
	if len(failures) > 0 {
		out["failures"] = failures
	}
}

// unittestRow builds one failure row from a FAIL/ERROR block.
func unittestRow(test, kind, block, dir string) map[string]any {
	row := map[string]any{"test": test, "type": kind, "file": ""}
	if i := strings.Index(block, "Failed doctest test for"); i >= 0 {
		// the doctest report follows the traceback, after a rule line
		rep := block
		if j := strings.Index(rep, "\n======"); j >= 0 {
			rep = rep[:j]
		}
		if j := strings.Index(rep, "Failed example:"); j >= 0 {
			if fm := fileRe().FindAllStringSubmatchIndex(rep[:j], -1); len(fm) > 0 {
				f := fm[len(fm)-1]
				setLocation(row, rep[f[2]:f[3]], rep[f[4]:f[5]], dir)
			}
			row["message"] = clip(compactDoctest(rep[j:]), 600)
			return row
		}
	}
	body := trimBlock(block)
	frames := fileRe().FindAllStringSubmatchIndex(body, -1)
	pick := -1
	for i := len(frames) - 1; i >= 0; i-- {
		if within(dir, body[frames[i][2]:frames[i][3]]) {
			pick = i
			break
		}
	}
	if pick < 0 && len(frames) > 0 {
		pick = len(frames) - 1
	}
	if pick >= 0 {
		f := frames[pick]
		setLocation(row, body[f[2]:f[3]], body[f[4]:f[5]], dir)
	}
	row["message"] = exceptionText(body)
	return row
}

// exceptionText is a traceback's exception: the first non-indented line
// after the last frame and up to four lines after it (the start of an
// assertEqual diff), never the diff's last marker line.
func exceptionText(body string) string {
	lines := strings.Split(body, "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "  File \"") {
			start = -1
			continue
		}
		if start < 0 && l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "Traceback") {
			start = i
		}
	}
	if start < 0 {
		return lastLine(body)
	}
	end := min(len(lines), start+5)
	return clip(strings.TrimSpace(strings.Join(lines[start:end], "\n")), 600)
}

// compactDoctest turns "Failed example: / Expected: / Got:" into one
// short message.
func compactDoctest(rep string) string {
	var parts []string
	for _, l := range strings.Split(strings.TrimSpace(rep), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "------") {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "\n")
}

// within reports whether file lies inside dir.
func within(dir, file string) bool {
	if dir == "" {
		return false
	}
	if !filepath.IsAbs(file) {
		return !strings.HasPrefix(file, "..")
	}
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// setLocation writes file (relative to dir when inside it) and line.
func setLocation(row map[string]any, file, line, dir string) {
	if filepath.IsAbs(file) && within(dir, file) {
		if rel, err := filepath.Rel(dir, file); err == nil {
			file = filepath.ToSlash(rel)
		}
	}
	row["file"] = file
	if n, err := strconv.Atoi(line); err == nil {
		row["line"] = n
	}
}

// trimBlock keeps a failure block's traceback: from after its header rule
// to the next rule line.
func trimBlock(block string) string {
	const rule = "----------------------------------------------------------------------"
	if i := strings.Index(block, rule); i >= 0 {
		block = block[i+len(rule):]
	}
	if i := strings.Index(block, rule); i >= 0 {
		block = block[:i]
	}
	if i := strings.Index(block, "\n======"); i >= 0 {
		block = block[:i]
	}
	return strings.TrimSpace(block)
}
