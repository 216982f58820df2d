// Package python is the Python language pack (seed 001, spec §4.6): it
// activates on Python project files, resolves the project's interpreter,
// runs a persistent JSON-lines REPL per project, runs tests with pytest
// (JUnit XML for faults) or unittest, and formats/lints with ruff or black.
//
// Contract:
//   - Extension() registers handlers for "python" (alias "py") with every
//     verb; repl_connect is refused (Vis owns Python runtimes).
//   - REPLs are children in their own process group with a parent-death
//     signal on Linux, registered in the session's ext.Resources with ids
//     "pyrepl:<dir with ~>" (or the caller's id); the registry stops them.
//     Evaluations on one REPL are serialised; a timed-out evaluation is
//     interrupted with SIGINT and the REPL stays usable (if it does not
//     answer the interrupt within a grace period it is killed and reported).
//   - Short-lived children (tests, formatters) are killed with their group
//     when their timeout passes or the ctx ends.
//   - A Pack is safe for concurrent use.
package python

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
)

// Name is the extension's registry name.
const Name = "language-python"

// Options configure the pack.
type Options struct {
	// Interpreter pins the interpreter (an argv prefix, e.g. ["~/py/bin/python"]
	// or ["uv", "run", "python"]); nil = VIS_PYTHON, else detection.
	Interpreter []string
	Getenv      func(string) string          // nil = os.Getenv
	LookPath    func(string) (string, error) // nil = exec.LookPath
	// StartTimeout bounds a REPL's boot (0 = 30s); EvalTimeout is the default
	// evaluation budget (0 = 30s); InterruptGrace is how long an interrupted
	// evaluation may take to answer (0 = 3s); TestTimeout bounds run_tests
	// (0 = 10 min); ToolTimeout bounds a formatter or linter (0 = 2 min).
	StartTimeout, EvalTimeout, InterruptGrace, TestTimeout, ToolTimeout time.Duration
}

// Pack is the Python pack's state: its live REPLs.
type Pack struct {
	opts Options

	mu    sync.Mutex
	repls map[string]*repl // session + "\x00" + id

	starts ext.StartLocks // by replKey: one start of a REPL at a time
}

// New returns a pack.
func New(opts Options) *Pack {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.LookPath == nil {
		opts.LookPath = exec.LookPath
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 30 * time.Second
	}
	if opts.EvalTimeout <= 0 {
		opts.EvalTimeout = 30 * time.Second
	}
	if opts.InterruptGrace <= 0 {
		opts.InterruptGrace = 3 * time.Second
	}
	if opts.TestTimeout <= 0 {
		opts.TestTimeout = 10 * time.Minute
	}
	if opts.ToolTimeout <= 0 {
		opts.ToolTimeout = 2 * time.Minute
	}
	return &Pack{opts: opts, repls: map[string]*repl{}}
}

// Extension returns the pack with default options as an extension.
func Extension() ext.Extension { return New(Options{}).Extension() }

func (p *Pack) getenv(k string) string               { return p.opts.Getenv(k) }
func (p *Pack) lookPath(name string) (string, error) { return p.opts.LookPath(name) }

// Markers are what activates the pack: a project file at the root, or a
// .py file in the bounded scan.
var Markers = []ext.Marker{
	{File: "pyproject.toml"}, {File: "setup.py"}, {File: "setup.cfg"}, {File: "requirements.txt"},
	{File: "Pipfile"}, {File: "uv.lock"}, {Exts: []string{".py"}},
}

// Active reports whether the pack is active for env.
func Active(env ext.Environment) bool { return ext.AnyPresent(env, Markers) }

// Extension returns the pack as an extension.
func (p *Pack) Extension() ext.Extension {
	return ext.Extension{
		Name:        Name,
		Description: "Python: REPL, tests (pytest or unittest), format and lint (ruff or black).",
		Kind:        "language",
		Title:       "Python",
		Markers:     Markers,
		Activate:    func(env ext.Environment) (bool, error) { return Active(env), nil },
		LanguageTools: []ext.LanguageTools{{
			Language: "python",
			Aliases:  []string{"py", "python3"},
			Format:   p.format,
			Lint:     p.lint,
			Test:     p.test,
			Eval:     p.eval,
			Repl:     p.replOp,
			Options:  ToolOptions,
		}},
	}
}

func (p *Pack) replOp(ctx context.Context, env ext.ToolEnv, op string, c ext.Call) (map[string]any, error) {
	switch op {
	case "start":
		return p.start(ctx, env, c)
	case "status":
		return p.status(ctx, env, c)
	case "stop":
		return p.stop(ctx, env, c)
	case "connect":
		return nil, fmt.Errorf(`python REPLs are owned by Vis and cannot be attached: use repl_start("python") (repl_connect is for Clojure nREPLs)`)
	}
	return nil, fmt.Errorf("python: unknown REPL operation %q", op)
}

// Close stops every REPL the pack started (the resource registry normally
// does this per session; Close is for an app exit without one).
func (p *Pack) Close() {
	p.mu.Lock()
	rs := make([]*repl, 0, len(p.repls))
	for k, r := range p.repls {
		rs = append(rs, r)
		delete(p.repls, k)
	}
	p.mu.Unlock()
	for _, r := range rs {
		r.stop(context.Background())
	}
}

func optString(opts map[string]any, k string) string {
	s, _ := opts[k].(string)
	return strings.TrimSpace(s)
}

func optStrings(opts map[string]any, k string) []string {
	switch x := opts[k].(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return nil
		}
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return x
	}
	return nil
}

func optInt(opts map[string]any, k string) (int, bool) {
	switch n := opts[k].(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	}
	return 0, false
}

func optDuration(opts map[string]any, k string, def time.Duration) time.Duration {
	if ms, ok := optInt(opts, k); ok && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return def
}
