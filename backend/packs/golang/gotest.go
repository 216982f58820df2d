package golang

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/live"
	"github.com/visdesktop/vis/backend/packs/proc"
	"github.com/visdesktop/vis/backend/workspace"
)

// DefaultTestTimeout bounds one run_tests call unless timeout_ms says
// otherwise.
const DefaultTestTimeout = 10 * time.Minute

const maxOutput = 16000

// Test is run_tests for Go: `go test -json` with the selected packages and
// a -run pattern built from node ids. See the package comment for the
// result contract.
func Test(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	sel, err := ext.PathsOption(c.Opts)
	if err != nil {
		return nil, err
	}
	if a := ext.StringOption(c.Opts, "arg"); strings.TrimSpace(a) != "" {
		sel = append(sel, strings.TrimSpace(a))
	}
	t, err := ext.ToolOf(c.Opts, DefaultTestTimeout)
	if err != nil {
		return nil, err
	}
	cwd := c.Dir(env)
	argv, err := TestArgv(env.Workspace, cwd, sel, t.Args...)
	if err != nil {
		return nil, err
	}
	timeout := t.Timeout
	r, err := proc.RunEnv(live.Map(ctx, liveTestLine), cwd, timeout, "", t.Env, argv...)
	if err != nil {
		return nil, fmt.Errorf("run go tests: %w", err)
	}
	res := ParseTestJSON(r.Stdout, goModulePath(moduleRoot(env.Workspace, cwd)), moduleRoot(env.Workspace, cwd), cwd, env.Workspace)
	res["cmd"] = argv
	res["exit"] = r.Exit
	res["runner"] = runner
	if r.TimedOut {
		res["timed_out"] = true
		res["is_pass"] = false
		res["error"] = fmt.Sprintf("go test timed out after %v; its process group was killed", timeout)
	}
	if strings.TrimSpace(r.Stderr) != "" {
		res["output"] = proc.ClipMiddle(strings.TrimRight(res["output"].(string), "\n")+"\n"+r.Stderr, maxOutput)
	}
	if _, counted := res["total"]; !counted && res["error"] == nil && r.Exit != 0 {
		res["is_pass"] = false
		res["error"] = "go test failed before running tests: " + proc.ClipMiddle(strings.TrimSpace(r.Stderr), 4000)
	}
	if _, hasErr := res["error"]; !hasErr && r.Exit != 0 {
		res["is_pass"] = false
	}
	if total, ok := res["total"].(int); ok && total == 0 && res["error"] == nil {
		res["is_pass"] = false
		if hasNames(sel) {
			res["error"] = "no test matched " + strings.Join(sel, ", ")
		} else {
			res["error"] = "no tests found"
		}
	}
	return res, nil
}

func hasNames(sel []string) bool {
	for _, s := range sel {
		if strings.Contains(s, "::") {
			return true
		}
	}
	return false
}

// TestArgv builds the go test command line for selectors: paths (files,
// directories, "dir/...") select packages; "path::Name" and "::Name" add
// Name to one -run pattern "^(A|B)$" (a single subtest "A/b" becomes
// "^A$/^b$"; several names with subtests run their whole top-level tests).
// No selector runs ./... . args (the call's extra go test flags) go
// after Vis's flags and before the packages.
func TestArgv(root, cwd string, sel []string, args ...string) ([]string, error) {
	var paths, names []string
	anyWhere := false
	for _, s := range sel {
		path, name, isID := strings.Cut(s, "::")
		if !isID && bareTestName(root, cwd, s) {
			// A failure row's test name passed back as it is.
			path, name, isID = "", s, true
		}
		if isID {
			name = strings.TrimSpace(name)
			if name == "" {
				return nil, ext.BadArgs("node id %q names no test; write path::TestName or ::TestName", s)
			}
			names = append(names, name)
			if strings.TrimSpace(path) == "" {
				anyWhere = true
				continue
			}
		}
		paths = append(paths, path)
	}
	var pkgs []string
	if anyWhere || len(paths) == 0 {
		pkgs = []string{"./..."}
	} else {
		var err error
		if pkgs, err = packagesFor(root, cwd, paths); err != nil {
			return nil, err
		}
	}
	argv := []string{"go", "test", "-json"}
	if p := runPattern(names); p != "" {
		argv = append(argv, "-run", p)
	}
	argv = append(argv, args...)
	return append(argv, pkgs...), nil
}

