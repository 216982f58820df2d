package js

import (
	"context"
	"encoding/json"
	"fmt"
	child "github.com/visdesktop/vis/backend/packs/proc"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

const formatTimeout = 2 * time.Minute

// snippetExt is the file name a formatter infers a snippet's parser from.
var snippetExt = map[string]string{"typescript": ".ts", "tsx": ".tsx", "jsx": ".jsx", "javascript": ".js"}

// Prettier returns the project's prettier (node_modules/.bin/prettier from
// dir up to the workspace root), or "".
func Prettier(root, dir string) string {
	return findUp(root, dir, filepath.Join("node_modules", ".bin", "prettier"))
}

// ProjectFormatter is the formatter format_code runs for dir: the one the
// project names (a package.json format/fmt script, then biome.json(c),
// .oxfmtrc*, .prettierrc* / prettier.config.* / package.json "prettier",
// then devDependencies), from its node_modules/.bin, else PATH; a project
// naming none gets prettier, biome or oxfmt when its node_modules has one.
// The error (wrapping ErrNoFormatter) names what to install.
func ProjectFormatter(workspace, dir string) (projectTool, error) {
	return resolveTool(workspace, dir, formatterRules, formatScripts, ErrNoFormatter)
}

// Format is format_code with the project's own formatter (ProjectFormatter:
// biome, oxfmt or prettier), with the call's env and args (the formatter's
// options, before the files): a snippet answers whether it changed and by
// how much; paths (or, with neither, the project directory, honouring the
// formatter's ignore files) are rewritten in place and answer one row per
// changed file (ext.FormatResult; formatter names the tool). Code and paths
// together, and a project without a formatter, are refused before anything
// changes.
func Format(ctx context.Context, env ext.ToolEnv, c ext.Call) (ext.FormatResult, error) {
	fail := func(err error) (ext.FormatResult, error) { return ext.FormatResult{}, err }
	code := ext.StringOption(c.Opts, "code")
	if code == "" {
		code = ext.StringOption(c.Opts, "arg")
	}
	paths, err := ext.PathsOption(c.Opts)
	if err != nil {
		return fail(err)
	}
	if strings.TrimSpace(code) != "" && len(paths) > 0 {
		return fail(ext.BadArgs("pass code OR paths, not both; nothing was formatted"))
	}
	t, err := ext.ToolOf(c.Opts, formatTimeout)
	if err != nil {
		return fail(err)
	}
	cwd := c.Dir(env)
	var abs []string
	for _, p := range paths {
		a, err := resolveIn(env.Workspace, cwd, p)
		if err != nil {
			return fail(err)
		}
		if _, err := os.Stat(a); err != nil {
			return fail(ext.BadArgs("%s: no such file or directory", p))
		}
		abs = append(abs, a)
	}
	ft, err := ProjectFormatter(env.Workspace, cwd)
	if err != nil {
		return fail(err)
	}
	if strings.TrimSpace(code) != "" {
		suffix := snippetExt[language(c)]
		if c.Language == "tsx" || c.Language == "jsx" {
			suffix = snippetExt[c.Language]
		}
		head := []string{ft.Bin, "--stdin-filepath=snippet" + suffix}
		if ft.Name == "biome" {
			head = []string{ft.Bin, "format", "--stdin-file-path=snippet" + suffix}
		}
		r, err := child.RunEnv(ctx, cwd, t.Timeout, code, t.Env, t.Argv(head)...)
		if err != nil {
			return fail(fmt.Errorf("format: %w", err))
		}
		if r.TimedOut {
			return fail(fmt.Errorf("format: %s timed out after %v", ft.Name, t.Timeout))
		}
		if r.Exit != 0 {
			return fail(fmt.Errorf("format: %s cannot format the code: %s", ft.Name, child.ClipMiddle(strings.TrimSpace(r.Stderr+"\n"+r.Stdout), 4000)))
		}
		before, after := utf8.RuneCountInString(code), utf8.RuneCountInString(r.Stdout)
		return ext.FormatResult{Formatter: ft.Name, Why: ft.Why, Snippet: true, Changed: r.Stdout != code, Delta: after - before, Chars: after}, nil
	}
	targets := []string{"."}
	if len(abs) > 0 {
		targets = nil
		for _, a := range abs {
			targets = append(targets, workspace.RelTo(cwd, a))
		}
	}
	res := ext.FormatResult{Formatter: ft.Name, Why: ft.Why, Checked: -1}
	var changed []string
	if ft.Name == "biome" {
		changed, err = biomeUnformatted(ctx, cwd, t, ft, targets, &res)
	} else {
		changed, err = listDifferent(ctx, cwd, t, ft, targets)
	}
	if err != nil {
		return fail(err)
	}
	before := map[string]int{}
	for _, f := range changed {
		b, err := os.ReadFile(filepath.Join(cwd, f))
		if err != nil {
			return fail(fmt.Errorf("format: %w", err))
		}
		before[f] = utf8.RuneCount(b)
	}
	if len(changed) > 0 {
		head := []string{ft.Bin, "--write"}
		if ft.Name == "biome" {
			head = []string{ft.Bin, "format", "--write"}
		}
		w, err := child.RunEnv(ctx, cwd, t.Timeout, "", t.Env, t.Argv(head, changed...)...)
		if err != nil {
			return fail(fmt.Errorf("format: %w", err))
		}
		if w.Exit != 0 {
			return fail(fmt.Errorf("format: %s --write failed (exit %d): %s", ft.Name, w.Exit, child.ClipMiddle(strings.TrimSpace(w.Stderr+"\n"+w.Stdout), 4000)))
		}
		for _, f := range changed {
			b, err := os.ReadFile(filepath.Join(cwd, f))
			if err != nil {
				return fail(fmt.Errorf("format: %w", err))
			}
			res.Files = append(res.Files, ext.FormatFile{File: filepath.ToSlash(f), Delta: utf8.RuneCount(b) - before[f]})
		}
	}
	return res, nil
}

// listDifferent asks prettier or oxfmt (the same CLI) which targets it
// would change (paths relative to cwd).
func listDifferent(ctx context.Context, cwd string, t ext.Tool, ft projectTool, targets []string) ([]string, error) {
	l, err := child.RunEnv(ctx, cwd, t.Timeout, "", t.Env, t.Argv([]string{ft.Bin, "--list-different"}, targets...)...)
	if err != nil {
		return nil, fmt.Errorf("format: %w", err)
	}
	if l.TimedOut {
		return nil, fmt.Errorf("format: %s timed out after %v", ft.Name, t.Timeout)
	}
	if l.Exit > 1 {
		return nil, fmt.Errorf("format: %s --list-different failed (exit %d): %s", ft.Name, l.Exit, child.ClipMiddle(strings.TrimSpace(l.Stderr+"\n"+l.Stdout), 4000))
	}
	var changed []string
	for _, line := range strings.Split(l.Stdout, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			changed = append(changed, line)
		}
	}
	return changed, nil
}

