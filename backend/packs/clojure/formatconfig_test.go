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

// TestDetectFormatter: each kind of project configuration names its tool
// and the file that says so; the nearest directory wins; a project that
// names nothing (or only depends on zprint as a library) has no choice.
func TestDetectFormatter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files map[string]string
		dir   string // where the call runs, relative to the workspace
		want  formatterChoice
	}{
		{"cljfmt dotfile", map[string]string{".cljfmt.edn": "{}"}, ".",
			formatterChoice{"cljfmt", ".cljfmt.edn", "the project configures cljfmt (.cljfmt.edn)"}},
		{"cljfmt clj", map[string]string{".cljfmt.clj": "{}"}, ".",
			formatterChoice{"cljfmt", ".cljfmt.clj", "the project configures cljfmt (.cljfmt.clj)"}},
		{"cljfmt plain", map[string]string{"cljfmt.edn": "{}"}, ".",
			formatterChoice{"cljfmt", "cljfmt.edn", "the project configures cljfmt (cljfmt.edn)"}},
		{"lein :cljfmt", map[string]string{"project.clj": `(defproject a "1" :cljfmt {:indents {}})`}, ".",
			formatterChoice{"cljfmt", "project.clj", "the project configures cljfmt (project.clj :cljfmt)"}},
		{"lein plugin", map[string]string{"project.clj": `(defproject a "1" :plugins [[dev.weavejester/lein-cljfmt "0.12.0"]])`}, ".",
			formatterChoice{"cljfmt", "project.clj", "the project configures cljfmt (project.clj :plugins)"}},
		{"lein profile plugin", map[string]string{"project.clj": `(defproject a "1" :profiles {:dev {:plugins [[lein-zprint "1.2.9"]] :dependencies [[cljfmt "1"]]}})`}, ".",
			formatterChoice{"zprint", "project.clj", "the project configures zprint (project.clj :profiles :dev :plugins)"}},
		{"deps alias named cljfmt", map[string]string{"deps.edn": `{:aliases {:cljfmt {:deps {dev.weavejester/cljfmt {:mvn/version "0.12.0"}}}}}`}, ".",
			formatterChoice{"cljfmt", "deps.edn", "the project configures cljfmt (deps.edn :aliases :cljfmt)"}},
		{"deps alias running cljfmt", map[string]string{"deps.edn": `{:aliases {:fmt {:extra-deps {cljfmt/cljfmt {:mvn/version "0.9.2"}} :main-opts ["-m" "cljfmt.main" "fix"]}}}`}, ".",
			formatterChoice{"cljfmt", "deps.edn", "the project configures cljfmt (deps.edn :aliases :fmt)"}},
		{"zprint dotfile", map[string]string{".zprint.edn": "{:width 100}"}, ".",
			formatterChoice{"zprint", ".zprint.edn", "the project configures zprint (.zprint.edn)"}},
		{"zprintrc", map[string]string{".zprintrc": "{}"}, ".",
			formatterChoice{"zprint", ".zprintrc", "the project configures zprint (.zprintrc)"}},
		{"deps alias zprint", map[string]string{"deps.edn": `{:aliases {:zprint {:extra-deps {zprint/zprint {:mvn/version "1.2.9"}} :main-opts ["-m" "zprint.main"]}}}`}, ".",
			formatterChoice{"zprint", "deps.edn", "the project configures zprint (deps.edn :aliases :zprint)"}},
		{"standard-clj config", map[string]string{".standard-clj.edn": "{}"}, ".",
			formatterChoice{"standard-clj", ".standard-clj.edn", "the project configures standard-clj (.standard-clj.edn)"}},
		{"standard-clj npm", map[string]string{"package.json": `{"devDependencies": {"@chrisoakman/standard-clojure-style": "0.26.0"}}`}, ".",
			formatterChoice{"standard-clj", "package.json", "the project configures standard-clj (package.json @chrisoakman/standard-clojure-style)"}},
		{"nearest directory wins", map[string]string{".cljfmt.edn": "{}", "sub/.zprint.edn": "{}", "sub/src/a.clj": ""}, "sub/src",
			formatterChoice{"zprint", "sub/.zprint.edn", "the project configures zprint (sub/.zprint.edn)"}},
		{"a parent's config", map[string]string{".cljfmt.edn": "{}", "sub/deps.edn": `{:paths ["src"]}`}, "sub",
			formatterChoice{"cljfmt", ".cljfmt.edn", "the project configures cljfmt (.cljfmt.edn)"}},
		{"nothing configured", map[string]string{"deps.edn": `{:paths ["src"]}`}, ".", formatterChoice{}},
		{"zprint only as a library", map[string]string{"deps.edn": `{:aliases {:dev {:extra-deps {zprint/zprint {:mvn/version "1.2.9"}}}}}`}, ".", formatterChoice{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			packtest.WriteFiles(t, ws, c.files)
			if d := cmp.Diff(c.want, detectFormatter(ws, filepath.Join(ws, c.dir))); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	// Outside the workspace only the call's own directory is read.
	ws, other := t.TempDir(), t.TempDir()
	packtest.WriteFiles(t, ws, map[string]string{".cljfmt.edn": "{}"})
	if got := detectFormatter(ws, other); got.Tool != "" {
		t.Errorf("a directory outside the workspace read the workspace's config: %+v", got)
	}
}

// onlyStandardClj is a pack whose only formatter is a real standard-clj.
func onlyStandardClj(t *testing.T) *Pack {
	bin := standardClj(t)
	return New(Options{LookPath: func(name string) (string, error) {
		if name == "standard-clj" {
			return bin, nil
		}
		return "", exec.ErrNotFound
	}})
}

// TestFormatRefusesOtherFormatter: a cljfmt project on a machine with only
// standard-clj is refused with the tool, the file and how to install it,
// and its files are untouched (snippets too: they would take the wrong
// style).
func TestFormatRefusesOtherFormatter(t *testing.T) {
	t.Parallel()
	p := onlyStandardClj(t)
	for _, cfg := range []map[string]string{
		{".cljfmt.edn": "{:indents {}}"},
		{"deps.edn": `{:paths ["src"] :aliases {:cljfmt {:deps {dev.weavejester/cljfmt {:mvn/version "0.12.0"}} :main-opts ["-m" "cljfmt.main"]}}}`},
	} {
		dir := t.TempDir()
		messy := "(ns a.core)\n(defn add [a b]\n        (+ a b))\n"
		files := map[string]string{"src/a/core.clj": messy}
		var file string
		for k, v := range cfg {
			files[k], file = v, k
		}
		packtest.WriteFiles(t, dir, files)
		env, _ := sessionEnv(t, dir)
		for _, opts := range []map[string]any{nil, {"code": messy}, {"paths": []any{"src"}}} {
			_, err := p.format(context.Background(), env, call(dir, opts))
			if !errors.Is(err, ErrFormatterMissing) {
				t.Fatalf("%s %v: err = %v, want ErrFormatterMissing", file, opts, err)
			}
			for _, want := range []string{file + " configures cljfmt", "install cljfmt", "https://github.com/weavejester/cljfmt/releases", "does not restyle"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: the refusal %q does not say %q", file, err, want)
				}
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "src/a/core.clj")); string(b) != messy {
			t.Errorf("%s: the refused project's file was changed: %q", file, b)
		}
	}
}

// TestFormatStandardCljChosen: a project configuring standard-clj, and one
// configuring nothing, format with standard-clj and say why.
func TestFormatStandardCljChosen(t *testing.T) {
	t.Parallel()
	p := onlyStandardClj(t)
	messy := "(ns a.core)\n(defn add [a b]\n        (+ a b))\n"
	for _, c := range []struct {
		cfg map[string]string
		why string
	}{
		{map[string]string{".standard-clj.edn": "{}"}, "the project configures standard-clj (.standard-clj.edn)"},
		{map[string]string{}, "the project names no formatter; standard-clj is installed"},
	} {
		dir := t.TempDir()
		files := map[string]string{"deps.edn": `{:paths ["src"]}`, "src/a/core.clj": messy}
		for k, v := range c.cfg {
			files[k] = v
		}
		packtest.WriteFiles(t, dir, files)
		env, _ := sessionEnv(t, dir)
		out, err := p.format(context.Background(), env, call(dir, nil))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"changed": 1, "checked": 1, "formatter": "standard-clj", "why": c.why,
			"files": []any{map[string]any{"file": "src/a/core.clj", "changed": true, "delta": -6}}}
		if d := cmp.Diff(want, out.Value()); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "src/a/core.clj")); string(b) != "(ns a.core)\n(defn add [a b]\n  (+ a b))\n" {
			t.Errorf("formatted file = %q", b)
		}
	}
}
