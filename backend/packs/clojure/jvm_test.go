package clojure

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// needJVM skips when Debian's clojure + libnrepl-clojure are absent
// (scripts/deps.sh test installs them).
func needJVM(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed (scripts/deps.sh test installs clojure and libnrepl-clojure)")
	}
	for _, j := range debianJars {
		if _, err := os.Stat(filepath.Join(DefaultJarDir, j)); err != nil {
			t.Skipf("%s is absent (scripts/deps.sh test installs clojure and libnrepl-clojure)", j)
		}
	}
}

// debianPack uses Debian's plain jars even where an official CLI exists,
// so the tests see the same launcher everywhere.
func debianPack() *Pack {
	return New(Options{OfficialCLI: func(context.Context) bool { return false }, StartTimeout: 90 * time.Second})
}

type facade struct {
	t *testing.T
	f *langtools.Facade
}

func newFacade(t *testing.T, p *Pack, dir string, env ext.ToolEnv) facade {
	reg := ext.NewRegistry()
	if err := reg.Register(p.Extension()); err != nil {
		t.Fatal(err)
	}
	return facade{t, langtools.New(reg.Active(packtest.Environment(dir)), env, nil)}
}

func (f facade) call(verb string, args ...any) map[string]any {
	f.t.Helper()
	out, err := f.f.Call(context.Background(), verb, args, nil)
	if err != nil {
		f.t.Fatalf("%s%v: %v", verb, args, err)
	}
	return out
}

func (f facade) fails(verb string, want string, args ...any) {
	f.t.Helper()
	out, err := f.f.Call(context.Background(), verb, args, nil)
	if err == nil || !strings.Contains(err.Error(), want) {
		f.t.Fatalf("%s%v = %v, %v; want an error containing %q", verb, args, out, err, want)
	}
}

func failureNames(res map[string]any) []string {
	var out []string
	for _, f := range res["failures"].([]any) {
		m := f.(map[string]any)
		out = append(out, m["test"].(string)+":"+m["type"].(string))
	}
	return out
}

