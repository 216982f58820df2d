package python

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/langtools"
)

func TestDetectStyle(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                      string
		files                     map[string]string
		dir                       string // the call's directory, relative to the workspace
		formatter, fmtWhy, linter string
	}{
		{"nothing", map[string]string{"a.py": "x = 1\n"}, ".", "", "", ""},
		{"tool.ruff", map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n\n[tool.ruff]\nline-length = 100\n"}, ".",
			"ruff", "pyproject.toml [tool.ruff]", "ruff"},
		{"tool.ruff.lint only", map[string]string{"pyproject.toml": "[tool.ruff.lint]\nselect = [\"E\"]\n"}, ".",
			"ruff", "pyproject.toml [tool.ruff]", "ruff"},
		{"tool.black", map[string]string{"pyproject.toml": "[tool.black]\nline-length = 100\n"}, ".",
			"black", "pyproject.toml [tool.black]", ""},
		{"ruff lints, black formats", map[string]string{"pyproject.toml": "[tool.black]\n\n[tool.ruff]\nselect = [\"F\"]\n"}, ".",
			"black", "pyproject.toml [tool.black]", "ruff"},
		{"ruff format section wins over black", map[string]string{"pyproject.toml": "[tool.black]\n\n[tool.ruff.format]\nquote-style = \"single\"\n"}, ".",
			"ruff", "pyproject.toml [tool.ruff.format]", "ruff"},
		{"ruff.toml", map[string]string{"ruff.toml": "line-length = 120\n"}, ".", "ruff", "ruff.toml", "ruff"},
		{".ruff.toml format table", map[string]string{".ruff.toml": "[format]\nquote-style = \"single\"\n"}, ".", "ruff", ".ruff.toml [format]", "ruff"},
		{"dev dependency group", map[string]string{"pyproject.toml": "[dependency-groups]\ndev = [\"pytest\", \"ruff>=0.4\"]\n"}, ".",
			"ruff", "ruff is a dependency in pyproject.toml", "ruff"},
		{"poetry dev dependency", map[string]string{"pyproject.toml": "[tool.poetry.group.dev.dependencies]\nblack = \"^24.1\"\n"}, ".",
			"black", "black is a dependency in pyproject.toml", ""},
		{"black dep beats ruff config", map[string]string{"pyproject.toml": "[project.optional-dependencies]\ndev = [\"black==24.1\", \"ruff\"]\n\n[tool.ruff]\nselect = [\"F\"]\n"}, ".",
			"black", "black is a dependency in pyproject.toml", "ruff"},
		{"setup.cfg extras", map[string]string{"setup.cfg": "[options.extras_require]\ndev =\n    ruff==0.4.1\n    pytest\n"}, ".",
			"ruff", "ruff is a dependency in setup.cfg", "ruff"},
		{"requirements-dev", map[string]string{"requirements-dev.txt": "pytest\nblack>=23\n"}, ".",
			"black", "black is a dependency in requirements-dev.txt", ""},
		{"pre-commit", map[string]string{".pre-commit-config.yaml": "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    hooks:\n      - id: ruff\n      - id: ruff-format\n"}, ".",
			"ruff", ".pre-commit-config.yaml runs ruff-format", "ruff"},
		{"a name that only looks like a tool", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"blackjack\", \"ruffle\"]\n"}, ".", "", "", ""},
		{"config in a parent directory", map[string]string{"pyproject.toml": "[tool.ruff]\n", "pkg/sub/a.py": ""}, "pkg/sub",
			"ruff", "pyproject.toml [tool.ruff]", "ruff"},
		{"nearest directory decides", map[string]string{"pyproject.toml": "[tool.ruff]\n", "svc/pyproject.toml": "[tool.black]\n"}, "svc",
			"black", "svc/pyproject.toml [tool.black]", "ruff"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			for p, c := range tc.files {
				writeFile(t, ws, p, c)
			}
			dir := filepath.Join(ws, tc.dir)
			_ = os.MkdirAll(dir, 0o755)
			st := detectStyle(ws, dir)
			got := []string{st.Formatter, st.FormatWhy, st.Linter}
			if d := cmp.Diff([]string{tc.formatter, tc.fmtWhy, tc.linter}, got); d != "" {
				t.Errorf("detectStyle (-want +got):\n%s", d)
			}
		})
	}
}

