package clojure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/live"
	"github.com/visdesktop/vis/backend/packs/clojure/nrepl"
)

const outputLimit = 20000

// resultMarker prefixes the result line our clean-JVM runner prints.
const resultMarker = "VIS-TEST-RESULT:"

// TestPlan is how run_tests will run, decided before anything starts.
type TestPlan struct {
	Mode      string   // "repl" or "cli"
	REPL      *repl    // mode repl
	Tool      string   // cli: clj, lein, bb, java, shadow-cljs
	Argv      []string // cli: the command
	Runner    string   // clojure.test (our form), cognitect, kaocha, lazytest, lein, bb, shadow node-test
	Framework string
	Note      string
	Steps     [][]string // extra commands run before Argv (shadow compile)
	Env       []string   // cli: added to every command's environment ("NAME=value")
}

// withCall adds the call's env and args (appended to Argv, for the
// project's runner) to a clean-JVM plan. Args are refused when no runner
// of the project's takes them: Vis's own clojure.test form runs through
// clojure.main -e, which would read a first extra argument as a script to
// load.
func (t TestPlan) withCall(sel Selection) (TestPlan, error) {
	if t.Mode != "cli" {
		return t, nil
	}
	if len(sel.Args) > 0 && t.Runner == "clojure.test" {
		return t, fmt.Errorf("clojure run_tests: args go to the project's own test runner, and this project declares none (Vis runs clojure.test itself through %s); drop args, or name a runner alias (aliases) whose main takes them", t.Tool)
	}
	t.Argv = append(append([]string(nil), t.Argv...), sel.Args...)
	t.Env = sel.Env
	return t, nil
}

// test is run_tests for Clojure.
func (p *Pack) test(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	sel, err := ParseSelection(c.Opts)
	if err != nil {
		return nil, err
	}
	dir := canonicalDir(c.Cwd)
	proj := LoadProject(dir)
	if proj.ReadErr != nil {
		return nil, fmt.Errorf("clojure run_tests: %v (fix it, or run the tests yourself)", proj.ReadErr)
	}
	res, err := Resolve(proj, dir, sel)
	if err != nil {
		return nil, err
	}
	plan, err := p.Plan(ctx, env.SessionID, proj, sel, res)
	if err != nil {
		return nil, err
	}
	if plan, err = plan.withCall(sel); err != nil {
		return nil, err
	}
	timeout := optDuration(c.Opts, "timeout_ms", p.opts.TestTimeout)
	var out map[string]any
	if plan.Mode == "repl" {
		out, err = p.runInREPL(ctx, plan.REPL, res, sel, timeout)
		if err != nil {
			return nil, err
		}
		if out == nil { // the REPL is unusable: a clean JVM instead
			why := fmt.Sprintf("the session REPL %s did not answer a health check", plan.REPL.id)
			plan, err = p.cliPlan(ctx, proj, sel, res)
			if err != nil {
				return nil, fmt.Errorf("clojure run_tests: %s, and no clean JVM can run the tests: %w", why, err)
			}
			if plan, err = plan.withCall(sel); err != nil {
				return nil, err
			}
			out, err = p.runCLI(ctx, proj, plan, timeout)
			if err != nil {
				return nil, err
			}
			out["recovered"] = true
			out["repl_unusable"] = true
			out["hint"] = why + "; ran in a clean JVM instead. repl_stop it, then repl_start, to use a REPL again"
		}
	} else {
		out, err = p.runCLI(ctx, proj, plan, timeout)
		if err != nil {
			return nil, err
		}
	}
	out["language"] = "clojure"
	out["selectors"] = sel.Echo
	out["namespaces"] = stringList(res.Nses)
	if plan.Note != "" {
		out["note"] = plan.Note
	}
	return out, nil
}

