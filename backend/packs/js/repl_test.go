package js

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// startREPL starts a node REPL in a fresh project and returns its env and id.
func startREPL(t *testing.T) (ext.ToolEnv, *packtest.Resources, string, string) {
	t.Helper()
	needNode(t)
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"package.json": "{}", "lib.js": "exports.twice = (x) => 2 * x;\n"})
	env, res := packtest.ToolEnv(t, dir)
	got, err := Repl(context.Background(), env, "start", call("javascript", dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got["result"] != "started" || got["status"] != "up" || got["tool"] != "node" {
		t.Fatalf("start = %v", got)
	}
	id := got["id"].(string)
	if id != ReplID(dir, "") || !strings.HasPrefix(id, "jsrepl:") {
		t.Fatalf("id = %q", id)
	}
	return env, res, dir, id
}

func eval(t *testing.T, env ext.ToolEnv, dir string, opts map[string]any) map[string]any {
	t.Helper()
	got, err := Eval(context.Background(), env, call("javascript", dir, opts))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// pick keeps the keys a user reads.
func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

func TestREPLEvaluations(t *testing.T) {
	t.Parallel()
	env, _, dir, id := startREPL(t)
	keys := []string{"ok", "out", "err", "value", "data", "type", "exc"}
	for _, tc := range []struct {
		name string
		code string
		want map[string]any
	}{
		{"declarations persist", "const a = 20\nlet b = 22\nfunction add(x, y) { return x + y }", map[string]any{"ok": true, "out": "", "err": "", "value": nil, "data": nil, "type": nil, "exc": nil}},
		{"...into the next eval", "add(a, b)", map[string]any{"ok": true, "out": "", "err": "", "value": "42", "data": int64(42), "type": "number", "exc": nil}},
		{"redeclaring is allowed", "const a = 1; a + b", map[string]any{"ok": true, "out": "", "err": "", "value": "23", "data": int64(23), "type": "number", "exc": nil}},
		{"console output is captured", "console.log('hi', {x: 1}); console.error('oops'); 'done'", map[string]any{"ok": true, "out": "hi { x: 1 }\n", "err": "oops\n", "value": "'done'", "data": "done", "type": "string", "exc": nil}},
		{"top-level await", "const r = await new Promise((res) => setTimeout(() => res(7), 5))\nr * 6", map[string]any{"ok": true, "out": "", "err": "", "value": "42", "data": int64(42), "type": "number", "exc": nil}},
		{"classes and objects come back as data", "class P { constructor() { this.q = [1, 'two'] } }\nnew P()", map[string]any{"ok": true, "out": "", "err": "", "value": "P { q: [ 1, 'two' ] }", "data": map[string]any{"__type__": "P", "q": []any{int64(1), "two"}}, "type": "P", "exc": nil}},
		{"require and import resolve in the project", "import { twice } from './lib.js'\nconst lib = require('./lib.js')\ntwice(lib.twice(5))", map[string]any{"ok": true, "out": "", "err": "", "value": "20", "data": int64(20), "type": "number", "exc": nil}},
		{"a multi-line chain is one statement", "[1, 2, 3]\n  .map((x) => x * 2)\n  .reduce((s, x) => s + x)", map[string]any{"ok": true, "out": "", "err": "", "value": "12", "data": int64(12), "type": "number", "exc": nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := eval(t, env, dir, map[string]any{"code": tc.code})
			if d := cmp.Diff(tc.want, pick(got, keys...)); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
			if got["repl"] != id || got["code"] != tc.code {
				t.Fatalf("repl %v code %v", got["repl"], got["code"])
			}
		})
	}

	exc := eval(t, env, dir, map[string]any{"code": "function boom() { throw new TypeError('boom') }\nboom()"})
	if exc["ok"] != false || !strings.HasPrefix(exc["exc"].(string), "TypeError: boom") || strings.Contains(exc["exc"].(string), "node:vm") {
		t.Fatalf("exception = %v", exc)
	}
	syn := eval(t, env, dir, map[string]any{"code": "const = 1"})
	if syn["ok"] != false || !strings.Contains(syn["exc"].(string), "SyntaxError") {
		t.Fatalf("syntax error = %v", syn)
	}
	if after := eval(t, env, dir, map[string]any{"code": "a + b"}); after["data"] != int64(23) {
		t.Fatalf("state after errors = %v", after)
	}
}

// Integers stay integers (BigInts exactly, at any size), fractions floats.
func TestREPLValuesKeepTheirTypes(t *testing.T) {
	t.Parallel()
	env, res, dir, id := startREPL(t)
	pid := int64(mustPID(t, res, id))
	two70, _ := new(big.Int).SetString("1180591620717411303424", 10)
	for _, tc := range []struct {
		code string
		want any
		typ  string
	}{
		{"[process.pid, 42]", []any{pid, int64(42)}, "Array"},
		{"1.5", 1.5, "number"},
		{"[1, 2.5, 9007199254740993n]", []any{int64(1), 2.5, int64(9007199254740993)}, "Array"},
		{"2n ** 70n", two70, "bigint"},
		{"-(2n ** 70n)", new(big.Int).Neg(two70), "bigint"},
		{"({big: 12345678901234567890n, s: '" + `"@vis-bigint-0:1"` + "', m: new Map([[1n, 2]])})",
			map[string]any{"big": mustBig(t, "12345678901234567890"), "s": `"@vis-bigint-0:1"`,
				"m": map[string]any{"__type__": "Map", "entries": []any{[]any{int64(1), int64(2)}}}}, "Object"},
		{"2 ** 70", 1180591620717411303424.0, "number"},
	} {
		got := eval(t, env, dir, map[string]any{"code": tc.code})
		if d := cmp.Diff(tc.want, got["data"], cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })); d != "" || got["ok"] != true || got["type"] != tc.typ {
			t.Errorf("%s: data (-want +got):\n%s\n%v", tc.code, d, got)
		}
	}
}

