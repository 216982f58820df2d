package clojure

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// testTargets are the shadow-cljs targets that build a test runner.
var testTargets = map[string]bool{"node-test": true, "browser-test": true, "karma": true}

// dynamicKeys are build settings that decide where output goes or which
// tests are selected; when they are computed (a tagged literal such as
// #shadow/env, a reader conditional) the pack refuses instead of guessing.
var dynamicKeys = []string{"output-to", "output-dir", "ns-regexp", "test-dir", "autorun", "main", "runner-ns", "build-options"}

// shadowPlan runs ClojureScript tests through the project's shadow-cljs
// build: compile the :node-test build without autorun, then run node on
// its output with the namespace focus (the JS side supports namespace
// focus only).
func (p *Pack) shadowPlan(ctx context.Context, proj *Project, sel Selection, res Resolved) (TestPlan, error) {
	if !proj.HasShadow {
		return TestPlan{}, fmt.Errorf("clojure run_tests: ClojureScript tests run through the project's shadow-cljs build, and %s has no shadow-cljs.edn", tilde(proj.Dir))
	}
	buildsV := proj.Shadow.Kw("builds")
	builds, ok := buildsV.(Map)
	if !ok {
		return TestPlan{}, fmt.Errorf("clojure run_tests: external shadow config: :builds in shadow-cljs.edn is not a literal map (%s); refused rather than guessed", describeEDN(buildsV))
	}
	var testBuilds []string
	cfgs := map[string]Map{}
	for _, e := range builds {
		id := asString(e.Key)
		m, ok := e.Value.(Map)
		if !ok {
			if id == sel.Build {
				return TestPlan{}, fmt.Errorf("clojure run_tests: external shadow config: build :%s is %s, not a literal map; refused rather than guessed", id, describeEDN(e.Value))
			}
			continue
		}
		cfgs[id] = m
		if testTargets[asString(m.Kw("target"))] {
			testBuilds = append(testBuilds, id)
		}
	}
	sort.Strings(testBuilds)
	build := sel.Build
	switch {
	case build != "":
		m, ok := cfgs[build]
		if !ok {
			var all []string
			for id := range cfgs {
				all = append(all, id)
			}
			sort.Strings(all)
			return TestPlan{}, fmt.Errorf("clojure run_tests: shadow-cljs.edn has no build :%s (builds: %s)", build, strings.Join(all, ", "))
		}
		if t := asString(m.Kw("target")); !testTargets[t] {
			return TestPlan{}, fmt.Errorf("clojure run_tests: build :%s has :target :%s, not a test target (:node-test, :browser-test, :karma); test builds: %s", build, t, short(testBuilds, 8))
		}
	case len(testBuilds) == 0:
		return TestPlan{}, fmt.Errorf("clojure run_tests: shadow-cljs.edn declares no test build (a build with :target :node-test); add one to run ClojureScript tests")
	case len(testBuilds) > 1:
		return TestPlan{}, fmt.Errorf("clojure run_tests: ambiguous shadow builds: %s all build tests; pass build, e.g. {\"build\": %q}", strings.Join(testBuilds, ", "), testBuilds[0])
	default:
		build = testBuilds[0]
	}
	cfg := cfgs[build]
	if hasTagged(cfg.Kw("target")) {
		return TestPlan{}, fmt.Errorf("clojure run_tests: dynamic shadow setting: build :%s computes its :target; refused rather than guessed", build)
	}
	for _, k := range dynamicKeys {
		if v := cfg.Kw(k); v != nil && hasTagged(v) {
			return TestPlan{}, fmt.Errorf("clojure run_tests: dynamic shadow setting: build :%s computes :%s (%s), so where its output goes or which tests it selects is only known to shadow-cljs; refused rather than guessed", build, k, describeEDN(v))
		}
	}
	if len(res.Vars) > 0 || len(sel.Include) > 0 || len(sel.Exclude) > 0 {
		return TestPlan{}, fmt.Errorf("clojure run_tests: unsupported focus: the ClojureScript (shadow-cljs) adapter supports namespace focus only, not test vars (::name, ns/var) or include/exclude tags")
	}
	target := asString(cfg.Kw("target"))
	if target != "node-test" {
		return TestPlan{}, fmt.Errorf("clojure run_tests: build :%s has :target :%s, which runs in a browser or karma; Vis runs :node-test builds only (add a :node-test build)", build, target)
	}
	shadow := filepath.Join(proj.Dir, "node_modules", ".bin", "shadow-cljs")
	if !exists(proj.Dir, filepath.Join("node_modules", ".bin", "shadow-cljs")) {
		bin, err := p.opts.LookPath("shadow-cljs")
		if err != nil {
			return TestPlan{}, fmt.Errorf("clojure run_tests: shadow-cljs is not installed for %s: `npm install --save-dev shadow-cljs` in the project", tilde(proj.Dir))
		}
		shadow = bin
	}
	node, err := p.opts.LookPath("node")
	if err != nil {
		return TestPlan{}, fmt.Errorf("clojure run_tests: node is not installed (a :node-test build runs on Node.js)")
	}
	out := asString(cfg.Kw("output-to"))
	if out == "" {
		out = "out/node-tests.js"
	}
	argv := []string{node, out}
	if len(sel.Paths) > 0 || len(sel.Nses) > 0 {
		argv = append(argv, "--test="+strings.Join(res.Nses, ","))
	}
	compile := []string{shadow, "compile", build, "--config-merge", "{:autorun false}"}
	return TestPlan{Mode: "cli", Tool: "shadow-cljs", Steps: [][]string{compile}, Argv: argv,
		Runner: "shadow-cljs " + build, Framework: "cljs.test"}, nil
}

func describeEDN(v any) string {
	switch x := v.(type) {
	case Tagged:
		return "#" + x.Tag + " …"
	case ReaderCond:
		return "a reader conditional"
	case nil:
		return "absent"
	}
	return fmt.Sprintf("%T", v)
}
