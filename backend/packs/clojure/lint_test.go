package clojure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// needLintJVM skips when Debian's clojure package (java + clojure.jar,
// spec.alpha.jar, core.specs.alpha.jar) is absent.
func needLintJVM(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed (scripts/deps.sh test installs Debian's clojure package)")
	}
	if _, ok := New(Options{}).jars(false); !ok {
		t.Skipf("Debian's clojure jars are absent from %s (scripts/deps.sh test installs the clojure package)", DefaultJarDir)
	}
}

// lintPack loads code with Debian's plain jars (even where an official CLI
// exists) and knows the given fake tools; clj-kondo is absent unless given.
func lintPack(t testing.TB, scripts map[string]string) *Pack {
	t.Helper()
	bin := t.TempDir()
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return New(Options{
		OfficialCLI: func(context.Context) bool { return false },
		LookPath: func(name string) (string, error) {
			if _, ok := scripts[name]; ok {
				return filepath.Join(bin, name), nil
			}
			if name == "clj-kondo" || name == "lein" || name == "bb" {
				return "", exec.ErrNotFound
			}
			return exec.LookPath(name)
		},
	})
}

func lintCall(t *testing.T, p *Pack, dir string, opts map[string]any) map[string]any {
	t.Helper()
	out, err := p.lint(context.Background(), ext.ToolEnv{SessionID: "s1", Workspace: dir}, call(dir, opts))
	if err != nil {
		t.Fatalf("lint_code%v: %v", opts, err)
	}
	return out
}

// jvmFinding is a finding of the clean-JVM check.
func jvmFinding(file string, row, col int, level, typ, msg string) any {
	return finding(file, row, col, level, typ, msg)
}

const (
	msgLength = "reference to field length can't be resolved."
	msgBoxed  = "call: public static java.lang.Number clojure.lang.Numbers.unchecked_add(java.lang.Object,long)."
)

// TestLintReflection loads the fixture project in a real clean JVM: the
// reflection and boxed-math warnings come back at their rows and columns, a
// clean file adds nothing, a file that throws at load is an error while the
// others are still checked, what the project prints while loading does not
// disturb the parse, a required namespace is reported once, tests and
// .cljs files are not loaded by default.
func TestLintReflection(t *testing.T) {
	t.Parallel()
	needLintJVM(t)
	dir := packtest.CopyFixture(t, "testdata/lint")
	p := lintPack(t, nil)
	out := lintCall(t, p, dir, nil)

	want := []any{
		jvmFinding("src/lint/boxed.clj", 3, 23, "warning", "boxed-math", msgBoxed),
		jvmFinding("src/lint/broken.clj", 5, 0, "error", "load-error", "Execution error (ExceptionInfo) at lint.broken/eval@ (broken.clj:5).\nboom at load"),
		jvmFinding("src/lint/noisy.clj", 13, 16, "warning", "reflection", "reference to field size can't be resolved."),
		jvmFinding("src/lint/reflect.clj", 3, 15, "warning", "reflection", msgLength),
	}
	got := out["findings"].([]any)
	// The generated eval function's number varies between JVMs.
	for _, f := range got {
		m := f.(map[string]any)
		m["message"] = evalNum.ReplaceAllString(m["message"].(string), "eval@")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]any{"error": 1, "warning": 3, "info": 0}, out["counts"]); d != "" || out["total"] != 4 {
		t.Errorf("counts (-want +got):\n%s total %v", d, out["total"])
	}
	if d := cmp.Diff([]any{"clojure"}, out["linters"]); d != "" {
		t.Errorf("linters (-want +got):\n%s", d)
	}
	jvm := out["clojure"].(map[string]any)
	if jvm["tool"] != "java" || jvm["files"] != 5 {
		t.Errorf("clojure = %v, want tool java and the 5 .clj files of src", jvm)
	}
	note, _ := out["note"].(string)
	for _, w := range []string{"clj-kondo is not installed", "github.com/clj-kondo", "1 .cljs file"} {
		if !strings.Contains(note, w) {
			t.Errorf("note %q lacks %q", note, w)
		}
	}
}

