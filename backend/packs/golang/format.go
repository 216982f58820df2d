package golang

import (
	"context"
	"fmt"
	"github.com/visdesktop/vis/backend/packs/proc"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

const formatTimeout = 2 * time.Minute

// Format is format_code for Go (see the package comment): gofmt, with
// the call's env and args (gofmt flags such as -s, placed before the
// files). The result is the shared ext.FormatResult.
func Format(ctx context.Context, env ext.ToolEnv, c ext.Call) (ext.FormatResult, error) {
	code := ext.StringOption(c.Opts, "code")
	if code == "" {
		code = ext.StringOption(c.Opts, "arg") // a bare string argument is source
	}
	paths, err := ext.PathsOption(c.Opts)
	if err != nil {
		return ext.FormatResult{}, err
	}
	t, err := ext.ToolOf(c.Opts, formatTimeout)
	if err != nil {
		return ext.FormatResult{}, err
	}
	if strings.TrimSpace(code) != "" {
		if len(paths) > 0 {
			return ext.FormatResult{}, ext.BadArgs("pass code OR paths, not both; nothing was formatted")
		}
		return formatSnippet(ctx, c.Dir(env), code, t)
	}
	cwd := c.Dir(env)
	var files []string
	if len(paths) == 0 {
		files, err = goFiles(moduleRoot(env.Workspace, cwd))
	} else {
		files, err = selectFiles(env.Workspace, cwd, paths)
	}
	if err != nil {
		return ext.FormatResult{}, err
	}
	return formatFiles(ctx, cwd, files, t)
}

// formatSnippet pipes code through gofmt.
func formatSnippet(ctx context.Context, cwd, code string, t ext.Tool) (ext.FormatResult, error) {
	r, err := proc.RunEnv(ctx, cwd, t.Timeout, code, t.Env, t.Argv([]string{"gofmt"})...)
	if err != nil {
		return ext.FormatResult{}, fmt.Errorf("format go: %w", err)
	}
	if r.Exit != 0 {
		return ext.FormatResult{}, fmt.Errorf("format go: gofmt cannot parse the code: %s", strings.TrimSpace(strings.ReplaceAll(r.Stderr, "<standard input>", "code")))
	}
	before, after := utf8.RuneCountInString(code), utf8.RuneCountInString(r.Stdout)
	return ext.FormatResult{Formatter: formatter, Snippet: true, Changed: r.Stdout != code, Delta: after - before, Chars: after}, nil
}

// formatFiles lists the files gofmt would change, rewrites them and reports
// each change.
func formatFiles(ctx context.Context, cwd string, files []string, t ext.Tool) (ext.FormatResult, error) {
	res := ext.FormatResult{Formatter: formatter, Checked: len(files)}
	if len(files) == 0 {
		return res, nil
	}
	r, err := proc.RunEnv(ctx, cwd, t.Timeout, "", t.Env, t.Argv([]string{"gofmt", "-l"}, files...)...)
	if err != nil {
		return ext.FormatResult{}, fmt.Errorf("format go: %w", err)
	}
	if r.TimedOut {
		return ext.FormatResult{}, fmt.Errorf("format go: gofmt -l timed out after %v", t.Timeout)
	}
	for _, line := range strings.Split(strings.TrimSpace(r.Stderr), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			file, _, _ := strings.Cut(line, ":")
			res.Errors = append(res.Errors, ext.FormatError{File: workspace.RelTo(cwd, file), Message: strings.Replace(line, file, workspace.RelTo(cwd, file), 1)})
		}
	}
	var changed []string
	for _, line := range strings.Split(r.Stdout, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			changed = append(changed, line)
		}
	}
	before := map[string]int{}
	for _, f := range changed {
		b, err := os.ReadFile(f)
		if err != nil {
			return ext.FormatResult{}, fmt.Errorf("format go: %w", err)
		}
		before[f] = utf8.RuneCount(b)
	}
	if len(changed) > 0 {
		w, err := proc.RunEnv(ctx, cwd, t.Timeout, "", t.Env, t.Argv([]string{"gofmt", "-w"}, changed...)...)
		if err != nil {
			return ext.FormatResult{}, fmt.Errorf("format go: %w", err)
		}
		if w.Exit != 0 {
			return ext.FormatResult{}, fmt.Errorf("format go: gofmt -w: %s", strings.TrimSpace(w.Stderr))
		}
	}
	for _, f := range changed {
		b, err := os.ReadFile(f)
		if err != nil {
			return ext.FormatResult{}, fmt.Errorf("format go: %w", err)
		}
		res.Files = append(res.Files, ext.FormatFile{File: workspace.RelTo(cwd, f), Delta: utf8.RuneCount(b) - before[f]})
	}
	return res, nil
}

// selectFiles expands path selectors into .go files (directories walk
// recursively the way the go tool does).
func selectFiles(root, cwd string, paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/..."), "...")
		if p == "" {
			p = "."
		}
		abs, err := resolveIn(root, cwd, p)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, ext.BadArgs("%s: no such file or directory", p)
		}
		var fs []string
		if fi.IsDir() {
			if fs, err = goFiles(abs); err != nil {
				return nil, err
			}
		} else {
			if !strings.HasSuffix(abs, ".go") {
				return nil, ext.BadArgs("%s is not a .go file", p)
			}
			fs = []string{abs}
		}
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// goFiles lists the .go files under dir, skipping what the go tool skips
// (vendor, testdata, and names starting with "." or "_").
func goFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_") && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list go files: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// moduleRoot is the nearest directory from cwd up to the workspace root
// that holds a go.mod, else cwd.
func moduleRoot(root, cwd string) string {
	for d := cwd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if d == root || filepath.Dir(d) == d || (root != "" && !strings.HasPrefix(d, root)) {
			return cwd
		}
	}
}
