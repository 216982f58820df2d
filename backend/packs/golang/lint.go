package golang

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/packs/proc"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

const lintTimeout = 5 * time.Minute

// Lint is lint_code for Go: `go vet -json` over the selected packages (the
// module's by default) or over a code snippet vetted as a throwaway
// package, with the call's env and args (vet flags, before the packages). Result: {"findings": [{file,row,col,level,type,message,provider}],
// "counts": {"error": n, "warning": n}, "total": n, "clean": bool,
// "provider": "go vet"}; a vet that fails without any finding is an error.
func Lint(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code := ext.StringOption(c.Opts, "code")
	if code == "" {
		code = ext.StringOption(c.Opts, "arg")
	}
	paths, err := ext.PathsOption(c.Opts)
	if err != nil {
		return nil, err
	}
	t, err := ext.ToolOf(c.Opts, lintTimeout)
	if err != nil {
		return nil, err
	}
	cwd := c.Dir(env)
	if strings.TrimSpace(code) != "" {
		if len(paths) > 0 {
			return nil, ext.BadArgs("pass code OR paths, not both")
		}
		return lintSnippet(ctx, code, t)
	}
	pkgs, err := packagesFor(env.Workspace, cwd, paths)
	if err != nil {
		return nil, err
	}
	r, err := proc.RunEnv(ctx, cwd, t.Timeout, "", t.Env, t.Argv([]string{"go", "vet", "-json"}, pkgs...)...)
	if err != nil {
		return nil, fmt.Errorf("lint go: %w", err)
	}
	if r.TimedOut {
		return nil, fmt.Errorf("lint go: go vet timed out after %v", t.Timeout)
	}
	findings := parseVet(cwd, r.Stdout, r.Stderr)
	if len(findings) == 0 && r.Exit != 0 {
		return nil, fmt.Errorf("lint go: go vet failed (exit %d): %s", r.Exit, proc.ClipMiddle(strings.TrimSpace(r.Stderr), 4000))
	}
	return lintResult(findings), nil
}