// ruffFor finds a ruff for the tests: a real binary on PATH, else the
// WebAssembly ruff scripts/deps.sh test installs under tools/python. It
// returns the argv prefix and the Getenv the pack needs to find it.
func ruffFor(t *testing.T) ([]string, func(string) string) {
	t.Helper()
	if exe, err := exec.LookPath("ruff"); err == nil {
		return []string{exe}, os.Getenv
	}
	script, err := filepath.Abs("../../../tools/python/ruff-wasm.mjs")
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil || !fileExists(filepath.Join(filepath.Dir(script), "node_modules", "@astral-sh", "ruff-wasm-nodejs", "package.json")) {
		t.Skip("no ruff here: neither a ruff binary on PATH nor the wasm ruff (scripts/deps.sh test installs it under tools/python with npm ci)")
	}
	return []string{node, script}, func(k string) string {
		if k == EnvRuffWasm {
			return script
		}
		return os.Getenv(k)
	}
}

// longDef fits ruff's configured 100 columns but not black's default 88.
const longDef = "def f(aaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbb, cccccccccccccccccccccccccc, ddddd): pass\nx = 'a'\n"

// TestFormatUsesProjectRuff: a project whose pyproject.toml configures ruff
// with line-length 100 is formatted by ruff with that line length (black
// would wrap the def at 88), and the result says why.
func TestFormatUsesProjectRuff(t *testing.T) {
	t.Parallel()
	ruff, getenv := ruffFor(t)
	w := newWorld(t, Options{Getenv: getenv})
	writeFile(t, w.ws, "pyproject.toml", "[project]\nname = \"demo\"\n\n[tool.ruff]\nline-length = 100\n")
	writeFile(t, w.ws, "pkg/a.py", longDef)

	// ruff's own output for this config, run in the project directory.
	own, err := run(context.Background(), append(append([]string(nil), ruff...), "format", "--stdin-filename", "a.py", "-"), w.ws, longDef, 0, nil)
	if err != nil || own.exit != 0 {
		t.Fatalf("ruff format itself: %v %+v", err, own)
	}
	want := "def f(aaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbb, cccccccccccccccccccccccccc, ddddd):\n    pass\n\n\nx = \"a\"\n"
	if own.stdout != want {
		t.Fatalf("ruff's own output with line-length 100 = %q, want %q", own.stdout, want)
	}
	if black, err := exec.LookPath("black"); err == nil {
		if b, _ := run(context.Background(), []string{black, "-q", "-"}, w.ws, longDef, 0, nil); b.stdout == want {
			t.Fatalf("black formats the fixture as ruff does: the test could not tell them apart")
		}
	}

	r := w.call(t, langtools.VerbFormat, "python", map[string]any{"paths": []any{"pkg"}})
	if r["formatter"] != "ruff" || r["changed"] != 1 || !strings.HasPrefix(r["why"].(string), "pyproject.toml [tool.ruff]; ruff from ") {
		t.Errorf("format paths = %v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(w.ws, "pkg/a.py")); string(b) != want {
		t.Errorf("pkg/a.py after format_code = %q, want ruff's %q", b, want)
	}
	// A snippet is formatted with the same config: already ruff-clean.
	r = w.call(t, langtools.VerbFormat, "python", want)
	if r["formatter"] != "ruff" || r["changed"] != false || r["delta"] != 0 {
		t.Errorf("format snippet = %v", r)
	}

	// lint_code: ruff check with the project's config; files relative to
	// the workspace even from a subdirectory.
	writeFile(t, w.ws, "pkg/m.py", "import os\n")
	r = w.call(t, langtools.VerbLint, "python", map[string]any{"cwd": "pkg", "paths": []any{"m.py"}})
	if r["linter"] != "ruff" || !strings.HasPrefix(r["why"].(string), "pyproject.toml [tool.ruff]; ruff from ") {
		t.Errorf("lint = %v", r)
	}
	var rows []string
	for _, f := range r["findings"].([]any) {
		m := f.(map[string]any)
		rows = append(rows, strings.Join([]string{m["file"].(string), itoa(m["row"]), itoa(m["col"]), m["type"].(string), m["message"].(string)}, ":"))
	}
	if d := cmp.Diff([]string{"pkg/m.py:1:8:F401:`os` imported but unused"}, rows); d != "" {
		t.Errorf("lint findings (-want +got):\n%s", d)
	}
}

func itoa(v any) string {
	n, _ := v.(int)
	return strconv.Itoa(n)
}

// TestFormatUsesProjectBlack: [tool.black] chooses black even where ruff is
// available, and black reads the project's line length.
func TestFormatUsesProjectBlack(t *testing.T) {
	t.Parallel()
	black, err := exec.LookPath("black")
	if err != nil {
		t.Skip("black not installed (scripts/deps.sh test installs Debian's black)")
	}
	getenv := os.Getenv
	if _, err := exec.LookPath("node"); err == nil {
		if script, _ := filepath.Abs("../../../tools/python/ruff-wasm.mjs"); fileExists(script) {
			getenv = func(k string) string { // ruff available too: black must still win
				if k == EnvRuffWasm {
					return script
				}
				return os.Getenv(k)
			}
		}
	}
	w := newWorld(t, Options{Getenv: getenv})
	writeFile(t, w.ws, "pyproject.toml", "[tool.black]\nline-length = 100\nskip-string-normalization = true\n")
	writeFile(t, w.ws, "a.py", longDef)
	own, err := run(context.Background(), []string{black, "-q", "-"}, w.ws, longDef, 0, nil)
	if err != nil || own.exit != 0 {
		t.Fatalf("black itself: %v %+v", err, own)
	}
	if !strings.Contains(own.stdout, "x = 'a'") || !strings.Contains(own.stdout, "ddddd):\n") {
		t.Fatalf("black did not read the project's config: %q", own.stdout)
	}
	r := w.call(t, langtools.VerbFormat, "python", map[string]any{"paths": []any{"a.py"}})
	if r["formatter"] != "black" || r["changed"] != 1 || !strings.HasPrefix(r["why"].(string), "pyproject.toml [tool.black]; black from ") {
		t.Errorf("format = %v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(w.ws, "a.py")); string(b) != own.stdout {
		t.Errorf("a.py after format_code = %q, want black's %q", b, own.stdout)
	}
}

// TestFormatProjectToolMissing: a project that configures ruff is never
// restyled by black when ruff is missing; the error says what to install.
func TestFormatProjectToolMissing(t *testing.T) {
	t.Parallel()
	only := func(n string) (string, error) {
		if n == "ruff" {
			return "", exec.ErrNotFound
		}
		return exec.LookPath(n)
	}
	w := newWorld(t, Options{LookPath: only, Getenv: func(k string) string {
		if k == EnvRuffWasm {
			return ""
		}
		return os.Getenv(k)
	}})
	writeFile(t, w.ws, "pyproject.toml", "[tool.ruff]\nline-length = 100\n")
	writeFile(t, w.ws, "a.py", longDef)
	_, err := w.f.Call(context.Background(), langtools.VerbFormat, []any{"python", map[string]any{"paths": []any{"a.py"}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "the project uses ruff (pyproject.toml [tool.ruff]) but ruff is not installed") ||
		!strings.Contains(err.Error(), EnvRuffWasm) {
		t.Errorf("format with ruff missing: %v", err)
	}
	if err != nil && !errors.Is(err, ErrToolMissing) && !strings.Contains(err.Error(), ErrToolMissing.Error()) {
		t.Errorf("not ErrToolMissing: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(w.ws, "a.py")); string(b) != longDef {
		t.Errorf("a.py was changed: %q", b)
	}
}
