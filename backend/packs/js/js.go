// Package js is the JavaScript/TypeScript language pack (seed 001). It
// activates on bunfig.toml, bun.lock, bun.lockb or .bun-version at the
// workspace root, or on a package.json with JS/TS sources (the bounded
// scan of env.HasExt), and registers the same handlers for "typescript",
// "javascript", "tsx" and "jsx" (aliases mts/cts → typescript, mjs/cjs →
// javascript).
//
// Runtime: bun when the project uses it (its lock or config files) or bun
// is on PATH (or ~/.bun/bin/bun), else node. A project that uses bun on a
// machine without it runs on node, and results say so in "note".
//
//   - repl_start/repl_status/repl_stop manage a persistent REPL child
//     (runtime -e <embedded server>) speaking JSON lines: {"code"} or
//     {"op":"ping"} → {ok,out,err,value,data,type,exc,timed_out}. Top-level
//     bindings persist across evaluations, top-level await works, console
//     output is captured. Ids are "jsrepl:<dir with ~>" ("#label" appended
//     for a labelled second REPL). repl_connect is refused: we own these
//     runtimes.
//   - repl_eval with timeout_ms (default 30 s): an evaluation past its
//     budget is abandoned and reported timed_out with the REPL's state
//     kept (async waits are abandoned in the server; a synchronous busy
//     loop is interrupted with SIGINT). Only when the REPL does not answer
//     even then is it killed and restarted, and the result says
//     "restarted": true (state lost).
//   - run_tests: `bun test [-t pattern] [paths]` under bun; under node what
//     the project's package.json scripts.test runs (followed through `npm
//     run X`; its node --test files and options, vitest or jest, with
//     structured output), else the vitest or jest its dependencies name,
//     else bare `node --test` with TAP output. The result says which
//     command ran and why. Counts come from the runner's summary; a count
//     it did not print is absent, never 0.
//   - format_code with the project's own formatter (biome, oxfmt or
//     prettier: ProjectFormatter), lint_code with its own linter (eslint or
//     biome: ProjectLinter), each from node_modules/.bin, else PATH, else
//     refused with an error naming what to install.
//
// Every child runs in its own process group with the parent-death signal
// on Linux; REPLs are registered in env.Resources, which owns stopping them.
// Handlers are safe for concurrent use; evaluations on one REPL run one at a
// time.
package js

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

// Sentinel errors callers can tell apart.
var (
	ErrBadArgs     = ext.ErrBadArgs // every pack's refusals wrap ext's one sentinel
	ErrNoRuntime   = errors.New("no JavaScript runtime: install node or bun")
	ErrNoFormatter = errors.New("no formatter found: the project names none (package.json scripts.format, biome.json, .prettierrc*, .oxfmtrc.json) and its node_modules has none: install one, e.g. npm install --save-dev prettier (or @biomejs/biome, oxfmt)")
	ErrNoREPL      = errors.New("no JavaScript REPL is running")
	ErrConnect     = errors.New(`repl_connect is Clojure only: Vis owns the JavaScript runtimes it starts; use repl_start("javascript")`)
)

// Languages are the facade languages this pack answers for.
var Languages = []string{"typescript", "javascript", "tsx", "jsx"}

// bunMarkers are the root files that say a project uses bun.
var bunMarkers = []string{"bunfig.toml", "bun.lock", "bun.lockb", ".bun-version"}

// sourceExts are the files that make a package.json workspace a JS one.
var sourceExts = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// Markers are what activates the pack: one of bun's files at the root, or
// a package.json with JS/TS sources in the bounded scan.
var Markers = jsMarkers()

func jsMarkers() []ext.Marker {
	var ms []ext.Marker
	for _, f := range bunMarkers {
		ms = append(ms, ext.Marker{File: f})
	}
	return append(ms, ext.Marker{File: "package.json", Exts: sourceExts, What: "JavaScript/TypeScript sources"})
}

