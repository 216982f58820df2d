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

// Format is format_code with the project's prettier, with the call's env
// and args (prettier options, before the files): a snippet answers
// whether it changed and by how much; paths (or, with neither, the
// project directory, honouring .prettierignore) are rewritten in place and
// answer one row per changed file (ext.FormatResult; prettier does not say
// how many files it checked). Code and paths together, and a project
// without prettier, are refused before anything changes.
func Format(ctx context.Context, env ext.ToolEnv, c ext.Call) (ext.FormatResult, error) {
	fail := func(err error) (ext.FormatResult, error) { return ext.FormatResult{}, err }
	code := optString(c.Opts, "code")
	if code == "" {
		code = optString(c.Opts, "arg")
	}
	paths, err := optPaths(c.Opts)
	if err != nil {
		return fail(err)
	}
	if strings.TrimSpace(code) != "" && len(paths) > 0 {
		return fail(badArgs("pass code OR paths, not both; nothing was formatted"))
	}
	t, err := toolOf(c, formatTimeout)
	if err != nil {
		return fail(err)
	}
	cwd := cwdOf(env, c)
	var abs []string
	for _, p := range paths {
		a, err := resolveIn(env.Workspace, cwd, p)
		if err != nil {
			return fail(err)
		}
		if _, err := os.Stat(a); err != nil {
			return fail(badArgs("%s: no such file or directory", p))
		}
		abs = append(abs, a)
	}
	bin := Prettier(env.Workspace, cwd)
	if bin == "" {
		return fail(ErrNoFormatter)
	}
	if strings.TrimSpace(code) != "" {
		suffix := snippetExt[language(c)]
		if c.Language == "tsx" || c.Language == "jsx" {
			suffix = snippetExt[c.Language]
		}
		r, err := child.RunEnv(ctx, cwd, t.timeout, code, t.env, t.argv([]string{bin, "--stdin-filepath", "snippet" + suffix})...)
		if err != nil {
			return fail(fmt.Errorf("format: %w", err))
		}
		if r.Exit != 0 {
			return fail(fmt.Errorf("format: prettier cannot format the code: %s", child.ClipMiddle(strings.TrimSpace(r.Stderr), 4000)))
		}
		before, after := utf8.RuneCountInString(code), utf8.RuneCountInString(r.Stdout)
		return ext.FormatResult{Formatter: "prettier", Snippet: true, Changed: r.Stdout != code, Delta: after - before, Chars: after}, nil
	}
	targets := []string{"."}
	if len(abs) > 0 {
		targets = nil
		for _, a := range abs {
			targets = append(targets, workspace.RelTo(cwd, a))
		}
	}
	l, err := child.RunEnv(ctx, cwd, t.timeout, "", t.env, t.argv([]string{bin, "--list-different"}, targets...)...)
	if err != nil {
		return fail(fmt.Errorf("format: %w", err))
	}
	if l.Exit > 1 {
		return fail(fmt.Errorf("format: prettier --list-different failed (exit %d): %s", l.Exit, child.ClipMiddle(strings.TrimSpace(l.Stderr), 4000)))
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
			return fail(fmt.Errorf("format: %w", err))
		}
		before[f] = utf8.RuneCount(b)
	}
	res := ext.FormatResult{Formatter: "prettier", Checked: -1}
	if len(changed) > 0 {
		w, err := child.RunEnv(ctx, cwd, t.timeout, "", t.env, t.argv([]string{bin, "--write"}, changed...)...)
		if err != nil {
			return fail(fmt.Errorf("format: %w", err))
		}
		if w.Exit != 0 {
			return fail(fmt.Errorf("format: prettier --write failed (exit %d): %s", w.Exit, child.ClipMiddle(strings.TrimSpace(w.Stderr), 4000)))
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

// tool is what a call adds to the child it runs: environment entries,
// extra arguments and its time budget (the env, args and timeout_ms
// options).
type tool struct {
	env, args []string
	timeout   time.Duration
}

// toolOf reads the call's env, args and timeout_ms (def when absent).
func toolOf(c ext.Call, def time.Duration) (tool, error) {
	env, err := ext.EnvOf(c.Opts)
	if err != nil {
		return tool{}, badArgs("%v", err)
	}
	args, err := ext.ArgsOf(c.Opts)
	if err != nil {
		return tool{}, badArgs("%v", err)
	}
	t := tool{env: env, args: args, timeout: def}
	if ms, err := optMillis(c.Opts, "timeout_ms"); err != nil {
		return tool{}, err
	} else if ms > 0 {
		t.timeout = time.Duration(ms) * time.Millisecond
	}
	return t, nil
}

// argv is head, then the call's args, then tail (the files).
func (t tool) argv(head []string, tail ...string) []string {
	out := append(append([]string(nil), head...), t.args...)
	return append(out, tail...)
}
