package python

import (
	"context"
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

const outputLimit = 20000

// test runs the project's tests: pytest when the interpreter can import
// it, else unittest. runner "pytest"/"project" insists on pytest,
// "unittest" on unittest. The call's env reaches the runner (and the
// pytest probe); its args go before the paths.
func (p *Pack) test(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	vars, extra, err := toolOpts("run_tests", c)
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
	hasPytest := false
	if runner != "unittest" {
		r, err := run(ctx, append(append([]string(nil), interp.Argv...), "-c", "import pytest"), c.Cwd, "", p.opts.ToolTimeout, t.env)
		if err != nil {
			return nil, fmt.Errorf("python run_tests: %w", err)
		}
		hasPytest = r.exit == 0 && !r.timedOut
		if !hasPytest && (runner == "pytest" || runner == "project") {
			return nil, fmt.Errorf("python run_tests: pytest is not importable by %s; install it in the project, or omit runner to use unittest", interp)
		}
	}
	if hasPytest {
		return p.pytest(ctx, interp, c, t, selectors, timeout)
	}
	return p.unittest(ctx, interp, c, t, selectors, timeout)
}

// testCall is what the call adds to the runner: environment entries and
// extra arguments.
type testCall struct {
	env, args []string
}

func (p *Pack) pytest(ctx context.Context, interp Interpreter, c ext.Call, t testCall, selectors []string, timeout time.Duration) (map[string]any, error) {
	tmp, err := os.MkdirTemp("", "vis-pytest-")
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
	argv = append(argv, t.args...)
	argv = append(argv, paths...)
	r, err := run(ctx, argv, c.Cwd, "", timeout, t.env)
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
			if msg == "" {
				msg = lastLine(f.Text)
			}
			row := map[string]any{"test": test, "type": kind, "message": msg, "file": file}
			if tc.Line != "" {
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
	if len(targets) == 0 {
		argv = append(argv, "discover")
	}
	for _, n := range names {
		argv = append(argv, "-k", n)
	}
	argv = append(argv, t.args...)
	argv = append(argv, targets...)
	r, err := run(ctx, argv, c.Cwd, "", timeout, t.env)
	if err != nil {
		return nil, fmt.Errorf("python run_tests: %w", err)
	}
	out := ParseUnittest(r.stderr)
	out["runner"] = "unittest"
	out["framework"] = "unittest"
	out["command"] = strings.Join(argv[len(interp.Argv)-1:], " ")
	out["exit"] = r.exit
	out["timed_out"] = r.timedOut
	out["output"] = clip(r.stdout+r.stderr, outputLimit)
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
	ranRe     = regexp.MustCompile(`(?m)^Ran (\d+) tests? in `)
	summaryRe = regexp.MustCompile(`(?m)^(OK|FAILED|NO TESTS RAN)(?: \(([^)]*)\))?\s*$`)
	blockRe   = regexp.MustCompile(`(?m)^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \(([^)]*)\)`)
	fileRe    = regexp.MustCompile(`File "([^"]+)", line (\d+)`)
)

// ParseUnittest reads unittest's stderr: "Ran N tests", the OK/FAILED
// summary with its counts, and one failure row per FAIL/ERROR block. A
// count unittest did not print stays absent.
func ParseUnittest(stderr string) map[string]any {
	out := map[string]any{}
	failures := []any{}
	if m := ranRe.FindAllStringSubmatch(stderr, -1); len(m) > 0 {
		n, _ := strconv.Atoi(m[len(m)-1][1])
		out["total"] = n
	}
	fail, errored, skipped := 0, 0, 0
	if m := summaryRe.FindAllStringSubmatch(stderr, -1); len(m) > 0 {
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
	locs := blockRe.FindAllStringSubmatchIndex(stderr, -1)
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
		test := stderr[loc[6]:loc[7]]
		if !strings.Contains(test, ".") { // Python < 3.11: "test_x (mod.Class)"
			test += "." + stderr[loc[4]:loc[5]]
		}
		body := trimBlock(block)
		row := map[string]any{"test": test, "type": kind, "message": lastLine(body), "file": ""}
		if fm := fileRe.FindAllStringSubmatch(body, -1); len(fm) > 0 {
			f := fm[len(fm)-1]
			row["file"] = f[1]
			if n, err := strconv.Atoi(f[2]); err == nil {
				row["line"] = n
			}
		}
		failures = append(failures, row)
	}
	out["failures"] = failures
	return out
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