// Plan decides how the tests run: in a live session REPL for the project
// (JVM tests, no aliases), else the project's own command in a clean JVM.
// Every refusal happens here, before launch.
func (p *Pack) Plan(ctx context.Context, session string, proj *Project, sel Selection, res Resolved) (TestPlan, error) {
	if res.Dialect == "cljs" {
		return p.shadowPlan(ctx, proj, sel, res)
	}
	for _, r := range p.sessionREPLs(session) {
		if r.dir != proj.Dir || r.build != "" || (r.managed && !r.processAlive()) {
			continue
		}
		if len(sel.Aliases) > 0 {
			return TestPlan{}, fmt.Errorf("clojure run_tests: this project's tests run in the live session REPL %s, which cannot apply aliases %v (its classpath is fixed); drop aliases, or repl_stop(%q) so the tests run in a clean JVM with them", r.id, sel.Aliases, r.id)
		}
		if len(sel.Env) > 0 || len(sel.Args) > 0 {
			return TestPlan{}, fmt.Errorf("clojure run_tests: this project's tests run in the live session REPL %s, which cannot apply env or args (a running JVM's environment and command line are fixed); drop them, or repl_stop(%q) so the tests run in a clean JVM with them", r.id, r.id)
		}
		return TestPlan{Mode: "repl", REPL: r, Runner: "clojure.test", Framework: "clojure.test"}, nil
	}
	return p.cliPlan(ctx, proj, sel, res)
}

// runnerOf reads a deps.edn alias's runner: a -m main or an :exec-fn.
func runnerOf(m Map) (main string, execFn string) {
	opts := stringsOf(m.Kw("main-opts"))
	for i := 0; i+1 < len(opts); i++ {
		if opts[i] == "-m" || opts[i] == "--main" {
			main = opts[i+1]
		}
	}
	execFn = asString(m.Kw("exec-fn"))
	return main, execFn
}

// cliPlan is the project's own test command in a clean JVM.
func (p *Pack) cliPlan(ctx context.Context, proj *Project, sel Selection, res Resolved) (TestPlan, error) {
	if proj.HasDeps {
		if bin, ok := p.officialCLI(ctx); ok {
			return depsTestPlan(bin, proj, sel, res)
		}
	}
	if proj.HasLein {
		if bin, err := p.opts.LookPath("lein"); err == nil {
			return leinTestPlan(bin, proj, sel, res)
		}
	}
	if proj.HasBB {
		if bin, err := p.opts.LookPath("bb"); err == nil {
			return bbTestPlan(bin, proj, sel)
		}
	}
	java, jerr := p.opts.LookPath("java")
	jars, jok := p.jars(false)
	if jerr != nil || !jok {
		return TestPlan{}, fmt.Errorf("clojure run_tests: %w: %s", ErrNoLauncher, p.installHint(proj))
	}
	var notes []string
	if proj.HasDeps || proj.HasLein || proj.HasBB {
		notes = append(notes, p.missingTool(proj)+" is not installed: ran with Debian's plain clojure.jar and the project's folders on the classpath")
	}
	if extra := proj.extraDeps(); len(extra) > 0 {
		notes = append(notes, "dependencies are NOT resolved ("+strings.Join(extra, ", ")+")")
	}
	if len(sel.Aliases) > 0 {
		return TestPlan{}, fmt.Errorf("clojure run_tests: aliases %v need the official Clojure CLI (or lein profiles), which is not installed; drop aliases or install it", sel.Aliases)
	}
	cp := append(jars, proj.Classpath()...)
	argv := []string{java, "-cp", strings.Join(cp, string(os.PathListSeparator)), "clojure.main", "-e", cliForm(res, sel)}
	return TestPlan{Mode: "cli", Tool: "java", Argv: argv, Runner: "clojure.test", Framework: "clojure.test", Note: strings.Join(notes, "; ")}, nil
}