var evalNum = regexp.MustCompile(`eval\d+`)

// TestLintSelection: paths choose what is loaded and reported (a required
// namespace outside the selection is not); a clean file has no findings; a
// snippet is loaded from a temporary file and reported with file "".
func TestLintSelection(t *testing.T) {
	t.Parallel()
	needLintJVM(t)
	dir := packtest.CopyFixture(t, "testdata/lint")
	p := lintPack(t, nil)

	out := lintCall(t, p, dir, map[string]any{"paths": []any{"src/lint/boxed.clj", "test"}})
	want := []any{
		jvmFinding("src/lint/boxed.clj", 3, 23, "warning", "boxed-math", msgBoxed),
		jvmFinding("test/lint/reflect_test.clj", 5, 22, "warning", "reflection", "call to method charAt can't be resolved (target class is unknown)."),
	}
	if d := cmp.Diff(want, out["findings"]); d != "" {
		t.Errorf("paths (-want +got):\n%s", d)
	}

	out = lintCall(t, p, dir, map[string]any{"paths": []any{"src/lint/clean.clj"}})
	if d := cmp.Diff([]any{}, out["findings"]); d != "" || out["total"] != 0 {
		t.Errorf("clean file (-want +got):\n%s", d)
	}

	out = lintCall(t, p, dir, map[string]any{"code": "(ns scratch)\n(defn len [x] (.length x))\n(defn add [a ^long b] (+ a b))\n"})
	want = []any{
		jvmFinding("", 2, 15, "warning", "reflection", msgLength),
		jvmFinding("", 3, 23, "warning", "boxed-math", msgBoxed),
	}
	if d := cmp.Diff(want, out["findings"]); d != "" {
		t.Errorf("code (-want +got):\n%s", d)
	}

	if _, err := p.lint(context.Background(), ext.ToolEnv{}, call(dir, map[string]any{"paths": []any{"nope"}})); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing path: %v", err)
	}
	// ClojureScript alone: nothing can check it without clj-kondo.
	_, err := p.lint(context.Background(), ext.ToolEnv{}, call(dir, map[string]any{"paths": []any{"src/lint/web.cljs"}}))
	if err == nil || !strings.Contains(err.Error(), "clj-kondo is not installed") || !strings.Contains(err.Error(), "no .clj/.cljc files") {
		t.Errorf("cljs only, no clj-kondo: %v", err)
	}
}

// TestLintJVMStops: a file that exits the JVM at load, or blocks past the
// budget, is an error finding; what was checked before it is kept and the
// files after it are named.
func TestLintJVMStops(t *testing.T) {
	t.Parallel()
	needLintJVM(t)
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"src/a/early.clj":  "(ns a.early)\n(defn f [x] (.foo x))\n",
		"src/a/exits.clj":  "(ns a.exits)\n(System/exit 3)\n",
		"src/a/later.clj":  "(ns a.later)\n(defn g [x] (.bar x))\n",
		"src/b/hangs.clj":  "(ns b.hangs)\n(Thread/sleep 600000)\n",
		"src/b/never.clj":  "(ns b.never)\n",
		"src/b/0first.clj": "(ns b.0first)\n",
	})
	p := lintPack(t, nil)
	out := lintCall(t, p, dir, map[string]any{"paths": []any{"src/a"}})
	want := []any{
		jvmFinding("src/a/early.clj", 2, 13, "warning", "reflection", "reference to field foo can't be resolved."),
		jvmFinding("src/a/exits.clj", 0, 0, "error", "load-error", "the JVM exited (code 3) while loading this file (does it call System/exit at load?)"),
	}
	if d := cmp.Diff(want, out["findings"]); d != "" {
		t.Errorf("System/exit (-want +got):\n%s", d)
	}
	if note, _ := out["note"].(string); !strings.Contains(note, "before loading 1 file(s), not reflection-checked: src/a/later.clj") {
		t.Errorf("note = %q, want the unchecked file named", note)
	}

	// A short budget first, doubled only while the clean JVM did not even
	// start within it (a busy machine): the hanging file is what is tested.
	var got []any
	budget := 8
	for {
		opts := map[string]any{"paths": []any{"src/b"}, "timeout_ms": budget * 1000}
		res, err := p.lint(context.Background(), ext.ToolEnv{SessionID: "s1", Workspace: dir}, call(dir, opts))
		if err != nil && strings.Contains(err.Error(), "did not start within") && budget < 64 {
			budget *= 2
			continue
		}
		if err != nil {
			t.Fatalf("lint_code%v: %v", opts, err)
		}
		out = res
		got, _ = out["findings"].([]any)
		break
	}
	if len(got) != 1 || got[0].(map[string]any)["file"] != "src/b/hangs.clj" ||
		!strings.Contains(got[0].(map[string]any)["message"].(string), fmt.Sprintf("did not finish within %ds", budget)) {
		t.Errorf("blocking file: findings = %v", got)
	}
	if note, _ := out["note"].(string); !strings.Contains(note, "src/b/never.clj") {
		t.Errorf("note = %q, want the unchecked file named", note)
	}
}