// Extension returns the JavaScript/TypeScript pack.
func Extension() ext.Extension {
	var tools []ext.LanguageTools
	for _, lang := range Languages {
		lt := ext.LanguageTools{Language: lang, Format: Format, Lint: Lint, Test: Test, Eval: Eval, Repl: Repl, Options: ToolOptions}
		switch lang {
		case "typescript":
			lt.Aliases = []string{"ts", "mts", "cts"}
		case "javascript":
			lt.Aliases = []string{"js", "mjs", "cjs"}
		}
		tools = append(tools, lt)
	}
	return ext.Extension{
		Name:          "language-js",
		Description:   "JavaScript/TypeScript language pack on bun, else node: a managed REPL (persistent bindings, top-level await), run_tests (bun test, vitest, jest or node --test), the project's formatter (biome, oxfmt, prettier) and linter (eslint, biome).",
		Kind:          "language",
		Title:         "JavaScript/TypeScript",
		Markers:       Markers,
		Activate:      Active,
		LanguageTools: tools,
	}
}

// Active reports whether the workspace is a bun project, or a package.json
// project with JS/TS sources.
func Active(env ext.Environment) (bool, error) {
	return ext.AnyPresent(env, Markers), nil
}

// Runtime is the JavaScript runtime chosen for a directory.
type Runtime struct {
	Name string // "bun" or "node"
	Path string // executable
	Note string // why, when it is not what the project asked for
}

// LookPath finds executables; tests replace it to exercise the bun path.
type LookPath func(file string) (string, error)

// ResolveRuntime picks bun when the project uses it or it is installed,
// else node. dir is searched upwards to workspace for bun's files; home is
// where ~/.bun/bin/bun lives.
func ResolveRuntime(workspace, dir, home string, look LookPath) (Runtime, error) {
	if look == nil {
		look = exec.LookPath
	}
	usesBun := projectUsesBun(workspace, dir)
	bun, err := look("bun")
	if err != nil && home != "" {
		if p := filepath.Join(home, ".bun", "bin", "bun"); isExec(p) {
			bun, err = p, nil
		}
	}
	if err == nil {
		return Runtime{Name: "bun", Path: bun}, nil
	}
	node, nerr := look("node")
	if nerr != nil {
		return Runtime{}, ErrNoRuntime
	}
	rt := Runtime{Name: "node", Path: node}
	if usesBun {
		rt.Note = "the project uses bun but bun is not installed; ran on node"
	}
	return rt, nil
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// projectUsesBun looks for bun's files from dir up to the workspace root.
func projectUsesBun(workspace, dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		for _, m := range bunMarkers {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return true
			}
		}
		if d == workspace || filepath.Dir(d) == d || (workspace != "" && !strings.HasPrefix(d, workspace)) {
			return false
		}
	}
}

// findUp returns the first dir/rel from dir up to the workspace root that
// exists ("" when none).
func findUp(workspace, dir, rel string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if p := filepath.Join(d, rel); isExec(p) {
			return p
		}
		if d == workspace || filepath.Dir(d) == d || (workspace != "" && !strings.HasPrefix(d, workspace)) {
			return ""
		}
	}
}

// optMillis reads a positive millisecond option (0 when absent).
func optMillis(opts map[string]any, key string) (int64, error) {
	v, ok := opts[key]
	if !ok || v == nil {
		return 0, nil
	}
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case float64:
		n = int64(x)
	default:
		return 0, ext.BadArgs("%s must be a number of milliseconds, got %T", key, v)
	}
	if n <= 0 {
		return 0, ext.BadArgs("%s must be positive", key)
	}
	return n, nil
}

// resolveIn makes p absolute against cwd and refuses a path outside the
// workspace (a bad argument).
func resolveIn(root, cwd, p string) (string, error) {
	abs, err := workspace.Within(root, cwd, p)
	if err != nil {
		return "", ext.BadArgs("%v", err)
	}
	return abs, nil
}