var goTestName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(Test|Benchmark|Example|Fuzz)[^/\s]*(/.*)?$`) })

// bareTestName reports whether a selector without "::" is a Go test name
// (TestX or TestX/sub_case) rather than a path: it looks like one and no
// such file or directory exists.
func bareTestName(root, cwd, s string) bool {
	if !goTestName().MatchString(s) || strings.HasSuffix(s, ".go") {
		return false
	}
	abs, err := resolveIn(root, cwd, s)
	if err != nil {
		return true
	}
	_, err = os.Stat(abs)
	return err != nil
}

// runPattern is the -run regexp for test names ("" for none).
func runPattern(names []string) string {
	if len(names) == 0 {
		return ""
	}
	if len(names) == 1 && strings.Contains(names[0], "/") {
		var parts []string
		for _, p := range strings.Split(names[0], "/") {
			parts = append(parts, "^"+regexp.QuoteMeta(p)+"$")
		}
		return strings.Join(parts, "/")
	}
	seen := map[string]bool{}
	var top []string
	for _, n := range names {
		n, _, _ = strings.Cut(n, "/")
		if !seen[n] {
			seen[n] = true
			top = append(top, regexp.QuoteMeta(n))
		}
	}
	return "^(" + strings.Join(top, "|") + ")$"
}

// testEvent is one line of `go test -json` (test2json plus build events).
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

type testState struct {
	status string // run, pass, fail, skip
	out    []string
}

// fileLine is a t.Error/t.Fatal line: go test prints the file's base name
// (relative to the package directory) and the line, indented.
var fileLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s+)([\w.\-]+\.go):(\d+):`) })

// buildLine is a compiler or vet position: a path relative to go's cwd (or
// absolute), a line and usually a column.
var buildLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(?:vet: )?(\S+\.go):(\d+)(?::\d+)?:`) })

// panicLine is a stack frame in a test file: "\t/abs/dir/x_test.go:12 +0x1d".
var panicLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\t(\S+_test\.go):(\d+)`) })

// liveTestLine shows a `go test -json` line as go test would print it
// without -json, for the live view of a running test: the text of output
// events, minus the === RUN/PAUSE/CONT/NAME bookkeeping lines.
func liveTestLine(line string) (string, bool) {
	var ev testEvent
	if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &ev) != nil {
		return line, true // go's own stderr-ish lines (build errors) pass as they are
	}
	if ev.Action != "output" && ev.Action != "build-output" {
		return "", false
	}
	out := strings.TrimRight(ev.Output, "\n")
	if strings.HasPrefix(strings.TrimSpace(out), "=== ") || out == "" {
		return "", false
	}
	return out, true
}