const kondoEDN = `{:findings [{:filename "` + "%DIR%" + `/src/lint/clean.clj", :row 1, :col 2, :level :warning, :type :unused-binding, :message "unused binding x"}
 {:filename "<stdin>", :row 3, :col 1, :level :error, :type :unresolved-symbol, :message "Unresolved symbol: foo"}],
 :summary {:error 1, :warning 1, :duration 12}}`

// TestLintKondo: clj-kondo's EDN becomes findings; without any JVM the
// reflection check is skipped with what to install; with neither it is an
// error naming both installs.
func TestLintKondo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"src/lint/clean.clj": "(ns lint.clean)\n"})
	kondo := map[string]string{"clj-kondo": "cat <<'X'\n" + strings.ReplaceAll(kondoEDN, "%DIR%", dir) + "\nX\nexit 3"}
	p := toolPack(t, kondo) // no java, no clojure, no lein
	out := lintCall(t, p, dir, map[string]any{"code": "(foo)"})
	want := map[string]any{"linters": []any{"clj-kondo"}, "total": 2, "counts": map[string]any{"error": 1, "warning": 1, "info": 0},
		"findings": []any{
			map[string]any{"file": "", "row": 3, "col": 1, "level": "error", "type": "unresolved-symbol", "message": "Unresolved symbol: foo", "provider": "clj-kondo"},
			map[string]any{"file": "src/lint/clean.clj", "row": 1, "col": 2, "level": "warning", "type": "unused-binding", "message": "unused binding x", "provider": "clj-kondo"},
		}}
	note, _ := out["note"].(string)
	delete(out, "note")
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if !strings.Contains(note, "no JVM to run the reflection/boxed-math check: install the official Clojure CLI") || !strings.Contains(note, "apt-get install clojure") {
		t.Errorf("note = %q, want what to install for the reflection check", note)
	}

	packtest.WriteFiles(t, dir, map[string]string{"bb.edn": "{:paths [\"src\"]}"})
	out = lintCall(t, p, dir, nil)
	if note, _ := out["note"].(string); !strings.Contains(note, "babashka has no reflection warnings") {
		t.Errorf("bb project: note = %q", note)
	}
	os.Remove(filepath.Join(dir, "bb.edn"))

	none := toolPack(t, nil)
	_, err := none.lint(context.Background(), ext.ToolEnv{}, call(dir, nil))
	if err == nil || !strings.Contains(err.Error(), "clj-kondo is not installed: install it (https://github.com/clj-kondo") ||
		!strings.Contains(err.Error(), "install the official Clojure CLI") {
		t.Errorf("nothing installed: %v", err)
	}
}

