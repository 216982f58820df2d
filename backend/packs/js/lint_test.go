package js

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// TestLintESLint: the project's eslint with its flat config finds a seeded
// problem, with workspace-relative file, line, column and rule, on files
// and on a snippet.
func TestLintESLint(t *testing.T) {
	t.Parallel()
	eslint := jsTool(t, "eslint")
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"package.json":     `{"type": "module", "scripts": {"lint": "eslint ."}}`,
		"eslint.config.js": `export default [{ rules: { "no-unused-vars": "error", "no-undef": "warn" } }];` + "\n",
		"src/a.js":         "const unused = 1;\nexport function f() {\n  return missing;\n}\n",
		"src/clean.js":     "export const b = 2;\n",
	})
	installBin(t, dir, "eslint", eslint)
	env, _ := packtest.ToolEnv(t, dir)
	got, err := Lint(context.Background(), env, call("javascript", dir, map[string]any{"cwd": dir}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"findings": []any{
			map[string]any{"file": "src/a.js", "row": 1, "col": 7, "level": "error", "type": "no-unused-vars", "message": "'unused' is assigned a value but never used.", "provider": "eslint"},
			map[string]any{"file": "src/a.js", "row": 3, "col": 10, "level": "warning", "type": "no-undef", "message": "'missing' is not defined.", "provider": "eslint"},
		},
		"counts": map[string]any{"error": 1, "warning": 1, "info": 0}, "total": 2, "clean": false,
		"provider": "eslint", "why": "package.json scripts.lint runs eslint",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("lint (-want +got):\n%s", d)
	}
	snip, err := Lint(context.Background(), env, call("javascript", dir, map[string]any{"code": "export const x = y;\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if f := snip["findings"].([]any); len(f) != 1 || f[0].(map[string]any)["file"] != "code" || f[0].(map[string]any)["type"] != "no-undef" || f[0].(map[string]any)["row"] != 1 {
		t.Fatalf("snippet = %v", snip)
	}
}

// TestLintBiome: a biome project is linted by biome's recommended rules.
func TestLintBiome(t *testing.T) {
	t.Parallel()
	biome := jsTool(t, "biome")
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"devDependencies": {"@biomejs/biome": "2.6.8"}}`,
		"biome.json":   `{"linter": {"enabled": true, "rules": {"recommended": true}}}`,
		"web/src/a.js": "export function f() {\n  debugger;\n}\n",
	})
	installBin(t, dir, "biome", biome)
	env, _ := packtest.ToolEnv(t, dir)
	got, err := Lint(context.Background(), env, call("javascript", dir, map[string]any{"paths": []any{"web"}}))
	if err != nil {
		t.Fatal(err)
	}
	rows := got["findings"].([]any)
	if len(rows) != 1 || got["provider"] != "biome" {
		t.Fatalf("lint = %v", got)
	}
	r := rows[0].(map[string]any)
	if r["file"] != "web/src/a.js" || r["row"] != 2 || r["col"] != 3 || r["type"] != "lint/suspicious/noDebugger" || r["level"] != "error" {
		t.Fatalf("row = %v", r)
	}
	snip, err := Lint(context.Background(), env, call("javascript", dir, map[string]any{"code": "debugger;\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if f := snip["findings"].([]any); len(f) != 1 || f[0].(map[string]any)["file"] != "code" || f[0].(map[string]any)["type"] != "lint/suspicious/noDebugger" {
		t.Fatalf("snippet = %v", snip)
	}
}

// TestLintNoLinter: a project with no linter named or installed is refused
// with what to install.
func TestLintNoLinter(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"package.json": "{}", "a.js": "x\n"})
	env, _ := packtest.ToolEnv(t, dir)
	if _, err := Lint(context.Background(), env, call("javascript", dir, nil)); !errors.Is(err, ErrNoLinter) {
		t.Fatalf("err = %v", err)
	}
}
