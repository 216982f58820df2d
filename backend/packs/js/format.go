package js

import (
	"context"
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

// snippetExt is the file name prettier infers a snippet's parser from.
var snippetExt = map[string]string{"typescript": ".ts", "tsx": ".tsx", "jsx": ".jsx", "javascript": ".js"}

// Prettier returns the project's prettier (node_modules/.bin/prettier from
// dir up to the workspace root), or "".
func Prettier(root, dir string) string {
	return findUp(root, dir, filepath.Join("node_modules", ".bin", "prettier"))
}

// Format is format_code with the project's prettier: a snippet answers
// {changed, char_delta, chars, formatter}; paths (or, with neither, the
// project directory, honouring .prettierignore) are rewritten in place and
// answer {changed: n, files: [{file, changed, char_delta}], formatter}.
// Code and paths together, and a project without prettier, are refused
// before anything changes.
func Format(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code := optString(c.Opts, "code")
	if code == "" {
		code = optString(c.Opts, "arg")
	}
	paths, err := optPaths(c.Opts)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(code) != "" && len(paths) > 0 {
		return nil, badArgs("pass code OR paths, not both; nothing was formatted")
	}
	cwd := cwdOf(env, c)
	var abs []string
	for _, p := range paths {
		a, err := resolveIn(env.Workspace, cwd, p)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(a); err != nil {
			return nil, badArgs("%s: no such file or directory", p)
		}
		abs = append(abs, a)
	}
	bin := Prettier(env.Workspace, cwd)
	if bin == "" {
		return nil, ErrNoFormatter
	}
	if strings.TrimSpace(code) != "" {
		ext := snippetExt[language(c)]
		if c.Language == "tsx" || c.Language == "jsx" {
			ext = snippetExt[c.Language]
		}
		r, err := child.Run(ctx, cwd, formatTimeout, code, bin, "--stdin-filepath", "snippet"+ext)
		if err != nil {
			return nil, fmt.Errorf("format: %w", err)
		}
		if r.Exit != 0 {
			return nil, fmt.Errorf("format: prettier cannot format the code: %s", child.ClipMiddle(strings.TrimSpace(r.Stderr), 4000))
		}
		before, after := utf8.RuneCountInString(code), utf8.RuneCountInString(r.Stdout)
		return map[string]any{"changed": r.Stdout != code, "char_delta": after - before, "chars": after, "formatter": "prettier"}, nil
	}
	targets := []string{"."}
	if len(abs) > 0 {
		targets = nil
		for _, a := range abs {
			targets = append(targets, workspace.RelTo(cwd, a))
		}
	}
	l, err := child.Run(ctx, cwd, formatTimeout, "", append([]string{bin, "--list-different"}, targets...)...)
	if err != nil {
		return nil, fmt.Errorf("format: %w", err)
	}
	if l.Exit > 1 {
		return nil, fmt.Errorf("format: prettier --list-different failed (exit %d): %s", l.Exit, child.ClipMiddle(strings.TrimSpace(l.Stderr), 4000))
	}
	var changed []string
	for _, line := range strings.Split(l.Stdout, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			changed = append(changed, line)
		}
	}
	before := map[string]int{}
	for _, f := range changed {
		b, err := os.ReadFile(filepath.Join(cwd, f))
		if err != nil {
			return nil, fmt.Errorf("format: %w", err)
		}
		before[f] = utf8.RuneCount(b)
	}
	files := []map[string]any{}
	if len(changed) > 0 {
		w, err := child.Run(ctx, cwd, formatTimeout, "", append([]string{bin, "--write"}, changed...)...)
		if err != nil {
			return nil, fmt.Errorf("format: %w", err)
		}
		if w.Exit != 0 {
			return nil, fmt.Errorf("format: prettier --write failed (exit %d): %s", w.Exit, child.ClipMiddle(strings.TrimSpace(w.Stderr), 4000))
		}
		for _, f := range changed {
			b, err := os.ReadFile(filepath.Join(cwd, f))
			if err != nil {
				return nil, fmt.Errorf("format: %w", err)
			}
			files = append(files, map[string]any{"file": filepath.ToSlash(f), "changed": true, "char_delta": utf8.RuneCount(b) - before[f]})
		}
	}
	return map[string]any{"changed": len(files), "files": files, "formatter": "prettier"}, nil
}
