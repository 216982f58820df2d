// Package clojure is the Clojure language pack (seeds 001 and 002, spec
// §4.5 and §5): it activates on Clojure projects, starts and attaches nREPL
// servers, evaluates in them, runs tests in a live REPL or in a clean JVM,
// formats and lints with the tools that are installed, and contributes the
// session's live nREPL state to the `session` dict every turn.
//
// Contract:
//   - Extension() registers handlers for "clojure" (aliases clj, cljs, cljc,
//     clojurescript) with every verb, and a ctx contribution that surfaces as
//     session["env"]["languages"]["clojure"]["nrepl"].
//   - Managed REPLs are nREPL servers we start on a free loopback port we
//     chose, children in their own process group with a parent-death signal
//     on Linux, logged under ToolEnv.LogDir, registered in the session's
//     ext.Resources with ids "nrepl:<dir with ~>"; the registry stops them.
//     One managed REPL per session and folder; starts of one folder are
//     serialised. Attachments (repl_connect) are registered under the managed
//     id plus "#external" or "#<build>", are never killed, and stopping one
//     only detaches.
//   - Nothing here starts a REPL implicitly: run_tests without a live
//     session REPL runs the project's own test command in a fresh JVM.
//   - Every refusal (bad selectors, unsupported focus, ambiguous shadow
//     builds, dynamic or external shadow config, aliases a reused REPL
//     cannot apply) is returned before any process starts.
//   - Short-lived children (test runs, formatters, linters) are killed with
//     their process group when their timeout passes or the ctx ends.
//   - The ctx contribution never fails: any error gives an empty map. It
//     probes each REPL at most once per turn and port set (see WithTurn).
//   - A Pack is safe for concurrent use. Close stops what it started.
package clojure

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/packs/clojure/nrepl"
	"github.com/visdesktop/vis/backend/workspace"
)

// Name is the extension's registry name.
const Name = "language-clojure"

// NREPLVersion is the nREPL the official Clojure CLI launcher adds (the
// original Vis pins the same one).
const NREPLVersion = "1.7.0"

// DefaultJarDir is where Debian's clojure and libnrepl-clojure put their jars.
const DefaultJarDir = "/usr/share/java"

// Options configure the pack. Zero fields take the defaults shown.
type Options struct {
	Getenv   func(string) string          // os.Getenv
	LookPath func(string) (string, error) // exec.LookPath
	// JarDir holds clojure.jar, spec.alpha.jar, core.specs.alpha.jar and
	// nrepl.jar (Debian's packages): DefaultJarDir.
	JarDir string
	// OfficialCLI reports whether the `clojure` on PATH is the official
	// Clojure CLI (it reads deps.edn). nil = ask it once (`clojure
	// -Sdescribe`).
	OfficialCLI func(ctx context.Context) bool

	StartTimeout    time.Duration // waiting for a REPL's port: 120s
	EvalTimeout     time.Duration // repl_eval default budget: 30s
	HealthDeadline  time.Duration // the (+ 1 1) probe: 2s
	DescribeTimeout time.Duration // the describe probe: 100ms (its failure only leaves versions stale; the health eval decides)
	TestTimeout     time.Duration // run_tests: 10 min
	ToolTimeout     time.Duration // formatters, linters, tool detection: 2 min
	// IdleTimeout stops a managed REPL unused for this long: 0 reads
	// VIS_CLJ_REPL_IDLE_MS (unset: 20 min; "0": never), < 0 never.
	IdleTimeout time.Duration
}

// Pack is the Clojure pack's state: its REPLs and attachments.
type Pack struct {
	opts Options
	pool *nrepl.Pool

	mu     sync.Mutex
	repls  map[string]*repl       // session + "\x00" + id
	starts ext.StartLocks         // by replKey: one start of a REPL at a time
	probe  map[string]*probeCache // session -> last probe

	cliOnce sync.Once
	cliOK   bool

	evalLocks sync.Map // host:port -> *sync.Mutex (shadow selection + eval)

	idle       time.Duration // resolved IdleTimeout (<= 0: no reaping)
	reaperOnce sync.Once
	done       chan struct{} // closed by Close: ends the reaper and port-file watchers
	closeOnce  sync.Once
}

// New returns a pack.
func New(opts Options) *Pack {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.LookPath == nil {
		opts.LookPath = exec.LookPath
	}
	if opts.JarDir == "" {
		opts.JarDir = DefaultJarDir
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 120 * time.Second
	}
	if opts.EvalTimeout <= 0 {
		opts.EvalTimeout = 30 * time.Second
	}
	if opts.HealthDeadline <= 0 {
		opts.HealthDeadline = 2 * time.Second
	}
	if opts.DescribeTimeout <= 0 {
		opts.DescribeTimeout = 100 * time.Millisecond
	}
	if opts.TestTimeout <= 0 {
		opts.TestTimeout = 10 * time.Minute
	}
	if opts.ToolTimeout <= 0 {
		opts.ToolTimeout = 2 * time.Minute
	}
	return &Pack{
		idle:  idleTimeout(opts),
		done:  make(chan struct{}),
		opts:  opts,
		pool:  nrepl.NewPool(nrepl.Options{EvalTimeout: opts.EvalTimeout}),
		repls: map[string]*repl{},
		probe: map[string]*probeCache{},
	}
}