// depsTestPlan: deps.edn with the official CLI. The runner is the main (or
// exec-fn) of the last alias among :test (when declared) and the requested
// ones that has one; focus follows that runner's entry point.
func depsTestPlan(bin string, proj *Project, sel Selection, res Resolved) (TestPlan, error) {
	var aliases []string
	if _, ok := proj.depsAlias("test"); ok {
		aliases = append(aliases, "test")
	}
	for _, a := range sel.Aliases {
		if a == "test" {
			continue
		}
		if _, ok := proj.depsAlias(a); !ok {
			return TestPlan{}, fmt.Errorf("clojure run_tests: deps.edn declares no alias :%s", a)
		}
		aliases = append(aliases, a)
	}
	var main, execFn string
	for _, a := range aliases {
		m, _ := proj.depsAlias(a)
		if mm, ef := runnerOf(m); mm != "" || ef != "" {
			main, execFn = mm, ef
		}
	}
	joined := ""
	for _, a := range aliases {
		joined += ":" + a
	}
	focus := len(sel.Paths) > 0 || len(sel.Nses) > 0 || len(sel.Include) > 0 || len(sel.Exclude) > 0
	vars := expandVars(res)
	switch {
	case execFn != "":
		if joined == "" {
			return TestPlan{}, fmt.Errorf("clojure run_tests: internal: an exec-fn without an alias")
		}
		argv := []string{bin, "-X" + joined}
		switch execFn {
		case "kaocha.runner/exec-fn":
			if focus {
				var ids []string
				if len(vars) > 0 {
					ids = vars
				} else if len(sel.Paths) > 0 || len(sel.Nses) > 0 {
					ids = res.Nses
				}
				if len(ids) > 0 {
					argv = append(argv, ":kaocha.filter/focus", "["+strings.Join(ids, " ")+"]")
				}
				if len(sel.Include) > 0 {
					argv = append(argv, ":kaocha.filter/focus-meta", kwVector(sel.Include))
				}
				if len(sel.Exclude) > 0 {
					argv = append(argv, ":kaocha.filter/skip-meta", kwVector(sel.Exclude))
				}
			}
			return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: "kaocha", Framework: "kaocha"}, nil
		case "cognitect.test-runner.api/test":
			if focus {
				if len(vars) > 0 {
					argv = append(argv, ":vars", "["+strings.Join(vars, " ")+"]")
				} else if len(sel.Paths) > 0 || len(sel.Nses) > 0 {
					argv = append(argv, ":nses", "["+strings.Join(res.Nses, " ")+"]")
				}
				if len(sel.Include) > 0 {
					argv = append(argv, ":includes", kwVector(sel.Include))
				}
				if len(sel.Exclude) > 0 {
					argv = append(argv, ":excludes", kwVector(sel.Exclude))
				}
			}
			return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: "cognitect", Framework: "clojure.test"}, nil
		}
		if focus {
			return TestPlan{}, fmt.Errorf("clojure run_tests: unsupported focus: the test alias runs %s (-X), whose selectors Vis does not know; run the full suite (no paths/ns/include/exclude) or name a runner alias", execFn)
		}
		return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: execFn, Framework: "unknown"}, nil
	case main != "":
		argv := []string{bin, "-M" + joined}
		switch main {
		case "cognitect.test-runner":
			for _, d := range proj.TestPaths() {
				argv = append(argv, "-d", d)
			}
			if len(vars) > 0 {
				for _, v := range vars {
					argv = append(argv, "-v", v)
				}
			} else if len(sel.Paths) > 0 || len(sel.Nses) > 0 {
				for _, n := range res.Nses {
					argv = append(argv, "-n", n)
				}
			}
			for _, t := range sel.Include {
				argv = append(argv, "-i", ":"+t)
			}
			for _, t := range sel.Exclude {
				argv = append(argv, "-e", ":"+t)
			}
			return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: "cognitect", Framework: "clojure.test"}, nil
		case "kaocha.runner":
			if len(vars) > 0 {
				for _, v := range vars {
					argv = append(argv, "--focus", v)
				}
			} else if len(sel.Paths) > 0 || len(sel.Nses) > 0 {
				for _, n := range res.Nses {
					argv = append(argv, "--focus", n)
				}
			}
			for _, t := range sel.Include {
				argv = append(argv, "--focus-meta", ":"+t)
			}
			for _, t := range sel.Exclude {
				argv = append(argv, "--skip-meta", ":"+t)
			}
			return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: "kaocha", Framework: "kaocha"}, nil
		case "lazytest.main":
			if len(vars) > 0 {
				for _, v := range vars {
					argv = append(argv, "--var", v)
				}
			} else if len(sel.Paths) > 0 || len(sel.Nses) > 0 {
				for _, n := range res.Nses {
					argv = append(argv, "--namespace", n)
				}
			}
			for _, t := range sel.Include {
				argv = append(argv, "--include", t)
			}
			for _, t := range sel.Exclude {
				argv = append(argv, "--exclude", t)
			}
			return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: "lazytest", Framework: "lazytest"}, nil
		}
		if focus {
			return TestPlan{}, fmt.Errorf("clojure run_tests: unsupported focus: the test alias runs -m %s, whose selectors Vis does not know; run the full suite (no paths/ns/include/exclude)", main)
		}
		return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: main, Framework: "unknown"}, nil
	}
	// No runner main: our clojure.test run, with the project's test folders
	// on the classpath (through a synthetic alias: :test is never invented).
	argv := []string{bin}
	m := "-M" + joined
	if _, ok := proj.depsAlias("test"); !ok {
		var dirs []string
		for _, d := range proj.TestPaths() {
			dirs = append(dirs, strconv.Quote(d))
		}
		if len(dirs) > 0 {
			argv = append(argv, "-Sdeps", "{:aliases {:vis/test-paths {:extra-paths ["+strings.Join(dirs, " ")+"]}}}")
			m += ":vis/test-paths"
		}
	}
	argv = append(argv, m, "-e", cliForm(res, sel))
	return TestPlan{Mode: "cli", Tool: "clj", Argv: argv, Runner: "clojure.test", Framework: "clojure.test"}, nil
}