// ParseTestJSON turns a `go test -json` stream into the shared test result
// contract. modPath and modRoot map packages to directories; go printed
// paths relative to cwd; failure files are shown relative to the
// workspace root (relative to cwd when root is ""). Counts are present only when the stream
// reported tests or finished packages; leaf tests are counted (a parent of
// subtests is not a test of its own unless it fails on its own).
func ParseTestJSON(stream, modPath, modRoot, cwd, root string) map[string]any {
	if root == "" {
		root = cwd
	}
	type pkgState struct {
		tests    map[string]*testState
		order    []string
		out      []string
		status   string
		buildOut []string
		failed   bool // failed build
	}
	pkgs := map[string]*pkgState{}
	var pkgOrder []string
	get := func(name string) *pkgState {
		p, ok := pkgs[name]
		if !ok {
			p = &pkgState{tests: map[string]*testState{}}
			pkgs[name] = p
			pkgOrder = append(pkgOrder, name)
		}
		return p
	}
	var all strings.Builder
	var stray []string
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		var ev testEvent
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &ev) != nil {
			stray = append(stray, line)
			all.WriteString(line + "\n")
			continue
		}
		switch ev.Action {
		case "build-output":
			p := get(basePkg(ev.ImportPath))
			p.buildOut = append(p.buildOut, ev.Output)
			all.WriteString(ev.Output)
			continue
		case "build-fail":
			get(basePkg(ev.ImportPath)).failed = true
			continue
		}
		p := get(ev.Package)
		if ev.Test == "" {
			switch ev.Action {
			case "output":
				p.out = append(p.out, ev.Output)
				all.WriteString(ev.Output)
			case "pass", "fail", "skip":
				p.status = ev.Action
				if ev.FailedBuild != "" {
					get(basePkg(ev.FailedBuild)).failed = true
				}
			}
			continue
		}
		t, ok := p.tests[ev.Test]
		if !ok {
			t = &testState{status: "run"}
			p.tests[ev.Test] = t
			p.order = append(p.order, ev.Test)
		}
		switch ev.Action {
		case "output":
			t.out = append(t.out, ev.Output)
			all.WriteString(ev.Output)
		case "pass", "fail", "skip":
			t.status = ev.Action
		}
	}

	res := map[string]any{"output": proc.ClipMiddle(all.String(), maxOutput), "timed_out": false}
	var failures []map[string]any
	pass, fail, skip, reported := 0, 0, 0, false
	var unfinished, broken []string
	for _, name := range pkgOrder {
		p := pkgs[name]
		dir := pkgDir(name, modPath, modRoot)
		if p.failed {
			broken = append(broken, name)
			msg := strings.TrimSpace(strings.Join(p.buildOut, ""))
			if msg == "" {
				msg = strings.TrimSpace(strings.Join(p.out, ""))
			}
			row := map[string]any{"test": name, "type": "error", "message": proc.ClipMiddle(msg, 4000)}
			if m := buildLine().FindStringSubmatch(msg); m != nil {
				row["file"] = relFile(root, cwd, m[1])
				row["line"], _ = strconv.Atoi(m[2])
			}
			failures = append(failures, row)
			continue
		}
		if p.status != "" {
			reported = true
		}
		failedChild := map[string]bool{}
		for _, tn := range p.order {
			if p.tests[tn].status == "fail" {
				for parent := tn; strings.Contains(parent, "/"); {
					parent = parent[:strings.LastIndex(parent, "/")]
					failedChild[parent] = true
				}
			}
		}
		pkgFailures := 0
		for _, tn := range p.order {
			t := p.tests[tn]
			reported = true
			isParent := false
			for _, other := range p.order {
				if strings.HasPrefix(other, tn+"/") {
					isParent = true
					break
				}
			}
			switch t.status {
			case "pass":
				if !isParent {
					pass++
				}
			case "skip":
				if !isParent {
					skip++
				}
			case "fail":
				if isParent && failedChild[tn] {
					continue
				}
				fail++
				pkgFailures++
				failures = append(failures, failureRow(tn, t.out, dir, root))
			case "run":
				unfinished = append(unfinished, tn)
			}
		}
		if p.status == "fail" && pkgFailures == 0 {
			// The package failed outside any test (TestMain, init, a crash).
			msg := strings.TrimSpace(strings.Join(p.out, ""))
			failures = append(failures, map[string]any{"test": name, "type": "error", "message": proc.ClipMiddle(msg, 4000), "file": workspace.RelTo(root, dir)})
		}
	}
	if failures == nil {
		failures = []map[string]any{}
	}
	res["failures"] = failures
	if reported {
		res["pass"], res["fail"], res["skipped"] = pass, fail, skip
		res["total"] = pass + fail + skip
	}
	if len(unfinished) > 0 {
		res["unfinished"] = unfinished
	}
	if len(broken) > 0 {
		res["error"] = "build failed: " + strings.Join(broken, ", ")
	}
	if len(stray) > 0 && !reported && len(broken) == 0 {
		res["error"] = strings.TrimSpace(strings.Join(stray, "\n"))
	}
	res["is_pass"] = reported && len(failures) == 0 && len(broken) == 0 && len(unfinished) == 0 && fail == 0
	return res
}