// biomeReport is what `biome format|lint --reporter=json` prints.
type biomeReport struct {
	Summary struct {
		Changed   int `json:"changed"`
		Unchanged int `json:"unchanged"`
	} `json:"summary"`
	Diagnostics []biomeDiag `json:"diagnostics"`
}

type biomeDiag struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Category string `json:"category"`
	Location struct {
		Path  string `json:"path"`
		Start struct {
			Line   int `json:"line"`
			Column int `json:"column"`
		} `json:"start"`
	} `json:"location"`
}

// runBiome runs biome with --reporter=json and reads its report; exit 1
// with a report is data (diagnostics), anything else without one fails.
func runBiome(ctx context.Context, cwd string, t ext.Tool, stdin string, head []string, targets ...string) (biomeReport, error) {
	var rep biomeReport
	r, err := child.RunEnv(ctx, cwd, t.Timeout, stdin, t.Env, t.Argv(head, targets...)...)
	if err != nil {
		return rep, err
	}
	if r.TimedOut {
		return rep, fmt.Errorf("biome timed out after %v", t.Timeout)
	}
	out := strings.TrimSpace(r.Stdout)
	if i := strings.Index(out, "{"); i >= 0 {
		out = out[i:]
	}
	if jerr := json.Unmarshal([]byte(out), &rep); jerr != nil || r.Exit > 1 {
		return rep, fmt.Errorf("%s failed (exit %d): %s", strings.Join(head[1:], " "), r.Exit, child.ClipMiddle(strings.TrimSpace(r.Stderr+"\n"+r.Stdout), 4000))
	}
	return rep, nil
}

// biomeUnformatted runs `biome format --reporter=json` (a check, nothing
// written) and returns the files biome would change; files it cannot
// parse go to res.Errors, and res.Checked is what it looked at.
func biomeUnformatted(ctx context.Context, cwd string, t ext.Tool, ft projectTool, targets []string, res *ext.FormatResult) ([]string, error) {
	rep, err := runBiome(ctx, cwd, t, "", []string{ft.Bin, "format", "--reporter=json"}, targets...)
	if err != nil {
		return nil, fmt.Errorf("format: %w", err)
	}
	res.Checked = rep.Summary.Changed + rep.Summary.Unchanged
	var changed []string
	seen := map[string]bool{}
	for _, d := range rep.Diagnostics {
		p := d.Location.Path
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if d.Category == "format" {
			changed = append(changed, p)
		} else if d.Severity == "error" || d.Severity == "fatal" {
			res.Errors = append(res.Errors, ext.FormatError{File: filepath.ToSlash(p), Message: d.Message})
		}
	}
	return changed, nil
}