// TestManagedREPL drives a real nREPL server (Debian's launcher) through the
// facade the model uses: start, evaluate, persist, interrupt, run tests in
// the REPL, the ctx contribution (default rule, unresponsive REPL), stop.
func TestManagedREPL(t *testing.T) {
	t.Parallel()
	needJVM(t)
	dir := packtest.CopyFixture(t, "testdata/fixture")
	p := debianPack()
	t.Cleanup(p.Close)
	env, reg := sessionEnv(t, dir)
	f := newFacade(t, p, dir, env)
	id := ManagedID(dir)
	ctx := context.Background()

	start := time.Now()
	// The call's env reaches the REPL's process (checked in "env" below).
	out := f.call("repl_start", "clojure", map[string]any{"env": map[string]any{"VIS_REPL_MARK": "marked é"}})
	t.Logf("repl_start took %s", time.Since(start))
	if out["result"] != "started" || out["id"] != id || out["status"] != "up" || out["tool"] != "java" {
		t.Fatalf("repl_start = %v", out)
	}
	pid := out["pid"].(int)
	if again := f.call("repl_start", "clojure"); again["result"] != "already-running" || again["pid"] != pid {
		t.Fatalf("second repl_start = %v", again)
	}

	t.Run("eval", func(t *testing.T) {
		f := facade{t, f.f}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "(+ 1 2)"}); r["value"] != "3" || r["repl"] != id {
			t.Fatalf("(+ 1 2) = %v", r)
		}
		// A stale id: refused alone, the call's cwd decides when it names one.
		f.fails("repl_eval", "no Clojure REPL with id", "clojure", map[string]any{"code": "(+ 1 2)", "id": "nrepl:~/gone"})
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "(+ 1 2)", "id": "nrepl:~/gone", "cwd": "."}); r["value"] != "3" || r["repl"] != id || r["note"] == nil {
			t.Fatalf("a stale id with cwd = %v", r)
		}
		f.call("repl_eval", "clojure", map[string]any{"code": "(def x 41)"})
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "(inc x)"}); r["value"] != "42" {
			t.Fatalf("(inc x) after (def x 41) = %v", r)
		}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "*1"}); r["value"] != "42" {
			t.Fatalf("*1 = %v", r)
		}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": `(do (println "hi") :ok)`}); r["out"] != "hi\n" || r["value"] != ":ok" {
			t.Fatalf("println = %v", r)
		}
		r := f.call("repl_eval", "clojure", map[string]any{"code": "(/ 1 0)"})
		if r["ex"] != "java.lang.ArithmeticException" || !strings.Contains(r["error_message"].(string), "Divide by zero") {
			t.Fatalf("(/ 1 0) = %v", r)
		}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "(calc.core/add 2 3)", "ns": "user"}); r["ex"] == nil {
			// calc.core is not loaded yet: the error names the namespace
			t.Logf("calc.core loaded already: %v", r["value"])
		}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "(do (require 'calc.core) (calc.core/add 2 3))"}); r["value"] != "5" {
			t.Fatalf("require from src/ = %v", r)
		}
	})

	t.Run("env", func(t *testing.T) {
		f := facade{t, f.f}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": `(System/getenv "VIS_REPL_MARK")`}); r["value"] != `"marked é"` {
			t.Fatalf(`(System/getenv "VIS_REPL_MARK") = %v, want the value repl_start's env gave`, r)
		}
	})

	t.Run("interrupt", func(t *testing.T) {
		f := facade{t, f.f}
		r := f.call("repl_eval", "clojure", map[string]any{"code": "(Thread/sleep 60000)", "timeout_ms": int64(1000)})
		if r["timed_out"] != true {
			t.Fatalf("a 60 s sleep with timeout_ms 1000 = %v", r)
		}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "(+ 1 2)"}); r["value"] != "3" {
			t.Fatalf("after the interrupt (+ 1 2) = %v", r)
		}
	})

	t.Run("run_tests in the REPL", func(t *testing.T) {
		f := facade{t, f.f}
		r := f.call("run_tests", "clojure")
		if r["mode"] != "repl" || r["runner"] != id || r["is_pass"] != false {
			t.Fatalf("full suite = %v", r)
		}
		got := map[string]any{"total": r["total"], "pass": r["pass"], "fail": r["fail"], "errored": r["errored"]}
		if d := cmp.Diff(map[string]any{"total": 5, "pass": 3, "fail": 1, "errored": 1}, got); d != "" {
			t.Errorf("counts (-want +got):\n%s\noutput: %s", d, r["output"])
		}
		if d := cmp.Diff([]string{"broken-test:fail", "div-zero-test:error"}, failureNames(r)); d != "" {
			t.Errorf("failures (-want +got):\n%s", d)
		}
		for _, fr := range r["failures"].([]any) {
			m := fr.(map[string]any)
			if !strings.HasPrefix(m["file"].(string), "test/calc/") {
				t.Errorf("failure file %q, want it relative to the project", m["file"])
			}
			if m["test"] == "broken-test" && !strings.Contains(m["message"].(string), "two and two") {
				t.Errorf("failure message %q lacks the assertion's message", m["message"])
			}
		}
		r = f.call("run_tests", "clojure", map[string]any{"paths": []any{"test/calc/core_test.clj::add-test"}})
		if r["is_pass"] != true || r["total"] != 1 || r["pass"] != 1 || r["target"] != "test/calc/core_test.clj::add-test" {
			t.Fatalf("one node id = %v", r)
		}
		r = f.call("run_tests", "clojure", map[string]any{"paths": []any{"src/calc/core.clj::add"}})
		if r["is_pass"] != true || r["total"] != 1 {
			t.Fatalf("a source var's node id runs its -test var: %v", r)
		}
		r = f.call("run_tests", "clojure", map[string]any{"include": []any{"slow"}})
		if r["total"] != 1 || r["skipped"] != 4 || r["is_pass"] != true {
			t.Fatalf("include slow = %v", r)
		}
		r = f.call("run_tests", "clojure", map[string]any{"paths": []any{"::nope-test"}})
		if msg, _ := r["error"].(string); !strings.Contains(msg, "no test var matched") || r["is_pass"] != false {
			t.Fatalf("a node id matching nothing = %v", r)
		}
		f.fails("run_tests", "cannot apply aliases", "clojure", map[string]any{"aliases": []any{"test"}})
		f.fails("run_tests", "cannot apply env or args", "clojure", map[string]any{"env": map[string]any{"VIS_CLJ_MARK": "marked"}})
	})

	t.Run("ctx contribution", func(t *testing.T) {
		wenv := ext.Environment{SessionID: "s1", Workspace: dir}
		n := nreplSlice(t, must(p.Ctx(WithTurn(ctx, "t1"), wenv)))
		if n["default"] != id {
			t.Errorf("default = %v, want the single REPL %s", n["default"], id)
		}
		e := n["repls"].([]any)[0].(map[string]any)
		vs, _ := e["versions"].(map[string]any)
		if vs["clojure"] == nil || vs["nrepl"] == nil {
			t.Errorf("versions = %v", e["versions"])
		}
		delete(e, "versions")
		want := map[string]any{"id": id, "dir": tilde(dir), "port": out["port"], "status": "up", "managed": true,
			"host": "127.0.0.1", "tool": "java", "aliases": []any{}, "dialect": "clj"}
		if d := cmp.Diff(want, e); d != "" {
			t.Errorf("repl entry (-want +got):\n%s", d)
		}
		infos := reg.Snapshot("s1")
		if len(infos) != 1 || infos[0].Kind != "nrepl" || infos[0].Status != "up" || infos[0].Port != out["port"] || infos[0].Log == "" {
			t.Errorf("registry mirror = %+v", infos)
		}
		if logs, err := reg.Logs("s1", id, 50); err != nil || !strings.Contains(logs, "nrepl.cmdline") {
			t.Errorf("logs = %q, %v", logs, err)
		}

		// A stopped (SIGSTOP) server: the eval verdict wins; describe's
		// metadata still rides along.
		stopGroup(t, pid)
		n = nreplSlice(t, must(p.Ctx(WithTurn(ctx, "t2"), wenv)))
		_ = syscall.Kill(-pid, syscall.SIGCONT)
		e = n["repls"].([]any)[0].(map[string]any)
		if e["status"] != "unresponsive" || e["form"] != "(+ 1 1)" || !strings.Contains(e["hint"].(string), "repl_stop") || e["versions"] == nil {
			t.Errorf("unresponsive entry = %v", e)
		}
		if infos := reg.Snapshot("s1"); len(infos) != 1 || infos[0].Status != "unresponsive" || infos[0].Detail["form"] != "(+ 1 1)" {
			t.Errorf("registry after SIGSTOP = %+v", infos)
		}
		// Back up on the next turn.
		deadline := time.Now().Add(30 * time.Second)
		for turn := 3; ; turn++ {
			n = nreplSlice(t, must(p.Ctx(WithTurn(ctx, fmt.Sprintf("t%d", turn)), wenv)))
			if e = n["repls"].([]any)[0].(map[string]any); e["status"] == "up" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("still %v after SIGCONT", e)
			}
		}
		if _, ok := e["form"]; ok {
			t.Errorf("an up REPL carries form/hint: %v", e)
		}
		// Between turns only the registry probes (the window's list, its
		// ticker): its verdict brings the form and hint too.
		stopGroup(t, pid)
		infos = reg.List(ctx, "s1")
		_ = syscall.Kill(-pid, syscall.SIGCONT)
		if len(infos) != 1 || infos[0].Status != "unresponsive" || infos[0].Detail["form"] != "(+ 1 1)" || infos[0].Detail["hint"] == nil {
			t.Errorf("registry list of a frozen REPL = %+v", infos)
		}
		for i := 0; i < 100; i++ {
			if infos = reg.List(ctx, "s1"); len(infos) == 1 && infos[0].Status == "up" {
				break
			}
		}
		if len(infos) != 1 || infos[0].Status != "up" || infos[0].Detail["form"] != nil {
			t.Errorf("registry list after SIGCONT = %+v", infos)
		}
	})

	t.Run("run_tests falls back to a clean JVM when the REPL is wedged", func(t *testing.T) {
		f := facade{t, f.f}
		stopGroup(t, pid)
		r := f.call("run_tests", "clojure", map[string]any{"ns": "calc.other-test/div-test"})
		_ = syscall.Kill(-pid, syscall.SIGCONT)
		if r["mode"] != "cli" || r["recovered"] != true || r["repl_unusable"] != true || r["is_pass"] != true {
			t.Fatalf("run_tests with a stopped REPL = %v", r)
		}
	})

	t.Run("status", func(t *testing.T) {
		f := facade{t, f.f}
		st := f.call("repl_status", "clojure")
		rs := st["repls"].([]any)
		if st["running"] != true || len(rs) != 1 || rs[0].(map[string]any)["id"] != id || st["launcher"] != "java" {
			t.Fatalf("repl_status = %v", st)
		}
	})

	t.Run("restart from the registry", func(t *testing.T) {
		if err := reg.Restart(ctx, "s1", id); err != nil {
			t.Fatal(err)
		}
		if packtest.GroupAlive(pid) {
			t.Errorf("the old process group %d survived a restart", pid)
		}
		r, ok := p.get("s1", id)
		if !ok || r.pid() == pid || r.pid() == 0 {
			t.Fatalf("after restart: %v %v", ok, r)
		}
		pid = r.pid()
		f := facade{t, f.f}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": "(+ 1 2)"}); r["value"] != "3" {
			t.Fatalf("after restart (+ 1 2) = %v", r)
		}
		if r := f.call("repl_eval", "clojure", map[string]any{"code": `(System/getenv "VIS_REPL_MARK")`}); r["value"] != `"marked é"` {
			t.Fatalf("after restart the env repl_start gave is %v", r)
		}
		if infos := reg.Snapshot("s1"); len(infos) != 1 || infos[0].PID != pid {
			t.Errorf("registry after restart = %+v", infos)
		}
	})

	st := f.call("repl_stop", id)
	if st["result"] != "stopped" {
		t.Fatalf("repl_stop = %v", st)
	}
	for i := 0; packtest.GroupAlive(pid) && i < 50; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if packtest.GroupAlive(pid) {
		t.Fatalf("the nREPL process group %d survived repl_stop", pid)
	}
	n := nreplSlice(t, must(p.Ctx(ctx, ext.Environment{SessionID: "s1", Workspace: dir})))
	if n["default"] != nil || len(n["repls"].([]any)) != 0 || reg.Count("s1") != 0 {
		t.Errorf("after repl_stop: ctx %v, registry %d", n, reg.Count("s1"))
	}
	f.fails("repl_eval", "repl_start", "clojure", map[string]any{"code": "(+ 1 2)"})
}