func mustBig(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatal(s)
	}
	return n
}

func TestREPLTimeouts(t *testing.T) {
	env, res, dir, id := startREPL(t)
	eval(t, env, dir, map[string]any{"code": "const kept = 'still here'"})
	pid := mustPID(t, res, id)
	for _, tc := range []struct {
		name string
		code string
	}{
		{"a promise that never settles", "await new Promise(() => {})"},
		{"a synchronous busy loop", "while (true) {}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := eval(t, env, dir, map[string]any{"code": tc.code, "timeout_ms": 300})
			if got["timed_out"] != true || got["ok"] != false {
				t.Fatalf("hung eval = %v", got)
			}
			if _, restarted := got["restarted"]; restarted {
				t.Fatalf("the REPL was restarted; it should have stayed usable: %v", got)
			}
			if after := eval(t, env, dir, map[string]any{"code": "kept"}); after["data"] != "still here" {
				t.Fatalf("after the timeout = %v", after)
			}
			if mustPID(t, res, id) != pid {
				t.Fatal("the REPL process changed")
			}
		})
	}
}

func TestREPLHungAfterAwaitIsRestarted(t *testing.T) {
	env, res, dir, id := startREPL(t)
	eval(t, env, dir, map[string]any{"code": "const lost = 1"})
	pid := mustPID(t, res, id)
	got := eval(t, env, dir, map[string]any{"code": "await null; while (true) {}", "timeout_ms": 200})
	if got["timed_out"] != true || got["restarted"] != true {
		t.Fatalf("hung eval = %v", got)
	}
	if packtest.GroupAlive(pid) {
		t.Fatal("the hung REPL's process group survived the restart")
	}
	newPID := mustPID(t, res, id)
	if newPID == pid || !packtest.Alive(newPID) {
		t.Fatalf("pid %d → %d", pid, newPID)
	}
	after := eval(t, env, dir, map[string]any{"code": "typeof lost"})
	if after["data"] != "undefined" {
		t.Fatalf("state after a restart = %v", after)
	}
}

