package python

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

// ErrNoFormatter means neither ruff nor black is installed.
var ErrNoFormatter = errors.New("no formatter found; install ruff or black")

// ErrNoLinter means neither ruff nor black is installed.
var ErrNoLinter = errors.New("no linter found; install ruff or black")

// pyFiles expands selectors (files or directories, relative to dir) into
// the .py/.pyi files they hold, skipping hidden folders and SkipDirs. A
// selector outside the workspace is refused.
func pyFiles(workspaceRoot, dir string, selectors []string) ([]string, error) {
	if len(selectors) == 0 {
		selectors = []string{"."}
	}
	var out []string
	seen := map[string]bool{}
	for _, sel := range selectors {
		path, _, _ := strings.Cut(sel, "::")
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, path)
		}
		abs = filepath.Clean(abs)
		if workspaceRoot != "" {
			if rel, err := filepath.Rel(workspaceRoot, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return nil, fmt.Errorf("%s is outside the workspace", path)
			}
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("no such file or directory: %s", path)
		}
		if !fi.IsDir() {
			if !seen[abs] {
				seen[abs] = true
				out = append(out, abs)
			}
			continue
		}
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != abs && (workspace.SkipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi")) && d.Type().IsRegular() && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

func rel(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

// chooseFormatter is the project's formatter (detectStyle) when its files
// name one, else ruff when installed, else black; why says which rule
// chose it. A tool the project names but nothing provides is an
// ErrToolMissing error, never a substitute.
func (p *Pack) chooseFormatter(workspace, dir string) (toolCmd, string, error) {
	st := detectStyle(workspace, dir)
	if st.Formatter != "" {
		t, ok := p.resolve(workspace, dir, st.Formatter)
		if !ok {
			return toolCmd{}, "", missing("format_code", st.Formatter, st.FormatWhy)
		}
		return t, st.FormatWhy + "; " + t.name + " from " + t.where, nil
	}
	if t, ok := p.resolve(workspace, dir, "ruff"); ok && t.where != "ruff-wasm ("+EnvRuffWasm+")" {
		return t, "the project names no formatter; ruff from " + t.where, nil
	}
	if t, ok := p.resolve(workspace, dir, "black"); ok {
		return t, "the project names no formatter; black from " + t.where + " (ruff is not installed)", nil
	}
	if t, ok := p.resolve(workspace, dir, "ruff"); ok {
		return t, "the project names no formatter; ruff from " + t.where, nil
	}
	return toolCmd{}, "", fmt.Errorf("python format_code: %w", ErrNoFormatter)
}

// format is format_code: the project's formatter (chooseFormatter), run in
// the call's directory so it reads the project's own configuration, with
// the call's line_length, config, env and args (before the files).
func (p *Pack) format(ctx context.Context, env ext.ToolEnv, c ext.Call) (ext.FormatResult, error) {
	fail := func(err error) (ext.FormatResult, error) { return ext.FormatResult{}, err }
	vars, extra, err := c.EnvArgs("python format_code")
	if err != nil {
		return fail(err)
	}
	t, why, err := p.chooseFormatter(env.Workspace, c.Cwd)
	if err != nil {
		return fail(err)
	}
	tool := t.name
	var flags []string
	if n, ok := optInt(c.Opts, "line_length"); ok && n > 0 {
		if tool == "ruff" {
			flags = append(flags, "--line-length", strconv.Itoa(n))
		} else {
			flags = append(flags, "-l", strconv.Itoa(n))
		}
	}
	if cfg := optString(c.Opts, "config"); cfg != "" {
		flags = append(flags, "--config", cfg)
	}
	flags = append(flags, extra...)
	if code, isCode := c.Opts["code"].(string); isCode && code != "" {
		argv := append([]string(nil), t.argv...)
		if tool == "ruff" {
			argv = append(append(argv, "format"), flags...)
			argv = append(argv, "--stdin-filename", "snippet.py", "-")
		} else {
			argv = append(append(argv, "-q"), flags...)
			argv = append(argv, "-")
		}
		r, err := run(ctx, argv, c.Cwd, code, optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout), vars)
		if err != nil {
			return fail(fmt.Errorf("python format_code: %s: %w", tool, err))
		}
		if r.exit != 0 || r.timedOut {
			return fail(fmt.Errorf("python format_code: %s could not format the code: %s", tool, strings.TrimSpace(tail(r.stderr+r.stdout, 8))))
		}
		after := utf8.RuneCountInString(r.stdout)
		return ext.FormatResult{Formatter: tool, Why: why, Snippet: true, Changed: r.stdout != code,
			Delta: after - utf8.RuneCountInString(code), Chars: after}, nil
	}
	files, err := pyFiles(env.Workspace, c.Cwd, optStrings(c.Opts, "paths"))
	if err != nil {
		return fail(fmt.Errorf("python format_code: %w", err))
	}
	if len(files) == 0 {
		return ext.FormatResult{Formatter: tool, Why: why, Message: "no python files under the selected paths"}, nil
	}
	before := map[string]string{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		before[f] = string(b)
	}
	argv := append([]string(nil), t.argv...)
	if tool == "ruff" {
		argv = append(argv, "format")
	} else {
		argv = append(argv, "-q")
	}
	argv = append(append(argv, flags...), files...)
	r, err := run(ctx, argv, c.Cwd, "", optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout), vars)
	if err != nil {
		return fail(fmt.Errorf("python format_code: %s: %w", tool, err))
	}
	out := ext.FormatResult{Formatter: tool, Why: why, Checked: len(files)}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if string(b) != before[f] {
			out.Files = append(out.Files, ext.FormatFile{File: rel(c.Cwd, f), Delta: utf8.RuneCount(b) - utf8.RuneCountInString(before[f])})
		}
	}
	if r.exit != 0 || r.timedOut {
		out.Error = fmt.Sprintf("%s exited with code %d: %s", tool, r.exit, strings.TrimSpace(tail(r.stderr, 8)))
	}
	return out, nil
}