// failureRow is one failed test. Its file and line are those of the first
// t.Error/t.Fatal line the test printed ("    calc_test.go:12: got 3"),
// the file joined with the package directory and shown relative to root;
// its message is that line and the more deeply indented lines after it.
// Without such a line (a panic, a bare t.Fail) the message is the test's
// whole output without the framework's RUN/FAIL lines, and a panic's
// position is its deepest frame in a _test.go file; a panic is type
// "error". A failed Example (got/want, no position) points at its
// "// Output:" comment.
func failureRow(name string, out []string, dir, root string) map[string]any {
	var lines []string
	for _, o := range out {
		for _, l := range strings.Split(strings.TrimRight(o, "\n"), "\n") {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "=== RUN") || strings.HasPrefix(t, "=== PAUSE") || strings.HasPrefix(t, "=== CONT") || strings.HasPrefix(t, "=== NAME") ||
				strings.HasPrefix(t, "--- FAIL") || strings.HasPrefix(t, "--- PASS") || strings.HasPrefix(t, "--- SKIP") || t == "" {
				continue
			}
			lines = append(lines, l)
		}
	}
	file, line := "", 0
	var first []string
	for i, l := range lines {
		m := fileLine().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		file = workspace.RelTo(root, filepath.Join(dir, m[2]))
		line, _ = strconv.Atoi(m[3])
		indent := m[1]
		first = append(first, strings.TrimPrefix(l, indent))
		for _, more := range lines[i+1:] {
			if !strings.HasPrefix(more, indent) || fileLine().MatchString(more) || !strings.HasPrefix(more[len(indent):], " ") && !strings.HasPrefix(more[len(indent):], "\t") {
				break
			}
			first = append(first, strings.TrimPrefix(more, indent))
		}
		break
	}
	all := make([]string, len(lines))
	for i, l := range lines {
		all[i] = strings.TrimPrefix(l, "    ")
	}
	msg := strings.Join(all, "\n")
	typ := "fail"
	if strings.Contains(msg, "panic:") {
		typ = "error"
		if m := panicLine().FindAllStringSubmatch(msg, -1); file == "" && len(m) > 0 {
			// The first frame in a test file is the deepest: where it panicked.
			file = workspace.RelTo(root, m[0][1])
			line, _ = strconv.Atoi(m[0][2])
		}
	} else if first != nil {
		msg = strings.Join(first, "\n")
	} else if file == "" {
		// A failed Example prints got/want without a position: the row
		// points at the example's Output comment, the expectation that
		// did not hold.
		if f, l := exampleOutput(dir, name); f != "" {
			file, line = workspace.RelTo(root, f), l
		}
	}
	row := map[string]any{"test": name, "type": typ, "message": proc.ClipMiddle(msg, 4000)}
	if file != "" {
		row["file"] = file
	}
	if line > 0 {
		row["line"] = line
	}
	return row
}

// exampleOutput finds the Example function name in dir's _test.go files
// and returns its file and the line of its "// Output:" (or "// Unordered
// output:") comment, else of the func itself; "" when there is none.
func exampleOutput(dir, name string) (string, int) {
	if !strings.HasPrefix(name, "Example") || strings.Contains(name, "/") {
		return "", 0
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(src), "func "+name+"(") {
			continue
		}
		fset := token.NewFileSet()
		af, err := parser.ParseFile(fset, f, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range af.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name != name || fn.Body == nil {
				continue
			}
			line := fset.Position(fn.Pos()).Line
			for _, cg := range af.Comments {
				if cg.Pos() < fn.Body.Lbrace || cg.End() > fn.Body.Rbrace {
					continue
				}
				for _, c := range cg.List {
					text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
					if lower := strings.ToLower(text); strings.HasPrefix(lower, "output:") || strings.HasPrefix(lower, "unordered output:") {
						line = fset.Position(c.Pos()).Line
					}
				}
			}
			return f, line
		}
	}
	return "", 0
}

// relFile shows a path go printed (relative to its cwd, or absolute)
// relative to the workspace root.
func relFile(root, cwd, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return workspace.RelTo(root, p)
}

// basePkg strips the test-variant suffix: "p [p.test]" → "p".
func basePkg(importPath string) string {
	base, _, _ := strings.Cut(importPath, " [")
	return base
}

// pkgDir maps an import path to its directory in the module.
func pkgDir(pkg, modPath, modRoot string) string {
	if modPath != "" && (pkg == modPath || strings.HasPrefix(pkg, modPath+"/")) {
		return filepath.Join(modRoot, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(pkg, modPath), "/")))
	}
	return modRoot
}

// goModulePath reads the module line of dir/go.mod ("" when none).
func goModulePath(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