// TestRunTestsCleanJVM: without a session REPL, run_tests runs the tests in
// a fresh JVM (Debian's jars) and never starts a REPL.
func TestRunTestsCleanJVM(t *testing.T) {
	t.Parallel()
	needJVM(t)
	dir := packtest.CopyFixture(t, "testdata/fixture")
	p := debianPack()
	t.Cleanup(p.Close)
	env, reg := sessionEnv(t, dir)
	f := newFacade(t, p, dir, env)
	r := f.call("run_tests", "clojure")
	if r["mode"] != "cli" || r["tool"] != "java" || r["is_pass"] != false {
		t.Fatalf("full suite = %v", r)
	}
	got := map[string]any{"total": r["total"], "pass": r["pass"], "fail": r["fail"], "errored": r["errored"], "exit": r["exit"]}
	if d := cmp.Diff(map[string]any{"total": 5, "pass": 3, "fail": 1, "errored": 1, "exit": 1}, got); d != "" {
		t.Errorf("counts (-want +got):\n%s\noutput: %s", d, r["output"])
	}
	if d := cmp.Diff([]string{"broken-test:fail", "div-zero-test:error"}, failureNames(r)); d != "" {
		t.Errorf("failures (-want +got):\n%s", d)
	}
	r = f.call("run_tests", "clojure", map[string]any{"nses": []any{"calc.other-test/div-test"}})
	if r["is_pass"] != true || r["total"] != 1 || r["exit"] != 0 {
		t.Fatalf("ns/var = %v", r)
	}
	if d := cmp.Diff(map[string]any{"nses": []any{"calc.other-test/div-test"}}, r["selectors"]); d != "" {
		t.Errorf("selectors echo (-want +got):\n%s", d)
	}
	if reg.Count("s1") != 0 || len(p.sessionREPLs("s1")) != 0 {
		t.Error("run_tests started a REPL")
	}
	// A namespace that does not compile is an error row, not a pass.
	packtest.WriteFiles(t, dir, map[string]string{"test/calc/bad_test.clj": "(ns calc.bad-test (:require [clojure.test :refer [deftest is]]))\n(deftest x (is (undefined-fn 1)))\n"})
	r = f.call("run_tests", "clojure", map[string]any{"paths": []any{"test/calc/bad_test.clj"}})
	if r["is_pass"] != false || len(r["failures"].([]any)) != 1 || !strings.Contains(r["failures"].([]any)[0].(map[string]any)["message"].(string), "could not load") {
		t.Fatalf("a namespace that does not compile = %v", r)
	}
	// The call's env reaches the clean JVM; args are refused, since Vis runs
	// clojure.test itself here (no project runner to take them).
	packtest.WriteFiles(t, dir, map[string]string{"test/calc/env_test.clj": "(ns calc.env-test (:require [clojure.test :refer [deftest is]]))\n(deftest env-test (is (= \"marked\" (System/getenv \"VIS_CLJ_MARK\"))))\n"})
	r = f.call("run_tests", "clojure", map[string]any{"ns": "calc.env-test", "env": map[string]any{"VIS_CLJ_MARK": "marked"}})
	if r["is_pass"] != true || r["total"] != 1 {
		t.Fatalf("env in a clean JVM = %v", r)
	}
	r = f.call("run_tests", "clojure", map[string]any{"ns": "calc.env-test"})
	if r["is_pass"] != false || r["fail"] != 1 {
		t.Fatalf("without env = %v", r)
	}
	f.fails("run_tests", "declares none", "clojure", map[string]any{"ns": "calc.env-test", "args": []any{"-x"}})
}

