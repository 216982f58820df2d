package js

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/live"
	child "github.com/visdesktop/vis/backend/packs/proc"
	"github.com/visdesktop/vis/backend/workspace"
)

// DefaultTestTimeout bounds one run_tests call unless timeout_ms says otherwise.
const DefaultTestTimeout = 10 * time.Minute

const maxOutput = 16000

// Test runners.
const (
	RunnerBun    = "bun test"
	RunnerNode   = "node --test"
	RunnerVitest = "vitest"
	RunnerJest   = "jest"
)

// Test is run_tests for JavaScript/TypeScript. Selectors: paths (files or
// directories), node ids "path::name" and "::name" (the names become one
// name pattern). Result: the shared contract (is_pass, total, pass, fail,
// skipped, failures, output, timed_out) plus runner, cmd (argv), command
// (as a command line), why (where that command came from: the project's
// package.json scripts.test first), dir (where it ran, when not the
// workspace root) and exit. A non-zero exit with every test passing sets
// error to the runner's own reason.
func Test(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	sel, err := ext.PathsOption(c.Opts)
	if err != nil {
		return nil, err
	}
	if a := ext.StringOption(c.Opts, "arg"); strings.TrimSpace(a) != "" {
		sel = append(sel, strings.TrimSpace(a))
	}
	if k, instead, ok := ToolOptions.Refused(ext.VerbTest, c.Opts); ok {
		return nil, ext.BadArgs("%q is not an option; %s", k, instead)
	}
	t, err := ext.ToolOf(c.Opts, DefaultTestTimeout)
	if err != nil {
		return nil, err
	}
	cwd := c.Dir(env)
	paths, names, err := splitSelectors(env.Workspace, cwd, sel)
	if err != nil {
		return nil, err
	}
	rt, err := ResolveRuntime(env.Workspace, cwd, homedir.Dir(), nil)
	if err != nil {
		return nil, err
	}
	plan, err := planTest(env.Workspace, cwd, rt, paths, names, t.Args...)
	if err != nil {
		return nil, err
	}
	argv, runner := plan.argv, plan.runner
	var runEnv []string // the script's VAR=value first: the call's own come later and win
	for k, v := range plan.env {
		runEnv = append(runEnv, k+"="+v)
	}
	runEnv = append(runEnv, t.Env...)
	timeout := t.Timeout
	var vitestJSON string // vitest writes its JSON report here (stdout keeps its own reporter's text)
	if runner == RunnerVitest {
		tmp, err := os.MkdirTemp(confine.TempDir(ctx), "vis-vitest-")
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", runner, err)
		}
		defer os.RemoveAll(tmp)
		vitestJSON = filepath.Join(tmp, "report.json")
		argv = append(argv, "--outputFile.json="+vitestJSON)
	}
	runCtx := live.Map(ctx, func(l string) (string, bool) { return ansi().ReplaceAllString(l, ""), true })
	if runner == RunnerNode {
		runCtx = live.Map(ctx, liveTAPLine)
	}
	r, err := child.RunEnv(runCtx, plan.dir, timeout, "", runEnv, argv...)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", runner, err)
	}
	out := r.Stdout
	if r.Stderr != "" {
		out += "\n" + r.Stderr
	}
	var res map[string]any
	switch runner {
	case RunnerBun:
		res = ParseBun(out)
	case RunnerVitest:
		if b, err := os.ReadFile(vitestJSON); err == nil {
			res = ParseVitestJSON(b, env.Workspace, vitestPattern(names))
		}
		if res == nil {
			res = ParseVitest(ansi().ReplaceAllString(out, ""))
		} else {
			out = vitestPassed().ReplaceAllString(ansi().ReplaceAllString(out, ""), "") // the report counts them; the model needs the failures
		}
	case RunnerJest:
		if res = ParseJestJSON(r.Stdout, env.Workspace); res == nil {
			res = ParseJest(out)
		}
	default:
		res = ParseTAP(r.Stdout, env.Workspace)
	}
	res["runner"], res["cmd"], res["exit"], res["timed_out"] = runner, argv, r.Exit, r.TimedOut
	res["command"], res["why"] = shellJoin(env.Workspace, argv), plan.why
	if rel := workspaceRel(env.Workspace, plan.dir); rel != "." && rel != "" {
		res["dir"] = rel
	}
	res["output"] = child.ClipMiddle(ansi().ReplaceAllString(out, ""), maxOutput)
	if rt.Note != "" {
		res["note"] = rt.Note
	}
	pass := r.Exit == 0 && !r.TimedOut
	fail, _ := res["fail"].(int)
	if fail > 0 {
		pass = false
	}
	total, counted := res["total"].(int)
	if counted && total == 0 {
		pass = false
		if len(names) > 0 {
			res["error"] = "no test matched " + strings.Join(sel, ", ")
		} else {
			res["error"] = "no tests found"
		}
	}
	if r.TimedOut {
		res["error"] = fmt.Sprintf("%s timed out after %v; its process group was killed", runner, timeout)
	} else if !counted && r.Exit != 0 && res["error"] == nil {
		res["error"] = fmt.Sprintf("%s failed (exit %d) without a summary", runner, r.Exit)
	} else if counted && total > 0 && fail == 0 && r.Exit != 0 && res["error"] == nil {
		res["error"] = fmt.Sprintf("%s exited %d with every test passing: %s", runner, r.Exit, exitReason(r.Stderr))
	}
	res["is_pass"] = pass
	return res, nil
}

