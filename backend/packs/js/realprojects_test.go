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
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// The real-projects suite: pinned copies of small third-party projects
// (testdata/projects/<name>, each with its LICENSE; README.md there says
// what was kept and changed). Each test runs the project's own test
// runner for reference counts, then run_tests(), which must match them; a
// copy made to fail, whose row must point at the failing assertion with
// its message; format_code with the formatter the project would get,
// after which its tests still pass; and the REPL calling into its code.

// linkModules gives dir a node_modules made of links to the packages (and
// .bin entries) of real installs under tools/ (the first install naming a
// package wins), so several tools can serve one project copy.
func linkModules(t *testing.T, dir string, installs ...string) {
	t.Helper()
	nm := filepath.Join(dir, "node_modules")
	if err := os.MkdirAll(filepath.Join(nm, ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, inst := range installs {
		src := repoPath(t, filepath.Join("tools", inst, "node_modules"))
		ents, err := os.ReadDir(src)
		if err != nil {
			t.Skipf("tools/%s is not installed (scripts/deps.sh test installs it): %v", inst, err)
		}
		for _, e := range ents {
			if e.Name() == ".bin" || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if _, err := os.Lstat(filepath.Join(nm, e.Name())); err == nil {
				continue
			}
			if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(nm, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		bins, _ := os.ReadDir(filepath.Join(src, ".bin"))
		for _, b := range bins {
			if _, err := os.Lstat(filepath.Join(nm, ".bin", b.Name())); err == nil {
				continue
			}
			if err := os.Symlink(filepath.Join(src, ".bin", b.Name()), filepath.Join(nm, ".bin", b.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// ownRun runs argv (the project's own test runner) in dir and returns its
// combined output; the exit status is the caller's to judge from it.
func ownRun(t *testing.T, dir string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// tapCounts reads node --test's TAP trailer ("# tests 11", ...).
func tapCounts(t *testing.T, out string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, m := range tapTrailer.FindAllStringSubmatch(out, -1) {
		got[m[1]], _ = strconv.Atoi(m[2])
	}
	if got["tests"] == 0 {
		t.Fatalf("the project's own run printed no TAP trailer:\n%s", out)
	}
	return got
}

// summaryCounts reads vitest's text summary ("Tests  22 passed | 1 failed (23)").
func summaryCounts(t *testing.T, out string) map[string]int {
	t.Helper()
	m := vitestSummary.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the project's own run printed no summary:\n%s", out)
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

// editFile replaces old (which must occur once at least) in dir/rel and
// returns the 1-based line where the replacement starts.
func editFile(t *testing.T, dir, rel, old, new string) int {
	t.Helper()
	p := filepath.Join(dir, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), old)
	if i < 0 {
		t.Fatalf("%s: %q not found; the fixture moved, update this test", rel, old)
	}
	if err := os.WriteFile(p, []byte(string(b[:i])+new+string(b[i+len(old):])), 0o644); err != nil {
		t.Fatal(err)
	}
	return 1 + strings.Count(string(b[:i]), "\n")
}

func runTests(t *testing.T, env ext.ToolEnv, dir string, opts map[string]any) map[string]any {
	t.Helper()
	got, err := Test(context.Background(), env, call("javascript", dir, opts))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func counts(r map[string]any) map[string]any {
	return map[string]any{"is_pass": r["is_pass"], "total": r["total"], "pass": r["pass"], "fail": r["fail"], "skipped": r["skipped"]}
}

// formatKeepsTests runs format_code over the whole project, wants the
// named formatter to have rewritten at least one file, and the project's
// tests to pass afterwards with the counts they had.
func formatKeepsTests(t *testing.T, env ext.ToolEnv, dir, formatter string, want map[string]any) {
	t.Helper()
	res, err := Format(context.Background(), env, call("javascript", dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.Formatter != formatter || len(res.Files) == 0 {
		t.Fatalf("format_code() = %+v; want %s rewriting the project's files", res, formatter)
	}
	after := runTests(t, env, dir, nil)
	if d := cmp.Diff(want, counts(after)); d != "" {
		t.Fatalf("run_tests() after format_code rewrote %v (-want +got):\n%s\n%s", res.Files, d, after["output"])
	}
}

// @fastify/forwarded (MIT): node:test through `npm test` → `npm run
// test:unit && npm run test:typescript`, test:unit being `c8 --100 node
// --test` (node's default file patterns find test/test.js). Three of its
// tests share one name.
func TestRealProjectForwardedNodeTest(t *testing.T) {
	t.Parallel()
	needNode(t)
	const fixture = "testdata/projects/forwarded"
	dir := packtest.CopyFixture(t, fixture)
	// The runner test:unit runs, without c8 (coverage only) and without
	// test:typescript (tstyche type tests, not installed).
	want := tapCounts(t, ownRun(t, dir, "node", "--test"))
	wantCounts := map[string]any{"is_pass": true, "total": want["tests"], "pass": want["pass"], "fail": want["fail"] + want["cancelled"], "skipped": want["skipped"] + want["todo"]}
	if want["tests"] != 11 || want["pass"] != 11 {
		t.Fatalf("the project's own run: %v; the fixture has 11 passing tests", want)
	}
	env, _ := packtest.ToolEnv(t, dir)
	got := runTests(t, env, dir, nil)
	if d := cmp.Diff(wantCounts, counts(got)); d != "" {
		t.Fatalf("run_tests() against the project's node --test (-want +got):\n%s\n%s", d, got["output"])
	}
	if got["runner"] != RunnerNode || got["command"] != "node --test --test-reporter=tap" ||
		got["why"] != `package.json scripts.test → scripts.test:unit (only its test runner; the script is "npm run test:unit && npm run test:typescript")` {
		t.Fatalf("runner %v, command %v, why %v", got["runner"], got["command"], got["why"])
	}

	t.Run("a failing assertion", func(t *testing.T) {
		t.Parallel()
		dir := packtest.CopyFixture(t, fixture)
		env, _ := packtest.ToolEnv(t, dir)
		line := editFile(t, dir, "test/test.js", "t.assert.deepStrictEqual(forwarded(req), ['127.0.0.1', '10.0.0.1'])",
			"t.assert.deepStrictEqual(forwarded(req), ['127.0.0.1', '10.0.0.9'])")
		own := tapCounts(t, ownRun(t, dir, "node", "--test"))
		got := runTests(t, env, dir, nil)
		if got["is_pass"] != false || got["fail"] != own["fail"] || got["fail"] != 1 || got["total"] != own["tests"] || got["pass"] != own["pass"] {
			t.Fatalf("after the edit: %v against the project's own %v\n%s", counts(got), own, got["output"])
		}
		fs := got["failures"].([]map[string]any)
		if len(fs) != 1 {
			t.Fatalf("failures = %v", fs)
		}
		row := fs[0]
		msg, _ := row["message"].(string)
		if row["file"] != "test/test.js" || row["line"] != line || row["test"] != "should include entries from X-Forwarded-For" ||
			!strings.Contains(msg, "'10.0.0.9'") || !strings.Contains(msg, "'10.0.0.1'") {
			t.Fatalf("failure row = %v; want test/test.js:%d, the test's name and both values", row, line)
		}
		// Its name, fed back, selects the three tests that share it.
		for _, sel := range []string{"test/test.js::" + row["test"].(string), "::" + row["test"].(string)} {
			again := runTests(t, env, dir, map[string]any{"paths": []any{sel}})
			if again["total"] != 3 || again["fail"] != 1 || again["pass"] != 2 {
				t.Fatalf("%s: %v\n%s", sel, counts(again), again["output"])
			}
		}
	})

	t.Run("format_code", func(t *testing.T) {
		t.Parallel()
		// The project names no formatter (it lints with eslint/neostandard):
		// format_code takes the prettier installed in its node_modules.
		dir := packtest.CopyFixture(t, fixture)
		linkModules(t, dir, "js-fmt-lint")
		env, _ := packtest.ToolEnv(t, dir)
		formatKeepsTests(t, env, dir, "prettier", wantCounts)
	})

	t.Run("repl", func(t *testing.T) {
		t.Parallel()
		dir := packtest.CopyFixture(t, fixture)
		env, _ := packtest.ToolEnv(t, dir)
		if _, err := Repl(context.Background(), env, "start", call("javascript", dir, nil)); err != nil {
			t.Fatal(err)
		}
		got := eval(t, env, dir, map[string]any{"code": "const forwarded = require('./index.js')\nforwarded({ socket: { remoteAddress: '127.0.0.1' }, headers: { 'x-forwarded-for': '10.0.0.2, 10.0.0.1' } })"})
		if d := cmp.Diff(map[string]any{"ok": true, "data": []any{"127.0.0.1", "10.0.0.1", "10.0.0.2"}, "type": "Array", "exc": nil}, pick(got, "ok", "data", "type", "exc")); d != "" {
			t.Fatalf("(-want +got):\n%s", d)
		}
	})
}

// defu (MIT): TypeScript tested with vitest through `pnpm lint && pnpm
// test:types && pnpm vitest run`; expect-type (a vitest dependency) in
// its tests; formatted with oxfmt (.oxfmtrc.json). Its node_modules here
// links tools/vitest, tools/js-fmt-lint and tools/jsrepl.
func TestRealProjectDefuVitest(t *testing.T) {
	t.Parallel()
	needNode(t)
	const fixture = "testdata/projects/defu"
	project := func(t *testing.T) (ext.ToolEnv, string) {
		dir := packtest.CopyFixture(t, fixture)
		linkModules(t, dir, "vitest", "js-fmt-lint", "jsrepl")
		if !isExec(filepath.Join(dir, "node_modules", ".bin", "vitest")) {
			t.Skip("vitest is not installed (scripts/deps.sh test installs it: npm ci in tools/vitest)")
		}
		env, _ := packtest.ToolEnv(t, dir)
		return env, dir
	}
	env, dir := project(t)
	// The script's test step, `pnpm vitest run` (lint and tsgo type checks are not installed).
	want := summaryCounts(t, ownRun(t, dir, "node_modules/.bin/vitest", "run"))
	wantCounts := map[string]any{"is_pass": true, "total": want["total"], "pass": want["passed"], "fail": want["failed"], "skipped": want["skipped"] + want["todo"]}
	if want["total"] != 23 || want["passed"] != 23 {
		t.Fatalf("the project's own run: %v; the fixture has 23 passing tests", want)
	}
	got := runTests(t, env, dir, nil)
	if d := cmp.Diff(wantCounts, counts(got)); d != "" {
		t.Fatalf("run_tests() against the project's vitest run (-want +got):\n%s\n%s", d, got["output"])
	}
	if got["runner"] != RunnerVitest || got["why"] != `package.json scripts.test (only its test runner; the script is "pnpm lint && pnpm test:types && pnpm vitest run")` {
		t.Fatalf("runner %v, why %v", got["runner"], got["why"])
	}

	t.Run("a failing assertion", func(t *testing.T) {
		t.Parallel()
		env, dir := project(t)
		line := editFile(t, dir, "test/defu.test.ts", `expect(result).toEqual({ a: "c", d: "c" });`, `expect(result).toEqual({ a: "c", d: "x" });`)
		own := summaryCounts(t, ownRun(t, dir, "node_modules/.bin/vitest", "run"))
		got := runTests(t, env, dir, nil)
		if got["is_pass"] != false || got["fail"] != own["failed"] || got["fail"] != 1 || got["total"] != own["total"] || got["pass"] != own["passed"] {
			t.Fatalf("after the edit: %v against the project's own %v\n%s", counts(got), own, got["output"])
		}
		fs := got["failures"].([]map[string]any)
		if len(fs) != 1 {
			t.Fatalf("failures = %v", fs)
		}
		row := fs[0]
		if d := cmp.Diff(map[string]any{"test": "defu > should copy only missing properties defaults", "type": "fail", "file": "test/defu.test.ts", "line": line,
			"message": "AssertionError: expected { a: 'c', d: 'c' } to deeply equal { a: 'c', d: 'x' }"}, row); d != "" {
			t.Fatalf("failure row (-want +got):\n%s", d)
		}
		for _, sel := range []string{"test/defu.test.ts::" + row["test"].(string), "::" + row["test"].(string)} {
			again := runTests(t, env, dir, map[string]any{"paths": []any{sel}})
			if again["total"] != 1 || again["fail"] != 1 {
				t.Fatalf("%s: %v\n%s", sel, counts(again), again["output"])
			}
		}
		// A test file that cannot load is an error row with vitest's reason.
		packtest.WriteFiles(t, dir, map[string]string{"test/gone.test.ts": "import { it } from \"vitest\";\nimport { gone } from \"../src/gone\";\nit(\"uses gone\", () => gone());\n"})
		got = runTests(t, env, dir, map[string]any{"paths": []any{"test/gone.test.ts"}})
		fs, _ = got["failures"].([]map[string]any)
		if got["is_pass"] != false || len(fs) != 1 || fs[0]["type"] != "error" || fs[0]["file"] != "test/gone.test.ts" || !strings.Contains(fs[0]["message"].(string), "src/gone") {
			t.Fatalf("a file that cannot load: is_pass %v, failures %v\n%s", got["is_pass"], fs, got["output"])
		}
	})

	t.Run("format_code", func(t *testing.T) {
		t.Parallel()
		env, dir := project(t)
		// The project keeps its sources oxfmt-clean (its lint runs oxfmt
		// --check): a file stripped of its indentation comes back as it was.
		p := filepath.Join(dir, "src/_utils.ts")
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		flat := regexp.MustCompile(`(?m)^[ \t]+`).ReplaceAll(orig, nil)
		if err := os.WriteFile(p, flat, 0o644); err != nil {
			t.Fatal(err)
		}
		formatKeepsTests(t, env, dir, "oxfmt", wantCounts)
		if after, _ := os.ReadFile(p); string(after) != string(orig) {
			t.Fatalf("src/_utils.ts after format_code:\n%s\nwant the project's own:\n%s", after, orig)
		}
	})

	t.Run("repl", func(t *testing.T) {
		t.Parallel()
		env, dir := project(t)
		if _, err := Repl(context.Background(), env, "start", call("typescript", dir, nil)); err != nil {
			t.Fatal(err)
		}
		got, err := Eval(context.Background(), env, call("typescript", dir, map[string]any{"code": "import { defu } from './src/defu'\nconst merged: { a: number; b: number } = defu({ a: 1 }, { a: 2, b: 3 })\nmerged"}))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(map[string]any{"ok": true, "data": map[string]any{"a": int64(1), "b": int64(3)}, "type": "Object", "exc": nil}, pick(got, "ok", "data", "type", "exc")); d != "" {
			t.Fatalf("(-want +got):\n%s", d)
		}
	})
}
