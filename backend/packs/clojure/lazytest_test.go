package clojure

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// lazyFixture copies testdata/lazytest/project (a cart library whose tests
// are Lazytest suites, one namespace mixing clojure.test and Lazytest, one
// using :lazytest/test metadata) into a temp dir. With lazytest, the
// stand-in Lazytest source tree (testdata/lazytest/stub, see its README)
// goes under classes/, which deps.edn's :dev alias puts on the classpath
// and which the pack's namespace index skips (like a library in a jar, it
// is not the project's source).
func lazyFixture(t *testing.T, lazytest bool) string {
	t.Helper()
	dir := packtest.CopyFixture(t, "testdata/lazytest/project")
	if lazytest {
		if err := os.CopyFS(filepath.Join(dir, "classes", "lazytest"), os.DirFS("testdata/lazytest/stub/lazytest")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lazySummary is what a person reads off a run: the counts and which tests
// failed how.
func lazySummary(r map[string]any) map[string]any {
	var faults []string
	for _, f := range r["failures"].([]any) {
		m := f.(map[string]any)
		faults = append(faults, fmt.Sprintf("%s/%s:%s", m["ns"], m["test"], m["type"]))
	}
	out := map[string]any{"faults": faults}
	for _, k := range []string{"framework", "total", "pass", "fail", "errored", "selected", "skipped", "is_pass"} {
		out[k] = r[k]
	}
	return out
}

func sum(framework string, total, pass, fail, errored, selected, skipped int, faults ...string) map[string]any {
	return map[string]any{"framework": framework, "total": total, "pass": pass, "fail": fail, "errored": errored,
		"selected": selected, "skipped": skipped, "is_pass": fail == 0 && errored == 0 && total > 0, "faults": faults}
}

// The whole fixture: clojure.test total-test passes and parse-price-test
// fails (shop.mixed-test); Lazytest runs 8 test cases in 7 suite vars, of
// which discount-test fails and split-test throws.
var lazyFull = sum("clojure.test+lazytest", 10, 7, 2, 1, 9, 0,
	"shop.mixed-test/parse-price-test:fail", "shop.cart-test/discount-test:fail", "shop.cart-test/split-test:error")

// TestLazytestInREPL runs the real run form in a real nREPL server
// (Debian's jars) whose classpath holds the stand-in Lazytest: counts,
// failure rows, namespace and var focus (with the -test counterpart rule),
// include/exclude tags, a selection matching nothing, and a namespace
// mixing clojure.test and Lazytest.
func TestLazytestInREPL(t *testing.T) {
	t.Parallel()
	needJVM(t)
	dir := lazyFixture(t, true)
	p := debianPack()
	t.Cleanup(p.Close)
	env, _ := sessionEnv(t, dir)
	f := newFacade(t, p, dir, env)
	if out := f.call("repl_start", "clojure"); out["result"] != "started" {
		t.Fatalf("repl_start = %v", out)
	}

	tests := []struct {
		name string
		opts map[string]any
		want map[string]any
	}{
		{"full suite", nil, lazyFull},
		{"full suite again (the REPL reloads the suites)", nil, lazyFull},
		{"namespace focus", map[string]any{"ns": "shop.cart-test"},
			sum("lazytest", 6, 4, 1, 1, 5, 0, "shop.cart-test/discount-test:fail", "shop.cart-test/split-test:error")},
		{"node id of a suite var", map[string]any{"paths": []any{"test/shop/cart_test.clj::total-test"}},
			sum("lazytest", 2, 2, 0, 0, 1, 4)},
		{"node id of a source var runs its -test suite", map[string]any{"paths": []any{"src/shop/cart.clj::discount"}},
			sum("lazytest", 1, 0, 1, 0, 1, 4, "shop.cart-test/discount-test:fail")},
		{"ns/var", map[string]any{"nses": []any{"shop.cart-test/split-test"}},
			sum("lazytest", 1, 0, 0, 1, 1, 4, "shop.cart-test/split-test:error")},
		{"a name in every namespace hits both frameworks", map[string]any{"paths": []any{"::total-test"}},
			sum("clojure.test+lazytest", 3, 3, 0, 0, 2, 7)},
		{"include a tag", map[string]any{"include": []any{"slow"}},
			sum("clojure.test+lazytest", 1, 1, 0, 0, 1, 8)},
		{"include a tag given in the attribute map", map[string]any{"ns": "shop.cart-test", "include": "integration"},
			sum("lazytest", 1, 1, 0, 0, 1, 4)},
		{"exclude tags", map[string]any{"ns": "shop.cart-test", "exclude": []any{"slow", "integration"}},
			sum("lazytest", 4, 2, 1, 1, 3, 2, "shop.cart-test/discount-test:fail", "shop.cart-test/split-test:error")},
		{"a mixed namespace runs both and sums", map[string]any{"ns": "shop.mixed-test"},
			sum("clojure.test+lazytest", 3, 2, 1, 0, 3, 0, "shop.mixed-test/parse-price-test:fail")},
		{"only the clojure.test var of a mixed namespace", map[string]any{"nses": []any{"shop.mixed-test/parse-price-test"}},
			sum("clojure.test", 1, 0, 1, 0, 1, 2, "shop.mixed-test/parse-price-test:fail")},
		{":lazytest/test metadata", map[string]any{"ns": "shop.meta-test"},
			sum("lazytest", 1, 1, 0, 0, 1, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := facade{t, f.f}
			args := []any{"clojure"}
			if tt.opts != nil {
				args = append(args, tt.opts)
			}
			r := f.call("run_tests", args...)
			if r["mode"] != "repl" {
				t.Fatalf("mode = %v, want repl: %v", r["mode"], r)
			}
			if d := cmp.Diff(tt.want, lazySummary(r)); d != "" {
				t.Errorf("run (-want +got):\n%s\nerror: %v\noutput: %s", d, r["error"], r["output"])
			}
		})
	}

	t.Run("failure rows", func(t *testing.T) {
		f := facade{t, f.f}
		r := f.call("run_tests", "clojure", map[string]any{"ns": "shop.cart-test"})
		rows := map[string]map[string]any{}
		for _, x := range r["failures"].([]any) {
			m := x.(map[string]any)
			rows[m["test"].(string)] = m
		}
		fail := rows["discount-test"]
		if fail == nil || fail["type"] != "fail" || fail["file"] != "test/shop/cart_test.clj" || fail["line"] != 15 ||
			fail["expected"] != "(= 90 (cart/discount 100))" || fail["actual"] != "false" {
			t.Errorf("failing case row = %v", fail)
		}
		if msg, _ := fail["message"].(string); !strings.Contains(msg, "ten percent takes ten off a hundred") || !strings.HasSuffix(msg, "ten off") {
			t.Errorf("failing case message %q lacks the describe/it docs or the expectation's message", msg)
		}
		errRow := rows["split-test"]
		if errRow == nil || errRow["type"] != "error" || errRow["file"] != "test/shop/cart_test.clj" || errRow["line"] != 18 ||
			!strings.Contains(errRow["message"].(string), "splits among nobody: java.lang.ArithmeticException: Divide by zero") {
			t.Errorf("throwing case row = %v", errRow)
		}
		if out, _ := r["output"].(string); !strings.Contains(out, "Ran 6 test cases") {
			t.Errorf("output lacks Lazytest's own summary: %q", out)
		}
	})

	t.Run("no match is an error", func(t *testing.T) {
		f := facade{t, f.f}
		r := f.call("run_tests", "clojure", map[string]any{"paths": []any{"::nope-test"}})
		if msg, _ := r["error"].(string); !strings.Contains(msg, "no test var matched") || !strings.Contains(msg, "searched 9 test vars") || r["is_pass"] != false {
			t.Fatalf("a node id matching nothing = %v", r)
		}
	})
}

// TestLazytestCleanJVM: without a session REPL the same form runs in a
// clean JVM (Debian's jars, the project's folders on the classpath): with
// Lazytest there it runs the suites; without it, the suites are refused
// with a clear error and the namespaces that require Lazytest are load
// errors that say so. Nothing passes.
func TestLazytestCleanJVM(t *testing.T) {
	t.Parallel()
	needJVM(t)
	t.Run("lazytest on the classpath", func(t *testing.T) {
		dir := lazyFixture(t, true)
		p := debianPack()
		t.Cleanup(p.Close)
		env, _ := sessionEnv(t, dir)
		r := newFacade(t, p, dir, env).call("run_tests", "clojure")
		if r["mode"] != "cli" || r["tool"] != "java" || r["exit"] != 1 {
			t.Fatalf("clean JVM run = %v", r)
		}
		if d := cmp.Diff(lazyFull, lazySummary(r)); d != "" {
			t.Errorf("run (-want +got):\n%s\noutput: %s", d, r["output"])
		}
		if d := cmp.Diff([]any{"shop.cart-test", "shop.meta-test", "shop.mixed-test"}, r["namespaces"]); d != "" {
			t.Errorf("namespaces (-want +got):\n%s", d)
		}
	})
	t.Run("lazytest absent", func(t *testing.T) {
		dir := lazyFixture(t, false)
		p := debianPack()
		t.Cleanup(p.Close)
		env, _ := sessionEnv(t, dir)
		f := newFacade(t, p, dir, env)
		r := f.call("run_tests", "clojure")
		msg, _ := r["error"].(string)
		if r["is_pass"] != false || !strings.Contains(msg, "lazytest cannot be loaded") || !strings.Contains(msg, "lazytest.main") {
			t.Fatalf("full suite without lazytest = %v", r)
		}
		var loads []string
		for _, x := range r["failures"].([]any) {
			m := x.(map[string]any)
			if strings.Contains(m["message"].(string), "could not load") && strings.Contains(m["message"].(string), "lazytest is not on this JVM's classpath") {
				loads = append(loads, m["ns"].(string))
			}
		}
		slices.Sort(loads)
		if d := cmp.Diff([]string{"shop.cart-test", "shop.mixed-test"}, loads); d != "" {
			t.Errorf("load errors that name lazytest (-want +got):\n%s\nfailures: %v", d, r["failures"])
		}
		r = f.call("run_tests", "clojure", map[string]any{"ns": "shop.meta-test"})
		if msg, _ := r["error"].(string); r["is_pass"] != false || r["framework"] != "lazytest" || !strings.Contains(msg, "lazytest cannot be loaded") {
			t.Fatalf(":lazytest/test metadata without lazytest = %v", r)
		}
	})
}

// TestLazytestCLIRouting: a deps.edn project whose :test alias mains
// lazytest.main still runs `clojure -M:test` with Lazytest's own flags
// when the official CLI is installed, not our form.
func TestLazytestCLIRouting(t *testing.T) {
	t.Parallel()
	dir := lazyFixture(t, false)
	packtest.WriteFiles(t, dir, map[string]string{"deps.edn": `{:paths ["src"] :aliases {:test {:extra-paths ["test"] :main-opts ["-m" "lazytest.main"]}}}`})
	p := fakeTools(t, true, true, "clojure")
	pr := LoadProject(dir)
	sel, err := ParseSelection(map[string]any{"paths": []any{"test/shop/cart_test.clj::discount-test"}, "exclude": "slow"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Resolve(pr, dir, sel)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := p.Plan(context.Background(), "s1", pr, sel, res)
	if err != nil {
		t.Fatal(err)
	}
	got := append([]string{plan.Mode, plan.Runner, plan.Framework}, plan.Argv[1:]...)
	want := []string{"cli", "lazytest", "lazytest", "-M:test", "--var", "shop.cart-test/discount-test", "--exclude", "slow"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
}