// splitSelectors separates paths (checked to exist inside the workspace,
// kept relative to cwd) from node-id test names.
func splitSelectors(root, cwd string, sel []string) (paths, names []string, err error) {
	seen := map[string]bool{}
	for _, s := range sel {
		path, name, isID := strings.Cut(s, "::")
		if isID {
			if name = strings.TrimSpace(name); name == "" {
				return nil, nil, ext.BadArgs("node id %q names no test; write path::name or ::name", s)
			}
			names = append(names, name)
		}
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		abs, err := resolveIn(root, cwd, path)
		if err != nil {
			return nil, nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, nil, ext.BadArgs("%s: no such file or directory", path)
		}
		if rel := workspace.RelTo(cwd, abs); !seen[rel] {
			seen[rel] = true
			paths = append(paths, rel)
		}
	}
	return paths, names, nil
}

// NamePattern joins test names into one regular expression.
func NamePattern(names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return "(" + strings.Join(q, "|") + ")"
}

// packageJSON is what run_tests reads of package.json.
type packageJSON struct {
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

// configuredRunner is "vitest" or "jest" when package.json (the nearest
// one from dir up) names it in scripts.test or its dependencies.
func configuredRunner(workspace, dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			var pj packageJSON
			if json.Unmarshal(b, &pj) != nil {
				return ""
			}
			script := pj.Scripts["test"]
			for _, r := range []string{RunnerVitest, RunnerJest} {
				if strings.Contains(script, r) {
					return r
				}
			}
			for _, r := range []string{RunnerVitest, RunnerJest} {
				if _, ok := pj.DevDependencies[r]; ok {
					return r
				}
				if _, ok := pj.Dependencies[r]; ok {
					return r
				}
			}
			return ""
		}
		if d == workspace || filepath.Dir(d) == d || (workspace != "" && !strings.HasPrefix(d, workspace)) {
			return ""
		}
	}
}

// testPlan is the command run_tests runs, where, and why that one.
type testPlan struct {
	argv   []string
	runner string
	dir    string            // where it runs: the package.json's directory for a script
	env    map[string]string // the script's own VAR=value prefixes
	why    string
}

// TestCommand builds the test command (see planTest); paths are relative
// to dir.
func TestCommand(workspace, dir string, rt Runtime, paths, names []string, args ...string) ([]string, string, error) {
	p, err := planTest(workspace, dir, rt, paths, names, args...)
	return p.argv, p.runner, err
}