// ruffFinding is one row of `ruff check --output-format json`.
type ruffFinding struct {
	Code     *string `json:"code"`
	Message  string  `json:"message"`
	Filename string  `json:"filename"`
	Location struct {
		Row    int `json:"row"`
		Column int `json:"column"`
	} `json:"location"`
}

func (p *Pack) lint(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code, isCode := c.Opts["code"].(string)
	isCode = isCode && code != ""
	vars, extra, err := c.EnvArgs("python lint_code")
	if err != nil {
		return nil, err
	}
	// The project's linter (ruff when its files configure or list it),
	// else ruff when installed, else syntax errors plus black --check.
	st := detectStyle(env.Workspace, c.Cwd)
	note := "ruff is not installed: only syntax errors and black formatting were checked; install ruff for full lint"
	if t, ok := p.resolve(env.Workspace, c.Cwd, "ruff"); ok {
		why := "the project names no linter; ruff from " + t.where
		if st.Linter == "ruff" {
			why = st.LintWhy + "; ruff from " + t.where
		}
		out, err := p.ruffLint(ctx, env, c, t.argv, code, isCode, vars, extra)
		if err == nil {
			out["linter"], out["why"] = "ruff", why
		}
		return out, err
	} else if st.Linter == "ruff" {
		note = fmt.Sprintf("the project uses ruff (%s) but ruff is not installed: only syntax errors and black formatting were checked; install ruff in the project's venv or on PATH, or set %s to tools/python/ruff-wasm.mjs", st.LintWhy, EnvRuffWasm)
	}
	blackTool, hasBlack := p.resolve(env.Workspace, c.Cwd, "black")
	if !hasBlack {
		if st.Linter == "ruff" {
			return nil, missing("lint_code", "ruff", st.LintWhy)
		}
		return nil, fmt.Errorf("python lint_code: %w", ErrNoLinter)
	}
	interp, err := p.Resolve(c.Cwd)
	if err != nil {
		return nil, fmt.Errorf("python lint_code: %w", err)
	}
	var findings []map[string]any
	var files []string
	if isCode {
		findings, err = p.syntaxCheck(ctx, interp, c.Cwd, nil, code, vars)
	} else {
		files, err = pyFiles(env.Workspace, c.Cwd, optStrings(c.Opts, "paths"))
		if err == nil {
			findings, err = p.syntaxCheck(ctx, interp, c.Cwd, files, "", vars)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("python lint_code: %w", err)
	}
	// black --check: which files (or the snippet) it would reformat.
	argv := append(append([]string(nil), blackTool.argv...), "--check")
	if n, ok := optInt(c.Opts, "line_length"); ok && n > 0 {
		argv = append(argv, "-l", strconv.Itoa(n))
	}
	argv = append(argv, extra...)
	stdin := ""
	if isCode {
		argv, stdin = append(argv, "-"), code
	} else {
		argv = append(argv, files...)
	}
	if isCode || len(files) > 0 {
		r, err := run(ctx, argv, c.Cwd, stdin, optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout), vars)
		if err != nil {
			return nil, fmt.Errorf("python lint_code: black: %w", err)
		}
		for _, m := range wouldReformat().FindAllStringSubmatch(r.stderr, -1) {
			f := m[1]
			if f == "-" {
				f = "<code>"
			} else {
				f = wsRel(env.Workspace, c.Cwd, f)
			}
			findings = append(findings, map[string]any{"file": f, "row": 0, "col": 0, "level": "info", "type": "format",
				"message": "would be reformatted (format_code fixes it)", "provider": "black"})
		}
	}
	for _, f := range findings {
		if name, _ := f["file"].(string); name != "<code>" && f["provider"] == "python" {
			f["file"] = wsRel(env.Workspace, c.Cwd, name)
		}
	}
	out := lintResult(findings)
	out["note"] = note
	out["linter"], out["why"] = "black", "syntax errors (python) and black --check; ruff is not available"
	return out, nil
}

