package js

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/ext"
	child "github.com/visdesktop/vis/backend/packs/proc"
	"github.com/visdesktop/vis/backend/workspace"
)

const lintTimeout = 5 * time.Minute

// ErrNoLinter is lint_code's answer for a project that names no linter and
// has none installed.
var ErrNoLinter = errors.New("no linter found: the project names none (package.json scripts.lint, eslint.config.*, .eslintrc*, biome.json) and its node_modules has neither eslint nor biome: install one, e.g. npm install --save-dev eslint (with an eslint.config.js) or @biomejs/biome")

// ProjectLinter is the linter lint_code runs for dir: the one the project
// names (a package.json lint script, then eslint or biome config files,
// then devDependencies), from its node_modules/.bin, else PATH.
func ProjectLinter(workspace, dir string) (projectTool, error) {
	return resolveTool(workspace, dir, linterRules, lintScripts, ErrNoLinter)
}

// Lint is lint_code for JavaScript/TypeScript with the project's own
// linter: `eslint --format json` (with the project's config) or `biome lint
// --reporter=json`, over paths (default: the call's directory) or a code
// snippet, with the call's env and args (linter options, before the
// files). Result: {"findings": [{file, row, col, level, type, message,
// provider}], "counts": {"error": n, "warning": n, "info": n}, "total": n,
// "clean": bool, "provider", "why"}: file is workspace-relative ("code" for
// a snippet), type is the rule. A linter that fails without a report is an
// error with what it said.
func Lint(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code := ext.StringOption(c.Opts, "code")
	if code == "" {
		code = ext.StringOption(c.Opts, "arg")
	}
	paths, err := ext.PathsOption(c.Opts)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(code) != "" && len(paths) > 0 {
		return nil, ext.BadArgs("pass code OR paths, not both")
	}
	t, err := ext.ToolOf(c.Opts, lintTimeout)
	if err != nil {
		return nil, err
	}
	cwd := c.Dir(env)
	targets := []string{"."}
	if len(paths) > 0 {
		targets = nil
		for _, p := range paths {
			a, err := resolveIn(env.Workspace, cwd, p)
			if err != nil {
				return nil, err
			}
			if _, err := os.Stat(a); err != nil {
				return nil, ext.BadArgs("%s: no such file or directory", p)
			}
			targets = append(targets, workspace.RelTo(cwd, a))
		}
	}
	lt, err := ProjectLinter(env.Workspace, cwd)
	if err != nil {
		return nil, err
	}
	snippet := strings.TrimSpace(code) != ""
	suffix := snippetExt[language(c)]
	if c.Language == "tsx" || c.Language == "jsx" {
		suffix = snippetExt[c.Language]
	}
	var findings []map[string]any
	switch lt.Name {
	case "eslint":
		findings, err = eslintLint(ctx, env.Workspace, cwd, t, lt, snippet, code, suffix, targets)
	default:
		findings, err = biomeLint(ctx, env.Workspace, cwd, t, lt, snippet, code, suffix, targets)
	}
	if err != nil {
		return nil, fmt.Errorf("lint: %w", err)
	}
	return lintResult(lt, findings), nil
}

func lintResult(lt projectTool, findings []map[string]any) map[string]any {
	counts := map[string]any{"error": 0, "warning": 0, "info": 0}
	rows := []any{}
	for _, f := range findings {
		lv, _ := f["level"].(string)
		n, _ := counts[lv].(int)
		counts[lv] = n + 1
		rows = append(rows, f)
	}
	return map[string]any{"findings": rows, "counts": counts, "total": len(rows), "clean": len(rows) == 0, "provider": lt.Name, "why": lt.Why}
}

// eslintFile is one file of `eslint --format json`.
type eslintFile struct {
	FilePath string `json:"filePath"`
	Messages []struct {
		RuleID   *string `json:"ruleId"`
		Severity int     `json:"severity"`
		Fatal    bool    `json:"fatal"`
		Message  string  `json:"message"`
		Line     int     `json:"line"`
		Column   int     `json:"column"`
	} `json:"messages"`
}

func eslintLint(ctx context.Context, root, cwd string, t ext.Tool, lt projectTool, snippet bool, code, suffix string, targets []string) ([]map[string]any, error) {
	head := []string{lt.Bin, "--format", "json"}
	stdin := ""
	if snippet {
		head = append(head, "--stdin", "--stdin-filename", "snippet"+suffix)
		targets, stdin = nil, code
	}
	r, err := child.RunEnv(ctx, cwd, t.Timeout, stdin, t.Env, t.Argv(head, targets...)...)
	if err != nil {
		return nil, err
	}
	if r.TimedOut {
		return nil, fmt.Errorf("eslint timed out after %v", t.Timeout)
	}
	var files []eslintFile
	if jerr := json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &files); jerr != nil || r.Exit > 1 {
		return nil, fmt.Errorf("eslint failed (exit %d): %s", r.Exit, child.ClipMiddle(strings.TrimSpace(r.Stderr+"\n"+r.Stdout), 4000))
	}
	var out []map[string]any
	for _, f := range files {
		file := "code"
		if !snippet {
			file = workspace.RelTo(root, f.FilePath)
		}
		for _, m := range f.Messages {
			level := "warning"
			if m.Severity == 2 || m.Fatal {
				level = "error"
			}
			rule := "syntax"
			if m.RuleID != nil {
				rule = *m.RuleID
			}
			out = append(out, map[string]any{"file": file, "row": m.Line, "col": m.Column, "level": level, "type": rule, "message": m.Message, "provider": "eslint"})
		}
	}
	return out, nil
}

// biomeLint runs `biome lint --reporter=json`. biome does not report on
// stdin, so a snippet is linted as a file in a temporary directory holding
// a copy of the project's biome.json(c).
func biomeLint(ctx context.Context, root, cwd string, t ext.Tool, lt projectTool, snippet bool, code, suffix string, targets []string) ([]map[string]any, error) {
	dir := cwd
	if snippet {
		tmp, err := os.MkdirTemp(confine.TempDir(ctx), "vis-biome-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		for _, cfg := range []string{"biome.json", "biome.jsonc"} {
			if p := findFileUp(root, cwd, cfg); p != "" {
				if b, err := os.ReadFile(p); err == nil {
					_ = os.WriteFile(filepath.Join(tmp, cfg), b, 0o644)
				}
				break
			}
		}
		if err := os.WriteFile(filepath.Join(tmp, "snippet"+suffix), []byte(code), 0o644); err != nil {
			return nil, err
		}
		dir, targets = tmp, []string{"snippet" + suffix}
	}
	rep, err := runBiome(ctx, dir, t, "", []string{lt.Bin, "lint", "--reporter=json"}, targets...)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, d := range rep.Diagnostics {
		file := "code"
		if !snippet {
			file = workspace.RelTo(root, filepath.Join(cwd, d.Location.Path))
		}
		level := d.Severity
		switch level {
		case "fatal":
			level = "error"
		case "information", "hint":
			level = "info"
		}
		out = append(out, map[string]any{"file": file, "row": d.Location.Start.Line, "col": d.Location.Start.Column, "level": level, "type": d.Category, "message": d.Message, "provider": "biome"})
	}
	return out, nil
}

// findFileUp is the first dir/name from dir up to the workspace that
// exists ("" when none).
func findFileUp(workspace, dir, name string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if p := filepath.Join(d, name); fileExists(p) {
			return p
		}
		if d == workspace || filepath.Dir(d) == d || (workspace != "" && !strings.HasPrefix(d, workspace)) {
			return ""
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