// planTest picks the test command: bun test under bun; else what the
// project's package.json scripts.test runs (node --test with the script's
// own files and options, vitest or jest), with structured output; else
// the vitest or jest its dependencies name (which must be installed); else
// bare node --test. args (the call's extra runner arguments) go after the
// command's own options and before the test files; paths (relative to
// dir) replace the script's file list.
func planTest(workspace, dir string, rt Runtime, paths, names []string, args ...string) (testPlan, error) {
	if rt.Name == "bun" {
		argv := []string{rt.Path, "test"}
		if pat := NamePattern(names); pat != "" {
			argv = append(argv, "-t", pat)
		}
		argv = append(argv, args...)
		return testPlan{argv: append(argv, paths...), runner: RunnerBun, dir: dir, why: "bun is the runtime"}, nil
	}
	sc, ok, note := ProjectTestCommand(workspace, dir)
	if ok {
		rel := make([]string, len(paths))
		for i, p := range paths {
			rel[i] = p
			if r, err := filepath.Rel(sc.Dir, filepath.Join(dir, p)); err == nil {
				rel[i] = filepath.ToSlash(r)
			}
		}
		p := testPlan{runner: sc.Runner, dir: sc.Dir, env: sc.Env, why: sc.Why}
		if sc.Runner == RunnerNode {
			opts, files := nodeTestArgs(sc.Args, rel)
			p.argv = append([]string{rt.Path, "--test", "--test-reporter=tap"}, opts...)
			if pat := nodeNamePattern(names); pat != "" {
				p.argv = append(p.argv, "--test-name-pattern="+pat)
			}
			p.argv = append(append(p.argv, args...), files...)
			return p, nil
		}
		var own []string
		for _, a := range sc.Args {
			if a != "run" && a != "watch" && a != "--watch" && a != "--run" {
				own = append(own, a)
			}
		}
		if sc.Runner == RunnerVitest {
			own = dropReporters(own)
		}
		argv, err := packageRunner(workspace, sc.Dir, sc.Runner, own, rel, names, args)
		p.argv = argv
		return p, err
	}
	switch r := configuredRunner(workspace, dir); r {
	case RunnerVitest, RunnerJest:
		argv, err := packageRunner(workspace, dir, r, nil, paths, names, args)
		return testPlan{argv: argv, runner: r, dir: dir, why: "package.json names " + r + " in its dependencies"}, err
	}
	argv := []string{rt.Path, "--test", "--test-reporter=tap"}
	if pat := nodeNamePattern(names); pat != "" {
		argv = append(argv, "--test-name-pattern="+pat)
	}
	argv = append(argv, args...)
	why := "the project declares no test command: node --test with Node's default file patterns"
	if note != "" {
		why = note + "; ran node --test with Node's default file patterns"
	}
	return testPlan{argv: append(argv, paths...), runner: RunnerNode, dir: dir, why: why}, nil
}

// packageRunner is the project's installed vitest or jest with own (the
// script's options), args, paths and a -t pattern.
func packageRunner(workspace, dir, r string, own, paths, names, args []string) ([]string, error) {
	bin := findUp(workspace, dir, filepath.Join("node_modules", ".bin", r))
	if bin == "" {
		return nil, fmt.Errorf("the project is configured for %s but it is not installed; run npm install first", r)
	}
	argv := []string{bin}
	if r == RunnerVitest {
		// Its verbose reporter for the output (a line per test as it ends:
		// the live view, and what a run killed before its report has), its
		// JSON one for the rows (Test adds --outputFile.json).
		argv = append(argv, "run", "--reporter=verbose", "--reporter=json")
	} else {
		argv = append(argv, "--ci", "--json")
	}
	argv = append(append(append(argv, own...), args...), paths...)
	if pat := vitestPattern(names); pat != nil {
		argv = append(argv, "-t", pat.String())
	}
	return argv, nil
}

// vitestPattern is the -t pattern for test names (nil for none). vitest
// and jest match it against a test's full name, its describe titles and
// its own joined by spaces. A name written as our rows write it, "suite >
// test", selects exactly that test: anchored, and each " > " matching
// either the separator or a " > " inside a title; a plain name matches
// anywhere, as -t does.
func vitestPattern(names []string) *regexp.Regexp {
	if len(names) == 0 {
		return nil
	}
	q := make([]string, len(names))
	for i, n := range names {
		parts := strings.Split(n, " > ")
		for k, p := range parts {
			parts[k] = regexp.QuoteMeta(p)
		}
		q[i] = strings.Join(parts, "(?: | > )")
		if len(parts) > 1 {
			q[i] = "^" + q[i] + "$"
		}
	}
	pat := q[0]
	if len(q) > 1 {
		pat = "(?:" + strings.Join(q, "|") + ")"
	}
	return regexp.MustCompile(pat)
}

