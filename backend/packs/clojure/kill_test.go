package clojure

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/packs/packtest"
)

// A clean-JVM run killed at its timeout returns the test vars that had
// finished and their failure rows (the run form prints them as it goes),
// and a person saw them live.
func TestCleanJVMRunKilledKeepsItsRows(t *testing.T) {
	needJVM(t)
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"deps.edn": "{:paths [\"src\" \"test\"]}\n",
		"test/k/hang_test.clj": `(ns k.hang-test (:require [clojure.test :refer [deftest is]]))

(deftest a-test (is (= 1 1)))

(deftest b-test
  (is (= 1 2) "one is not two"))

(deftest c-test
  (spit "started" "")
  (Thread/sleep 600000))
`,
	})
	p := debianPack()
	t.Cleanup(p.Close)
	env, _ := sessionEnv(t, dir)
	ctx, liveLines := packtest.LiveLines(context.Background())
	// The budget must outlast a JVM's start and the first two tests; it is
	// doubled (up to 96 s) while the hanging test had not started: what is
	// checked is the rows of a run killed in it, not how fast a JVM starts.
	// The budget is otherwise all waiting: the run ends only at the timeout.
	var r map[string]any
	for budget := 12000; ; budget *= 2 {
		var err error
		if r, err = p.test(ctx, env, call(dir, map[string]any{"timeout_ms": budget})); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if budget >= 96000 {
			t.Fatalf("the hanging test never started within %d ms\n%v", budget, r["output"])
		}
		t.Logf("the hanging test had not started after %d ms; again with %d ms", budget, 2*budget)
	}
	if r["timed_out"] != true || r["is_pass"] == true {
		t.Fatalf("timed_out %v is_pass %v", r["timed_out"], r["is_pass"])
	}
	if r["total"] != 2 || r["pass"] != 1 || r["fail"] != 1 {
		t.Fatalf("rows kept on kill: total %v pass %v fail %v\n%v", r["total"], r["pass"], r["fail"], r["output"])
	}
	rows, _ := r["failures"].([]any)
	if len(rows) != 1 {
		t.Fatalf("failures = %v", r["failures"])
	}
	f := rows[0].(map[string]any)
	if f["test"] != "b-test" || f["file"] != "test/k/hang_test.clj" || f["line"] != 6 || !strings.Contains(f["message"].(string), "one is not two") {
		t.Errorf("failure row = %v", f)
	}
	if out, _ := r["output"].(string); strings.Contains(out, varMarker) || strings.Contains(out, faultMarker) {
		t.Errorf("progress lines left in the output:\n%s", out)
	}
	shown := liveLines()
	if !strings.Contains(shown, "✓ k.hang-test/a-test") || !strings.Contains(shown, "✗ k.hang-test/b-test") || strings.Contains(shown, faultMarker) {
		t.Errorf("live lines:\n%s", shown)
	}
}