// TestLintMerged: clj-kondo's and the JVM's findings in one sorted list.
func TestLintMerged(t *testing.T) {
	t.Parallel()
	needLintJVM(t)
	dir := packtest.CopyFixture(t, "testdata/lint")
	p := lintPack(t, map[string]string{"clj-kondo": "cat <<'X'\n" + strings.ReplaceAll(kondoEDN, "%DIR%", dir) + "\nX\nexit 3"})
	out := lintCall(t, p, dir, map[string]any{"paths": []any{"src/lint/clean.clj", "src/lint/reflect.clj"}})
	want := []any{
		map[string]any{"file": "", "row": 3, "col": 1, "level": "error", "type": "unresolved-symbol", "message": "Unresolved symbol: foo", "provider": "clj-kondo"},
		map[string]any{"file": "src/lint/clean.clj", "row": 1, "col": 2, "level": "warning", "type": "unused-binding", "message": "unused binding x", "provider": "clj-kondo"},
		jvmFinding("src/lint/reflect.clj", 3, 15, "warning", "reflection", msgLength),
	}
	if d := cmp.Diff(want, out["findings"]); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if d := cmp.Diff([]any{"clj-kondo", "clojure"}, out["linters"]); d != "" {
		t.Errorf("linters (-want +got):\n%s", d)
	}
	if note, _ := out["note"].(string); strings.Contains(note, "clj-kondo") {
		t.Errorf("note = %q mentions clj-kondo, which ran", note)
	}
}

// TestLintFacade: the model's view: the matrix says what clojure lint_code
// does, and lint_code("clojure", {paths}) reaches the clean JVM.
func TestLintFacade(t *testing.T) {
	t.Parallel()
	needLintJVM(t)
	dir := packtest.CopyFixture(t, "testdata/lint")
	env, _ := sessionEnv(t, dir)
	f := newFacade(t, lintPack(t, nil), dir, env)
	if m := f.f.Matrix(); !strings.Contains(m, "clojure lint_code runs clj-kondo (when installed) plus reflection/boxed-math checks") {
		t.Errorf("matrix lacks the lint note:\n%s", m)
	}
	out := f.call("lint_code", "clojure", map[string]any{"paths": []any{"src/lint/reflect.clj"}})
	if d := cmp.Diff([]any{jvmFinding("src/lint/reflect.clj", 3, 15, "warning", "reflection", msgLength)}, out["findings"]); d != "" {
		t.Errorf("lint_code through the facade (-want +got):\n%s", d)
	}
}

