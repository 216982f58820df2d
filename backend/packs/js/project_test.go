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

func TestProjectTestCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		files   map[string]string
		want    *ScriptCommand // nil: none usable
		wantWhy string         // the note when none is usable
	}{
		{"node --test with a glob, expanded as sh would",
			map[string]string{"package.json": `{"scripts": {"test": "node --test test/*.test.js"}}`, "test/b.test.js": "", "test/a.test.js": "", "test/helper.js": ""},
			&ScriptCommand{Runner: RunnerNode, Args: []string{"--test", "test/a.test.js", "test/b.test.js"}, Env: map[string]string{}, Text: "node --test test/*.test.js", Why: "package.json scripts.test"}, ""},
		{"a quoted glob stays for node to read",
			map[string]string{"package.json": `{"scripts": {"test": "node --test 'test/**/*.test.mjs'"}}`},
			&ScriptCommand{Runner: RunnerNode, Args: []string{"--test", "test/**/*.test.mjs"}, Env: map[string]string{}, Text: "node --test test/**/*.test.mjs", Why: "package.json scripts.test"}, ""},
		{"lint first, env, a coverage wrapper and npm run",
			map[string]string{"package.json": `{"scripts": {"test": "eslint . && npm run test:unit", "test:unit": "cross-env TZ=UTC c8 --reporter lcov node --import ./setup.js --test"}}`},
			&ScriptCommand{Runner: RunnerNode, Args: []string{"--import", "./setup.js", "--test"}, Env: map[string]string{"TZ": "UTC"},
				Text: "cross-env TZ=UTC c8 --reporter lcov node --import ./setup.js --test",
				Why:  `package.json scripts.test → scripts.test:unit (only its test runner; the script is "eslint . && npm run test:unit")`}, ""},
		{"pnpm running vitest's binary after scripts without a runner (unjs/defu)",
			map[string]string{"package.json": `{"scripts": {"test": "pnpm lint && pnpm test:types && pnpm vitest run", "lint": "oxlint src && oxfmt --check src test", "test:types": "tsgo --noEmit"}}`},
			&ScriptCommand{Runner: RunnerVitest, Args: []string{"run"}, Env: map[string]string{}, Text: "pnpm vitest run",
				Why: `package.json scripts.test (only its test runner; the script is "pnpm lint && pnpm test:types && pnpm vitest run")`}, ""},
		{"the second npm run holds the runner",
			map[string]string{"package.json": `{"scripts": {"test": "npm run lint && yarn test:unit", "lint": "eslint .", "test:unit": "npm exec -- jest --ci"}}`},
			&ScriptCommand{Runner: RunnerJest, Args: []string{"--ci"}, Env: map[string]string{}, Text: "npm exec -- jest --ci",
				Why: `package.json scripts.test → scripts.test:unit (only its test runner; the script is "npm run lint && yarn test:unit")`}, ""},
		{"a script named like the binary is run as the script",
			map[string]string{"package.json": `{"scripts": {"test": "pnpm vitest", "vitest": "eslint ."}}`},
			nil, `package.json scripts.test is "pnpm vitest", which names no runner run_tests knows (node --test, vitest, jest)`},
		{"vitest",
			map[string]string{"package.json": `{"scripts": {"test": "vitest run --coverage"}}`},
			&ScriptCommand{Runner: RunnerVitest, Args: []string{"run", "--coverage"}, Env: map[string]string{}, Text: "vitest run --coverage", Why: "package.json scripts.test"}, ""},
		{"jest behind an env prefix",
			map[string]string{"package.json": `{"scripts": {"test": "NODE_OPTIONS=--experimental-vm-modules jest --ci"}}`},
			&ScriptCommand{Runner: RunnerJest, Args: []string{"--ci"}, Env: map[string]string{"NODE_OPTIONS": "--experimental-vm-modules"}, Text: "NODE_OPTIONS=--experimental-vm-modules jest --ci", Why: "package.json scripts.test"}, ""},
		{"node running a script is not node --test",
			map[string]string{"package.json": `{"scripts": {"test": "node test/run.js --test"}}`},
			nil, `package.json scripts.test is "node test/run.js --test", which names no runner run_tests knows (node --test, vitest, jest)`},
		{"npm's placeholder", map[string]string{"package.json": `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`}, nil, ""},
		{"no scripts", map[string]string{"package.json": `{}`}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			packtest.WriteFiles(t, dir, tc.files)
			got, ok, why := ProjectTestCommand(dir, dir)
			if tc.want == nil {
				if ok || why != tc.wantWhy {
					t.Fatalf("got %+v, %v, %q; want none, %q", got, ok, why, tc.wantWhy)
				}
				return
			}
			tc.want.Dir = dir
			if d := cmp.Diff(*tc.want, got); d != "" || !ok {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestNodeTestArgs(t *testing.T) {
	t.Parallel()
	opts, files := nodeTestArgs([]string{"--test", "--import", "./s.js", "--test-reporter", "spec", "--test-reporter-destination=stdout", "--watch", "a.test.js"}, nil)
	if d := cmp.Diff([]string{"--import", "./s.js"}, opts); d != "" {
		t.Fatalf("opts (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a.test.js"}, files); d != "" {
		t.Fatalf("files (-want +got):\n%s", d)
	}
	if _, files := nodeTestArgs([]string{"--test", "a.test.js"}, []string{"b.test.js"}); !cmp.Equal(files, []string{"b.test.js"}) {
		t.Fatalf("selected paths replace the script's files: %v", files)
	}
}

func TestExitReason(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ stderr, want string }{
		{"PASS src/a.test.js\nJest: \"global\" coverage threshold for lines (90%) not met: 50%\n", `Jest: "global" coverage threshold for lines (90%) not met: 50%`},
		{"", "the runner printed no reason on stderr"},
		{"1\n2\n3\n4\n5\n6\n", "2\n3\n4\n5\n6"},
	} {
		if got := exitReason(tc.stderr); got != tc.want {
			t.Fatalf("exitReason(%q) = %q; want %q", tc.stderr, got, tc.want)
		}
	}
}

var tapTrailer = regexp.MustCompile(`(?m)^# (tests|pass|fail|cancelled|skipped|todo) (\d+)\s*$`)

// projectCounts runs the project's own `npm test` and reads node's TAP
// trailer (node --test reports TAP when stdout is not a terminal).
func projectCounts(t *testing.T, dir string) map[string]int {
	t.Helper()
	cmd := exec.Command("npm", "test")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm test: %v\n%s", err, out)
	}
	got := map[string]int{}
	for _, m := range tapTrailer.FindAllStringSubmatch(string(out), -1) {
		got[m[1]], _ = strconv.Atoi(m[2])
	}
	if got["tests"] == 0 {
		t.Fatalf("npm test printed no TAP trailer:\n%s", out)
	}
	return got
}

// TestNodeTestScriptSkipsHelpers (testdata/slugkit, written by us: no
// real project in testdata/projects shows this): on a node:test project
// whose script names test/*.test.js and whose test/ holds helper scripts (one writes a file, one exits 2 without arguments),
// run_tests() runs what `npm test` runs and gets its counts, where bare
// `node --test` would run the helpers too; a failing assertion comes back
// with file, line, message and a name that selects it again.
func TestNodeTestScriptSkipsHelpers(t *testing.T) {
	t.Parallel()
	needNode(t)
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	dir := packtest.CopyFixture(t, "testdata/slugkit")
	want := projectCounts(t, dir)
	env, _ := packtest.ToolEnv(t, dir)
	got, err := Test(context.Background(), env, call("javascript", dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]any{"is_pass": got["is_pass"], "total": got["total"], "pass": got["pass"], "fail": got["fail"], "skipped": got["skipped"],
		"command": got["command"], "why": got["why"]}
	wantCounts := map[string]any{"is_pass": true, "total": want["tests"], "pass": want["pass"], "fail": want["fail"] + want["cancelled"], "skipped": want["skipped"] + want["todo"],
		"command": "node --test --test-reporter=tap test/slugify.test.js test/truncate.test.js", "why": "package.json scripts.test"}
	if d := cmp.Diff(wantCounts, counts); d != "" {
		t.Fatalf("run_tests() against npm test (-want +got):\n%s\n%s", d, got["output"])
	}
	if _, err := os.Stat(filepath.Join(dir, "test/fixtures/generated.json")); err == nil {
		t.Fatal("run_tests ran test/make-fixtures.js, a helper npm test does not run")
	}

	// Bare node --test, what run_tests did before, runs the helpers too.
	bare := exec.Command("node", "--test", "--test-reporter=tap")
	bare.Dir = packtest.CopyFixture(t, "testdata/slugkit")
	out, _ := bare.CombinedOutput()
	if n, _ := count(tapTests, string(out)); n == want["tests"] {
		t.Fatalf("bare node --test ran %d tests, as many as npm test: the fixture no longer tells the two apart", n)
	}

	// A test made to fail.
	file := filepath.Join(dir, "test/truncate.test.js")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(src), `assert.equal(out, "the quick…");`, `assert.equal(out, "the quick brown…");`, 1)
	if broken == string(src) {
		t.Fatal("the fixture's assertion moved; update this test")
	}
	line := 1 + strings.Count(broken[:strings.Index(broken, `"the quick brown…"`)], "\n")
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = Test(context.Background(), env, call("javascript", dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got["is_pass"] != false || got["fail"] != 1 || got["total"] != want["tests"] {
		t.Fatalf("after the edit: is_pass %v, fail %v, total %v\n%s", got["is_pass"], got["fail"], got["total"], got["output"])
	}
	fs := got["failures"].([]map[string]any)
	if len(fs) != 1 {
		t.Fatalf("failures = %v", fs)
	}
	row := fs[0]
	msg, _ := row["message"].(string)
	if row["file"] != "test/truncate.test.js" || row["line"] != line || row["test"] != "truncate > cuts at a word boundary" ||
		!strings.Contains(msg, "the quick brown…") || !strings.Contains(msg, "the quick…") {
		t.Fatalf("failure row = %v; want file test/truncate.test.js, line %d, the test's full name and both values", row, line)
	}

	// The row's name, fed back, selects that test alone.
	for _, sel := range []string{"test/truncate.test.js::" + row["test"].(string), "::" + row["test"].(string)} {
		again, err := Test(context.Background(), env, call("javascript", dir, map[string]any{"paths": []any{sel}}))
		if err != nil {
			t.Fatal(err)
		}
		if again["total"] != 1 || again["fail"] != 1 {
			t.Fatalf("%s: total %v, fail %v\n%s", sel, again["total"], again["fail"], again["output"])
		}
	}
}

func TestParseJestJSON(t *testing.T) {
	t.Parallel()
	root := "/w"
	report := `{"numFailedTestSuites":2,"numFailedTests":1,"numPassedTests":1,"numPendingTests":1,"numTodoTests":1,"numTotalTests":4,"success":false,
"testResults":[
 {"name":"/w/src/math.test.js","status":"failed","message":"","assertionResults":[
  {"ancestorTitles":["math","sub"],"fullName":"math sub subtracts","status":"failed","title":"subtracts","failureMessages":["Error: \u001b[2mexpect(\u001b[22mreceived\u001b[2m).\u001b[22mtoBe\u001b[2m(\u001b[22mexpected\u001b[2m)\u001b[22m\n\nExpected: \u001b[32m2\u001b[39m\nReceived: \u001b[31m8\u001b[39m\n    at Object.toBe (/w/node_modules/expect/build/index.js:1:1)\n    at Object.<anonymous> (/w/src/math.test.js:7:15)\n    at Promise.then.completed (/w/node_modules/jest-circus/build/utils.js:298:28)"]},
  {"ancestorTitles":["math"],"fullName":"math adds","status":"passed","title":"adds","failureMessages":[]},
  {"ancestorTitles":[],"fullName":"later","status":"pending","title":"later","failureMessages":[]}]},
 {"name":"/w/src/broken.test.js","status":"failed","message":"  ● Test suite failed to run\n\n    Cannot find module './gone' from 'src/broken.test.js'","assertionResults":[]}]}`
	got := ParseJestJSON("some log line\n"+report, root)
	want := map[string]any{"total": 4, "pass": 1, "fail": 1, "skipped": 2, "failures": []map[string]any{
		{"test": "math > sub > subtracts", "type": "fail", "file": "src/math.test.js", "line": 7, "message": "Error: expect(received).toBe(expected)\n\nExpected: 2\nReceived: 8"},
		{"test": "src/broken.test.js", "type": "error", "file": "src/broken.test.js", "message": "● Test suite failed to run\n\n    Cannot find module './gone' from 'src/broken.test.js'"},
	}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if ParseJestJSON("no report here", root) != nil {
		t.Fatal("text without a report must fall back to the summary parser (nil)")
	}
}