func mustPID(t *testing.T, res *packtest.Resources, id string) int {
	t.Helper()
	r, ok := res.Lookup("s-test", id)
	if !ok || r.Info.PID == 0 {
		t.Fatalf("resource %s not registered", id)
	}
	return r.Info.PID
}

func TestREPLLifecycle(t *testing.T) {
	t.Parallel()
	env, res, dir, id := startREPL(t)
	ctx := context.Background()
	pid := mustPID(t, res, id)

	infos := res.List(ctx, "s-test")
	if len(infos) != 1 || infos[0].Kind != "repl" || infos[0].Language != "javascript" || infos[0].Status != "up" || !infos[0].Managed || infos[0].Log == "" {
		t.Fatalf("registry = %+v", infos)
	}
	again, err := Repl(ctx, env, "start", call("javascript", dir, nil))
	if err != nil || again["result"] != "already-running" || again["pid"] != pid {
		t.Fatalf("second start = %v, %v", again, err)
	}
	st, err := Repl(ctx, env, "status", call("javascript", dir, nil))
	if err != nil || st["status"] != "up" || st["id"] != id || st["running"] != true {
		t.Fatalf("status = %v, %v", st, err)
	}
	if _, err := Repl(ctx, env, "connect", call("javascript", dir, map[string]any{"port": 7888})); !errors.Is(err, ErrConnect) {
		t.Fatalf("connect = %v", err)
	}
	if _, err := Repl(ctx, env, "start", call("javascript", dir, map[string]any{"port": 7888})); !errors.Is(err, ErrBadArgs) {
		t.Fatalf("start with a port = %v", err)
	}

	// A labelled second REPL with its own env.
	w, err := Repl(ctx, env, "start", ext.Call{Language: "typescript", Cwd: dir, ID: "worker", Opts: map[string]any{"env": map[string]any{"VIS_GREETING": "hello"}}})
	if err != nil || w["result"] != "started" || w["id"] != id+"#worker" {
		t.Fatalf("labelled start = %v, %v", w, err)
	}
	got, err := Eval(ctx, env, ext.Call{Language: "typescript", Cwd: dir, ID: "worker", Opts: map[string]any{"code": "process.env.VIS_GREETING"}})
	if err != nil || got["data"] != "hello" || got["repl"] != id+"#worker" {
		t.Fatalf("eval on the worker = %v, %v", got, err)
	}
	if _, err := Repl(ctx, env, "start", ext.Call{Language: "typescript", Cwd: dir, ID: "worker", Opts: map[string]any{"env": map[string]any{"VIS_GREETING": "bye"}}}); !errors.Is(err, ErrBadArgs) {
		t.Fatalf("restart with another env = %v", err)
	}
	if r, ok := res.Lookup("s-test", id+"#worker"); !ok || r.Info.Language != "typescript" {
		t.Fatalf("worker resource = %+v", r.Info)
	}
	wpid := mustPID(t, res, id+"#worker")

	stop, err := Repl(ctx, env, "stop", call("javascript", dir, nil))
	if err != nil || stop["result"] != "stopped" || stop["id"] != id {
		t.Fatalf("stop = %v, %v", stop, err)
	}
	if packtest.GroupAlive(pid) {
		t.Fatal("the stopped REPL's process group is alive")
	}
	if !packtest.Alive(wpid) {
		t.Fatal("stopping one REPL stopped the other")
	}
	// With one REPL left, a bare eval finds it.
	if got := eval(t, env, dir, map[string]any{"code": "1 + 1"}); got["repl"] != id+"#worker" {
		t.Fatalf("bare eval went to %v", got["repl"])
	}
	if _, err := res.Stop(ctx, "s-test", id+"#worker"); err != nil {
		t.Fatal(err)
	}
	if packtest.GroupAlive(wpid) {
		t.Fatal("the worker's process group is alive after stop")
	}
	if _, err := Eval(ctx, env, call("javascript", dir, map[string]any{"code": "1"})); !errors.Is(err, ErrNoREPL) || !strings.Contains(err.Error(), `repl_start("javascript")`) {
		t.Fatalf("eval with no REPL = %v", err)
	}
	st, err = Repl(ctx, env, "status", call("javascript", dir, nil))
	if err != nil || st["status"] != "down" || st["running"] != false {
		t.Fatalf("status after stop = %v, %v", st, err)
	}
	if s, err := Repl(ctx, env, "stop", call("javascript", dir, nil)); err != nil || s["result"] != "not-running" {
		t.Fatalf("stop again = %v, %v", s, err)
	}
}