// wsRel is f (absolute, or relative to cwd) relative to the workspace root,
// slash-separated; relative to cwd when there is no workspace.
func wsRel(workspace, cwd, f string) string {
	if !filepath.IsAbs(f) {
		f = filepath.Join(cwd, f)
	}
	if workspace == "" {
		return rel(cwd, f)
	}
	return rel(workspace, f)
}

var wouldReformat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^would reformat (.+)$`) })

func (p *Pack) ruffLint(ctx context.Context, env ext.ToolEnv, c ext.Call, ruff []string, code string, isCode bool, vars, extra []string) (map[string]any, error) {
	argv := append(append([]string(nil), ruff...), "check", "--output-format", "json", "--exit-zero", "--no-cache")
	if s := optStrings(c.Opts, "select"); len(s) > 0 {
		argv = append(argv, "--select", strings.Join(s, ","))
	}
	if s := optStrings(c.Opts, "ignore"); len(s) > 0 {
		argv = append(argv, "--ignore", strings.Join(s, ","))
	}
	if n, ok := optInt(c.Opts, "line_length"); ok && n > 0 {
		argv = append(argv, "--line-length", strconv.Itoa(n))
	}
	if cfg := optString(c.Opts, "config"); cfg != "" {
		argv = append(argv, "--config", cfg)
	}
	argv = append(argv, extra...)
	stdin := ""
	if isCode {
		argv, stdin = append(argv, "--stdin-filename", "snippet.py", "-"), code
	} else {
		files, err := pyFiles(env.Workspace, c.Cwd, optStrings(c.Opts, "paths"))
		if err != nil {
			return nil, fmt.Errorf("python lint_code: %w", err)
		}
		if len(files) == 0 {
			return lintResult(nil), nil
		}
		argv = append(argv, files...)
	}
	r, err := run(ctx, argv, c.Cwd, stdin, optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout), vars)
	if err != nil {
		return nil, fmt.Errorf("python lint_code: ruff: %w", err)
	}
	var rows []ruffFinding
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		return nil, fmt.Errorf("python lint_code: ruff output unreadable (exit %d): %s", r.exit, strings.TrimSpace(tail(r.stderr, 8)))
	}
	var findings []map[string]any
	for _, f := range rows {
		typ, level := "syntax", "error"
		if f.Code != nil && *f.Code != "" {
			typ, level = *f.Code, "warning"
			if strings.HasPrefix(*f.Code, "E9") || *f.Code == "F821" || *f.Code == "F822" || *f.Code == "F823" {
				level = "error"
			}
		}
		file := f.Filename
		if isCode {
			file = "<code>"
		} else {
			file = wsRel(env.Workspace, c.Cwd, file)
		}
		findings = append(findings, map[string]any{"file": file, "row": f.Location.Row, "col": f.Location.Column,
			"level": level, "type": typ, "message": f.Message, "provider": "ruff"})
	}
	return lintResult(findings), nil
}

func lintResult(findings []map[string]any) map[string]any {
	counts := map[string]any{"error": 0, "warning": 0, "info": 0}
	rows := []any{}
	for _, f := range findings {
		lv, _ := f["level"].(string)
		n, _ := counts[lv].(int)
		counts[lv] = n + 1
		rows = append(rows, f)
	}
	return map[string]any{"findings": rows, "counts": counts, "total": len(rows)}
}

// syntaxScript compiles each file named on the command line (or stdin when
// none) and prints one JSON object per syntax error.
const syntaxScript = `import json, sys
def check(name, src):
    try:
        compile(src, name, "exec", dont_inherit=True)
    except SyntaxError as e:
        print(json.dumps({"file": name, "row": e.lineno or 0, "col": e.offset or 0, "message": e.msg}))
if len(sys.argv) > 1:
    for f in sys.argv[1:]:
        with open(f, "rb") as fh:
            check(f, fh.read())
else:
    check("<code>", sys.stdin.read())
`

func (p *Pack) syntaxCheck(ctx context.Context, interp Interpreter, dir string, files []string, code string, vars []string) ([]map[string]any, error) {
	argv := append(append(append([]string(nil), interp.Argv...), "-c", syntaxScript), files...)
	if len(files) == 0 && code == "" {
		return nil, nil
	}
	r, err := run(ctx, argv, dir, code, p.opts.ToolTimeout, vars)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		f, _ := m["file"].(string)
		if f != "<code>" {
			f = rel(dir, f)
		}
		row, _ := m["row"].(float64)
		col, _ := m["col"].(float64)
		out = append(out, map[string]any{"file": f, "row": int(row), "col": int(col), "level": "error",
			"type": "syntax", "message": m["message"], "provider": "python"})
	}
	return out, nil
}