// TestReflectionLauncher: the clean JVM for each project kind and the tools
// installed.
func TestReflectionLauncher(t *testing.T) {
	t.Parallel()
	jarDir := t.TempDir()
	for _, j := range []string{"clojure.jar", "spec.alpha.jar", "core.specs.alpha.jar"} {
		packtest.WriteFiles(t, jarDir, map[string]string{j: ""})
	}
	jars := strings.Join([]string{filepath.Join(jarDir, "clojure.jar"), filepath.Join(jarDir, "spec.alpha.jar"), filepath.Join(jarDir, "core.specs.alpha.jar")}, ":")
	const script = "(SCRIPT)"
	tests := []struct {
		name     string
		files    map[string]string
		tools    []string
		official bool
		want     func(dir string) []string
		tool     string
		note     string
		err      error
	}{
		{name: "deps.edn with :test, official CLI", official: true, tools: []string{"clojure", "java"},
			files: map[string]string{"deps.edn": `{:paths ["src"] :aliases {:test {:extra-paths ["test"] :main-opts ["-m" "cognitect.test-runner"]}}}`, "src/a.clj": "", "test/a_test.clj": ""},
			tool:  "clj",
			want: func(string) []string {
				return []string{"/bin/clojure", "-Sdeps", `{:aliases {:vis/lint {:extra-paths ["src" "test"] :main-opts ["-e" "nil"]}}}`, "-M:test:vis/lint", "-e", script}
			}},
		{name: "deps.edn without :test", official: true, tools: []string{"clojure"},
			files: map[string]string{"deps.edn": `{}`, "src/a.clj": "", "test/a_test.clj": ""},
			tool:  "clj",
			want: func(string) []string {
				return []string{"/bin/clojure", "-Sdeps", `{:aliases {:vis/lint {:extra-paths ["src" "test"] :main-opts ["-e" "nil"]}}}`, "-M:vis/lint", "-e", script}
			}},
		{name: "deps.edn, Debian's clojure only", tools: []string{"clojure", "java"},
			files: map[string]string{"deps.edn": `{:deps {cheshire/cheshire {:mvn/version "5.13.0"}}}`, "src/a.clj": ""},
			tool:  "java",
			want: func(dir string) []string {
				return []string{"/bin/java", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true", "-cp", jars + ":" + filepath.Join(dir, "src"), "clojure.main", "-e", script}
			},
			note: "the official Clojure CLI (clojure -Sdescribe) is not installed: loaded with Debian's plain clojure.jar and the project's folders on the classpath; dependencies are NOT resolved (cheshire/cheshire), so files that require them fail to load"},
		{name: "project.clj with lein", tools: []string{"lein", "java"},
			files: map[string]string{"project.clj": `(defproject a "0.1.0")`, "src/a.clj": ""},
			tool:  "lein",
			want: func(string) []string {
				return []string{"/bin/lein", "run", "-m", "clojure.main/main", "--", "-e", script}
			}},
		{name: "project.clj without lein", tools: []string{"java"},
			files: map[string]string{"project.clj": `(defproject a "0.1.0")`, "src/a.clj": "", "test/a_test.clj": ""},
			tool:  "java",
			want: func(dir string) []string {
				return []string{"/bin/java", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true", "-cp", jars + ":" + filepath.Join(dir, "src") + ":" + filepath.Join(dir, "test"), "clojure.main", "-e", script}
			},
			note: "Leiningen (lein) is not installed: loaded with Debian's plain clojure.jar and the project's folders on the classpath"},
		{name: "bb.edn only", tools: []string{"bb", "java"}, files: map[string]string{"bb.edn": `{:paths ["src"]}`, "src/a.clj": ""},
			err: ErrNoReflection},
		{name: "bb.edn next to deps.edn", official: true, tools: []string{"bb", "clojure"},
			files: map[string]string{"bb.edn": `{}`, "deps.edn": `{}`, "src/a.clj": ""},
			tool:  "clj",
			want: func(string) []string {
				return []string{"/bin/clojure", "-Sdeps", `{:aliases {:vis/lint {:extra-paths ["src"] :main-opts ["-e" "nil"]}}}`, "-M:vis/lint", "-e", script}
			}},
		{name: "loose files", tools: []string{"java"}, files: map[string]string{"src/a.clj": ""},
			tool: "java",
			want: func(dir string) []string {
				return []string{"/bin/java", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true", "-cp", jars + ":" + filepath.Join(dir, "src"), "clojure.main", "-e", script}
			}},
		{name: "nothing installed", files: map[string]string{"deps.edn": `{}`}, err: ErrNoLauncher},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			packtest.WriteFiles(t, dir, tc.files)
			p := New(Options{JarDir: jarDir, OfficialCLI: func(context.Context) bool { return tc.official },
				LookPath: func(name string) (string, error) {
					for _, n := range tc.tools {
						if n == name {
							return "/bin/" + name, nil
						}
					}
					return "", exec.ErrNotFound
				}})
			l, err := p.ReflectionLauncher(context.Background(), LoadProject(dir), script)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want(dir), l.Argv); d != "" {
				t.Errorf("argv (-want +got):\n%s", d)
			}
			if l.Tool != tc.tool || l.Note != tc.note {
				t.Errorf("tool, note = %q, %q; want %q, %q", l.Tool, l.Note, tc.tool, tc.note)
			}
		})
	}
}

// BenchmarkLintReflection measures lint_code over the fixture project on
// Debian's plain jars (one JVM start plus loading five files).
func BenchmarkLintReflection(b *testing.B) {
	needLintJVM(b)
	dir := packtest.CopyFixture(b, "testdata/lint")
	p := lintPack(b, nil)
	for b.Loop() {
		if _, err := p.lint(context.Background(), ext.ToolEnv{}, call(dir, nil)); err != nil {
			b.Fatal(err)
		}
	}
}