// lintSnippet vets code in a temporary module. A snippet without a package
// clause gets "package snippet" prepended; rows stay the snippet's own.
func lintSnippet(ctx context.Context, code string, t ext.Tool) (map[string]any, error) {
	dir, err := os.MkdirTemp(confine.TempDir(ctx), "vis-govet-")
	if err != nil {
		return nil, fmt.Errorf("lint go: %w", err)
	}
	defer os.RemoveAll(dir)
	shift := 0
	if !regexp.MustCompile(`(?m)^\s*package\s+\w+`).MatchString(code) {
		code = "package snippet\n" + code
		shift = 1
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module snippet\n\ngo 1.22\n"), 0o644); err != nil {
		return nil, fmt.Errorf("lint go: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "snippet.go"), []byte(code), 0o644); err != nil {
		return nil, fmt.Errorf("lint go: %w", err)
	}
	r, err := proc.RunEnv(ctx, dir, t.Timeout, "", t.Env, t.Argv([]string{"go", "vet", "-json"}, ".")...)
	if err != nil {
		return nil, fmt.Errorf("lint go: %w", err)
	}
	findings := parseVet(dir, r.Stdout, r.Stderr)
	if len(findings) == 0 && r.Exit != 0 {
		return nil, fmt.Errorf("lint go: go vet failed (exit %d): %s", r.Exit, proc.ClipMiddle(strings.TrimSpace(r.Stderr), 4000))
	}
	for _, f := range findings {
		f["file"] = "code"
		if row, ok := f["row"].(int); ok && row > shift {
			f["row"] = row - shift
		}
	}
	return lintResult(findings), nil
}

func lintResult(findings []map[string]any) map[string]any {
	counts := map[string]any{"error": 0, "warning": 0}
	for _, f := range findings {
		lv := f["level"].(string)
		n, _ := counts[lv].(int)
		counts[lv] = n + 1
	}
	if findings == nil {
		findings = []map[string]any{}
	}
	return map[string]any{"findings": findings, "counts": counts, "total": len(findings), "clean": len(findings) == 0, "provider": linter}
}

// vetDiag is one diagnostic of `go vet -json`.
type vetDiag struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// textDiag is a compiler/type error line: "vet: ./a.go:2:25: msg" or "a.go:2:25: msg".
var textDiag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:vet: )?(\S+?\.go):(\d+):(\d+): (.*)$`) })

// parseVet reads the JSON objects (pkg → analyzer → diagnostics, or
// analyzer → {"error"}) and the text error lines of go vet's output.
func parseVet(cwd string, stdout, stderr string) []map[string]any {
	var out []map[string]any
	seen := map[string]bool{}
	add := func(file string, row, col int, level, typ, msg string) {
		if !filepath.IsAbs(file) {
			file = filepath.Join(cwd, file)
		}
		key := fmt.Sprintf("%s:%d:%d:%s", file, row, col, msg)
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, map[string]any{"file": workspace.RelTo(cwd, file), "row": row, "col": col, "level": level, "type": typ, "message": msg, "provider": linter})
	}
	for _, stream := range []string{stdout, stderr} {
		var js, text []string
		for _, line := range strings.Split(stream, "\n") {
			switch {
			case strings.HasPrefix(line, "#"):
			case textDiag().MatchString(line):
				text = append(text, line)
			default:
				js = append(js, line)
			}
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(strings.Join(js, "\n"))))
		for {
			var obj map[string]map[string]json.RawMessage
			if err := dec.Decode(&obj); err != nil {
				break
			}
			for _, analyzers := range obj {
				for name, raw := range analyzers {
					var diags []vetDiag
					if json.Unmarshal(raw, &diags) == nil {
						for _, d := range diags {
							file, row, col := splitPosn(d.Posn)
							add(file, row, col, "warning", name, d.Message)
						}
						continue
					}
					var e struct {
						Error string `json:"error"`
					}
					if json.Unmarshal(raw, &e) == nil && e.Error != "" {
						add("", 0, 0, "error", name, e.Error)
					}
				}
			}
		}
		for _, line := range text {
			m := textDiag().FindStringSubmatch(line)
			row, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			add(m[1], row, col, "error", "typecheck", m[4])
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a["file"] != b["file"] {
			return a["file"].(string) < b["file"].(string)
		}
		return a["row"].(int) < b["row"].(int)
	})
	return out
}

// splitPosn splits "file:row:col".
func splitPosn(p string) (string, int, int) {
	i := strings.LastIndex(p, ":")
	if i < 0 {
		return p, 0, 0
	}
	j := strings.LastIndex(p[:i], ":")
	if j < 0 {
		row, _ := strconv.Atoi(p[i+1:])
		return p[:i], row, 0
	}
	row, _ := strconv.Atoi(p[j+1 : i])
	col, _ := strconv.Atoi(p[i+1:])
	return p[:j], row, col
}

// packagesFor turns path selectors into go package patterns relative to
// cwd ("./..." when none). A file selects its directory's package.
func packagesFor(root, cwd string, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return []string{"./..."}, nil
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		recursive := strings.HasSuffix(p, "...")
		base := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		if base == "" {
			base = "."
		}
		abs, err := resolveIn(root, cwd, base)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, ext.BadArgs("%s: no such file or directory", p)
		}
		if !fi.IsDir() {
			abs = filepath.Dir(abs)
		}
		rel := workspace.RelTo(cwd, abs)
		pat := "./" + rel
		if filepath.IsAbs(rel) {
			pat = abs
		}
		pat = strings.TrimSuffix(pat, "/.")
		if recursive {
			pat += "/..."
		}
		if !seen[pat] {
			seen[pat] = true
			out = append(out, pat)
		}
	}
	return out, nil
}