// dropReporters removes a script's own --reporter and --outputFile
// options (and their values): run_tests sets vitest's reporters itself.
func dropReporters(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(args[i], "=")
		if name == "--reporter" || name == "--outputFile" || strings.HasPrefix(name, "--outputFile.") {
			if !hasValue && i+1 < len(args) {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// nodeNamePattern is NamePattern for node --test, which matches a pattern
// against each test's own name: a nested name "suite > test" (as our
// failure rows write it) selects its last part, exactly.
func nodeNamePattern(names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		if k := strings.LastIndex(n, " > "); k >= 0 {
			q[i] = "^" + regexp.QuoteMeta(n[k+3:]) + "$"
		} else {
			q[i] = regexp.QuoteMeta(n)
		}
	}
	if len(q) == 1 {
		return q[0]
	}
	return "(" + strings.Join(q, "|") + ")"
}

// shellJoin shows argv as a command line: the program by its name (or
// workspace-relative), words with spaces quoted.
func shellJoin(workspace string, argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if i == 0 {
			if rel := workspaceRel(workspace, a); rel != a {
				a = rel
			} else {
				a = filepath.Base(a)
			}
		}
		if strings.ContainsAny(a, " '\"$*?") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// workspaceRel is abs relative to the workspace when inside it, else abs.
func workspaceRel(root, abs string) string {
	if root == "" || !filepath.IsAbs(abs) {
		return abs
	}
	r, err := filepath.Rel(root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return abs
	}
	return filepath.ToSlash(r)
}

func count(re *regexp.Regexp, s string) (int, bool) {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

var (
	bunPass  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(\d+) pass\b`) })
	bunFail  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(\d+) fail\b`) })
	bunSkip  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(\d+) skip\b`) })
	bunTodo  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(\d+) todo\b`) })
	bunRan   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Ran (\d+) tests?\b`) })
	bunFailT = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\(fail\) (.+?)(?: \[[\d.]+m?s\])?$`) })
)

// ParseBun reads bun test's summary; a count it did not print is absent.
func ParseBun(out string) map[string]any {
	res := map[string]any{}
	if n, ok := count(bunPass(), out); ok {
		res["pass"] = n
	}
	if n, ok := count(bunFail(), out); ok {
		res["fail"] = n
	}
	skipped, hasSkip := count(bunSkip(), out)
	if todo, ok := count(bunTodo(), out); ok {
		skipped, hasSkip = skipped+todo, true
	}
	if hasSkip {
		res["skipped"] = skipped
	}
	if n, ok := count(bunRan(), out); ok {
		res["total"] = n
	}
	failures := []map[string]any{}
	lines := strings.Split(out, "\n")
	from := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "(pass) ") || strings.HasPrefix(l, "(skip) ") || strings.HasPrefix(l, "(todo) ") {
			from = i + 1
			continue
		}
		if m := bunFailT().FindStringSubmatch(l); m != nil {
			msg := strings.TrimSpace(strings.Join(lines[from:i], "\n"))
			failures = append(failures, map[string]any{"test": m[1], "type": "fail", "message": child.ClipMiddle(msg, 4000)})
			from = i + 1
		}
	}
	res["failures"] = failures
	return res
}

