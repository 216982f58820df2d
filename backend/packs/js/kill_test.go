package js

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// A node:test run killed at its timeout returns the rows it had (TAP
// streams them as each test ends), and its lines were seen live.
func TestNodeTestKilledKeepsItsRows(t *testing.T) {
	needNode(t)
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name":"k","version":"1.0.0","scripts":{"test":"node --test"}}`,
		"test/k.test.js": `const test = require('node:test')
const assert = require('node:assert')
const fs = require('node:fs')
test('passes', () => {})
test('fails', () => { assert.strictEqual(1, 2) })
test('hangs', async () => { fs.writeFileSync('started', ''); setInterval(() => {}, 1000); await new Promise(() => {}) })
`,
	})
	env, _ := packtest.ToolEnv(t, dir)
	ctx, liveLines := packtest.LiveLines(context.Background())
	got := runUntilStarted(t, ctx, env, dir, 3000, nil)
	if got["timed_out"] != true || got["is_pass"] != false || !strings.Contains(got["error"].(string), "timed out") {
		t.Fatalf("hung run: timed_out %v is_pass %v error %v", got["timed_out"], got["is_pass"], got["error"])
	}
	if got["pass"] != 1 || got["fail"] != 1 {
		t.Errorf("rows kept on kill: pass %v fail %v\n%v", got["pass"], got["fail"], got["output"])
	}
	fs, _ := got["failures"].([]map[string]any)
	if len(fs) != 1 || fs[0]["test"] != "fails" || fs[0]["file"] != "test/k.test.js" || fs[0]["line"] != 5 || !strings.Contains(fs[0]["message"].(string), "1 !== 2") {
		t.Errorf("failure rows = %v", fs)
	}
	shown := liveLines()
	if !strings.Contains(shown, "ok 1 - passes") || !strings.Contains(shown, "not ok 2 - fails") {
		t.Errorf("live lines:\n%s", shown)
	}
}

// A TAP stream cut before its trailer counts leaf tests only: a describe
// whose subtests printed results is not a test of its own.
func TestParseTAPCutBeforeTheTrailer(t *testing.T) {
	t.Parallel()
	tap := `TAP version 13
# Subtest: math
    # Subtest: adds
    ok 1 - adds
    # Subtest: subtracts
    not ok 2 - subtracts
      ---
      error: 'nope'
      ...
    # Subtest: later
    ok 3 - later # SKIP
    1..3
not ok 1 - math
  ---
  failureType: 'subtestsFailed'
  ...
# Subtest: top
ok 2 - top
# Subtest: hangs
`
	got := ParseTAP(tap, "/w")
	if got["total"] != 4 || got["pass"] != 2 || got["fail"] != 1 || got["skipped"] != 1 {
		t.Fatalf("counts = total %v pass %v fail %v skipped %v", got["total"], got["pass"], got["fail"], got["skipped"])
	}
	if f := got["failures"].([]map[string]any); len(f) != 1 || f[0]["test"] != "math > subtracts" {
		t.Fatalf("failures = %v", f)
	}
}

// A vitest run killed at its timeout returns the tests its verbose
// reporter printed as they ended (vitest writes its JSON report only at
// the end), and they were seen live without colour codes.
func TestVitestKilledKeepsItsRows(t *testing.T) {
	t.Parallel()
	dir := vitestProject(t)
	want := vitestCounts(t, dir) // the project's own run, before the hanging file
	packtest.WriteFiles(t, dir, map[string]string{
		"test/calc.test.js": strings.Replace(readFile(t, filepath.Join(dir, "test/calc.test.js")), "expect(add(2, 3)).toBe(5)", "expect(add(2, 3)).toBe(6)", 1),
		"test/zz_hang.test.js": `import { test } from 'vitest'
import { writeFileSync } from 'node:fs'
test('hangs', async () => { writeFileSync('started', ''); await new Promise(() => {}) }, 600000)
`,
	})
	env, _ := packtest.ToolEnv(t, dir)
	ctx, liveLines := packtest.LiveLines(context.Background())
	got := runUntilStarted(t, ctx, env, dir, 6000, map[string]any{"args": []any{"--no-file-parallelism"}})
	if got["timed_out"] != true || got["is_pass"] != false {
		t.Fatalf("timed_out %v is_pass %v", got["timed_out"], got["is_pass"])
	}
	if got["total"] != want["total"] || got["fail"] != 1 || got["pass"] != want["passed"]-1 {
		t.Errorf("rows kept on kill: total %v pass %v fail %v; the suite has %v tests\n%v", got["total"], got["pass"], got["fail"], want["total"], got["output"])
	}
	fs, _ := got["failures"].([]map[string]any)
	if len(fs) != 1 || fs[0]["file"] != "test/calc.test.js" || !strings.HasSuffix(fs[0]["test"].(string), "adds") {
		t.Errorf("failure rows = %v", fs)
	}
	shown := liveLines()
	if !strings.Contains(shown, "✓ test/clamp.test.js > clamp > keeps values inside") || strings.Contains(shown, "\x1b[") {
		t.Errorf("live lines:\n%s", shown)
	}
}

// runUntilStarted is run_tests in dir with timeout_ms budget, run again
// with twice the budget (up to 48 s) while the suite's hanging test had
// not started (it writes dir/started): what the kill tests check is the
// rows of a run killed in the hanging test, not how fast the runner
// starts, which on a busy machine can take many seconds. The budget is
// otherwise all waiting: the run ends only when it passes.
func runUntilStarted(t *testing.T, ctx context.Context, env ext.ToolEnv, dir string, budget int, opts map[string]any) map[string]any {
	t.Helper()
	for ; ; budget *= 2 {
		o := maps.Clone(opts)
		if o == nil {
			o = map[string]any{}
		}
		o["timeout_ms"] = budget
		got, err := Test(ctx, env, call("javascript", dir, o))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			return got
		}
		if budget >= 48000 {
			t.Fatalf("the hanging test never started within %d ms\n%v", budget, got["output"])
		}
		t.Logf("the hanging test had not started after %d ms; again with %d ms", budget, 2*budget)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