func TestREPLDiesAndRestarts(t *testing.T) {
	t.Parallel()
	env, res, dir, id := startREPL(t)
	ctx := context.Background()
	eval(t, env, dir, map[string]any{"code": "const x = 1"})
	pid := mustPID(t, res, id)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r, _ := res.Lookup("s-test", id)
	waitDown(t, r)
	if _, err := Eval(ctx, env, call("javascript", dir, map[string]any{"code": "x"})); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Fatalf("eval on a dead REPL = %v", err)
	}
	if logs, _ := r.Logs(5); !strings.Contains(logs, "REPL exited") {
		t.Fatalf("logs = %q", logs)
	}
	if err := r.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if newPID := mustPID(t, res, id); newPID == pid || !packtest.Alive(newPID) {
		t.Fatalf("after a restart the registry has pid %d (was %d)", newPID, pid)
	}
	if got := eval(t, env, dir, map[string]any{"code": "typeof x"}); got["data"] != "undefined" || got["ok"] != true {
		t.Fatalf("after restart = %v", got)
	}
}

// waitDown polls the health probe until the killed child has been reaped.
func waitDown(t *testing.T, r ext.Resource) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if r.Health(context.Background()) == "down" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("health never said down")
}

func TestEvalRefusals(t *testing.T) {
	t.Parallel()
	needNode(t)
	dir := t.TempDir()
	env, _ := packtest.ToolEnv(t, dir)
	for _, opts := range []map[string]any{{}, {"code": "  "}, {"code": "1", "timeout_ms": "soon"}, {"code": "1", "timeout_ms": -1}} {
		if _, err := Eval(context.Background(), env, call("javascript", dir, opts)); !errors.Is(err, ErrBadArgs) {
			t.Fatalf("%v: err = %v", opts, err)
		}
	}
	if _, err := Repl(context.Background(), env, "start", call("javascript", dir, map[string]any{"env": map[string]any{"A": 1}})); !errors.Is(err, ErrBadArgs) {
		t.Fatalf("non-string env: %v", err)
	}
	if l := env.Resources.List(context.Background(), "s-test"); len(l) != 0 {
		t.Fatalf("a refused call started %v", l)
	}
}

// repoPath is rel under the repository root (this package is backend/packs/js).
func repoPath(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tsProject is a project whose node_modules is modules (a real install
// elsewhere, linked in; "" for none), with a REPL started for TypeScript.
func tsProject(t *testing.T, modules string) (ext.ToolEnv, string) {
	t.Helper()
	needNode(t)
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"package.json": "{}", "lib.js": "exports.twice = (x) => 2 * x;\n"})
	if modules != "" {
		if _, err := os.Stat(modules); err != nil {
			t.Fatalf("%s is not installed (scripts/deps.sh test installs it): %v", modules, err)
		}
		if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
	env, _ := packtest.ToolEnv(t, dir)
	if got, err := Repl(context.Background(), env, "start", call("typescript", dir, nil)); err != nil || got["result"] != "started" {
		t.Fatalf("start = %v, %v", got, err)
	}
	return env, dir
}

func nodeVersion(t *testing.T) (string, int, int) {
	t.Helper()
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(out))
	var major, minor int
	fmt.Sscanf(v, "v%d.%d", &major, &minor)
	return v, major, minor
}