var (
	vitestTests = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*Tests\s+(.*)$`) })
	vitestN     = sync.OnceValue(func() map[string]*regexp.Regexp {
		return map[string]*regexp.Regexp{"fail": regexp.MustCompile(`(\d+) failed`), "pass": regexp.MustCompile(`(\d+) passed`), "skipped": regexp.MustCompile(`(\d+) (?:skipped|todo)`)}
	})
	vitestTotal = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\((\d+)\)`) })
	// verbose reporter: " ✓ test/a.test.ts > group > name 2ms" (× failed, ↓ skipped, □ todo)
	vitestLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*([✓×↓□])\s+(\S+) > (.+?)(?:\s+\d+(?:\.\d+)?m?s)?\s*$`)
	})
	vitestPassed = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*✓\s+\S+ > .*\n`) })
	vitestFailT  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*FAIL\s+(\S+) > (.+?)\s*$`) })
	jestTests    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Tests:\s+(.*)$`) })
	jestN        = sync.OnceValue(func() map[string]*regexp.Regexp {
		return map[string]*regexp.Regexp{"fail": regexp.MustCompile(`(\d+) failed`), "pass": regexp.MustCompile(`(\d+) passed`), "skipped": regexp.MustCompile(`(\d+) (?:skipped|todo)`), "total": regexp.MustCompile(`(\d+) total`)}
	})
	jestFailT = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*● (.+)$`) })
)

// ParseVitest reads vitest's "Tests  1 failed | 2 passed (3)" line.
func ParseVitest(out string) map[string]any {
	res := map[string]any{}
	if m := vitestTests().FindStringSubmatch(out); m != nil {
		for k, re := range vitestN() {
			if n, ok := count(re, m[1]); ok {
				res[k] = n
			}
		}
		if n, ok := count(vitestTotal(), m[1]); ok {
			res["total"] = n
		}
	}
	failures := []map[string]any{}
	seen := map[string]bool{}
	if _, counted := res["total"]; !counted {
		// No summary (killed before it): the tests the verbose reporter
		// printed as they ended. Failure messages come only with the summary.
		n := map[string]int{}
		for _, m := range vitestLine().FindAllStringSubmatch(out, -1) {
			switch m[1] {
			case "✓":
				n["pass"]++
			case "×":
				n["fail"]++
				if key := m[2] + " > " + m[3]; !seen[key] {
					seen[key] = true
					failures = append(failures, map[string]any{"test": m[3], "type": "fail", "file": m[2], "message": "killed before vitest printed this failure's message"})
				}
			default:
				n["skipped"]++
			}
		}
		if t := n["pass"] + n["fail"] + n["skipped"]; t > 0 {
			res["total"], res["pass"], res["fail"], res["skipped"] = t, n["pass"], n["fail"], n["skipped"]
		}
	}
	for _, m := range vitestFailT().FindAllStringSubmatch(out, -1) {
		if key := m[1] + " > " + m[2]; !seen[key] {
			seen[key] = true
			failures = append(failures, map[string]any{"test": m[2], "type": "fail", "message": "", "file": m[1]})
		}
	}
	res["failures"] = failures
	return res
}

// ParseJest reads jest's "Tests: 1 failed, 2 passed, 3 total" line.
func ParseJest(out string) map[string]any {
	res := map[string]any{}
	if m := jestTests().FindStringSubmatch(out); m != nil {
		for k, re := range jestN() {
			if n, ok := count(re, m[1]); ok {
				res[k] = n
			}
		}
	}
	failures := []map[string]any{}
	for _, m := range jestFailT().FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], "Test suite failed to run") {
			failures = append(failures, map[string]any{"test": strings.ReplaceAll(m[1], " › ", " > "), "type": "fail", "message": ""})
		}
	}
	res["failures"] = failures
	return res
}

var (
	tapCount    = func(k string) *regexp.Regexp { return regexp.MustCompile(`(?m)^# ` + k + ` (\d+)\s*$`) }
	tapTests    = tapCount("tests")
	tapPass     = tapCount("pass")
	tapFail     = tapCount("fail")
	tapSkipped  = tapCount("skipped")
	tapTodo     = tapCount("todo")
	tapCanceled = tapCount("cancelled")
	tapSubtest  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)# Subtest: (.*)$`) })
	tapResult   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*)(ok|not ok) \d+ - (.*?)(?: # (SKIP|TODO)\b ?(.*))?$`)
	})
	tapKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_]+): ?(.*)$`) })
)

// liveTAPLine keeps, of node's TAP, what a person follows a run by: each
// test's ok / not ok line and the closing # counts (not the YAML blocks).
func liveTAPLine(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "ok ") || strings.HasPrefix(t, "not ok ") || strings.HasPrefix(t, "# ") && !strings.HasPrefix(t, "# Subtest:") {
		return line, true
	}
	return "", false
}

// ParseTAP reads node --test's TAP output: counts from its "# tests/pass/
// fail/skipped" trailer (tests deselected by a name pattern, which node
// reports as skipped, are not counted), failures from "not ok" entries
// with their YAML blocks: file relative to root, line of the failing
// assertion (the first stack frame in the test's file, else any frame in
// the workspace outside node_modules, else the test's own location). A run
// killed before its trailer counts the leaf results it had printed.
func ParseTAP(out, root string) map[string]any {
	res := map[string]any{}
	lines := strings.Split(out, "\n")
	deselected := 0
	var stack []string
	failures := []map[string]any{}
	// Leaf results counted as they come, for a run killed before its
	// summary: hasChild[d] says the test open at depth d had results under it.
	var hasChild []bool
	leaf := map[string]int{}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := tapSubtest().FindStringSubmatch(l); m != nil {
			depth := len(m[1]) / 4
			if depth < len(stack) {
				stack = stack[:depth]
			}
			stack = append(stack, m[2])
			for len(hasChild) <= depth {
				hasChild = append(hasChild, false)
			}
			hasChild[depth] = false
			continue
		}
		m := tapResult().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		indent, status, name, directive, reason := m[1], m[2], m[3], m[4], m[5]
		if directive == "SKIP" && reason == "test name does not match pattern" {
			deselected++
		}
		// The YAML block that follows, at indent+2.
		yaml := map[string]string{}
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "---" {
			in := indent + "  "
			j := i + 2
			for ; j < len(lines) && strings.TrimRight(lines[j], " ") != in+"..."; j++ {
				km := tapKey().FindStringSubmatch(strings.TrimPrefix(lines[j], in))
				if km == nil || strings.HasPrefix(lines[j], in+" ") {
					continue
				}
				val := km[2]
				if val == "|-" || val == "|" || val == ">-" {
					var block []string
					for j+1 < len(lines) && strings.HasPrefix(lines[j+1], in+"  ") {
						j++
						block = append(block, strings.TrimPrefix(lines[j], in+"  "))
					}
					val = strings.TrimSpace(strings.Join(block, "\n"))
				} else {
					val = strings.Trim(val, `'"`)
				}
				yaml[km[1]] = val
			}
			i = j
		}
		depth := len(indent) / 4
		if depth > 0 && depth-1 < len(hasChild) {
			hasChild[depth-1] = true
		}
		if depth >= len(hasChild) || !hasChild[depth] {
			switch {
			case directive == "SKIP" && reason == "test name does not match pattern":
			case directive == "SKIP" || directive == "TODO":
				leaf["skipped"]++
			case status == "ok":
				leaf["pass"]++
			default:
				leaf["fail"]++
			}
		}
		if status != "not ok" || directive == "TODO" || yaml["failureType"] == "subtestsFailed" {
			continue
		}
		full := name
		if depth > 0 && depth <= len(stack) {
			full = strings.Join(append(append([]string{}, stack[:depth]...), name), " > ")
		}
		typ := "fail"
		if ft := yaml["failureType"]; ft != "" && ft != "testCodeFailure" {
			typ = "error"
		}
		row := map[string]any{"test": full, "type": typ, "message": child.ClipMiddle(yaml["error"], 4000)}
		if file, line := failureSite(yaml["location"], yaml["stack"], root); file != "" {
			row["file"] = file
			if line > 0 {
				row["line"] = line
			}
		}
		failures = append(failures, row)
	}
	res["failures"] = failures
	total, hasTotal := count(tapTests, out)
	if hasTotal {
		res["total"] = total - deselected
	}
	if n, ok := count(tapPass, out); ok {
		res["pass"] = n
	}
	if n, ok := count(tapFail, out); ok {
		if c, ok := count(tapCanceled, out); ok {
			n += c
		}
		res["fail"] = n
	}
	if n, ok := count(tapSkipped, out); ok {
		if t, ok := count(tapTodo, out); ok {
			n += t
		}
		res["skipped"] = n - deselected
	}
	if !hasTotal { // killed before its summary: what had finished
		if n := leaf["pass"] + leaf["fail"] + leaf["skipped"]; n > 0 {
			res["total"], res["pass"], res["fail"], res["skipped"] = n, leaf["pass"], leaf["fail"], leaf["skipped"]
		}
	}
	return res
}