// Extension returns the pack with default options as an extension.
func Extension() ext.Extension { return New(Options{}).Extension() }

// SourceExts are the file extensions of Clojure sources.
var SourceExts = []string{".clj", ".cljs", ".cljc", ".cljx", ".bb"}

// Markers are what activates the pack: a project file at the root, or a
// Clojure source in the bounded scan.
var Markers = []ext.Marker{
	{File: "deps.edn"}, {File: "project.clj"}, {File: "shadow-cljs.edn"}, {File: "bb.edn"},
	{Exts: SourceExts, What: "Clojure source"},
}

// Active reports whether the pack is active for env: one of its Markers,
// or a scan that counted Clojure files (the same sources by language).
func Active(env ext.Environment) bool {
	if ext.AnyPresent(env, Markers) {
		return true
	}
	for _, l := range env.Languages {
		if l.Language == "clojure" {
			return true
		}
	}
	return false
}

// Extension returns the pack as an extension.
func (p *Pack) Extension() ext.Extension {
	return ext.Extension{
		Name:        Name,
		Description: "Clojure: nREPL (start, attach, shadow-cljs), tests in the REPL or a clean JVM, format with cljfmt, zprint or standard-clj, lint with clj-kondo (when installed) plus reflection/boxed-math checks in a clean JVM.",
		Kind:        "language",
		Title:       "Clojure",
		Markers:     Markers,
		Activate:    func(env ext.Environment) (bool, error) { return Active(env), nil },
		Ctx:         p.Ctx,
		LanguageTools: []ext.LanguageTools{{
			Language: "clojure",
			Aliases:  []string{"clj", "cljs", "cljc", "clojurescript"},
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
		return p.connect(ctx, env, c)
	}
	return nil, fmt.Errorf("clojure: unknown REPL operation %q", op)
}

// Close stops every REPL the pack started and drops its attachments (the
// resource registry normally does this per session).
func (p *Pack) Close() {
	p.closeOnce.Do(func() { close(p.done) })
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
	_ = p.pool.Close()
}

// ---- options ----

func optString(opts map[string]any, k string) string {
	s, _ := opts[k].(string)
	return strings.TrimSpace(s)
}

// optStrings reads a string or a list of strings; ok is false when the value
// has another type.
func optStrings(opts map[string]any, k string) (out []string, isList bool, err error) {
	switch x := opts[k].(type) {
	case nil:
		return nil, false, nil
	case string:
		if strings.TrimSpace(x) == "" {
			return nil, false, nil
		}
		return []string{strings.TrimSpace(x)}, false, nil
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, true, fmt.Errorf("%s entries must be strings, got %T", k, e)
			}
			if strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out, true, nil
	case []string:
		return x, true, nil
	}
	return nil, false, fmt.Errorf("%s must be a string or a list of strings, got %T", k, opts[k])
}

func optInt(opts map[string]any, k string) (int, bool) {
	switch n := opts[k].(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	case string:
		var v int
		if _, err := fmt.Sscanf(strings.TrimSpace(n), "%d", &v); err == nil {
			return v, true
		}
	}
	return 0, false
}

func optDuration(opts map[string]any, k string, def time.Duration) time.Duration {
	if ms, ok := optInt(opts, k); ok && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return def
}

// aliasNames normalises aliases (":dev", "dev", [":a" "b"]) to bare names.
func aliasNames(opts map[string]any) ([]string, error) {
	names, _, err := optStrings(opts, "aliases")
	if err != nil {
		return nil, fmt.Errorf("clojure: %w", err)
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		for _, part := range strings.Split(n, ":") {
			part = strings.TrimSpace(part)
			if part == "" || seen[part] {
				continue
			}
			if strings.ContainsAny(part, " \t'\"()[]{}") {
				return nil, fmt.Errorf("clojure: %q is not an alias name", n)
			}
			seen[part] = true
			out = append(out, part)
		}
	}
	return out, nil
}

// canonicalDir resolves symlinks and cleans dir (REPL ids use it).
func canonicalDir(dir string) string { return workspace.Canonical(dir) }

func tilde(p string) string { return homedir.Tilde(p, homedir.Dir()) }

// ManagedID is the id of the managed REPL for a project folder.
func ManagedID(dir string) string { return "nrepl:" + tilde(canonicalDir(dir)) }

func exists(dir, rel string) bool {
	_, err := os.Stat(filepath.Join(dir, rel))
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