// expandVars renders var selectors as ns/name for a runner: a pathless
// ::name is crossed with the selected namespaces. A CLI runner needs the
// test var's real name, where the in-JVM form also matches a source var's
// "-test" counterpart: a name the namespace's file does not define, while
// it defines name + "-test", becomes that.
func expandVars(res Resolved) []string {
	var out []string
	for _, v := range res.Vars {
		if v.Ns != "" {
			out = append(out, v.Ns+"/"+testVarName(res.Files[v.Ns], v.Name))
			continue
		}
		for _, n := range res.Nses {
			out = append(out, n+"/"+testVarName(res.Files[n], v.Name))
		}
	}
	return out
}

// testVarName is name, or name + "-test" when file defines only that.
func testVarName(file, name string) string {
	if file == "" || strings.HasSuffix(name, "-test") {
		return name
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return name
	}
	src := string(b)
	if definesVar(src, name) || !definesVar(src, name+"-test") {
		return name
	}
	return name + "-test"
}

// definesVar reports whether src has a top-level-looking definition of
// name: (deftest name, (defdescribe name, (def name, ... with any metadata.
func definesVar(src, name string) bool {
	re := regexp.MustCompile(`\(\s*(?:[\w.-]+/)?(?:deftest-?|defdescribe|defspec|def|defn)\s+(?:\^(?:\{[^}]*\}|\S+)\s+)*` + regexp.QuoteMeta(name) + `(?:[\s)]|$)`)
	return re.MatchString(src)
}

func kwVector(tags []string) string {
	ks := make([]string, len(tags))
	for i, t := range tags {
		ks[i] = ":" + t
	}
	return "[" + strings.Join(ks, " ") + "]"
}

// leinTestPlan: `lein [with-profile +a] test [nses] [:only ns/var] [:tag]`.
func leinTestPlan(bin string, proj *Project, sel Selection, res Resolved) (TestPlan, error) {
	argv := []string{bin}
	if len(sel.Aliases) > 0 {
		ps := make([]string, len(sel.Aliases))
		for i, a := range sel.Aliases {
			ps[i] = "+" + a
		}
		argv = append(argv, "with-profile", strings.Join(ps, ","))
	}
	argv = append(argv, "test")
	if len(sel.Exclude) > 0 {
		return TestPlan{}, fmt.Errorf("clojure run_tests: unsupported focus: lein test cannot exclude tags from the command line; declare a :test-selectors entry in project.clj and pass it with include")
	}
	if len(sel.Include) > 0 {
		declared, _ := proj.Lein.Kw("test-selectors").(Map)
		for _, t := range sel.Include {
			if _, ok := declared.Get(Keyword(t)); !ok {
				return TestPlan{}, fmt.Errorf("clojure run_tests: unsupported focus: lein test selects tags only through project.clj :test-selectors, which has no :%s", t)
			}
		}
	}
	vars := expandVars(res)
	switch {
	case len(vars) > 1:
		return TestPlan{}, fmt.Errorf("clojure run_tests: unsupported focus: lein test takes one :only ns/var per run (got %s)", strings.Join(vars, ", "))
	case len(vars) == 1:
		argv = append(argv, ":only", vars[0])
	case len(sel.Paths) > 0 || len(sel.Nses) > 0:
		argv = append(argv, res.Nses...)
	}
	for _, t := range sel.Include {
		argv = append(argv, ":"+t)
	}
	return TestPlan{Mode: "cli", Tool: "lein", Argv: argv, Runner: "lein", Framework: "clojure.test"}, nil
}