// nodeStrips reports whether node removes types itself in a REPL
// (module.stripTypeScriptTypes: Node 22.13+, 23.2+).
func nodeStrips(major, minor int) bool {
	return major > 23 || (major == 23 && minor >= 2) || (major == 22 && minor >= 13)
}

// TypeScript runs on the Node the project has: stripped by node where it
// can, else by the project's tsx or typescript; plain JavaScript is
// untouched.
func TestREPLTypeScript(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, modules string }{
		{"tsx", repoPath(t, "tools/jsrepl/node_modules")},
		{"typescript", repoPath(t, "frontend/node_modules")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, dir := tsProject(t, tc.modules)
			ts := func(code string) map[string]any {
				t.Helper()
				got, err := Eval(context.Background(), env, call("typescript", dir, map[string]any{"code": code}))
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			keys := []string{"ok", "data", "type", "exc"}
			for _, c := range []struct {
				code string
				want map[string]any
			}{
				{"const n: number = 40 + 2; n", map[string]any{"ok": true, "data": int64(42), "type": "number", "exc": nil}},
				{"interface P { x: number }\nfunction f<T extends P>(p: T): number { return p.x * n }\nf({ x: 2 } as P)", map[string]any{"ok": true, "data": int64(84), "type": "number", "exc": nil}},
				{"import { twice } from './lib.js'\nconst k: number = twice(n)\nk", map[string]any{"ok": true, "data": int64(84), "type": "number", "exc": nil}},
			} {
				if d := cmp.Diff(c.want, pick(ts(c.code), keys...)); d != "" {
					t.Errorf("%q (-want +got):\n%s", c.code, d)
				}
			}
			want := "SyntaxError: line 1:7"
			if _, major, minor := nodeVersion(t); nodeStrips(major, minor) {
				want = "" // node's own wording
			}
			if got := ts("const = 3"); got["ok"] != false || !strings.Contains(got["exc"].(string), want) {
				t.Errorf("syntax error = %v", got)
			}
			js := eval(t, env, dir, map[string]any{"code": "n + 1"})
			if js["data"] != int64(43) || js["code"] != "n + 1" {
				t.Errorf("javascript after typescript = %v", js)
			}
		})
	}
}

// Without a way to remove types the answer says which Node runs, that it
// cannot strip types, and what to install; JavaScript, and TypeScript that
// has no type syntax, still run.
func TestREPLTypeScriptWithoutTranspiler(t *testing.T) {
	t.Parallel()
	env, dir := tsProject(t, "")
	v, major, minor := nodeVersion(t)
	got, err := Eval(context.Background(), env, call("typescript", dir, map[string]any{"code": "const n: number = 40 + 2; n"}))
	if err != nil {
		t.Fatal(err)
	}
	if nodeStrips(major, minor) {
		if got["data"] != int64(42) {
			t.Fatalf("node %s strips types, yet %v", v, got)
		}
		return
	}
	exc, _ := got["exc"].(string)
	if got["ok"] != false || !strings.Contains(exc, "node "+v+" cannot strip types") || !strings.Contains(exc, "npm i -D tsx") {
		t.Fatalf("answer = %v", got)
	}
	if js := eval(t, env, dir, map[string]any{"code": "40 + 2"}); js["data"] != int64(42) {
		t.Fatalf("javascript = %v", js)
	}
	// TypeScript without type syntax is JavaScript, and runs as such.
	plain, err := Eval(context.Background(), env, call("typescript", dir, map[string]any{"code": "const m = 40 + 2; m"}))
	if err != nil || plain["data"] != int64(42) {
		t.Fatalf("type-free typescript = %v, %v", plain, err)
	}
}
