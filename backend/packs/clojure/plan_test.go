package clojure

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// fakeTools is a pack whose installed tools are exactly the ones named
// (resolved to /opt/bin/<name>); official says whether `clojure` is the
// official CLI; jars whether Debian's jars are present.
func fakeTools(t *testing.T, official, jars bool, tools ...string) *Pack {
	t.Helper()
	jarDir := t.TempDir()
	if jars {
		for _, j := range debianJars {
			if err := os.WriteFile(filepath.Join(jarDir, j), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	have := map[string]bool{}
	for _, x := range tools {
		have[x] = true
	}
	return New(Options{
		JarDir: jarDir,
		LookPath: func(name string) (string, error) {
			if have[name] {
				return "/opt/bin/" + name, nil
			}
			return "", exec.ErrNotFound
		},
		OfficialCLI: func(context.Context) bool { return official },
	})
}

func project(t *testing.T, files map[string]string) *Project {
	t.Helper()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, files)
	return LoadProject(dir)
}

func TestREPLLauncherArgv(t *testing.T) {
	t.Parallel()
	deps := map[string]string{"deps.edn": `{:paths ["src"]}`, "src/a.clj": "(ns a)"}
	lein := map[string]string{"project.clj": `(defproject x "0.1.0" :dependencies [[org.clojure/clojure "1.11.1"]])`, "src/a.clj": "(ns a)"}
	bb := map[string]string{"bb.edn": `{:paths ["src"]}`, "src/a.clj": "(ns a)"}
	plain := map[string]string{"src/a.clj": "(ns a)", "test/a_test.clj": "(ns a-test)"}
	sdeps := `{:aliases {:vis/nrepl-launch {:extra-deps {nrepl/nrepl {:mvn/version "` + NREPLVersion + `"}} :main-opts ["-m" "nrepl.cmdline" "--port" "7000" "--bind" "127.0.0.1"]}}}`
	tests := []struct {
		name     string
		files    map[string]string
		official bool
		jars     bool
		tools    []string
		aliases  []string
		tool     string
		argv     func(dir string) []string
		noLaunch bool
	}{
		{name: "deps.edn with the official CLI", files: deps, official: true, tools: []string{"clojure", "java"}, jars: true, tool: "clj",
			argv: func(string) []string {
				return []string{"/opt/bin/clojure", "-Sdeps", sdeps, "-M:dev:test:vis/nrepl-launch"}
			}},
		{name: "deps.edn aliases added after dev:test", files: deps, official: true, tools: []string{"clojure"}, aliases: []string{"cider", "test"}, tool: "clj",
			argv: func(string) []string {
				return []string{"/opt/bin/clojure", "-Sdeps", sdeps, "-M:dev:test:cider:vis/nrepl-launch"}
			}},
		{name: "project.clj with lein", files: lein, tools: []string{"lein"}, tool: "lein",
			argv: func(string) []string { return []string{"/opt/bin/lein", "repl", ":headless", ":port", "7000"} }},
		{name: "project.clj profiles", files: lein, tools: []string{"lein"}, aliases: []string{"dev", "x"}, tool: "lein",
			argv: func(string) []string {
				return []string{"/opt/bin/lein", "with-profile", "+dev,+x", "repl", ":headless", ":port", "7000"}
			}},
		{name: "bb.edn with bb", files: bb, tools: []string{"bb"}, tool: "bb",
			argv: func(string) []string { return []string{"/opt/bin/bb", "nrepl-server", "7000"} }},
		{name: "deps.edn, Debian's clojure only", files: deps, official: false, tools: []string{"clojure", "java"}, jars: true, tool: "java",
			argv: func(dir string) []string {
				return []string{"/opt/bin/java", "-cp", "JARS:" + filepath.Join(dir, "src"), "clojure.main", "-m", "nrepl.cmdline", "--port", "7000", "--bind", "127.0.0.1"}
			}},
		{name: "plain sources, Debian jars", files: plain, tools: []string{"java"}, jars: true, tool: "java",
			argv: func(dir string) []string {
				return []string{"/opt/bin/java", "-cp", "JARS:" + filepath.Join(dir, "src") + ":" + filepath.Join(dir, "test"), "clojure.main", "-m", "nrepl.cmdline", "--port", "7000", "--bind", "127.0.0.1"}
			}},
		{name: "deps.edn, nothing installed", files: deps, tools: nil, noLaunch: true},
		{name: "java without the jars", files: plain, tools: []string{"java"}, jars: false, noLaunch: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fakeTools(t, tt.official, tt.jars, tt.tools...)
			pr := project(t, tt.files)
			l, err := p.REPLLauncher(context.Background(), pr, tt.aliases, 7000)
			if tt.noLaunch {
				if !errors.Is(err, ErrNoLauncher) || !strings.Contains(err.Error(), "install") {
					t.Fatalf("err = %v, want ErrNoLauncher saying what to install", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			jars, _ := p.jars(true)
			want := tt.argv(pr.Dir)
			for i, a := range want {
				want[i] = strings.Replace(a, "JARS", strings.Join(jars, ":"), 1)
			}
			if l.Tool != tt.tool {
				t.Errorf("tool = %s, want %s", l.Tool, tt.tool)
			}
			if d := cmp.Diff(want, l.Argv); d != "" {
				t.Errorf("argv (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseSelection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    map[string]any
		want    Selection
		wantErr string
	}{
		{name: "lists stay lists, even one", opts: map[string]any{"paths": []any{"test/a_test.clj"}, "nses": []any{"a-test"}, "include": []any{":slow"}},
			want: Selection{Paths: []string{"test/a_test.clj"}, Nses: []string{"a-test"}, Include: []string{"slow"},
				Echo: map[string]any{"paths": []any{"test/a_test.clj"}, "nses": []any{"a-test"}, "include": []any{"slow"}}}},
		{name: "a string stays a string", opts: map[string]any{"ns": "a-test/x-test", "exclude": "slow"},
			want: Selection{Nses: []string{"a-test/x-test"}, Exclude: []string{"slow"},
				Echo: map[string]any{"ns": "a-test/x-test", "exclude": "slow"}}},
		{name: "aliases and build", opts: map[string]any{"aliases": []any{":kaocha"}, "build": ":test"},
			want: Selection{Aliases: []string{"kaocha"}, Build: "test", Echo: map[string]any{"aliases": []any{"kaocha"}, "build": "test"}}},
		{name: "removed key refused", opts: map[string]any{"namespace": "a"}, wantErr: `does not take "namespace"`},
		{name: "only refused", opts: map[string]any{"only": "a/b"}, wantErr: `does not take "only"`},
		{name: "bad ns", opts: map[string]any{"ns": "(a)"}, wantErr: "not a namespace"},
		{name: "bad tag", opts: map[string]any{"include": "a b"}, wantErr: "not a metadata keyword"},
		{name: "bad type", opts: map[string]any{"nses": int64(3)}, wantErr: "must be a string or a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSelection(tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func fixtureProject(t *testing.T) *Project {
	t.Helper()
	return LoadProject(packtest.CopyFixture(t, "testdata/fixture"))
}

func TestResolve(t *testing.T) {
	t.Parallel()
	pr := fixtureProject(t)
	tests := []struct {
		name    string
		opts    map[string]any
		nses    []string
		vars    []VarSel
		wantErr string
	}{
		{name: "full suite", opts: map[string]any{}, nses: []string{"calc.core-test", "calc.other-test"}},
		{name: "a test file", opts: map[string]any{"paths": []any{"test/calc/core_test.clj"}}, nses: []string{"calc.core-test"}},
		{name: "a source file maps to its -test ns", opts: map[string]any{"paths": []any{"src/calc/core.clj"}}, nses: []string{"calc.core-test"}},
		{name: "node id", opts: map[string]any{"paths": []any{"test/calc/other_test.clj::div-test"}}, nses: []string{"calc.other-test"},
			vars: []VarSel{{Ns: "calc.other-test", Name: "div-test"}}},
		{name: "source node id", opts: map[string]any{"paths": []any{"src/calc/core.clj::add"}}, nses: []string{"calc.core-test"},
			vars: []VarSel{{Ns: "calc.core-test", Name: "add"}}},
		{name: "pathless ::name searches everywhere", opts: map[string]any{"paths": []any{"::div-test"}}, nses: []string{"calc.core-test", "calc.other-test"},
			vars: []VarSel{{Name: "div-test"}}},
		{name: "a directory", opts: map[string]any{"paths": []any{"test"}}, nses: []string{"calc.core-test", "calc.other-test"}},
		{name: "ns/var", opts: map[string]any{"ns": "calc.other-test/div-zero-test"}, nses: []string{"calc.other-test"},
			vars: []VarSel{{Ns: "calc.other-test", Name: "div-zero-test"}}},
		{name: "source ns", opts: map[string]any{"nses": []any{"calc.core"}}, nses: []string{"calc.core-test"}},
		{name: "missing path refused", opts: map[string]any{"paths": []any{"test/nope_test.clj"}}, wantErr: "no such file"},
		{name: "unknown ns refused", opts: map[string]any{"ns": "nope.x-test"}, wantErr: "no namespace nope.x-test"},
		{name: "mixed JVM and JS refused", opts: map[string]any{"paths": []any{"test/calc/core_test.clj", "x.cljs"}}, wantErr: "mixes .clj (JVM) and .cljs (JS)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseSelection(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Resolve(pr, pr.Dir, sel)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.nses, res.Nses); d != "" {
				t.Errorf("nses (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.vars, res.Vars); d != "" {
				t.Errorf("vars (-want +got):\n%s", d)
			}
			for _, ns := range res.Nses {
				if res.Files[ns] == "" {
					t.Errorf("no file for %s", ns)
				}
			}
		})
	}
}

func TestTestPlanArgv(t *testing.T) {
	t.Parallel()
	src := map[string]string{"src/a/core.clj": "(ns a.core)", "test/a/core_test.clj": "(ns a.core-test)", "test/a/b_test.clj": "(ns a.b-test)"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range src {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	cognitect := with(map[string]string{"deps.edn": `{:aliases {:test {:extra-paths ["test"] :main-opts ["-m" "cognitect.test-runner"]}}}`})
	kaochaM := with(map[string]string{"deps.edn": `{:aliases {:test {:main-opts ["-m" "kaocha.runner"]}}}`})
	kaochaX := with(map[string]string{"deps.edn": `{:aliases {:test {:exec-fn kaocha.runner/exec-fn :exec-args {}}}}`})
	lazy := with(map[string]string{"deps.edn": `{:aliases {:test {:extra-paths ["test"] :main-opts ["-m" "lazytest.main"]}}}`})
	bare := with(map[string]string{"deps.edn": `{:paths ["src"]}`})
	runnerAlias := with(map[string]string{"deps.edn": `{:aliases {:test {:extra-paths ["test"]} :kaocha {:main-opts ["-m" "kaocha.runner"]}}}`})
	unknown := with(map[string]string{"deps.edn": `{:aliases {:test {:main-opts ["-m" "my.runner"]}}}`})
	lein := with(map[string]string{"project.clj": `(defproject x "0.1.0" :test-selectors {:slow :slow})`})
	cognitectVars := with(map[string]string{
		"deps.edn":             `{:aliases {:test {:extra-paths ["test"] :main-opts ["-m" "cognitect.test-runner"]}}}`,
		"test/a/core_test.clj": "(ns a.core-test (:require [clojure.test :refer [deftest is]]))\n(deftest ^:slow add-test (is true))\n(deftest sub (is true))\n",
	})
	bb := with(map[string]string{"bb.edn": `{:tasks {test (shell "echo")}}`})
	tests := []struct {
		name    string
		files   map[string]string
		tools   []string
		opts    map[string]any
		argv    []string // without argv[0]; "FORM" stands for our -e form
		wantErr string
	}{
		{name: "cognitect ns focus", files: cognitect, tools: []string{"clojure"}, opts: map[string]any{"nses": []any{"a.core-test"}, "include": "slow"},
			argv: []string{"-M:test", "-d", "test", "-n", "a.core-test", "-i", ":slow"}},
		{name: "cognitect var focus", files: cognitect, tools: []string{"clojure"}, opts: map[string]any{"paths": []any{"test/a/b_test.clj::x-test"}},
			argv: []string{"-M:test", "-d", "test", "-v", "a.b-test/x-test"}},
		{name: "cognitect: a source var's node id names its -test var", files: cognitectVars, tools: []string{"clojure"}, opts: map[string]any{"paths": []any{"src/a/core.clj::add"}},
			argv: []string{"-M:test", "-d", "test", "-v", "a.core-test/add-test"}},
		{name: "cognitect: a test defined under the plain name keeps it", files: cognitectVars, tools: []string{"clojure"}, opts: map[string]any{"ns": "a.core/sub"},
			argv: []string{"-M:test", "-d", "test", "-v", "a.core-test/sub"}},
		{name: "cognitect full suite", files: cognitect, tools: []string{"clojure"}, opts: map[string]any{},
			argv: []string{"-M:test", "-d", "test"}},
		{name: "kaocha -M focus", files: kaochaM, tools: []string{"clojure"}, opts: map[string]any{"ns": "a.b-test", "exclude": []any{"slow"}},
			argv: []string{"-M:test", "--focus", "a.b-test", "--skip-meta", ":slow"}},
		{name: "kaocha -X focus", files: kaochaX, tools: []string{"clojure"}, opts: map[string]any{"ns": "a.b-test/y-test", "include": "fast"},
			argv: []string{"-X:test", ":kaocha.filter/focus", "[a.b-test/y-test]", ":kaocha.filter/focus-meta", "[:fast]"}},
		{name: "lazytest", files: lazy, tools: []string{"clojure"}, opts: map[string]any{"paths": []any{"::z"}, "nses": []any{"a.b-test"}},
			argv: []string{"-M:test", "--var", "a.b-test/z"}},
		{name: "a runner alias is selected by aliases, :test kept", files: runnerAlias, tools: []string{"clojure"}, opts: map[string]any{"aliases": []any{"kaocha"}, "ns": "a.b-test"},
			argv: []string{"-M:test:kaocha", "--focus", "a.b-test"}},
		{name: "no :test alias is never invented", files: bare, tools: []string{"clojure"}, opts: map[string]any{},
			argv: []string{"-Sdeps", `{:aliases {:vis/test-paths {:extra-paths ["test"]}}}`, "-M:vis/test-paths", "-e", "FORM"}},
		{name: "undeclared alias refused", files: bare, tools: []string{"clojure"}, opts: map[string]any{"aliases": "nope"}, wantErr: "declares no alias :nope"},
		{name: "unknown runner refuses focus", files: unknown, tools: []string{"clojure"}, opts: map[string]any{"ns": "a.b-test"}, wantErr: "unsupported focus"},
		{name: "unknown runner runs the full suite", files: unknown, tools: []string{"clojure"}, opts: map[string]any{}, argv: []string{"-M:test"}},
		{name: "lein ns", files: lein, tools: []string{"lein"}, opts: map[string]any{"nses": []any{"a.b-test", "a.core-test"}, "include": "slow"},
			argv: []string{"test", "a.b-test", "a.core-test", ":slow"}},
		{name: "lein :only", files: lein, tools: []string{"lein"}, opts: map[string]any{"ns": "a.b-test/x-test", "aliases": "ci"},
			argv: []string{"with-profile", "+ci", "test", ":only", "a.b-test/x-test"}},
		{name: "lein undeclared selector", files: lein, tools: []string{"lein"}, opts: map[string]any{"include": "fast"}, wantErr: ":test-selectors"},
		{name: "lein exclude", files: lein, tools: []string{"lein"}, opts: map[string]any{"exclude": "slow"}, wantErr: "unsupported focus"},
		{name: "bb full suite", files: bb, tools: []string{"bb"}, opts: map[string]any{}, argv: []string{"test"}},
		{name: "bb focus refused", files: bb, tools: []string{"bb"}, opts: map[string]any{"ns": "a.b-test"}, wantErr: "unsupported focus"},
		{name: "Debian jars", files: bare, tools: []string{"java"}, opts: map[string]any{"ns": "a.b-test"},
			argv: []string{"-cp", "JARS", "clojure.main", "-e", "FORM"}},
		{name: "Debian jars cannot apply aliases", files: bare, tools: []string{"java"}, opts: map[string]any{"aliases": "x"}, wantErr: "need the official Clojure CLI"},
		{name: "nothing installed", files: bare, tools: nil, opts: map[string]any{}, wantErr: "install"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fakeTools(t, true, true, tt.tools...)
			pr := project(t, tt.files)
			sel, err := ParseSelection(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Resolve(pr, pr.Dir, sel)
			if err == nil {
				var plan TestPlan
				plan, err = p.Plan(context.Background(), "s", pr, sel, res)
				if err == nil && tt.wantErr == "" {
					got := plan.Argv[1:]
					for i, a := range got {
						if strings.HasPrefix(a, "(do (require 'clojure.test)") {
							got[i] = "FORM"
						}
						if i > 0 && got[i-1] == "-cp" {
							got[i] = "JARS"
						}
					}
					if d := cmp.Diff(tt.argv, got); d != "" {
						t.Errorf("argv (-want +got):\n%s", d)
					}
					if plan.Mode != "cli" {
						t.Errorf("mode = %s, want cli", plan.Mode)
					}
					return
				}
			}
			if tt.wantErr == "" {
				t.Fatal(err)
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestShadowTestPlan(t *testing.T) {
	t.Parallel()
	src := map[string]string{"src/a/core.cljs": "(ns a.core)", "test/a/core_test.cljs": "(ns a.core-test)", "test/a/b_test.cljc": "(ns a.b-test)",
		"node_modules/.bin/shadow-cljs": ""}
	with := func(shadow string) map[string]string {
		m := map[string]string{"shadow-cljs.edn": shadow}
		for k, v := range src {
			m[k] = v
		}
		return m
	}
	one := with(`{:builds {:app {:target :browser} :test {:target :node-test :output-to "out/t.js"}}}`)
	two := with(`{:builds {:test {:target :node-test} :ci {:target :node-test}}}`)
	dyn := with(`{:builds {:test {:target :node-test :output-to #shadow/env "OUT"}}}`)
	ext := with(`{:builds #shadow/include "builds.edn"}`)
	browser := with(`{:builds {:bt {:target :browser-test :test-dir "out/bt"}}}`)
	tests := []struct {
		name    string
		files   map[string]string
		opts    map[string]any
		argv    []string
		compile []string
		wantErr string
	}{
		{name: "a .cljs file runs its ns through the node-test build", files: one, opts: map[string]any{"paths": []any{"test/a/core_test.cljs"}},
			argv: []string{"out/t.js", "--test=a.core-test"}, compile: []string{"compile", "test", "--config-merge", "{:autorun false}"}},
		{name: ".cljc with build runs as JS", files: one, opts: map[string]any{"paths": []any{"test/a/b_test.cljc"}, "build": "test"},
			argv: []string{"out/t.js", "--test=a.b-test"}, compile: []string{"compile", "test", "--config-merge", "{:autorun false}"}},
		{name: "ambiguous builds refused", files: two, opts: map[string]any{}, wantErr: "ambiguous shadow builds: ci, test"},
		{name: "ambiguous with a cljs path", files: two, opts: map[string]any{"paths": []any{"test/a/core_test.cljs"}}, wantErr: "ambiguous shadow builds"},
		{name: "dynamic output refused", files: dyn, opts: map[string]any{"build": "test"}, wantErr: "dynamic shadow setting"},
		{name: "external config refused", files: ext, opts: map[string]any{"build": "test"}, wantErr: "external shadow config"},
		{name: "var focus refused on JS", files: one, opts: map[string]any{"paths": []any{"test/a/core_test.cljs::x"}}, wantErr: "namespace focus only"},
		{name: "tags refused on JS", files: one, opts: map[string]any{"build": "test", "include": "slow"}, wantErr: "namespace focus only"},
		{name: "unknown build", files: one, opts: map[string]any{"build": "nope"}, wantErr: "no build :nope"},
		{name: "not a test build", files: one, opts: map[string]any{"build": "app"}, wantErr: "not a test target"},
		{name: "browser-test is not run here", files: browser, opts: map[string]any{"build": "bt"}, wantErr: "node-test builds only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fakeTools(t, true, true, "node")
			pr := project(t, tt.files)
			sel, err := ParseSelection(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Resolve(pr, pr.Dir, sel)
			var plan TestPlan
			if err == nil {
				plan, err = p.Plan(context.Background(), "s", pr, sel, res)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.argv, plan.Argv[1:]); d != "" {
				t.Errorf("argv (-want +got):\n%s", d)
			}
			if len(plan.Steps) != 1 || cmp.Diff(tt.compile, plan.Steps[0][1:]) != "" {
				t.Errorf("compile step = %v, want %v", plan.Steps, tt.compile)
			}
		})
	}
}

func TestResolveTarget(t *testing.T) {
	t.Parallel()
	a := &repl{id: "nrepl:/w", dir: "/w"}
	aExt := &repl{id: "nrepl:/w#external", dir: "/w"}
	b := &repl{id: "nrepl:/w/b", dir: "/w/b"}
	c := &repl{id: "nrepl:/x", dir: "/x"}
	tests := []struct {
		name    string
		live    []*repl
		id, cwd string
		cwdSet  bool
		want    *repl
		wantErr string
		note    bool
	}{
		{name: "none", live: nil, cwd: "/w", wantErr: "start one with repl_start"},
		{name: "the only one, whatever cwd", live: []*repl{c}, cwd: "/w", want: c},
		{name: "explicit id", live: []*repl{a, b, c}, id: "nrepl:/x", cwd: "/w", want: c},
		{name: "default sentinel means no id", live: []*repl{b, c}, id: "default", cwd: "/x", want: c},
		{name: "rooted at cwd", live: []*repl{a, b, c}, cwd: "/w/b", want: b},
		{name: "managed before its attachment", live: []*repl{a, aExt, c}, cwd: "/w", want: a},
		{name: "else the first by folder", live: []*repl{b, c}, cwd: "/elsewhere", want: b},
		{name: "unknown id lists the live ones", live: []*repl{a, c}, id: "nrepl:/nope", wantErr: "live: nrepl:/w, nrepl:/x"},
		{name: "stale id with the default cwd is still an error", live: []*repl{a, c}, id: "nrepl:/nope", cwd: "/x", wantErr: "no Clojure REPL with id"},
		{name: "stale id plus an explicit cwd falls back to it", live: []*repl{a, b, c}, id: "nrepl:/gone", cwd: "/x", cwdSet: true, want: c, note: true},
		{name: "stale id plus cwd, no REPL there: the first", live: []*repl{b, c}, id: "nrepl:/gone", cwd: "/y", cwdSet: true, want: b, note: true},
		{name: "stale id and no REPL at all", live: nil, id: "nrepl:/gone", cwd: "/x", cwdSet: true, wantErr: "start one with repl_start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, note, err := resolveTarget(tt.live, tt.id, tt.cwd, tt.cwdSet)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got.id, tt.want.id)
			}
			if (note != "") != tt.note {
				t.Errorf("note = %q, want a note: %v", note, tt.note)
			}
		})
	}
}

func TestActivation(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		files map[string]string
		want  bool
	}{
		{map[string]string{"deps.edn": "{}"}, true},
		{map[string]string{"project.clj": "(defproject x \"1\")"}, true},
		{map[string]string{"shadow-cljs.edn": "{}"}, true},
		{map[string]string{"bb.edn": "{}"}, true},
		{map[string]string{"src/x/y.cljc": "(ns x.y)"}, true},
		{map[string]string{"config.edn": "{}", "main.py": ""}, false},
	} {
		dir := t.TempDir()
		packtest.WriteFiles(t, dir, tt.files)
		if got := Active(packtest.Environment(dir)); got != tt.want {
			t.Errorf("Active(%v) = %v, want %v", tt.files, got, tt.want)
		}
	}
}