// bbTestPlan: the bb.edn test task, full suite only.
func bbTestPlan(bin string, proj *Project, sel Selection) (TestPlan, error) {
	tasks, _ := proj.BB.Kw("tasks").(Map)
	if _, ok := tasks.Get(Symbol("test")); !ok {
		return TestPlan{}, fmt.Errorf("clojure run_tests: bb.edn has no test task (add one under :tasks, e.g. test {:extra-paths [\"test\"] :task (exec 'cognitect.test-runner.api/test)})")
	}
	if len(sel.Paths) > 0 || len(sel.Nses) > 0 || len(sel.Include) > 0 || len(sel.Exclude) > 0 {
		return TestPlan{}, fmt.Errorf("clojure run_tests: unsupported focus: `bb test` runs the project's own task, whose arguments Vis does not know; run the full suite, or start a REPL (repl_start) to run selected tests in it")
	}
	if len(sel.Aliases) > 0 {
		return TestPlan{}, fmt.Errorf("clojure run_tests: babashka has no aliases")
	}
	return TestPlan{Mode: "cli", Tool: "bb", Argv: []string{bin, "test"}, Runner: "bb test", Framework: "unknown"}, nil
}

// ---- running ----

func (p *Pack) runCLI(ctx context.Context, proj *Project, plan TestPlan, timeout time.Duration) (map[string]any, error) {
	var pre strings.Builder
	for _, step := range plan.Steps {
		r, err := run(ctx, step, proj.Dir, "", timeout, plan.Env)
		if err != nil {
			return nil, fmt.Errorf("clojure run_tests: %s: %w", step[0], err)
		}
		pre.WriteString(r.stdout + r.stderr)
		if r.exit != 0 || r.timedOut {
			return map[string]any{"mode": "cli", "tool": plan.Tool, "runner": plan.Runner, "framework": plan.Framework,
				"command": displayArgv(step), "exit": r.exit, "timed_out": r.timedOut, "output": clip(pre.String(), outputLimit),
				"error": fmt.Sprintf("%s failed (exit %d) before the tests ran", displayArgv(step), r.exit)}, nil
		}
	}
	r, err := run(live.Map(ctx, liveTestLine), plan.Argv, proj.Dir, "", timeout, plan.Env)
	if err != nil {
		return nil, fmt.Errorf("clojure run_tests: %s: %w", plan.Argv[0], err)
	}
	text, progress := splitProgress(pre.String() + r.stdout + r.stderr)
	out := map[string]any{"mode": "cli", "tool": plan.Tool, "runner": plan.Runner, "framework": plan.Framework,
		"command": displayArgv(plan.Argv), "exit": r.exit, "timed_out": r.timedOut}
	if i := strings.LastIndex(text, resultMarker); i < 0 && len(progress) > 0 {
		// Killed before its result: what the progress lines say finished.
		parsed, perr := parseRunResult(partialResult(progress), proj.Dir)
		if perr != nil {
			out["error"] = "could not read the test progress: " + perr.Error()
		}
		for k, v := range parsed {
			if k != "output" {
				out[k] = v
			}
		}
	} else if i >= 0 {
		line := text[i+len(resultMarker):]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		text = text[:i]
		parsed, perr := parseRunResult(line, proj.Dir)
		if perr != nil {
			out["error"] = "could not read the test result: " + perr.Error()
		}
		for k, v := range parsed {
			if k == "output" {
				continue
			}
			out[k] = v
		}
		if s, _ := parsed["output"].(string); s != "" {
			text = s + "\n" + text
		}
	} else {
		for k, v := range parseSummary(text) {
			out[k] = v
		}
		reportRows(out, text, proj)
		if _, ok := out["total"]; !ok && !r.timedOut {
			out["error"] = fmt.Sprintf("the test command printed no test summary (exit %d): nothing is known to have run; see output", r.exit)
		}
	}
	if r.timedOut {
		out["error"] = fmt.Sprintf("the test run passed its %s budget and was killed", timeout)
	}
	out["output"] = clip(strings.TrimSpace(stripANSI(text)), outputLimit)
	return out, nil
}