var stackFrame = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(?((?:file://)?/[^()\s]*?):(\d+):(\d+)\)?\s*$`) })

// splitLoc splits "/a/b.js:12:3" into the file and line (0 when absent).
func splitLoc(loc string) (string, int) {
	loc = strings.TrimPrefix(loc, "file://")
	m := stackFrame().FindStringSubmatch(loc)
	if m == nil {
		return loc, 0
	}
	n, _ := strconv.Atoi(m[2])
	return strings.TrimPrefix(m[1], "file://"), n
}

// failureSite is a failure's file (relative to root) and line.
func failureSite(location, stack, root string) (string, int) {
	locFile, locLine := "", 0
	if location != "" {
		locFile, locLine = splitLoc(location)
	}
	var inWorkspace string
	var inWorkspaceLine int
	for _, l := range strings.Split(stack, "\n") {
		m := stackFrame().FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		file := strings.TrimPrefix(m[1], "file://")
		n, _ := strconv.Atoi(m[2])
		if file == locFile {
			return workspaceRel(root, file), n
		}
		if inWorkspace == "" && !strings.Contains(file, "/node_modules/") && workspaceRel(root, file) != file {
			inWorkspace, inWorkspaceLine = file, n
		}
	}
	if locFile != "" {
		return workspaceRel(root, locFile), locLine
	}
	if inWorkspace != "" {
		return workspaceRel(root, inWorkspace), inWorkspaceLine
	}
	return "", 0
}

// exitReason is what a runner said on stderr when it failed with every
// test passing: its lines about a threshold when there are some, else its
// last lines.
func exitReason(stderr string) string {
	var lines, threshold []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		lines = append(lines, l)
		if strings.Contains(strings.ToLower(l), "threshold") {
			threshold = append(threshold, l)
		}
	}
	if len(threshold) > 0 {
		return child.ClipMiddle(strings.Join(threshold, "\n"), 2000)
	}
	if len(lines) == 0 {
		return "the runner printed no reason on stderr"
	}
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return child.ClipMiddle(strings.Join(lines, "\n"), 2000)
}

// jestReport is what run_tests reads of jest --json.
type jestReport struct {
	NumTotalTests, NumPassedTests, NumFailedTests, NumPendingTests, NumTodoTests int
	TestResults                                                                  []struct {
		Name             string `json:"name"`
		Status           string `json:"status"`
		Message          string `json:"message"`
		AssertionResults []struct {
			AncestorTitles  []string `json:"ancestorTitles"`
			Title           string   `json:"title"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failureMessages"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

var ansi = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;]*m") })

// ParseJestJSON reads jest --json's report (nil when stdout holds none):
// counts, and a row per failed test with its file (relative to root), the
// line of the failing assertion (the first stack frame in that file), the
// message before the stack, and the name as ancestors > title; a suite that
// failed to run is an error row with jest's message.
func ParseJestJSON(stdout, root string) map[string]any {
	i := strings.Index(stdout, "{")
	if i < 0 {
		return nil
	}
	var rep jestReport
	if json.Unmarshal([]byte(stdout[i:]), &rep) != nil {
		return nil
	}
	failures := []map[string]any{}
	for _, f := range rep.TestResults {
		file := workspaceRel(root, f.Name)
		if f.Status == "failed" && len(f.AssertionResults) == 0 {
			failures = append(failures, map[string]any{"test": file, "type": "error", "file": file, "message": child.ClipMiddle(strings.TrimSpace(ansi().ReplaceAllString(f.Message, "")), 4000)})
			continue
		}
		for _, a := range f.AssertionResults {
			if a.Status != "failed" {
				continue
			}
			text := ansi().ReplaceAllString(strings.Join(a.FailureMessages, "\n"), "")
			msg, line := text, 0
			for k, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "at ") {
					if k > 0 && msg == text {
						msg = strings.Join(strings.Split(text, "\n")[:k], "\n")
					}
					if m := stackFrame().FindStringSubmatch(strings.TrimSpace(l)); m != nil && strings.TrimPrefix(m[1], "file://") == f.Name && line == 0 {
						line, _ = strconv.Atoi(m[2])
					}
				}
			}
			row := map[string]any{"test": strings.Join(append(append([]string{}, a.AncestorTitles...), a.Title), " > "), "type": "fail", "file": file,
				"message": child.ClipMiddle(strings.TrimSpace(msg), 4000)}
			if line > 0 {
				row["line"] = line
			}
			failures = append(failures, row)
		}
	}
	return map[string]any{"total": rep.NumTotalTests, "pass": rep.NumPassedTests, "fail": rep.NumFailedTests,
		"skipped": rep.NumPendingTests + rep.NumTodoTests, "failures": failures}
}

// vitestReport is what run_tests reads of vitest's JSON reporter (the
// jest-compatible shape vitest 1 to 4 writes).
type vitestReport struct {
	NumTotalTests, NumPassedTests, NumFailedTests, NumPendingTests, NumTodoTests int
	TestResults                                                                  []struct {
		Name             string `json:"name"`
		Status           string `json:"status"`
		Message          string `json:"message"`
		AssertionResults []struct {
			AncestorTitles  []string `json:"ancestorTitles"`
			Title           string   `json:"title"`
			FullName        string   `json:"fullName"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failureMessages"`
			Location        *struct {
				Line int `json:"line"`
			} `json:"location"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// ParseVitestJSON reads vitest's JSON report (nil when it is not one):
// counts as vitest's own summary gives them, and a row per failed test with
// its file relative to root, the failing assertion's line (the first stack
// frame in the test's file, else its reported location), the message
// before the stack, and the name as "describe > … > test", which selects
// that test when passed back. A file that failed to load is an error row
// with vitest's message. selected is the -t pattern of the run (nil for
// none): vitest reports the tests it left out as skipped, so a skipped
// test the pattern does not match is not counted at all.
func ParseVitestJSON(report []byte, root string, selected *regexp.Regexp) map[string]any {
	var rep vitestReport
	if json.Unmarshal(report, &rep) != nil || rep.TestResults == nil {
		return nil
	}
	total, skipped := rep.NumTotalTests, rep.NumPendingTests+rep.NumTodoTests
	failures := []map[string]any{}
	for _, f := range rep.TestResults {
		file := workspaceRel(root, f.Name)
		if f.Status == "failed" && len(f.AssertionResults) == 0 {
			msg := strings.TrimSpace(ansi().ReplaceAllString(f.Message, ""))
			if msg == "" {
				msg = "the test file failed to run"
			}
			failures = append(failures, map[string]any{"test": file, "type": "error", "file": file, "message": child.ClipMiddle(msg, 4000)})
			continue
		}
		for _, a := range f.AssertionResults {
			if selected != nil && (a.Status == "skipped" || a.Status == "pending" || a.Status == "todo") && !selected.MatchString(a.FullName) {
				total--
				skipped--
				continue
			}
			if a.Status != "failed" {
				continue
			}
			text := ansi().ReplaceAllString(strings.Join(a.FailureMessages, "\n"), "")
			msg, line := stackSplit(text, f.Name)
			if line == 0 && a.Location != nil {
				line = a.Location.Line
			}
			row := map[string]any{"test": strings.Join(append(append([]string{}, a.AncestorTitles...), a.Title), " > "), "type": "fail", "file": file,
				"message": child.ClipMiddle(msg, 4000)}
			if line > 0 {
				row["line"] = line
			}
			failures = append(failures, row)
		}
	}
	return map[string]any{"total": total, "pass": rep.NumPassedTests, "fail": rep.NumFailedTests, "skipped": skipped, "failures": failures}
}

// stackSplit splits an error's text at its stack: the message before the
// first "at …" line, and the line of the first frame in file (0 if none).
func stackSplit(text, file string) (string, int) {
	lines := strings.Split(text, "\n")
	msg, line := text, 0
	for k, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "at ") {
			continue
		}
		if msg == text {
			msg = strings.Join(lines[:k], "\n")
		}
		if m := stackFrame().FindStringSubmatch(strings.TrimSpace(l)); m != nil && strings.TrimPrefix(m[1], "file://") == file {
			line, _ = strconv.Atoi(m[2])
			break
		}
	}
	return strings.TrimSpace(msg), line
}
