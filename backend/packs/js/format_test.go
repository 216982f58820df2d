package js

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

// jsTool finds a real formatter/linter: the one scripts/deps.sh test
// installs under tools/js-fmt-lint, else PATH; the test is skipped, saying
// so, only when neither has it.
func jsTool(t *testing.T, name string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skipf("node is not installed, so %s cannot run", name)
	}
	if b, err := filepath.Abs(filepath.Join("..", "..", "..", "tools", "js-fmt-lint", "node_modules", ".bin", name)); err == nil && isExec(b) {
		return b
	}
	if b, err := exec.LookPath(name); err == nil {
		return b
	}
	t.Skipf("%s is not installed: neither tools/js-fmt-lint/node_modules/.bin/%s (scripts/deps.sh test installs it) nor %s on PATH", name, name, name)
	return ""
}

// installBin makes bin the project's own node_modules/.bin/name.
func installBin(t *testing.T, dir, name, bin string) {
	t.Helper()
	d := filepath.Join(dir, "node_modules", ".bin")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(d, name)); err != nil {
		t.Fatal(err)
	}
}

func TestDetectTool(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		files     map[string]string
		rules     []toolRule
		want, why string
	}{
		{"format script wins over a prettierrc", map[string]string{"package.json": `{"scripts": {"format": "biome format --write ."}}`, ".prettierrc": "{}"}, formatterRules, "biome", "package.json scripts.format runs biome"},
		{"fmt script through npx", map[string]string{"package.json": `{"scripts": {"fmt": "npx prettier --write ."}}`}, formatterRules, "prettier", "package.json scripts.fmt runs prettier"},
		{"biome.jsonc", map[string]string{"package.json": `{}`, "biome.jsonc": "{}"}, formatterRules, "biome", "the project configures it (biome.jsonc)"},
		{"oxfmt config", map[string]string{"package.json": `{}`, ".oxfmtrc.json": "{}"}, formatterRules, "oxfmt", "the project configures it (.oxfmtrc.json)"},
		{"prettierrc", map[string]string{"package.json": `{}`, ".prettierrc.yaml": ""}, formatterRules, "prettier", "the project configures it (.prettierrc.yaml)"},
		{"package.json prettier key", map[string]string{"package.json": `{"prettier": {"semi": false}}`}, formatterRules, "prettier", `the project configures it (package.json "prettier")`},
		{"devDependencies", map[string]string{"package.json": `{"devDependencies": {"oxfmt": "0.79.0"}}`}, formatterRules, "oxfmt", "package.json devDependencies names oxfmt"},
		{"nothing", map[string]string{"package.json": `{}`}, formatterRules, "", ""},
		{"lint script", map[string]string{"package.json": `{"scripts": {"lint": "eslint src"}}`, "biome.json": "{}"}, linterRules, "eslint", "package.json scripts.lint runs eslint"},
		{"eslint flat config", map[string]string{"package.json": `{}`, "eslint.config.mjs": ""}, linterRules, "eslint", "the project configures it (eslint.config.mjs)"},
		{"biome lints", map[string]string{"package.json": `{}`, "biome.json": "{}"}, linterRules, "biome", "the project configures it (biome.json)"},
		{"no linter", map[string]string{"package.json": `{"devDependencies": {"prettier": "3"}}`}, linterRules, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			packtest.WriteFiles(t, dir, tc.files)
			got, why := detectTool(dir, dir, tc.rules, map[bool][]string{true: lintScripts, false: formatScripts}[kindOf(tc.rules) == "linter"])
			if got != tc.want || why != tc.why {
				t.Fatalf("detectTool = %q, %q; want %q, %q", got, why, tc.want, tc.why)
			}
		})
	}
}

// TestFormatBiomeProject: a project configured for biome is formatted by
// its biome, not the prettier also installed in it, and the result says so.
func TestFormatBiomeProject(t *testing.T) {
	t.Parallel()
	biome, prettier := jsTool(t, "biome"), jsTool(t, "prettier")
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"package.json": `{"scripts": {"format": "biome format --write ."}, "devDependencies": {"@biomejs/biome": "2.6.8", "prettier": "3.10.1"}}`,
		"biome.json":   `{"formatter": {"indentStyle": "tab"}}`,
		"src/a.ts":     "function f(){return 1}\n",
		"src/tidy.js":  "const b = 2;\n",
	})
	installBin(t, dir, "biome", biome)
	installBin(t, dir, "prettier", prettier)
	env, _ := packtest.ToolEnv(t, dir)
	snip, err := Format(context.Background(), env, call("typescript", dir, map[string]any{"code": "function f(){return 1}"}))
	if err != nil {
		t.Fatal(err)
	}
	want := "function f() {\n\treturn 1;\n}\n" // biome's tabs; prettier would indent with spaces
	sv := snip.Value()
	if why, _ := sv["why"].(string); !strings.Contains(why, "biome") {
		t.Errorf("the result does not say why biome ran: %q", why)
	}
	delete(sv, "why")
	if d := cmp.Diff(map[string]any{"changed": true, "delta": len(want) - len("function f(){return 1}"), "chars": len(want), "formatter": "biome"}, sv); d != "" {
		t.Fatalf("snippet (-want +got):\n%s", d)
	}
	got, err := Format(context.Background(), env, call("typescript", dir, map[string]any{"paths": []any{"src"}}))
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := map[string]any{"changed": 1, "checked": 2, "formatter": "biome", "files": []any{map[string]any{"file": "src/a.ts", "changed": true, "delta": len(want) - len("function f(){return 1}\n")}}}
	gv := got.Value()
	delete(gv, "why")
	if d := cmp.Diff(wantFiles, gv); d != "" {
		t.Fatalf("files (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src/a.ts")); string(b) != want {
		t.Fatalf("src/a.ts = %q", b)
	}
}

// TestFormatOxfmtProject: an oxfmt-configured project is formatted by oxfmt.
func TestFormatOxfmtProject(t *testing.T) {
	t.Parallel()
	oxfmt := jsTool(t, "oxfmt")
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"package.json": `{}`, ".oxfmtrc.json": `{"semi": false}`, "src/a.js": "let  a=[1,2];\n"})
	installBin(t, dir, "oxfmt", oxfmt)
	env, _ := packtest.ToolEnv(t, dir)
	got, err := Format(context.Background(), env, call("javascript", dir, map[string]any{"paths": []any{"src"}}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"changed": 1, "formatter": "oxfmt", "why": "the project configures it (.oxfmtrc.json)", "files": []any{map[string]any{"file": "src/a.js", "changed": true, "delta": 1}}}, got.Value()); d != "" {
		t.Fatalf("files (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src/a.js")); string(b) != "let a = [1, 2]\n" {
		t.Fatalf("src/a.js = %q", b)
	}
}

// TestFormatToolNotInstalled: a project naming a formatter that is neither
// in its node_modules nor on PATH is refused with what to install, and no
// other formatter runs instead.
func TestFormatToolNotInstalled(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{"package.json": `{}`, "biome.json": "{}", "a.js": "const  a=1\n"})
	env, _ := packtest.ToolEnv(t, dir)
	_, err := Format(context.Background(), env, call("javascript", dir, map[string]any{"paths": []any{"a.js"}}))
	if !errors.Is(err, ErrNoFormatter) || !strings.Contains(err.Error(), "npm install --save-dev @biomejs/biome") || !strings.Contains(err.Error(), "biome.json") {
		t.Fatalf("err = %v", err)
	}
}