// liveTestLine shows the run form's progress lines as a person reads them
// (✓ / ✗ / ! and the test var) and hides its machine lines.
func liveTestLine(line string) (string, bool) {
	if rest, ok := strings.CutPrefix(line, varMarker); ok {
		outcome, v, _ := strings.Cut(rest, " ")
		mark := map[string]string{"pass": "✓", "fail": "✗", "error": "!"}[outcome]
		return mark + " " + v, true
	}
	if strings.HasPrefix(line, faultMarker) || strings.HasPrefix(line, resultMarker) {
		return "", false
	}
	return line, true
}

// splitProgress takes the run form's progress lines out of a run's text.
func splitProgress(text string) (rest string, progress []string) {
	if !strings.Contains(text, varMarker) && !strings.Contains(text, faultMarker) {
		return text, nil
	}
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, varMarker) || strings.HasPrefix(l, faultMarker) {
			progress = append(progress, l)
		} else {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n"), progress
}

// partialResult renders, as the run form's result map (EDN), what the
// progress lines of a killed run say: the test vars that finished and the
// failure rows printed so far.
func partialResult(progress []string) string {
	n := map[string]int{}
	var rows []string
	for _, l := range progress {
		if rest, ok := strings.CutPrefix(l, varMarker); ok {
			outcome, _, _ := strings.Cut(rest, " ")
			n[outcome]++
		} else if row, ok := strings.CutPrefix(l, faultMarker); ok {
			rows = append(rows, row)
		}
	}
	return fmt.Sprintf(`{"total" %d "pass" %d "fail" %d "errored" %d "failures" [%s]}`,
		n["pass"]+n["fail"]+n["error"], n["pass"], n["fail"], n["error"], strings.Join(rows, " "))
}

func displayArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if len(a) > 300 {
			a = a[:60] + "…(" + strconv.Itoa(len(a)) + " chars)"
		}
		if strings.ContainsAny(a, " \"'{}[]()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

var ansi = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]") })

func stripANSI(s string) string { return ansi().ReplaceAllString(s, "") }

