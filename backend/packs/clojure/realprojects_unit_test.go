package clojure

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// TestReportRows reads clojure.test's report text as lein test prints it:
// rows with the project file found from the namespace heading (or the one
// file of that name), counts per failing test var.
func TestReportRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"project.clj":              `(defproject x "0" :source-paths ["src/cljc"])`,
		"src/cljc/a/util.cljc":     "(ns a.util)\n",
		"test/a/core_test.cljc":    "(ns a.core-test)\n",
		"test/a/other_test.clj":    "(ns a.other-test)\n",
		"test/a/nested/helper.clj": "(ns a.nested.helper)\n",
	})
	text := `lein test a.core-test

lein test :only a.core-test/join-test

FAIL in (join-test) (core_test.cljc:9)
expected: (= [1 3] (join 1 2))
  actual: (not (= [1 3] (1 2)))

lein test :only a.core-test/join-test

FAIL in (join-test) (core_test.cljc:10)
with nils
expected: (= [] (join nil nil))
  actual: (not (= [] nil))

lein test a.other-test

lein test :only a.other-test/boom-test

ERROR in (boom-test) (helper.clj:4)
loading: it blows up
expected: (= 1 (boom))
  actual: java.lang.ArithmeticException: Divide by zero
 at clojure.lang.Numbers.divide (Numbers.java:190)

Ran 5 tests containing 9 assertions.
2 failures, 1 errors.
Tests failed.
`
	out := parseSummary(text)
	reportRows(out, text, LoadProject(dir))
	want := map[string]any{"total": 5, "assertions": 9, "fail": 1, "errored": 1, "pass": 3, "failures": []any{
		map[string]any{"ns": "a.core-test", "test": "join-test", "type": "fail", "file": "test/a/core_test.cljc", "line": 9,
			"message": "expected (= [1 3] (join 1 2)), actual (not (= [1 3] (1 2)))", "expected": "(= [1 3] (join 1 2))", "actual": "(not (= [1 3] (1 2)))"},
		map[string]any{"ns": "a.core-test", "test": "join-test", "type": "fail", "file": "test/a/core_test.cljc", "line": 10,
			"message": "with nils", "expected": "(= [] (join nil nil))", "actual": "(not (= [] nil))"},
		map[string]any{"ns": "a.other-test", "test": "boom-test", "type": "error", "file": "test/a/nested/helper.clj", "line": 4,
			"message": "loading: it blows up: java.lang.ArithmeticException: Divide by zero", "expected": "(= 1 (boom))", "actual": "java.lang.ArithmeticException: Divide by zero"},
	}}
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	passing := parseSummary("Ran 2 tests containing 3 assertions.\n0 failures, 0 errors.\n")
	reportRows(passing, "", LoadProject(dir))
	if d := cmp.Diff(map[string]any{"total": 2, "assertions": 3, "fail": 0, "errored": 0, "pass": 2}, passing); d != "" {
		t.Errorf("passing run (-want +got):\n%s", d)
	}
}

// TestHoldNSRewrites: files whose ns form standard-clj would re-print
// into other code stay out of its run, each an error row.
func TestHoldNSRewrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"two.clj":     "(ns two)\n(def a 1)\n(ns two-second)\n",
		"splice.cljc": "(ns splice\n  (:require [p :as pos #?@(:cljs [:refer [L]])]))\n",
		"refer.cljc":  "(ns refer\n  #?(:cljs (:refer-clojure :exclude [juxt])\n     :clj (:refer-clojure :exclude [juxt format])))\n",
		"fine.cljc":   "(ns fine\n  (:refer-clojure :exclude [apply])\n  (:require [a.b :as b])\n  #?(:cljs (:require-macros [m :refer [x]])))\n(def s \"(ns not-a-form)\")\n",
		"plain.clj":   "(ns plain)\n(defn f [] \"#?@\")\n",
	}
	packtest.WriteFiles(t, dir, files)
	var paths []string
	for _, n := range []string{"fine.cljc", "plain.clj", "refer.cljc", "splice.cljc", "two.clj"} {
		paths = append(paths, filepath.Join(dir, n))
	}
	kept, held := holdNSRewrites(dir, paths)
	if d := cmp.Diff([]string{filepath.Join(dir, "fine.cljc"), filepath.Join(dir, "plain.clj")}, kept); d != "" {
		t.Errorf("kept (-want +got):\n%s", d)
	}
	var got []string
	for _, h := range held {
		got = append(got, h.File)
	}
	if d := cmp.Diff([]string{"refer.cljc", "splice.cljc", "two.clj"}, got); d != "" {
		t.Errorf("held (-want +got):\n%s", d)
	}
}

// TestDefaultPathsSkipTestData: a :dev alias's fixture folders are on the
// classpath but not formatted or linted by default.
func TestDefaultPathsSkipTestData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"deps.edn":                 `{:aliases {:dev {:extra-paths ["dev" "test" "fixtures/core_test"]}}}`,
		"src/a.clj":                "(ns a)\n",
		"dev/user.clj":             "(ns user)\n",
		"test/a_test.clj":          "(ns a-test)\n",
		"test/testdata/in.clj":     "(ns  in)\n",
		"fixtures/core_test/b.clj": "(ns  b)\n",
	})
	pr := LoadProject(dir)
	if d := cmp.Diff([]string{"src", "dev", "test", "test"}, defaultPaths(pr)); d != "" {
		t.Errorf("defaultPaths (-want +got):\n%s", d)
	}
	files, err := walkSources(dir, defaultPaths(pr))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if rel, _ := filepath.Rel(dir, f); inDataDir(filepath.Dir(rel)) {
			t.Errorf("walked test data %s", rel)
		}
	}
	if files, _ := walkSources(dir, []string{"fixtures"}); len(files) != 1 {
		t.Errorf("a data folder named in paths: %v", files)
	}
}
