package clojure

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// toolPack is a pack whose only tools are the given scripts.
func toolPack(t *testing.T, scripts map[string]string) *Pack {
	t.Helper()
	bin := t.TempDir()
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return New(Options{LookPath: func(name string) (string, error) {
		if _, ok := scripts[name]; ok {
			return filepath.Join(bin, name), nil
		}
		return "", exec.ErrNotFound
	}})
}

// fakeCljfmt collapses runs of spaces, in place, like `cljfmt fix` would
// normalise whitespace.
const fakeCljfmt = `shift; shift; for f in "$@"; do sed -i 's/  */ /g' "$f"; done`

func TestFormat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"deps.edn":          `{:paths ["src"]}`,
		"src/a/core.clj":    "(ns a.core)\n(defn f  [x]   x)\n",
		"src/a/tidy.clj":    "(ns a.tidy)\n",
		"target/gen.clj":    "(ns  gen)\n",
		"src/a/notes.txt":   "a  b\n",
		"test/a/x_test.clj": "(ns   a.x-test)\n",
	})
	p := toolPack(t, map[string]string{"cljfmt": fakeCljfmt})
	env, _ := sessionEnv(t, dir)
	out, err := p.format(context.Background(), env, call(dir, map[string]any{"code": "(+  1   2)"}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"changed": true, "delta": -3, "chars": 7, "formatter": "cljfmt", "why": "the project names no formatter; cljfmt is installed"}, out.Value()); d != "" {
		t.Errorf("snippet (-want +got):\n%s", d)
	}
	out, err = p.format(context.Background(), env, call(dir, map[string]any{}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"changed": 2, "checked": 3, "formatter": "cljfmt", "why": "the project names no formatter; cljfmt is installed", "files": []any{
		map[string]any{"file": "src/a/core.clj", "changed": true, "delta": -3},
		map[string]any{"file": "test/a/x_test.clj", "changed": true, "delta": -2},
	}}
	if d := cmp.Diff(want, out.Value()); d != "" {
		t.Errorf("default paths (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "target/gen.clj")); string(b) != "(ns  gen)\n" {
		t.Error("a build folder was formatted")
	}
	if _, err := p.format(context.Background(), env, call(dir, map[string]any{"paths": []any{"nope"}})); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing path: %v", err)
	}
	none := toolPack(t, nil)
	if _, err := none.format(context.Background(), env, call(dir, nil)); err == nil || !strings.Contains(err.Error(), "install cljfmt") || !strings.Contains(err.Error(), "zprint") {
		t.Errorf("no formatter: %v", err)
	}
}

// standardClj finds a real Standard Clojure Style formatter: on PATH, or the
// one scripts/deps.sh test installs under tools/clojure.
func standardClj(t *testing.T) string {
	t.Helper()
	if b, err := exec.LookPath("standard-clj"); err == nil {
		return b
	}
	b, err := filepath.Abs("../../../tools/clojure/node_modules/.bin/standard-clj")
	if err == nil {
		if _, err = os.Stat(b); err == nil {
			return b
		}
	}
	t.Skip("standard-clj is not installed (scripts/deps.sh test installs it under tools/clojure)")
	return ""
}

// TestFormatStandardClojureStyle formats with a real formatter: a snippet
// (changed, never text), files in place with per-file rows, and a file
// already formatted left alone.
func TestFormatStandardClojureStyle(t *testing.T) {
	t.Parallel()
	bin := standardClj(t)
	p := New(Options{LookPath: func(name string) (string, error) {
		if name == "standard-clj" {
			return bin, nil
		}
		return "", exec.ErrNotFound
	}})
	dir := t.TempDir()
	messy := "(ns a.core)\n(defn add [a b]\n        (+ a b))\n"
	packtest.WriteFiles(t, dir, map[string]string{
		"deps.edn":        `{:paths ["src"]}`,
		"src/a/core.clj":  messy,
		"src/a/tidy.cljc": "(ns a.tidy)\n\n(defn id [x]\n  x)\n",
	})
	env, _ := sessionEnv(t, dir)
	out, err := p.format(context.Background(), env, call(dir, map[string]any{"code": messy}))
	if err != nil {
		t.Fatal(err)
	}
	if v := out.Value(); v["changed"] != true || v["formatter"] != "standard-clj" || v["delta"] != -6 || v["chars"] != len(messy)-6 {
		t.Fatalf("snippet = %v", v)
	}
	if _, ok := out.Value()["code"]; ok {
		t.Errorf("format_code returned text: %v", out)
	}
	out, err = p.format(context.Background(), env, call(dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"changed": 1, "checked": 2, "formatter": "standard-clj", "why": "the project names no formatter; standard-clj is installed",
		"files": []any{map[string]any{"file": "src/a/core.clj", "changed": true, "delta": -6}}}
	if d := cmp.Diff(want, out.Value()); d != "" {
		t.Errorf("paths (-want +got):\n%s", d)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "src/a/core.clj"))
	if string(got) != "(ns a.core)\n(defn add [a b]\n  (+ a b))\n" {
		t.Errorf("formatted file = %q", got)
	}
}

// TestFormatEnvArgs: the call's env reaches the formatter's environment and
// its args come before the files.
func TestFormatEnvArgs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"deps.edn": `{:paths ["src"]}`, "src/a/core.clj": "(ns a.core)\n"})
	seen := filepath.Join(t.TempDir(), "seen")
	p := toolPack(t, map[string]string{"cljfmt": `echo "$VIS_FMT_MARK $*" > ` + seen})
	env, _ := sessionEnv(t, dir)
	if _, err := p.format(context.Background(), env, call(dir, map[string]any{
		"env": map[string]any{"VIS_FMT_MARK": "marked"}, "args": []any{"--indents", "x.edn"}})); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(seen)
	if want := "marked fix --quiet --indents x.edn " + filepath.Join(dir, "src/a/core.clj") + "\n"; string(got) != want {
		t.Errorf("the formatter saw %q, want %q", got, want)
	}
	if _, err := p.format(context.Background(), env, call(dir, map[string]any{"args": "--indents x.edn"})); err == nil || !strings.Contains(err.Error(), "list of strings") {
		t.Errorf("args as one string: %v", err)
	}
}
