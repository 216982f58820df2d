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

// Format is format_code for Go (see the package comment). Results:
//
//	snippet: {"changed", "char_delta", "chars", "formatter"}
//	paths:   {"changed": n, "checked": n, "files": [{"file", "changed", "char_delta"}], "errors"?: [{"file", "message"}], "formatter"}
func Format(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code := optString(c.Opts, "code")
	if code == "" {
		code = optString(c.Opts, "arg") // a bare string argument is source
	}
	paths, err := optPaths(c.Opts)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(code) != "" {
		if len(paths) > 0 {
			return nil, badArgs("pass code OR paths, not both; nothing was formatted")
		}
		return formatSnippet(ctx, cwdOf(env, c), code)
	}
	cwd := cwdOf(env, c)
	var files []string
	if len(paths) == 0 {
		files, err = goFiles(moduleRoot(env.Workspace, cwd))
	} else {
		files, err = selectFiles(env.Workspace, cwd, paths)
	}
	if err != nil {
		return nil, err
	}
	return formatFiles(ctx, cwd, files)
}

// formatSnippet pipes code through gofmt.
func formatSnippet(ctx context.Context, cwd, code string) (map[string]any, error) {
	r, err := proc.Run(ctx, cwd, formatTimeout, code, "gofmt")
	if err != nil {
		return nil, fmt.Errorf("format go: %w", err)
	}
	if r.Exit != 0 {
		return nil, fmt.Errorf("format go: gofmt cannot parse the code: %s", strings.TrimSpace(strings.ReplaceAll(r.Stderr, "<standard input>", "code")))
	}
	before, after := utf8.RuneCountInString(code), utf8.RuneCountInString(r.Stdout)
	return map[string]any{
		"changed":    r.Stdout != code,
		"char_delta": after - before,
		"chars":      after,
		"formatter":  formatter,
	}, nil
}

// formatFiles lists the files gofmt would change, rewrites them and reports
// each change.
func formatFiles(ctx context.Context, cwd string, files []string) (map[string]any, error) {
	res := map[string]any{"formatter": formatter, "checked": len(files), "changed": 0, "files": []map[string]any{}}
	if len(files) == 0 {
		return res, nil
	}
	r, err := proc.Run(ctx, cwd, formatTimeout, "", append([]string{"gofmt", "-l"}, files...)...)
	if err != nil {
		return nil, fmt.Errorf("format go: %w", err)
	}
	if r.TimedOut {
		return nil, fmt.Errorf("format go: gofmt -l timed out after %v", formatTimeout)
	}
	var errs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.Stderr), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			file, _, _ := strings.Cut(line, ":")
			errs = append(errs, map[string]any{"file": workspace.RelTo(cwd, file), "message": strings.Replace(line, file, workspace.RelTo(cwd, file), 1)})
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
			return nil, fmt.Errorf("format go: %w", err)
		}
		before[f] = utf8.RuneCount(b)
	}
	if len(changed) > 0 {
		w, err := proc.Run(ctx, cwd, formatTimeout, "", append([]string{"gofmt", "-w"}, changed...)...)
		if err != nil {
			return nil, fmt.Errorf("format go: %w", err)
		}
		if w.Exit != 0 {
			return nil, fmt.Errorf("format go: gofmt -w: %s", strings.TrimSpace(w.Stderr))
		}
	}
	out := []map[string]any{}
	for _, f := range changed {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("format go: %w", err)
		}
		out = append(out, map[string]any{"file": workspace.RelTo(cwd, f), "changed": true, "char_delta": utf8.RuneCount(b) - before[f]})
	}
	res["files"], res["changed"] = out, len(out)
	if len(errs) > 0 {
		res["errors"] = errs
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
			return nil, badArgs("%s: no such file or directory", p)
		}
		var fs []string
		if fi.IsDir() {
			if fs, err = goFiles(abs); err != nil {
				return nil, err
			}
		} else {
			if !strings.HasSuffix(abs, ".go") {
				return nil, badArgs("%s is not a .go file", p)
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