var (
	ranRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`Ran (\d+) tests?(?: cases?)?(?: containing (\d+) assertions?)?`)
	})
	failErrRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+) failures?, (\d+) errors?`) })
	failRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(\d+) failures?\.?\s*$`) })
	kaochaRe  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\d+) tests?, (\d+) assertions?,(?: (\d+) errors?,)?(?: (\d+) pending,)? (\d+) failures?`)
	})
)

// parseSummary reads a runner's own summary lines (clojure.test,
// cognitect, lazytest, kaocha). A count the runner did not print stays
// absent.
func parseSummary(text string) map[string]any {
	text = stripANSI(text)
	out := map[string]any{}
	if m := kaochaRe().FindAllStringSubmatch(text, -1); len(m) > 0 {
		last := m[len(m)-1]
		total, _ := strconv.Atoi(last[1])
		errs, _ := strconv.Atoi(last[3])
		fails, _ := strconv.Atoi(last[5])
		out["total"], out["fail"], out["errored"] = total, fails, errs
		out["assertions"], _ = strconv.Atoi(last[2])
		return out
	}
	if m := ranRe().FindAllStringSubmatch(text, -1); len(m) > 0 {
		n, _ := strconv.Atoi(m[len(m)-1][1])
		out["total"] = n
		if m[len(m)-1][2] != "" {
			out["assertions"], _ = strconv.Atoi(m[len(m)-1][2])
		}
	}
	if m := failErrRe().FindAllStringSubmatch(text, -1); len(m) > 0 {
		f, _ := strconv.Atoi(m[len(m)-1][1])
		e, _ := strconv.Atoi(m[len(m)-1][2])
		out["fail"], out["errored"] = f, e
	} else if m := failRe().FindAllStringSubmatch(text, -1); len(m) > 0 {
		f, _ := strconv.Atoi(m[len(m)-1][1])
		out["fail"] = f
	}
	return out
}

// parseRunResult reads our runner's printed result map.
func parseRunResult(s, root string) (map[string]any, error) {
	v, err := ReadEDN(strings.TrimSpace(s))
	if err != nil {
		return nil, err
	}
	if str, ok := v.(string); ok {
		if v, err = ReadEDN(str); err != nil {
			return nil, err
		}
	}
	m, ok := toGo(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a map: %.200s", s)
	}
	if fs, ok := m["failures"].([]any); ok {
		for _, f := range fs {
			row, ok := f.(map[string]any)
			if !ok {
				continue
			}
			if file, _ := row["file"].(string); filepath.IsAbs(file) {
				if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
					row["file"] = rel
				}
			}
		}
	}
	return m, nil
}

// toGo converts read EDN into plain Go values (string keys, []any, int).
func toGo(v any) any {
	switch x := v.(type) {
	case Map:
		m := make(map[string]any, len(x))
		for _, e := range x {
			k := asString(e.Key)
			if k == "" {
				k = fmt.Sprint(e.Key)
			}
			m[k] = toGo(e.Value)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toGo(e)
		}
		return out
	case List:
		return toGo([]any(x))
	case Set:
		return toGo([]any(x))
	case int64:
		return int(x)
	case Keyword:
		return string(x)
	case Symbol:
		return string(x)
	}
	return v
}

// runInREPL evaluates the run form in r. A nil result (and nil error) means
// the REPL is unusable (down or wedged before the run): the caller falls
// back to a clean JVM.
func (p *Pack) runInREPL(ctx context.Context, r *repl, res Resolved, sel Selection, timeout time.Duration) (map[string]any, error) {
	r.touch()
	cl := p.client(r)
	h := cl.Health(ctx, p.opts.HealthDeadline)
	if h.Status != nrepl.StatusUp {
		return nil, nil
	}
	er, err := cl.Eval(ctx, replForm(res, sel), nrepl.EvalOptions{Timeout: timeout, Plain: true, Ns: "user"})
	if err != nil {
		if errors.Is(err, nrepl.ErrUnreachable) || errors.Is(err, nrepl.ErrConnectionLost) {
			return nil, nil
		}
		return nil, fmt.Errorf("clojure run_tests in %s: %w", r.id, err)
	}
	out := map[string]any{"mode": "repl", "runner": r.id, "repl": r.id, "framework": "clojure.test", "port": r.port}
	if er.TimedOut {
		out["timed_out"] = true
		out["repl_wedged"] = true
		out["error"] = fmt.Sprintf("the test run did not finish within %s and was interrupted (a hung test?)", timeout)
		out["hint"] = fmt.Sprintf("if the REPL stays busy, repl_stop(%q) then repl_start(\"clojure\")", r.id)
		out["output"] = er.Out + er.Err
		return out, nil
	}
	if er.ExClass != "" {
		out["error"] = fmt.Sprintf("the test run threw %s: %s", er.ExClass, er.ExMessage)
		out["output"] = er.Out + er.Err
		return out, nil
	}
	parsed, perr := parseRunResult(er.Value, r.dir)
	if perr != nil {
		out["error"] = "could not read the test result: " + perr.Error()
		out["output"] = er.Out + er.Err
		return out, nil
	}
	for k, v := range parsed {
		out[k] = v
	}
	if s, _ := out["output"].(string); er.Out != "" || er.Err != "" {
		out["output"] = s + er.Out + er.Err
	}
	return out, nil
}

var (
	reportRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(FAIL|ERROR) in (.*?) ?\(([^()\s:]+):(\d+)\)\s*$`) })
	nsHeadingRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:lein test(?: :only)?|Testing) ([\w.*+!?<>=-]+)(?:/\S+)?\s*$`)
	})
)

// reportRows reads clojure.test's own fault reports from a runner's text
// (lein test, cognitect): "FAIL in (test) (file.clj:line)", then testing
// contexts, the assertion's message, "expected:" and "actual:". One row
// per report, the file found in the project from the namespace heading
// ("lein test ns", "Testing ns") and the reported file name. With rows,
// fail and errored count failing test vars (worst of each), as Vis's own
// runner does, and pass the rest of total.
func reportRows(out map[string]any, text string, proj *Project) {
	if _, ok := out["failures"]; ok {
		return
	}
	lines := strings.Split(stripANSI(text), "\n")
	var rows []any
	worst := map[string]string{}
	ns := ""
	for i := 0; i < len(lines); i++ {
		if m := nsHeadingRe().FindStringSubmatch(lines[i]); m != nil {
			ns = m[1]
			continue
		}
		m := reportRe().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		kind, test, file := strings.ToLower(m[1]), strings.Trim(m[2], "() "), m[3]
		line, _ := strconv.Atoi(m[4])
		rowNs := ns
		if j := strings.LastIndexByte(test, '/'); j > 0 { // kaocha-style ns/test
			rowNs, test = test[:j], test[j+1:]
		}
		var pre []string
		expected, actual := "", ""
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if strings.HasPrefix(l, "expected: ") {
				expected = strings.TrimPrefix(l, "expected: ")
				continue
			}
			if strings.HasPrefix(l, "  actual: ") {
				actual = strings.TrimPrefix(l, "  actual: ")
				break
			}
			if reportRe().MatchString(l) || strings.TrimSpace(l) == "" && expected != "" {
				j--
				break
			}
			if expected == "" && strings.TrimSpace(l) != "" {
				pre = append(pre, l)
			}
		}
		i = j
		msg := strings.Join(pre, ": ")
		switch {
		case kind == "error" && actual != "":
			if msg != "" {
				msg += ": "
			}
			msg += actual
		case msg == "":
			msg = "expected " + expected + ", actual " + actual
		}
		key := rowNs + "/" + test
		if worst[key] != "error" {
			worst[key] = kind
		}
		rows = append(rows, map[string]any{"ns": rowNs, "test": test, "type": kind, "message": msg,
			"expected": expected, "actual": actual, "file": proj.reportedFile(rowNs, file), "line": line})
	}
	if len(rows) == 0 {
		if t, ok := out["total"].(int); ok && out["fail"] == 0 && out["errored"] == 0 {
			out["pass"] = t
		}
		return
	}
	out["failures"] = rows
	nfail, nerr := 0, 0
	for _, k := range worst {
		if k == "error" {
			nerr++
		} else {
			nfail++
		}
	}
	out["fail"], out["errored"] = nfail, nerr
	if t, ok := out["total"].(int); ok {
		out["pass"] = max(0, t-nfail-nerr)
	}
}

// reportedFile maps the file name clojure.test reports (a base name, from
// the stack frame) to the project file: the namespace's own file when its
// name matches, else the one file of that name under the project's source
// and test folders, else the name as reported.
func (pr *Project) reportedFile(ns, name string) string {
	dirs := append(pr.TestPaths(), pr.SourcePaths()...)
	if ns != "" {
		stem := strings.ReplaceAll(strings.ReplaceAll(ns, ".", "/"), "-", "_")
		if filepath.Base(stem)+filepath.Ext(name) == name {
			for _, d := range dirs {
				rel := filepath.Join(d, stem+filepath.Ext(name))
				if _, err := os.Stat(filepath.Join(pr.Dir, rel)); err == nil {
					return filepath.ToSlash(rel)
				}
			}
		}
	}
	var found []string
	seen := map[string]bool{}
	for _, d := range dirs {
		_ = filepath.WalkDir(filepath.Join(pr.Dir, d), func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() && (strings.HasPrefix(e.Name(), ".") || skipDirs[e.Name()]) && p != filepath.Join(pr.Dir, d) {
				return filepath.SkipDir
			}
			if !e.IsDir() && e.Name() == name {
				if rel, err := filepath.Rel(pr.Dir, p); err == nil && !seen[rel] {
					seen[rel] = true
					found = append(found, filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	if len(found) == 1 {
		return found[0]
	}
	return name
}
