package js

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

func TestMain(m *testing.M) { os.Exit(packtest.Main(m)) }

func call(lang, dir string, opts map[string]any) ext.Call {
	if opts == nil {
		opts = map[string]any{}
	}
	return ext.Call{Language: lang, Opts: opts, Cwd: dir}
}

func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	if _, err := exec.LookPath("bun"); err == nil {
		t.Skip("bun is on PATH: these tests exercise the node runtime")
	}
}

func TestActivation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"bunfig.toml", map[string]string{"bunfig.toml": ""}, true},
		{"bun.lock", map[string]string{"bun.lock": "{}"}, true},
		{"bun.lockb", map[string]string{"bun.lockb": ""}, true},
		{".bun-version", map[string]string{".bun-version": "1.1.0"}, true},
		{"package.json with a .ts source", map[string]string{"package.json": "{}", "src/a.ts": ""}, true},
		{"package.json with a .mjs source", map[string]string{"package.json": "{}", "lib/a.mjs": ""}, true},
		{"package.json with a .jsx source", map[string]string{"package.json": "{}", "a.jsx": ""}, true},
		{"package.json without sources", map[string]string{"package.json": "{}", "README.md": ""}, false},
		{"package.json with sources only in node_modules", map[string]string{"package.json": "{}", "node_modules/x/index.js": ""}, false},
		{"sources without package.json", map[string]string{"a.js": ""}, false},
		{"a Go module", map[string]string{"go.mod": "module x\n", "main.go": ""}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			packtest.WriteFiles(t, dir, tc.files)
			got, err := Extension().Activate(packtest.Environment(dir))
			if err != nil || got != tc.want {
				t.Fatalf("Activate = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestExtensionLanguages(t *testing.T) {
	t.Parallel()
	e := Extension()
	got := map[string][]string{}
	for _, lt := range e.LanguageTools {
		got[lt.Language] = lt.Aliases
		if lt.Eval == nil || lt.Repl == nil || lt.Test == nil || lt.Format == nil {
			t.Fatalf("%s: eval, repl, test and format must be handled", lt.Language)
		}
		if lt.Lint == nil {
			t.Fatalf("%s: lint_code must be handled (the project's eslint or biome)", lt.Language)
		}
	}
	want := map[string][]string{"typescript": {"ts", "mts", "cts"}, "javascript": {"js", "mjs", "cjs"}, "tsx": nil, "jsx": nil}
	if d := cmp.Diff(want, got); d != "" || e.Kind != "language" {
		t.Fatalf("languages (-want +got):\n%s", d)
	}
}

func TestResolveRuntime(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	homeBun := t.TempDir()
	packtest.WriteFiles(t, homeBun, map[string]string{".bun/bin/bun": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(homeBun, ".bun/bin/bun"), 0o755); err != nil {
		t.Fatal(err)
	}
	bunProject := t.TempDir()
	packtest.WriteFiles(t, bunProject, map[string]string{"bun.lock": "{}", "pkg/a.ts": ""})
	plain := t.TempDir()
	look := func(have ...string) LookPath {
		return func(f string) (string, error) {
			for _, h := range have {
				if h == f {
					return "/usr/bin/" + f, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	for _, tc := range []struct {
		name      string
		workspace string
		dir       string
		home      string
		look      LookPath
		want      Runtime
		err       error
	}{
		{"bun on PATH wins", plain, plain, home, look("bun", "node"), Runtime{Name: "bun", Path: "/usr/bin/bun"}, nil},
		{"bun under ~/.bun", plain, plain, homeBun, look("node"), Runtime{Name: "bun", Path: filepath.Join(homeBun, ".bun/bin/bun")}, nil},
		{"node otherwise", plain, plain, home, look("node"), Runtime{Name: "node", Path: "/usr/bin/node"}, nil},
		{"a bun project without bun runs on node and says so", bunProject, filepath.Join(bunProject, "pkg"), home, look("node"),
			Runtime{Name: "node", Path: "/usr/bin/node", Note: "the project uses bun but bun is not installed; ran on node"}, nil},
		{"nothing installed", plain, plain, home, look(), Runtime{}, ErrNoRuntime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveRuntime(tc.workspace, tc.dir, tc.home, tc.look)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v; want %v", err, tc.err)
			}
			if got != tc.want {
				t.Fatalf("runtime = %+v; want %+v", got, tc.want)
			}
		})
	}
}

func TestTestCommand(t *testing.T) {
	t.Parallel()
	bun := Runtime{Name: "bun", Path: "/usr/bin/bun"}
	node := Runtime{Name: "node", Path: "/usr/bin/node"}
	plain := t.TempDir()
	vitest := t.TempDir()
	packtest.WriteFiles(t, vitest, map[string]string{"package.json": `{"scripts": {"test": "vitest"}}`, "node_modules/.bin/vitest": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(vitest, "node_modules/.bin/vitest"), 0o755); err != nil {
		t.Fatal(err)
	}
	jest := t.TempDir()
	packtest.WriteFiles(t, jest, map[string]string{"package.json": `{"devDependencies": {"jest": "^29"}}`})
	for _, tc := range []struct {
		name    string
		dir     string
		rt      Runtime
		paths   []string
		names   []string
		want    []string
		wantRun string
		err     string
	}{
		{"bun, whole suite", plain, bun, nil, nil, []string{"/usr/bin/bun", "test"}, RunnerBun, ""},
		{"bun, node ids become one -t pattern", plain, bun, []string{"test/a.test.ts"}, []string{"adds", "sub.tracts (x)"},
			[]string{"/usr/bin/bun", "test", "-t", `(adds|sub\.tracts \(x\))`, "test/a.test.ts"}, RunnerBun, ""},
		{"bun, one name", plain, bun, nil, []string{"adds"}, []string{"/usr/bin/bun", "test", "-t", "adds"}, RunnerBun, ""},
		{"node --test with TAP", plain, node, []string{"test"}, []string{"adds"},
			[]string{"/usr/bin/node", "--test", "--test-reporter=tap", "--test-name-pattern=adds", "test"}, RunnerNode, ""},
		{"the project's vitest", vitest, node, []string{"src"}, []string{"adds"},
			[]string{filepath.Join(vitest, "node_modules/.bin/vitest"), "run", "--reporter=verbose", "--reporter=json", "src", "-t", "adds"}, RunnerVitest, ""},
		{"bun ignores the node runners", vitest, bun, nil, nil, []string{"/usr/bin/bun", "test"}, RunnerBun, ""},
		{"jest configured but not installed", jest, node, nil, nil, nil, "", "jest but it is not installed"},
		{"args before the files (bun)", plain, bun, []string{"test/a.test.ts"}, nil,
			[]string{"/usr/bin/bun", "test", "--bail", "test/a.test.ts"}, RunnerBun, ""},
		{"args before the files (node)", plain, node, []string{"test"}, []string{"adds"},
			[]string{"/usr/bin/node", "--test", "--test-reporter=tap", "--test-name-pattern=adds", "--bail", "test"}, RunnerNode, ""},
		{"args before the files (vitest)", vitest, node, []string{"src"}, []string{"adds"},
			[]string{filepath.Join(vitest, "node_modules/.bin/vitest"), "run", "--reporter=verbose", "--reporter=json", "--bail", "src", "-t", "adds"}, RunnerVitest, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if strings.HasPrefix(tc.name, "args") {
				args = []string{"--bail"}
			}
			got, runner, err := TestCommand(tc.dir, tc.dir, tc.rt, tc.paths, tc.names, args...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v; want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" || runner != tc.wantRun {
				t.Fatalf("argv (-want +got):\n%s\nrunner %q", d, runner)
			}
		})
	}
}

func TestParseSummaries(t *testing.T) {
	t.Parallel()
	bunOut := "bun test v1.1.0\n\ntest/a.test.ts:\n(pass) math > adds [0.10ms]\nerror: expect(received).toBe(expected)\n\nExpected: 2\nReceived: 8\n\n(fail) math > subtracts [0.20ms]\n(skip) math > later\n\n 1 pass\n 1 skip\n 1 fail\n 2 expect() calls\nRan 3 tests across 1 files. [12.00ms]\n"
	bunOnlyPass := "bun test v1.1.0\n\n 3 pass\n 3 expect() calls\nRan 3 tests across 1 files. [5.00ms]\n"
	vitestOut := " ❯ src/a.test.ts (3 tests | 1 failed)\n   × math > subtracts 2ms\n FAIL  src/a.test.ts > math > subtracts\nAssertionError: expected 8 to be 2\n\n Test Files  1 failed (1)\n      Tests  1 failed | 1 passed | 1 skipped (3)\n"
	jestOut := "FAIL src/a.test.js\n  ● math › subtracts\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, 1 skipped, 1 passed, 3 total\n"
	for _, tc := range []struct {
		name string
		got  map[string]any
		want map[string]any
	}{
		{"bun", ParseBun(bunOut), map[string]any{"pass": 1, "fail": 1, "skipped": 1, "total": 3, "failures": []map[string]any{
			{"test": "math > subtracts", "type": "fail", "message": "error: expect(received).toBe(expected)\n\nExpected: 2\nReceived: 8"}}}},
		{"bun prints no fail line: fail is absent, not 0", ParseBun(bunOnlyPass), map[string]any{"pass": 3, "total": 3, "failures": []map[string]any{}}},
		{"bun printed nothing", ParseBun("error: could not find bunfig\n"), map[string]any{"failures": []map[string]any{}}},
		{"vitest", ParseVitest(vitestOut), map[string]any{"pass": 1, "fail": 1, "skipped": 1, "total": 3, "failures": []map[string]any{
			{"test": "math > subtracts", "type": "fail", "message": "", "file": "src/a.test.ts"}}}},
		{"jest", ParseJest(jestOut), map[string]any{"pass": 1, "fail": 1, "skipped": 1, "total": 3, "failures": []map[string]any{
			{"test": "math > subtracts", "type": "fail", "message": ""}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, tc.got); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestNodeTestRun(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := packtest.CopyFixture(t, "testdata/nodetest")
	env, _ := packtest.ToolEnv(t, dir)
	got, err := Test(context.Background(), env, call("javascript", dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]any{"is_pass": got["is_pass"], "total": got["total"], "pass": got["pass"], "fail": got["fail"], "skipped": got["skipped"], "timed_out": got["timed_out"], "runner": got["runner"]}
	if d := cmp.Diff(map[string]any{"is_pass": false, "total": 4, "pass": 2, "fail": 1, "skipped": 1, "timed_out": false, "runner": RunnerNode}, counts); d != "" {
		t.Fatalf("counts (-want +got):\n%s\n%s", d, got["output"])
	}
	fs := got["failures"].([]map[string]any)
	if len(fs) != 1 || fs[0]["test"] != "subtracts" || fs[0]["type"] != "fail" || fs[0]["file"] != "test/math.test.js" || !strings.Contains(fs[0]["message"].(string), "8 !== 2") {
		t.Fatalf("failures = %v", fs)
	}

	for _, tc := range []struct {
		name string
		opts map[string]any
		want map[string]any
	}{
		{"a pathless node id", map[string]any{"paths": []any{"::adds"}}, map[string]any{"is_pass": true, "total": 1, "pass": 1, "fail": 0, "skipped": 0}},
		{"a nested test by file and name", map[string]any{"paths": []any{"test/math.test.js::nested passes"}}, map[string]any{"is_pass": true, "total": 1, "pass": 1, "fail": 0, "skipped": 0}},
		{"a file", map[string]any{"paths": []any{"test/math.test.js"}}, map[string]any{"is_pass": false, "total": 4, "pass": 2, "fail": 1, "skipped": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Test(context.Background(), env, call("javascript", dir, tc.opts))
			if err != nil {
				t.Fatal(err)
			}
			counts := map[string]any{"is_pass": got["is_pass"], "total": got["total"], "pass": got["pass"], "fail": got["fail"], "skipped": got["skipped"]}
			if d := cmp.Diff(tc.want, counts); d != "" {
				t.Fatalf("counts (-want +got):\n%s\n%s", d, got["output"])
			}
		})
	}

	miss, err := Test(context.Background(), env, call("javascript", dir, map[string]any{"paths": []any{"::nope"}}))
	if err != nil {
		t.Fatal(err)
	}
	if miss["is_pass"] != false || miss["error"] != "no test matched ::nope" {
		t.Fatalf("unmatched id = %v", miss)
	}
	for _, opts := range []map[string]any{
		{"paths": []any{"missing.test.js"}},
		{"paths": []any{"../outside.test.js"}},
		{"filter": "adds"},
		{"paths": []any{"test/math.test.js::"}},
	} {
		if _, err := Test(context.Background(), env, call("javascript", dir, opts)); !errors.Is(err, ErrBadArgs) {
			t.Fatalf("%v: err = %v; want a refusal", opts, err)
		}
	}
}

func TestFormatRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"package.json": "{}", "a.js": "const  a=1\n"})
	env, _ := packtest.ToolEnv(t, dir)
	_, err := Format(context.Background(), env, call("javascript", dir, map[string]any{"code": "const  a=1", "paths": []any{"a.js"}}))
	if !errors.Is(err, ErrBadArgs) {
		t.Fatalf("code and paths: %v", err)
	}
	_, err = Format(context.Background(), env, call("javascript", dir, map[string]any{"paths": []any{"a.js"}}))
	if !errors.Is(err, ErrNoFormatter) || !strings.Contains(err.Error(), "npm install --save-dev prettier") {
		t.Fatalf("without prettier: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.js")); string(b) != "const  a=1\n" {
		t.Fatal("a refused format changed a file")
	}
}

// TestFormatPrettier runs the real prettier of a node_modules directory:
// VIS_TEST_PRETTIER's, else the one scripts/deps.sh test installs under
// tools/js-fmt-lint; a project naming no formatter uses the prettier it has.
func TestFormatPrettier(t *testing.T) {
	t.Parallel()
	nm := os.Getenv("VIS_TEST_PRETTIER")
	if nm == "" {
		nm = filepath.Dir(filepath.Dir(jsTool(t, "prettier")))
		if filepath.Base(nm) != "node_modules" {
			t.Skipf("prettier found at %s is not in a node_modules directory; set VIS_TEST_PRETTIER", nm)
		}
	}
	needNode(t)
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"package.json": "{}", "src/a.ts": "const  a:number=1\n", "src/b.js": "export const b = 2;\n"})
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	env, _ := packtest.ToolEnv(t, dir)
	snip, err := Format(context.Background(), env, call("typescript", dir, map[string]any{"code": "const  a:number=1"}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"changed": true, "delta": len("const a: number = 1;\n") - len("const  a:number=1"), "chars": len("const a: number = 1;\n"), "formatter": "prettier", "why": "the project names no formatter; prettier is installed in its node_modules"}, snip.Value()); d != "" {
		t.Fatalf("snippet (-want +got):\n%s", d)
	}
	got, err := Format(context.Background(), env, call("typescript", dir, map[string]any{"paths": []any{"src"}}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"changed": 1, "formatter": "prettier", "why": "the project names no formatter; prettier is installed in its node_modules", "files": []any{map[string]any{"file": "src/a.ts", "changed": true, "delta": 3}}}
	if d := cmp.Diff(want, got.Value()); d != "" {
		t.Fatalf("paths (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src/a.ts")); string(b) != "const a: number = 1;\n" {
		t.Fatalf("a.ts = %q", b)
	}
	// args reach prettier (before the files), for a snippet and for files.
	snip, err = Format(context.Background(), env, call("javascript", dir, map[string]any{"code": `const s = "x";`, "args": []any{"--single-quote"}}))
	if err != nil || !snip.Changed || snip.Delta != 1 {
		t.Fatalf("snippet with --single-quote = %+v, %v; want the quotes swapped and a newline added", snip, err)
	}
	packtest.WriteFiles(t, dir, map[string]string{"src/c.js": "export const c = \"c\";\n"})
	got, err = Format(context.Background(), env, call("javascript", dir, map[string]any{"paths": []any{"src/c.js"}, "args": []any{"--single-quote"}}))
	if err != nil || len(got.Files) != 1 {
		t.Fatalf("files with --single-quote = %+v, %v", got, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src/c.js")); string(b) != "export const c = 'c';\n" {
		t.Fatalf("c.js = %q", b)
	}
}

// TestNodeTestEnvArgs: a run_tests call's env reaches the test process and
// its args reach node --test's command line.
func TestNodeTestEnvArgs(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"name": "envargs"}`,
		"test/env.test.js": `const { test } = require("node:test");
const assert = require("node:assert");
test("sees env", () => { assert.strictEqual(process.env.VIS_JS_MARK, "marked"); });
test("other", () => {});
`,
	})
	env, _ := packtest.ToolEnv(t, dir)
	counts := func(r map[string]any) map[string]any {
		return map[string]any{"is_pass": r["is_pass"], "total": r["total"], "pass": r["pass"], "fail": r["fail"]}
	}
	got, err := Test(context.Background(), env, call("javascript", dir, map[string]any{
		"env": map[string]any{"VIS_JS_MARK": "marked"}, "args": []any{"--test-name-pattern=sees env"}}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"is_pass": true, "total": 1, "pass": 1, "fail": 0}, counts(got)); d != "" {
		t.Fatalf("env and args (-want +got):\n%s\n%s", d, got["output"])
	}
	got, err = Test(context.Background(), env, call("javascript", dir, map[string]any{"args": []any{"--test-name-pattern=sees env"}}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"is_pass": false, "total": 1, "pass": 0, "fail": 1}, counts(got)); d != "" {
		t.Fatalf("args without env (-want +got):\n%s\n%s", d, got["output"])
	}
	if _, err := Test(context.Background(), env, call("javascript", dir, map[string]any{"env": map[string]any{"N": 1}})); !errors.Is(err, ErrBadArgs) {
		t.Fatalf("a number in env: %v", err)
	}
}
