package clojure

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/packs/packtest"
)

// The real-projects suite: pinned copies of small third-party Clojure
// projects (testdata/projects/<name>, each with its LICENSE; README.md
// there says what was trimmed). Each test runs the project's own runner
// for reference counts, then run_tests(), which must match them; a copy
// made to fail, whose row must point at the failing line with the
// assertion's message; format_code, after which the project's tests still
// pass; and a REPL that evaluates a call into the project's code.

// realPack is Debian's launcher (no official CLI) with the tools the
// machine has; standard-clj may come from tools/clojure (make test).
func realPack(t *testing.T) *Pack {
	t.Helper()
	return New(Options{
		OfficialCLI:  func(context.Context) bool { return false },
		StartTimeout: 120 * time.Second,
		LookPath: func(name string) (string, error) {
			if b, err := exec.LookPath(name); err == nil || name != "standard-clj" {
				return b, err
			}
			b, _ := filepath.Abs("../../../tools/clojure/node_modules/.bin/standard-clj")
			if _, err := os.Stat(b); err != nil {
				return "", exec.ErrNotFound
			}
			return b, nil
		},
	})
}

// editFile replaces old (which must occur once) in a project file and
// returns the 1-based line where the replacement starts.
func editFile(t *testing.T, root, rel, old, new string) int {
	t.Helper()
	p := filepath.Join(root, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Count(s, old) != 1 {
		t.Fatalf("%s: %q occurs %d times, want once", rel, old, strings.Count(s, old))
	}
	i := strings.Index(s, old)
	if err := os.WriteFile(p, []byte(s[:i]+new+s[i+len(old):]), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Count(s[:i], "\n") + 1
}

// ownRun runs a project's own test command in dir and returns its output.
func ownRun(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := run(ctx, argv, dir, "", 5*time.Minute, env)
	if err != nil {
		t.Fatalf("%v: %v", argv, err)
	}
	return r.stdout + r.stderr
}

// clojureTestSummary is clojure.test's own summary, as run-tests and
// lein test print it.
type clojureTestSummary struct{ tests, assertions, fail, errs int }

var summaryRe = regexp.MustCompile(`Ran (\d+) tests containing (\d+) assertions\.\s+(\d+) failures, (\d+) errors\.`)

func readSummary(t *testing.T, out string) clojureTestSummary {
	t.Helper()
	m := summaryRe.FindAllStringSubmatch(out, -1)
	if len(m) != 1 {
		t.Fatalf("want one clojure.test summary in the project's own run, got %d:\n%s", len(m), clip(out, 4000))
	}
	n := make([]int, 4)
	for i := range n {
		n[i], _ = strconv.Atoi(m[0][i+1])
	}
	return clojureTestSummary{n[0], n[1], n[2], n[3]}
}

func failureRow(t *testing.T, r map[string]any, test string) map[string]any {
	t.Helper()
	fs, _ := r["failures"].([]any)
	for _, f := range fs {
		if m := f.(map[string]any); m["test"] == test {
			return m
		}
	}
	t.Fatalf("no failure row for %s in %v\noutput: %v", test, r["failures"], r["output"])
	return nil
}

// debianClasspath is Debian's clojure jars plus dirs (relative to the
// project), what the pack's own clean JVM uses without a build tool.
func debianClasspath(dirs ...string) string {
	var cp []string
	for _, j := range debianJars {
		if j != "nrepl.jar" {
			cp = append(cp, filepath.Join(DefaultJarDir, j))
		}
	}
	return strings.Join(append(cp, dirs...), string(os.PathListSeparator))
}

// clj-reload (MIT, deps.edn): its script/test.sh runs
// `clojure -X:dev user/-test-main`: the :dev alias puts dev, test and the
// fixture folders on the classpath, and dev/user.clj's -test-main runs
// clojure.test/run-all-tests. Without the official CLI the reference is
// that same entry point through clojure.main on the :dev classpath, as
// the pack's clean JVM builds it. format_code leaves fixtures/ alone: the
// tests parse those files' text (standard-clj would move ns metadata and
// rename the first of two ns forms, failing 6 tests).
func TestRealProjectCljReloadDepsDevAlias(t *testing.T) {
	needJVM(t)
	t.Parallel()
	p := realPack(t)
	t.Cleanup(p.Close)

	ref := packtest.CopyFixture(t, "testdata/projects/clj-reload")
	out := ownRun(t, ref, nil, "java", "-ea", "-cp", debianClasspath("src", "dev", "test", "fixtures/core_test", "fixtures/keep_test"),
		"clojure.main", "-e", "(user/-test-main nil)")
	want := readSummary(t, out)
	if want.tests == 0 || want.fail != 0 || want.errs != 0 {
		t.Fatalf("the project's own runner did not pass:\n%s", clip(out, 4000))
	}

	dir := packtest.CopyFixture(t, "testdata/projects/clj-reload")
	env, _ := sessionEnv(t, dir)
	f := newFacade(t, p, dir, env)

	// format_code first: the full run_tests below is also the proof that
	// the formatted project still passes.
	{
		fr, err := f.f.Call(context.Background(), "format_code", []any{"clojure"}, nil)
		switch {
		case err != nil && strings.Contains(err.Error(), "no Clojure formatter is installed"):
			t.Log("no Clojure formatter installed: format_code not exercised")
		case err != nil:
			t.Fatalf("format_code: %v", err)
		default:
			files, _ := fr["files"].([]any)
			if len(files) == 0 || fr["errors"] != nil {
				t.Errorf("format_code = %v", fr)
			}
			for _, x := range files {
				if file := x.(map[string]any)["file"].(string); strings.HasPrefix(file, "fixtures/") {
					t.Errorf("format_code rewrote test data %s", file)
				}
			}
		}
	}

	r := f.call("run_tests", "clojure")
	if r["mode"] != "cli" || r["total"] != want.tests || r["pass"] != want.tests || r["assertions"] != want.assertions || r["is_pass"] != true {
		t.Errorf("run_tests() = mode %v total %v pass %v assertions %v is_pass %v; the project's own runner: %+v\n%v\n%v",
			r["mode"], r["total"], r["pass"], r["assertions"], r["is_pass"], want, r["failures"], r["output"])
	}

	// made to fail: one assertion in parse_test.clj, that file alone
	line := editFile(t, dir, "test/clj_reload/parse_test.clj", `(is (= {} (read-str "#x 1")))`, `(is (= {:x 1} (read-str "#x 1")))`)
	r = f.call("run_tests", "clojure", map[string]any{"paths": []any{"test/clj_reload/parse_test.clj"}})
	if r["fail"] != 1 || r["errored"] != 0 || r["is_pass"] != false {
		t.Fatalf("failing copy: fail %v errored %v is_pass %v\n%v", r["fail"], r["errored"], r["is_pass"], r["output"])
	}
	row := failureRow(t, r, "reader-test")
	if row["file"] != "test/clj_reload/parse_test.clj" || row["line"] != line || row["type"] != "fail" ||
		row["message"] != `expected (= {:x 1} (read-str "#x 1")), actual (not (= {:x 1} {}))` {
		t.Errorf("failure row = %v, want test/clj_reload/parse_test.clj:%d with the assertion", row, line)
	}

	// the REPL evaluates a call into the project's code
	if s := f.call("repl_start", "clojure"); s["status"] != "up" {
		t.Fatalf("repl_start = %v", s)
	}
	e := f.call("repl_eval", "clojure", map[string]any{"code": `(do (require 'clj-reload.parse) (clj-reload.parse/read-file (java.io.PushbackReader. (java.io.StringReader. "(ns x (:require a.b))")) nil))`})
	if e["value"] != "{x {:requires #{a.b}}}" {
		t.Errorf("repl_eval into clj-reload.parse = %v", e)
	}
}

// jasentaa (MIT, project.clj): `lein test`, offline against Debian's Maven
// repository (a scratch LEIN_HOME whose profiles.clj sets :local-repo and
// :offline?; the pack's children get it through the calls' env option).
// The reference is the project's own `lein test`; run_tests runs the same
// command and reads clojure.test's report text for its rows.
func TestRealProjectJasentaaLein(t *testing.T) {
	needJVM(t)
	lein, err := exec.LookPath("lein")
	if err != nil {
		t.Skip("lein is not installed (scripts/deps.sh test installs leiningen)")
	}
	if _, err := os.Stat("/usr/share/maven-repo/org/clojure/clojure/1.11.1"); err != nil {
		t.Skip("Debian's Maven repository has no org.clojure/clojure 1.11.1 (the clojure package installs it)")
	}
	t.Parallel()
	p := realPack(t)
	t.Cleanup(p.Close)
	leinHome := t.TempDir()
	if err := os.WriteFile(filepath.Join(leinHome, "profiles.clj"), []byte(`{:user {:local-repo "/usr/share/maven-repo" :offline? true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	leinEnv := map[string]any{"LEIN_HOME": leinHome}

	ref := packtest.CopyFixture(t, "testdata/projects/jasentaa")
	out := ownRun(t, ref, []string{"LEIN_HOME=" + leinHome}, lein, "test")
	want := readSummary(t, out)
	if want.tests == 0 || want.fail != 0 || want.errs != 0 {
		t.Fatalf("the project's own lein test did not pass:\n%s", clip(out, 4000))
	}

	dir := packtest.CopyFixture(t, "testdata/projects/jasentaa")
	env, _ := sessionEnv(t, dir)
	f := newFacade(t, p, dir, env)
	r := f.call("run_tests", "clojure", map[string]any{"env": leinEnv})
	if r["runner"] != "lein" || r["total"] != want.tests || r["pass"] != want.tests || r["assertions"] != want.assertions || r["is_pass"] != true {
		t.Errorf("run_tests() = runner %v total %v pass %v assertions %v is_pass %v; lein test: %+v\n%v",
			r["runner"], r["total"], r["pass"], r["assertions"], r["is_pass"], want, r["output"])
	}

	// format_code: position_test.cljc's ns form splices a reader
	// conditional, which standard-clj would flatten (`:refer [Location]`
	// for Clojure too: the namespace no longer loads), so it is held back
	fr, err := f.f.Call(context.Background(), "format_code", []any{"clojure"}, nil)
	if err == nil {
		errs, _ := fr["errors"].([]any)
		if fr["formatter"] == "standard-clj" && (len(errs) != 1 || errs[0].(map[string]any)["file"] != "test/jasentaa/position_test.cljc") {
			t.Errorf("format_code = %v, want position_test.cljc held", fr)
		}
		r = f.call("run_tests", "clojure", map[string]any{"env": leinEnv})
		if r["total"] != want.tests || r["is_pass"] != true {
			t.Errorf("after format_code (%v files changed) run_tests() = total %v is_pass %v\n%v", fr["changed"], r["total"], r["is_pass"], r["output"])
		}
	} else if !strings.Contains(err.Error(), "no Clojure formatter is installed") {
		t.Fatalf("format_code: %v", err)
	}

	// made to fail: one assertion; lein prints only the file's base name
	line := editFile(t, dir, "test/jasentaa/collections_test.cljc", "(is (= [1 2] (join 1 2)))", "(is (= [1 3] (join 1 2)))")
	r = f.call("run_tests", "clojure", map[string]any{"env": leinEnv})
	if r["total"] != want.tests || r["fail"] != 1 || r["pass"] != want.tests-1 || r["is_pass"] != false {
		t.Fatalf("failing copy: total %v pass %v fail %v is_pass %v\n%v", r["total"], r["pass"], r["fail"], r["is_pass"], r["output"])
	}
	wantMsg := "expected (= [1 3] (join 1 2)), actual (not (= [1 3] (1 2)))"
	row := failureRow(t, r, "check-join-on-lists")
	if row["file"] != "test/jasentaa/collections_test.cljc" || row["line"] != line || row["type"] != "fail" || row["message"] != wantMsg {
		t.Errorf("lein failure row = %v, want test/jasentaa/collections_test.cljc:%d %q", row, line, wantMsg)
	}

	// a lein REPL (lein repl :headless, offline the same way): a call into
	// the project's code, then the tests in it, with the same row
	if s := f.call("repl_start", "clojure", map[string]any{"env": leinEnv}); s["status"] != "up" || s["tool"] != "lein" {
		t.Fatalf("repl_start = %v", s)
	}
	if e := f.call("repl_eval", "clojure", map[string]any{"code": "(do (require 'jasentaa.collections) (jasentaa.collections/join [1] 2))"}); e["value"] != "(1 2)" {
		t.Errorf("repl_eval into jasentaa.collections = %v", e)
	}
	r = f.call("run_tests", "clojure")
	if r["mode"] != "repl" || r["total"] != want.tests || r["fail"] != 1 || r["pass"] != want.tests-1 {
		t.Fatalf("run_tests() in the REPL = mode %v total %v pass %v fail %v\n%v", r["mode"], r["total"], r["pass"], r["fail"], r["output"])
	}
	row = failureRow(t, r, "check-join-on-lists")
	if row["file"] != "test/jasentaa/collections_test.cljc" || row["line"] != line || row["message"] != wantMsg {
		t.Errorf("REPL failure row = %v, want test/jasentaa/collections_test.cljc:%d %q", row, line, wantMsg)
	}
}