// TestStartFailures: a launcher that dies reports failed with its exit code
// and log tail at once; a slow one reports starting and is still stopped
// with the session; nothing installed is no-launcher.
func TestStartFailures(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	jars := t.TempDir()
	for _, j := range debianJars {
		if err := os.WriteFile(filepath.Join(jars, j), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := func(body string) func(string) (string, error) {
		path := filepath.Join(bin, "java-"+strings.Fields(body)[0])
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return func(name string) (string, error) {
			if name == "java" {
				return path, nil
			}
			return "", exec.ErrNotFound
		}
	}
	dir := packtest.CopyFixture(t, "testdata/fixture")
	t.Run("dead launcher", func(t *testing.T) {
		p := New(Options{JarDir: jars, LookPath: script(`echo "Error: Could not find or load main class clojure.main" >&2; exit 3`),
			OfficialCLI: func(context.Context) bool { return false }, StartTimeout: 60 * time.Second})
		t.Cleanup(p.Close)
		env, reg := sessionEnv(t, dir)
		t0 := time.Now()
		out, err := p.start(context.Background(), env, call(dir, nil))
		if err != nil {
			t.Fatal(err)
		}
		if out["result"] != "failed" || out["exit"] != 3 || !strings.Contains(out["log_tail"].(string), "Could not find or load main class") {
			t.Fatalf("dead launcher = %v", out)
		}
		if time.Since(t0) > 30*time.Second {
			t.Errorf("a dead launcher was waited on for %s", time.Since(t0))
		}
		if reg.Count("s1") != 0 {
			t.Error("a failed start was registered")
		}
	})
	t.Run("slow launcher", func(t *testing.T) {
		p := New(Options{JarDir: jars, LookPath: script(`exec sleep 60`),
			OfficialCLI: func(context.Context) bool { return false }, StartTimeout: 300 * time.Millisecond})
		t.Cleanup(p.Close)
		env, reg := sessionEnv(t, dir)
		out, err := p.start(context.Background(), env, call(dir, nil))
		if err != nil {
			t.Fatal(err)
		}
		if out["result"] != "starting" || out["running"] != true {
			t.Fatalf("slow launcher = %v", out)
		}
		pid := out["pid"].(int)
		if infos := reg.Snapshot("s1"); len(infos) != 1 || infos[0].Status != "starting" {
			t.Errorf("registry = %+v", infos)
		}
		if _, err := p.eval(context.Background(), env, call(dir, map[string]any{"code": "1"})); err == nil || !strings.Contains(err.Error(), "still starting") {
			t.Errorf("eval while starting: %v", err)
		}
		if _, err := reg.Stop(context.Background(), "s1", ManagedID(dir)); err != nil {
			t.Fatal(err)
		}
		if packtest.GroupAlive(pid) {
			t.Errorf("the slow launcher's group %d survived stop", pid)
		}
	})
	t.Run("nothing installed", func(t *testing.T) {
		p := New(Options{JarDir: t.TempDir(), LookPath: func(string) (string, error) { return "", exec.ErrNotFound }})
		env, _ := sessionEnv(t, dir)
		out, err := p.start(context.Background(), env, call(dir, nil))
		if err != nil {
			t.Fatal(err)
		}
		if msg, _ := out["message"].(string); out["result"] != "no-launcher" || !strings.Contains(msg, "apt-get install clojure libnrepl-clojure") || !strings.Contains(msg, "Clojure CLI") {
			t.Fatalf("no launcher = %v", out)
		}
	})
	t.Run("port and build start nothing", func(t *testing.T) {
		p := New(Options{})
		env, _ := sessionEnv(t, dir)
		for _, k := range []string{"port", "build"} {
			if _, err := p.start(context.Background(), env, call(dir, map[string]any{k: "x"})); err == nil || !strings.Contains(err.Error(), "repl_connect") {
				t.Errorf("repl_start with %s: %v", k, err)
			}
		}
	})
}

// stopGroup sends SIGSTOP to a process group and waits until every thread
// of its leader is stopped: the kernel stops a running thread
// asynchronously, and a JVM thread still on a CPU could answer one more
// request.
func stopGroup(t *testing.T, pgid int) {
	t.Helper()
	if err := syscall.Kill(-pgid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pgid))
		stopped := len(tasks) > 0
		for _, s := range tasks {
			b, err := os.ReadFile(s)
			if err != nil {
				continue
			}
			i := strings.LastIndexByte(string(b), ')')
			if i < 0 || len(b) < i+3 || (b[i+2] != 'T' && b[i+2] != 't') {
				stopped = false
			}
		}
		if stopped {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d did not stop", pgid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
