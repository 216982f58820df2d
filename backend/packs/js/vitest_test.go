package js

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// vitestProject copies the vitest fixture and links tools/vitest's real
// vitest (pinned 4.x; scripts/deps.sh test installs it) as its node_modules.
func vitestProject(t *testing.T) string {
	t.Helper()
	needNode(t)
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	modules := repoPath(t, "tools/vitest/node_modules")
	if !isExec(filepath.Join(modules, ".bin", "vitest")) {
		t.Skipf("vitest is not installed: %s/.bin/vitest is missing (scripts/deps.sh test installs it: npm ci in tools/vitest)", modules)
	}
	dir := packtest.CopyFixture(t, "testdata/vitestcalc")
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir
}

var vitestSummary = regexp.MustCompile(`(?m)^\s*Tests\s+(.*)\((\d+)\)\s*$`)

// vitestCounts runs the project's own `npm test` and reads vitest's text
// summary ("Tests  6 passed | 1 skipped | 1 todo (8)").
func vitestCounts(t *testing.T, dir string, args ...string) map[string]int {
	t.Helper()
	cmd := exec.Command("npm", append([]string{"test", "--"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	out, _ := cmd.CombinedOutput()
	m := vitestSummary.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("npm test printed no summary:\n%s", out)
	}
	got := map[string]int{}
	got["total"], _ = strconv.Atoi(m[2])
	for _, part := range strings.Split(m[1], "|") {
		if f := strings.Fields(part); len(f) == 2 {
			n, _ := strconv.Atoi(f[0])
			got[f[1]] += n
		}
	}
	return got
}

// TestVitestSkippedAndSelectors (testdata/vitestcalc, written by us for
// what the real defu fixture lacks: skipped and todo tests, a describe
// title holding " > ", the script's own reporter): run_tests() on a vitest
// project runs its script
// with vitest's JSON reporter and gets the counts `npm test` prints; a test
// made to fail comes back with file, line and message, and its name (whose
// describe title holds " > ") selects exactly that test when passed back.
func TestVitestSkippedAndSelectors(t *testing.T) {
	t.Parallel()
	dir := vitestProject(t)
	want := vitestCounts(t, dir)
	env, _ := packtest.ToolEnv(t, dir)
	ctx := context.Background()
	got, err := Test(ctx, env, call("javascript", dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]any{"is_pass": got["is_pass"], "total": got["total"], "pass": got["pass"], "fail": got["fail"], "skipped": got["skipped"], "runner": got["runner"], "why": got["why"]}
	wantCounts := map[string]any{"is_pass": true, "total": want["total"], "pass": want["passed"], "fail": want["failed"], "skipped": want["skipped"] + want["todo"], "runner": RunnerVitest, "why": "package.json scripts.test"}
	if d := cmp.Diff(wantCounts, counts); d != "" {
		t.Fatalf("run_tests() against npm test (-want +got):\n%s\n%s", d, got["output"])
	}
	if want["total"] != 8 {
		t.Fatalf("npm test counted %v; the fixture has 8 tests", want)
	}
	if cmdText, _ := got["command"].(string); strings.Contains(cmdText, "--reporter=dot") {
		t.Fatalf("the script's own reporter must give way to ours: %s", cmdText)
	}

	// A test made to fail, inside a describe whose title holds " > ".
	file := filepath.Join(dir, "test/calc.test.js")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(src), "expect(sub(5, 3)).toBe(2);", "expect(sub(5, 3)).toBe(3);", 1)
	if broken == string(src) {
		t.Fatal("the fixture's assertion moved; update this test")
	}
	line := 1 + strings.Count(broken[:strings.Index(broken, "toBe(3)")], "\n")
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	want = vitestCounts(t, dir)
	got, err = Test(ctx, env, call("javascript", dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got["is_pass"] != false || got["fail"] != want["failed"] || got["fail"] != 1 || got["total"] != want["total"] || got["pass"] != want["passed"] {
		t.Fatalf("after the edit: %v against npm test's %v\n%s", got, want, got["output"])
	}
	fs := got["failures"].([]map[string]any)
	if len(fs) != 1 {
		t.Fatalf("failures = %v", fs)
	}
	row := fs[0]
	if d := cmp.Diff(map[string]any{"test": "calc > sub (a > b) > subtracts", "type": "fail", "file": "test/calc.test.js", "line": line,
		"message": "AssertionError: expected 2 to be 3 // Object.is equality"}, row); d != "" {
		t.Fatalf("failure row (-want +got):\n%s", d)
	}

	// The row's name, fed back, selects that test alone (not "subtracts to zero").
	for _, sel := range []string{"test/calc.test.js::" + row["test"].(string), "::" + row["test"].(string)} {
		again, err := Test(ctx, env, call("javascript", dir, map[string]any{"paths": []any{sel}}))
		if err != nil {
			t.Fatal(err)
		}
		if again["total"] != 1 || again["fail"] != 1 || again["pass"] != 0 || again["skipped"] != 0 {
			t.Fatalf("%s: total %v, pass %v, fail %v, skipped %v\n%v\n%s", sel, again["total"], again["pass"], again["fail"], again["skipped"], again["cmd"], again["output"])
		}
	}
	// A plain name matches anywhere in the full name, as vitest's -t does; a
	// skipped test it matches stays counted as skipped.
	some, err := Test(ctx, env, call("javascript", dir, map[string]any{"paths": []any{"::calc"}}))
	if err != nil {
		t.Fatal(err)
	}
	if some["total"] != 5 || some["pass"] != 2 || some["fail"] != 1 || some["skipped"] != 2 {
		t.Fatalf("::calc: total %v, pass %v, fail %v, skipped %v\n%s", some["total"], some["pass"], some["fail"], some["skipped"], some["output"])
	}
}

func TestVitestPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names        []string
		want         string
		match, avoid []string
	}{
		{[]string{"calc > sub (a > b) > subtracts"}, `^calc(?: | > )sub \(a(?: | > )b\)(?: | > )subtracts$`,
			[]string{"calc sub (a > b) subtracts"}, []string{"calc sub (a > b) subtracts to zero", "x calc sub (a > b) subtracts"}},
		{[]string{"adds"}, `adds`, []string{"calc adds", "adds twice"}, nil},
		{[]string{"a > b", "c.d"}, `(?:^a(?: | > )b$|c\.d)`, []string{"a b", "xc.dx"}, []string{"a bc", "cxd"}},
	} {
		re := vitestPattern(tc.names)
		if re.String() != tc.want {
			t.Fatalf("vitestPattern(%q) = %s; want %s", tc.names, re, tc.want)
		}
		for _, s := range tc.match {
			if !re.MatchString(s) {
				t.Errorf("%s does not match %q", re, s)
			}
		}
		for _, s := range tc.avoid {
			if re.MatchString(s) {
				t.Errorf("%s matches %q", re, s)
			}
		}
	}
	if vitestPattern(nil) != nil {
		t.Fatal("no names: no pattern")
	}
}

func TestDropReporters(t *testing.T) {
	t.Parallel()
	got := dropReporters([]string{"--reporter", "dot", "--coverage", "--reporter=junit", "--outputFile", "x.xml", "--outputFile.junit=y.xml", "src"})
	if d := cmp.Diff([]string{"--coverage", "src"}, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}
