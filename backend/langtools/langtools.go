// Package langtools is the language-neutral facade of seed 001: the eight
// verbs format_code, lint_code, run_tests, repl_eval, repl_start,
// repl_status, repl_stop and repl_connect, bound bare in the sandbox, which
// parse the model's arguments (spec §4.2), choose the handler of an active
// language pack and call it. It also renders the capability data and the
// LANGUAGE TOOLS matrix of the prompt (spec §4.3), and completes run_tests
// results into the shared test contract.
//
// Contract:
//   - A Facade is built once per turn from the turn's frozen ext.Active;
//     it is immutable and safe for concurrent use. Surface holds the current
//     Facade for a session whose sandbox binds the verbs once.
//   - Anything the facade refuses (bad arguments, conflicting selectors or
//     directories, no handler, an ambiguous or unsupported language) is an
//     *Error returned BEFORE any handler runs, so nothing has happened yet.
//     Handler errors are returned as they are.
//   - The turn's pack set never changes. A refusal for a verb no active pack
//     handles consults WithLive's function (what the workspace would
//     activate now) only to explain itself: a pack whose marker appeared
//     after the turn started is named with the marker and "next turn";
//     otherwise the hint lists the markers the registered packs declare
//     (ext.Extension.Markers), never a list of its own.
//   - repl_stop(id) and repl_status work through ext.Resources without any
//     pack.
package langtools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/workspace"
)

// The verbs are ext's (the keys of the packs' VerbOptions); the facade
// names them again for its callers, who spell them langtools.VerbTest.
const (
	VerbFormat  = ext.VerbFormat
	VerbLint    = ext.VerbLint
	VerbTest    = ext.VerbTest
	VerbEval    = ext.VerbEval
	VerbStart   = ext.VerbStart
	VerbStatus  = ext.VerbStatus
	VerbStop    = ext.VerbStop
	VerbConnect = ext.VerbConnect
)

// Verbs lists the facade verbs in the order doc() shows them.
var Verbs = []string{ext.VerbFormat, ext.VerbLint, ext.VerbTest, ext.VerbEval, ext.VerbStart, ext.VerbStatus, ext.VerbStop, ext.VerbConnect}

// capabilityVerbs are the verbs the capability data and matrix list.
var capabilityVerbs = []string{ext.VerbFormat, ext.VerbLint, ext.VerbTest, ext.VerbEval, ext.VerbStart}

// Error codes (Error.Code).
const (
	CodeBadArgs      = "bad-args"
	CodeConflict     = "conflict"
	CodeNoHandler    = "no-handler"
	CodeNoLanguage   = "no-language-handler"
	CodeAmbiguous    = "ambiguous"
	CodeNoResources  = "no-resources"
	CodeBadDirectory = "bad-directory"
)

// Error is a call the facade refused before any side effect.
type Error struct {
	Code    string
	Message string
	Hint    string
}

func (e *Error) Error() string { return e.Message }

func refuse(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// extraAliases are facade-level language aliases (spec §3.3).
var extraAliases = map[string]string{"mts": "typescript", "cts": "typescript", "mjs": "javascript", "cjs": "javascript"}

// family pairs a language with the one a pack may register it under.
var family = map[string]string{"tsx": "typescript", "jsx": "javascript", "clojurescript": "clojure", "cljs": "clojure"}

// knownLanguages are names a lone string argument is read as (besides the
// handlers' languages and the scanned ones): asking for one of them that
// no pack handles is an error that lists what exists, not a path.
var knownLanguages = map[string]bool{
	"python": true, "go": true, "golang": true, "javascript": true, "typescript": true, "tsx": true, "jsx": true,
	"clojure": true, "clojurescript": true, "rust": true, "java": true, "kotlin": true, "scala": true, "ruby": true,
	"php": true, "swift": true, "c": true, "cpp": true, "csharp": true, "elixir": true, "haskell": true, "lua": true,
	"shell": true, "bash": true, "node": true, "bun": true, "js": true, "ts": true, "py": true, "clj": true,
}

var languageName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]*$`) })

type handler struct {
	ext string
	lt  ext.LanguageTools
}

// Facade dispatches the verbs for one turn.
type Facade struct {
	handlers   []handler
	env        ext.ToolEnv
	langs      []ext.LanguageCount
	now        func() time.Time
	frozen     map[string]bool // the names of the turn's active extensions
	registered []ext.Extension // every registered extension (their markers)
	live       LiveFunc
}

// LiveFunc returns the extensions the workspace would activate now (a fresh
// scan), or nil when that cannot be told. The facade calls it only to
// explain a refusal; the turn keeps its frozen set.
type LiveFunc func(ctx context.Context) *ext.Active

// WithLive returns a copy of the facade whose refusals can tell packs that
// switch on at the next turn (their marker appeared after this turn
// started) from packs that are simply absent.
func (f *Facade) WithLive(live LiveFunc) *Facade {
	g := *f
	g.live = live
	return &g
}

// New builds the facade from the turn's active extensions, the tool
// environment, and the workspace's languages by file count (nil = the ones
// in a.Env()). a may be nil (no pack active).
func New(a *ext.Active, env ext.ToolEnv, langs []ext.LanguageCount) *Facade {
	f := &Facade{env: env, langs: langs, now: time.Now, frozen: map[string]bool{}, registered: a.Registered()}
	if langs == nil {
		f.langs = a.Env().Languages
	}
	for _, e := range a.Extensions() {
		f.frozen[e.Name] = true
		for _, lt := range e.LanguageTools {
			lt.Language = strings.ToLower(lt.Language)
			aliases := make([]string, len(lt.Aliases))
			for i, al := range lt.Aliases {
				aliases[i] = strings.ToLower(al)
			}
			lt.Aliases = aliases
			f.handlers = append(f.handlers, handler{ext: e.Name, lt: lt})
		}
	}
	return f
}

// Env returns the tool environment handlers get.
func (f *Facade) Env() ext.ToolEnv { return f.env }

func supports(lt ext.LanguageTools, verb string) bool {
	switch verb {
	case ext.VerbFormat:
		return lt.Format != nil
	case ext.VerbLint:
		return lt.Lint != nil
	case ext.VerbTest:
		return lt.Test != nil
	case ext.VerbEval:
		return lt.Eval != nil
	default:
		return lt.Repl != nil
	}
}

func (h handler) matches(lang string) bool {
	if h.lt.Language == lang {
		return true
	}
	for _, a := range h.lt.Aliases {
		if a == lang {
			return true
		}
	}
	return false
}

// CapabilityData maps each active language to the verbs its pack handles,
// in facade order; nil when no pack is active.
func (f *Facade) CapabilityData() map[string][]string {
	if f == nil || len(f.handlers) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, h := range f.handlers {
		have := map[string]bool{}
		for _, v := range out[h.lt.Language] {
			have[v] = true
		}
		for _, v := range capabilityVerbs {
			if supports(h.lt, v) {
				have[v] = true
			}
		}
		var verbs []string
		for _, v := range capabilityVerbs {
			if have[v] {
				verbs = append(verbs, v)
			}
		}
		out[h.lt.Language] = verbs
	}
	return out
}

// Matrix is the LANGUAGE TOOLS block of the prompt; "" when no pack is
// active.
func (f *Facade) Matrix() string {
	data := f.CapabilityData()
	if len(data) == 0 {
		return ""
	}
	langs := make([]string, 0, len(data))
	for l := range data {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var b strings.Builder
	b.WriteString("LANGUAGE TOOLS (active packs; language first):\n")
	for _, l := range langs {
		if len(data[l]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  %s : %s\n", l, strings.Join(data[l], " · "))
	}
	b.WriteString("For the languages above these verbs ARE the tools: run_tests runs tests (never shell a test runner), " +
		"format_code and lint_code format and lint, repl_start then repl_eval evaluate in a persistent REPL " +
		"(repl_status lists REPLs, repl_stop(id) ends one). Call them bare: run_tests(), " +
		"run_tests(\"tests/test_x.py::test_y\"); name the language first only when several packs match. " +
		"doc(\"run_tests\") shows a verb's arguments and result.")
	if _, ok := data["clojure"]; ok {
		b.WriteString("\nclojure run_tests never starts a REPL: without one it shells the project's own test command in a clean JVM; " +
			"with a session REPL for that project it reuses it, reloading only the namespaces it runs (not their dependencies), " +
			"so edited production namespaces need (require ... :reload) via repl_eval, or a repl_stop.")
		b.WriteString("\nclojure lint_code runs clj-kondo (when installed) plus reflection/boxed-math checks that load the code in a clean JVM, " +
			"never the session REPL (tests only when named in paths).")
	}
	return b.String()
}

// Fragment is the matrix as a built-in prompt fragment; ok is false when no
// pack is active.
func (f *Facade) Fragment() (frag ext.Fragment, ok bool) {
	m := f.Matrix()
	if m == "" {
		return ext.Fragment{}, false
	}
	return ext.Fragment{Name: "language-tools", Builtin: true, Text: m}, true
}

// ---- calls ----

// Call runs one verb with the positional and keyword arguments the model
// gave.
func (f *Facade) Call(ctx context.Context, verb string, args []any, kwargs map[string]any) (map[string]any, error) {
	switch verb {
	case ext.VerbFormat, ext.VerbLint, ext.VerbTest, ext.VerbEval:
		return f.callTool(ctx, verb, args, kwargs)
	case ext.VerbStart, ext.VerbStatus, ext.VerbStop, ext.VerbConnect:
		return f.callRepl(ctx, verb, args, kwargs)
	}
	return nil, refuse(CodeBadArgs, "", "unknown verb %q", verb)
}

// call is a parsed call before the handler is chosen.
type call struct {
	verb     string
	language string // lower-cased, aliases resolved; "" = none
	opts     map[string]any
	id       string
	cwd      string
	cwdSet   bool // the caller named cwd or project
}

func example(verb string) string {
	switch verb {
	case ext.VerbFormat:
		return `format_code("python", {"paths": ["src"]}) or format_code(code="x=1", language="python")`
	case ext.VerbLint:
		return `lint_code("python", {"paths": ["src"]}) or lint_code(code="import os")`
	case ext.VerbTest:
		return `run_tests(), run_tests("tests/test_a.py") or run_tests("python", {"paths": ["tests/test_a.py::test_x"]})`
	case ext.VerbEval:
		return `repl_eval("python", {"code": "1 + 1"}) or repl_eval(code="1 + 1")`
	case ext.VerbStart:
		return `repl_start("python") or repl_start("python", {"cwd": "backend", "id": "scratch"})`
	case ext.VerbStatus:
		return `repl_status(), repl_status("python") or repl_status("pyrepl:~/proj")`
	case ext.VerbStop:
		return `repl_stop("pyrepl:~/proj") or repl_stop("python", {"cwd": "backend"})`
	default:
		return `repl_connect("clojure", {"port": 7888})`
	}
}

func badArgs(verb, format string, args ...any) *Error {
	return refuse(CodeBadArgs, "e.g. "+example(verb), "%s: %s", verb, fmt.Sprintf(format, args...))
}

// normLanguage lower-cases a language and resolves facade aliases.
func normLanguage(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if a, ok := extraAliases[s]; ok {
		return a
	}
	return s
}

// isKnownLanguage reports whether a lone string argument names a language.
func (f *Facade) isKnownLanguage(s string) bool {
	if !languageName().MatchString(s) {
		return false
	}
	l := normLanguage(s)
	if knownLanguages[l] {
		return true
	}
	for _, h := range f.handlers {
		if h.matches(l) {
			return true
		}
	}
	for _, lc := range f.langs {
		if lc.Language == l {
			return true
		}
	}
	return false
}

// mergeKwargs folds keyword arguments into the payload; the same key given
// twice with different values is refused.
func mergeKwargs(verb string, payload, kwargs map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(payload)+len(kwargs))
	for k, v := range payload {
		out[k] = v
	}
	for k, v := range kwargs {
		if old, ok := out[k]; ok && fmt.Sprint(old) != fmt.Sprint(v) {
			return nil, badArgs(verb, "%s given twice (%v and %v)", k, old, v)
		}
		out[k] = v
	}
	return out, nil
}

func takeLanguage(verb string, c *call, v any) error {
	s, ok := v.(string)
	if !ok {
		return badArgs(verb, "language must be a string, got %T", v)
	}
	l := normLanguage(s)
	if l == "" {
		return nil
	}
	if c.language != "" && c.language != l {
		return refuse(CodeConflict, "name one language", "%s: two languages given (%s and %s)", verb, c.language, l)
	}
	c.language = l
	return nil
}

func (f *Facade) callTool(ctx context.Context, verb string, args []any, kwargs map[string]any) (map[string]any, error) {
	c := &call{verb: verb}
	var payload map[string]any
	switch len(args) {
	case 0:
		payload = map[string]any{}
	case 1:
		switch x := args[0].(type) {
		case map[string]any:
			payload = x
		case string:
			if _, hasLang := kwargs["language"]; !hasLang && f.isKnownLanguage(x) {
				c.language = normLanguage(x)
				payload = map[string]any{}
			} else {
				payload = map[string]any{"arg": x}
			}
		default:
			payload = map[string]any{"arg": x}
		}
	case 2:
		s, ok := args[0].(string)
		if !ok || !languageName().MatchString(s) {
			return nil, badArgs(verb, "Expected (arg) or (language, arg); %v is not a language name", args[0])
		}
		c.language = normLanguage(s)
		if m, ok := args[1].(map[string]any); ok {
			payload = m
		} else {
			payload = map[string]any{"arg": args[1]}
		}
	default:
		return nil, badArgs(verb, "Expected (arg) or (language, arg); got %d positional arguments", len(args))
	}
	opts, err := mergeKwargs(verb, payload, kwargs)
	if err != nil {
		return nil, err
	}
	if v, ok := opts["language"]; ok {
		delete(opts, "language")
		if err := takeLanguage(verb, c, v); err != nil {
			return nil, err
		}
	}
	if err := f.normalize(c, opts); err != nil {
		return nil, err
	}
	if c.language == "" && c.id != "" {
		if r, ok := f.lookup(c.id); ok && r.Info.Language != "" {
			c.language = normLanguage(r.Info.Language)
		}
	}
	h, err := f.choose(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := checkOptions(c, &h.lt); err != nil {
		return nil, err
	}
	ec := f.extCall(c, h)
	switch verb {
	case ext.VerbFormat:
		r, err := h.lt.Format(ctx, f.env, ec)
		if err != nil {
			return nil, err
		}
		return r.Value(), nil
	case ext.VerbLint:
		return h.lt.Lint(ctx, f.env, ec)
	case ext.VerbEval:
		return h.lt.Eval(ctx, f.env, ec)
	}
	start := f.now()
	res, err := h.lt.Test(ctx, f.env, ec)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = map[string]any{}
	}
	res["target"] = Target(c.opts)
	res["ms"] = f.now().Sub(start).Milliseconds()
	CompleteTestResult(res)
	return res, nil
}

// normalize interprets "arg", merges path selectors, resolves cwd/project
// and the REPL id, all before anything runs.
func (f *Facade) normalize(c *call, opts map[string]any) error {
	verb := c.verb
	if arg, ok := opts["arg"]; ok {
		delete(opts, "arg")
		switch x := arg.(type) {
		case string:
			switch verb {
			case ext.VerbFormat, ext.VerbLint, ext.VerbEval:
				if _, dup := opts["code"]; dup {
					return badArgs(verb, "code given twice")
				}
				opts["code"] = x
			case ext.VerbTest:
				opts["paths"] = appendPaths(opts["paths"], x)
			}
		case []any:
			if verb == ext.VerbEval {
				return badArgs(verb, "the argument must be code (a string) or an options dict")
			}
			if _, dup := opts["paths"]; dup {
				return badArgs(verb, "paths given twice")
			}
			opts["paths"] = x
		case nil:
		default:
			return badArgs(verb, "the argument must be a string, a list of paths or an options dict, got %T", arg)
		}
	}
	// path + paths -> paths (a list, blanks dropped, order kept)
	var paths []any
	hadPaths := false
	for _, k := range []string{"path", "paths"} {
		v, ok := opts[k]
		if !ok {
			continue
		}
		delete(opts, k)
		hadPaths = true
		switch x := v.(type) {
		case nil:
		case string:
			if strings.TrimSpace(x) != "" {
				paths = append(paths, x)
			}
		case []any:
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return badArgs(verb, "%s entries must be strings, got %T", k, e)
				}
				if strings.TrimSpace(s) != "" {
					paths = append(paths, s)
				}
			}
		default:
			return badArgs(verb, "%s must be a list of strings, got %T", k, v)
		}
	}
	if code, ok := opts["code"]; ok {
		s, isStr := code.(string)
		if !isStr && code != nil {
			return badArgs(verb, "code must be a string, got %T", code)
		}
		if strings.TrimSpace(s) == "" {
			delete(opts, "code")
		} else if len(paths) > 0 && (verb == ext.VerbFormat || verb == ext.VerbLint) {
			return refuse(CodeConflict, "pass code OR paths", "%s: code and path/paths are mutually exclusive; nothing was changed", verb)
		}
	}
	if verb == ext.VerbEval {
		if _, ok := opts["code"]; !ok {
			return badArgs(verb, "code is required")
		}
	}
	if len(paths) > 0 || (hadPaths && verb == ext.VerbTest) {
		if len(paths) > 0 {
			opts["paths"] = paths
		}
	}
	cwd, named, err := f.resolveCwd(verb, opts)
	if err != nil {
		return err
	}
	c.cwd, c.cwdSet = cwd, named
	opts["cwd"] = cwd
	if verb == ext.VerbEval || verb == ext.VerbTest || verb == ext.VerbFormat || verb == ext.VerbLint {
		id, err := oneID(verb, opts)
		if err != nil {
			return err
		}
		c.id = id
	}
	c.opts = opts
	return nil
}

func appendPaths(existing any, p string) any {
	switch x := existing.(type) {
	case []any:
		return append(x, p)
	case string:
		return []any{x, p}
	}
	return []any{p}
}

// oneID reads id / repl_id (the same thing); different values are refused.
func oneID(verb string, opts map[string]any) (string, error) {
	var id string
	for _, k := range []string{"id", "repl_id"} {
		v, ok := opts[k]
		if !ok || v == nil {
			continue
		}
		s, isStr := v.(string)
		if !isStr {
			return "", badArgs(verb, "%s must be a string, got %T", k, v)
		}
		if s == "default" || s == "" { // "default" is a sentinel meaning no id
			continue
		}
		if id != "" && id != s {
			return "", refuse(CodeConflict, "name one REPL", "%s: id and repl_id differ (%s, %s)", verb, id, s)
		}
		id = s
	}
	delete(opts, "repl_id")
	if id != "" {
		opts["id"] = id
	} else {
		delete(opts, "id")
	}
	return id, nil
}

// resolveCwd reads cwd / project (aliases) into an absolute directory
// inside the workspace; default the workspace root. named reports whether
// the call named one (a non-blank cwd or project) rather than taking the
// default.
func (f *Facade) resolveCwd(verb string, opts map[string]any) (dir string, named bool, err error) {
	var dirs []string
	for _, k := range []string{"cwd", "project"} {
		v, ok := opts[k]
		if !ok || v == nil {
			continue
		}
		delete(opts, k)
		s, isStr := v.(string)
		if !isStr {
			return "", false, badArgs(verb, "%s must be a directory path string, got %T", k, v)
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		dirs = append(dirs, f.absDir(s))
	}
	if len(dirs) == 2 && dirs[0] != dirs[1] {
		return "", false, refuse(CodeConflict, "pass cwd or project, not both", "%s: A call names ONE directory: cwd and project differ (%s, %s)", verb, tilde(dirs[0]), tilde(dirs[1]))
	}
	root := f.env.Workspace
	if len(dirs) == 0 {
		return root, false, nil
	}
	d := dirs[0]
	if root != "" {
		rel, err := filepath.Rel(root, d)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false, refuse(CodeBadDirectory, "cwd is relative to the workspace root", "%s: %s is outside the workspace", verb, d)
		}
	}
	fi, err := os.Stat(d)
	if err != nil || !fi.IsDir() {
		return "", false, refuse(CodeBadDirectory, "cwd is relative to the workspace root", "%s: no such directory: %s", verb, tilde(d))
	}
	return d, true, nil
}

func (f *Facade) absDir(s string) string {
	s = homedir.Expand(s, homedir.Dir())
	if !filepath.IsAbs(s) {
		s = filepath.Join(f.env.Workspace, s)
	}
	return filepath.Clean(s)
}

// tilde shows a path with the home directory as "~" (REPL ids use it).
func tilde(p string) string { return homedir.Tilde(p, homedir.Dir()) }

func (f *Facade) lookup(id string) (ext.Resource, bool) {
	if f.env.Resources == nil || id == "" {
		return ext.Resource{}, false
	}
	return f.env.Resources.Lookup(f.env.SessionID, id)
}

// pathLanguages infers languages from path selectors' extensions.
func pathLanguages(opts map[string]any) []string {
	ps, _ := opts["paths"].([]any)
	var out []string
	for _, p := range ps {
		s, _ := p.(string)
		if i := strings.Index(s, "::"); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimSuffix(s, "/...")
		if l := workspace.LanguageOf(s); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// choose picks the handler for a call (spec §4.2 choose-handler).
func (f *Facade) choose(ctx context.Context, c *call) (handler, error) {
	var all []handler
	for _, h := range f.handlers {
		if supports(h.lt, c.verb) {
			all = append(all, h)
		}
	}
	if len(all) == 0 {
		if msg, ok := f.nextTurn(ctx, c.verb, c.language); ok {
			return handler{}, refuse(CodeNoHandler, nextTurnHint, "%s", msg)
		}
		return handler{}, refuse(CodeNoHandler, f.activeHint(c.verb), "%s: no active language pack handles %s%s", c.verb, c.verb, f.activeSuffix())
	}
	explicit := c.language != ""
	var cands []string
	seen := map[string]bool{}
	add := func(l string) {
		for _, x := range []string{l, family[l]} {
			if x != "" && !seen[x] {
				seen[x] = true
				cands = append(cands, x)
			}
		}
	}
	if explicit {
		add(c.language)
	} else {
		for _, l := range pathLanguages(c.opts) {
			add(l)
		}
		for _, lc := range f.langs {
			add(strings.ToLower(lc.Language))
		}
	}
	for _, l := range cands {
		var m []handler
		for _, h := range all {
			if h.matches(l) {
				m = append(m, h)
			}
		}
		switch {
		case len(m) == 1:
			return m[0], nil
		case len(m) > 1:
			var names []string
			for _, h := range m {
				names = append(names, h.ext)
			}
			return handler{}, refuse(CodeAmbiguous, "e.g. "+example(c.verb),
				"%s: several packs handle %s (%s); name the language as the first argument", c.verb, l, strings.Join(names, ", "))
		}
	}
	if !explicit && len(all) == 1 {
		return all[0], nil
	}
	langs := languagesOf(all)
	if explicit {
		if msg, ok := f.nextTurn(ctx, c.verb, c.language); ok {
			return handler{}, refuse(CodeNoLanguage, nextTurnHint, "%s", msg)
		}
		msg := fmt.Sprintf("%s: no active pack handles %q for %s; languages with %s: %s", c.verb, c.language, c.verb, c.verb, strings.Join(langs, ", "))
		for _, h := range f.handlers {
			if h.matches(c.language) {
				msg = fmt.Sprintf("%s: the %s pack has no %s; languages with %s: %s", c.verb, h.lt.Language, c.verb, c.verb, strings.Join(langs, ", "))
				break
			}
		}
		return handler{}, refuse(CodeNoLanguage, "", "%s", msg)
	}
	return handler{}, refuse(CodeAmbiguous, "e.g. "+example(c.verb),
		"%s: several languages could handle this (%s); name the language as the first argument", c.verb, strings.Join(langs, ", "))
}

func languagesOf(hs []handler) []string {
	set := map[string]bool{}
	for _, h := range hs {
		set[h.lt.Language] = true
	}
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func (f *Facade) activeSuffix() string {
	if len(f.handlers) == 0 {
		return " (no language pack is active in this workspace)"
	}
	data := f.CapabilityData()
	var parts []string
	for _, l := range languagesOf(f.handlers) {
		parts = append(parts, l+": "+strings.Join(data[l], ", "))
	}
	return " (active: " + strings.Join(parts, "; ") + ")"
}

// nextTurnHint goes with a refusal that names a pack of the next turn.
const nextTurnHint = "the language packs are chosen when a turn starts and stay fixed for it"

// activeHint tells which project files would switch on a pack that
// handles verb: the markers every registered, inactive pack with the verb
// declares, in registration order.
func (f *Facade) activeHint(verb string) string {
	var parts []string
	for _, x := range f.registered {
		if f.frozen[x.Name] || len(x.Markers) == 0 || len(verbLanguages(x, verb, "")) == 0 {
			continue
		}
		ms := make([]string, len(x.Markers))
		for i, m := range x.Markers {
			ms[i] = m.String()
		}
		parts = append(parts, x.DisplayName()+": "+orList(ms))
	}
	if len(parts) == 0 {
		if len(f.handlers) > 0 {
			return ""
		}
		return "packs switch on from project files when a turn starts; use shell meanwhile"
	}
	return "language packs switch on when a turn starts, from their project files: " + strings.Join(parts, "; ") + "; after creating one, end this turn (or use shell meanwhile)"
}

// nextTurn explains a refusal by the packs the workspace would activate
// now that this turn's frozen set lacks: ok when one of them handles verb
// (for language, when named). The message names each pack, the markers
// that appeared, and that the next turn has the verb.
func (f *Facade) nextTurn(ctx context.Context, verb, language string) (string, bool) {
	if f.live == nil {
		return "", false
	}
	now := f.live(ctx)
	if now == nil {
		return "", false
	}
	var clauses, langs []string
	for _, x := range now.Extensions() {
		if f.frozen[x.Name] {
			continue
		}
		ls := verbLanguages(x, verb, language)
		if len(ls) == 0 {
			continue
		}
		var ms []string
		for _, m := range x.PresentMarkers(now.Env()) {
			ms = append(ms, m.String())
		}
		what := "its project files"
		if len(ms) > 0 {
			what = andList(ms)
		}
		clauses = append(clauses, fmt.Sprintf("the %s pack switches on at the next turn: %s appeared after this turn started", x.DisplayName(), what))
		langs = append(langs, ls...)
	}
	if len(clauses) == 0 {
		return "", false
	}
	return fmt.Sprintf("%s: %s; end this turn (answer) and the next one has %s for %s",
		verb, strings.Join(clauses, "; "), verb, strings.Join(langs, ", ")), true
}

// verbLanguages lists the languages of x's handlers that support verb (only
// those matching language, or its family, when it is named).
func verbLanguages(x ext.Extension, verb, language string) []string {
	var out []string
	for _, lt := range x.LanguageTools {
		if !supports(lt, verb) {
			continue
		}
		h := handler{lt: ext.LanguageTools{Language: strings.ToLower(lt.Language)}}
		for _, a := range lt.Aliases {
			h.lt.Aliases = append(h.lt.Aliases, strings.ToLower(a))
		}
		if language != "" && !h.matches(language) && (family[language] == "" || !h.matches(family[language])) {
			continue
		}
		out = append(out, h.lt.Language)
	}
	return out
}

func andList(xs []string) string { return joinLast(xs, " and ") }
func orList(xs []string) string  { return joinLast(xs, " or ") }

// joinLast joins with commas and last before the final element.
func joinLast(xs []string, last string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + last + xs[len(xs)-1]
}

// ---- REPL lifecycle ----

func (f *Facade) callRepl(ctx context.Context, verb string, args []any, kwargs map[string]any) (map[string]any, error) {
	c := &call{verb: verb}
	var lead string
	hasLead := false
	var payload map[string]any
	bare := func(v any) error {
		return badArgs(verb, "the options must be a dict, not %s (%v)", ext.TypeName(v), v)
	}
	switch len(args) {
	case 0:
		payload = map[string]any{}
	case 1:
		switch x := args[0].(type) {
		case string:
			lead, hasLead = x, true
			payload = map[string]any{}
		case map[string]any:
			payload = x
		default:
			return nil, bare(x)
		}
	case 2:
		s, ok := args[0].(string)
		if !ok {
			return nil, badArgs(verb, "at most (language or id, {options}); the first argument must be a string")
		}
		lead, hasLead = s, true
		m, ok := args[1].(map[string]any)
		if !ok {
			return nil, bare(args[1])
		}
		payload = m
	default:
		return nil, badArgs(verb, "at most (language or id, {options}); got %d positional arguments", len(args))
	}
	opts, err := mergeKwargs(verb, payload, kwargs)
	if err != nil {
		return nil, err
	}
	if _, ok := opts["op"]; ok {
		return nil, badArgs(verb, "there is no op argument: the verb is the operation (repl_start, repl_status, repl_stop, repl_connect)")
	}
	if v, ok := opts["language"]; ok {
		delete(opts, "language")
		if err := takeLanguage(verb, c, v); err != nil {
			return nil, err
		}
	}
	if hasLead {
		if f.isReplID(lead) {
			c.id = lead
		} else if err := takeLanguage(verb, c, lead); err != nil {
			return nil, err
		}
	}
	// id / repl_id in the options: a label for repl_start, else read like
	// the leading string.
	for _, k := range []string{"id", "repl_id"} {
		v, ok := opts[k]
		if !ok {
			continue
		}
		delete(opts, k)
		s, isStr := v.(string)
		if v == nil || (isStr && (s == "" || s == "default")) {
			continue
		}
		if !isStr {
			return nil, badArgs(verb, "%s must be a string, got %T", k, v)
		}
		if verb != ext.VerbStart && !f.isReplID(s) {
			if err := takeLanguage(verb, c, s); err != nil {
				return nil, err
			}
			continue
		}
		if c.id != "" && c.id != s {
			return nil, refuse(CodeConflict, "name one REPL", "%s: two REPL ids given (%s, %s)", verb, c.id, s)
		}
		c.id = s
	}
	if c.id != "" {
		opts["id"] = c.id
	}
	cwd, named, err := f.resolveCwd(verb, opts)
	if err != nil {
		return nil, err
	}
	c.cwd, c.cwdSet, opts["cwd"], c.opts = cwd, named, cwd, opts
	var res ext.Resource
	live := false
	if c.id != "" {
		res, live = f.lookup(c.id)
		if live && c.language == "" && res.Info.Language != "" {
			c.language = normLanguage(res.Info.Language)
		}
	}

	if c.id != "" && (verb == ext.VerbStop || verb == ext.VerbStatus) {
		if err := checkOptions(c, nil); err != nil { // answered by id, without a pack
			return nil, err
		}
	}
	switch verb {
	case ext.VerbStop:
		if c.id != "" {
			if f.env.Resources == nil {
				return nil, refuse(CodeNoResources, "", "%s: no resource registry in this session", verb)
			}
			r, err := f.env.Resources.Stop(ctx, f.env.SessionID, c.id)
			if err != nil {
				return nil, err
			}
			return map[string]any{"result": r.Result, "id": r.ID, "message": r.Message}, nil
		}
	case ext.VerbStatus:
		if c.id != "" {
			out := map[string]any{"id": c.id, "status": "unknown", "resources": f.resourceList(ctx, "")}
			for _, in := range out["resources"].([]any) {
				if m := in.(map[string]any); m["id"] == c.id {
					out["status"] = m["status"]
				}
			}
			return out, nil
		}
		h, err := f.choose(ctx, c)
		if err != nil {
			var fe *Error
			if errors.As(err, &fe) && c.language == "" && (fe.Code == CodeNoHandler || fe.Code == CodeAmbiguous) {
				// No single pack to ask: the session's REPLs still answer.
				return map[string]any{"resources": f.resourceList(ctx, ""), "message": fe.Message}, nil
			}
			return nil, err
		}
		if err := checkOptions(c, &h.lt); err != nil {
			return nil, err
		}
		out, err := h.lt.Repl(ctx, f.env, "status", f.extCall(c, h))
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]any{}
		}
		out["resources"] = f.resourceList(ctx, c.language)
		return out, nil
	}
	h, err := f.choose(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := checkOptions(c, &h.lt); err != nil {
		return nil, err
	}
	op := map[string]string{ext.VerbStart: "start", ext.VerbStop: "stop", ext.VerbConnect: "connect"}[verb]
	return h.lt.Repl(ctx, f.env, op, f.extCall(c, h))
}

func (f *Facade) extCall(c *call, h handler) ext.Call {
	ec := ext.Call{Language: c.language, Opts: c.opts, Cwd: c.cwd, CwdSet: c.cwdSet, ID: c.id}
	if ec.Language == "" {
		ec.Language = h.lt.Language
	}
	return ec
}

// isReplID reports whether s names a REPL rather than a language: a live
// resource id of this session, or a string that cannot be a language.
func (f *Facade) isReplID(s string) bool {
	if _, ok := f.lookup(s); ok {
		return true
	}
	return !languageName().MatchString(s)
}

// resourceList lists the session's live REPLs as plain maps, optionally
// only one language's.
func (f *Facade) resourceList(ctx context.Context, language string) []any {
	out := []any{}
	if f.env.Resources == nil {
		return out
	}
	for _, in := range f.env.Resources.List(ctx, f.env.SessionID) {
		if language != "" && normLanguage(in.Language) != language {
			continue
		}
		out = append(out, ResourceMap(in))
	}
	return out
}

// ResourceMap is a resource as the model sees it (string keys).
func ResourceMap(in ext.ResourceInfo) map[string]any {
	m := map[string]any{
		"id": in.ID, "kind": in.Kind, "language": in.Language, "label": in.Label,
		"dir": tilde(in.Dir), "status": in.Status, "managed": in.Managed, "created_at": in.Created,
	}
	if in.PID != 0 {
		m["pid"] = in.PID
	}
	if in.Port != 0 {
		m["port"] = in.Port
	}
	if in.Log != "" {
		m["log"] = in.Log
	}
	if len(in.Detail) > 0 {
		m["detail"] = in.Detail
	}
	return m
}

// ---- sandbox binding ----

// Builtins returns the eight verbs bound to this facade.
func (f *Facade) Builtins() []hostfn.Builtin {
	return Builtins(func() *Facade { return f })
}

// Builtins returns the eight verbs, each dispatching to the facade current
// returns at call time (nil = no pack active: the verbs then say so, and
// repl_stop/repl_status still work through resources when env is known).
func Builtins(current func() *Facade) []hostfn.Builtin {
	packs := ext.DeclaredOptions()
	out := make([]hostfn.Builtin, 0, len(Verbs))
	for _, v := range Verbs {
		params := []hostfn.Param{{Name: "language"}, {Name: "arg"}}
		switch v {
		case ext.VerbStop, ext.VerbStatus:
			params = []hostfn.Param{{Name: "id_or_language"}, {Name: "options"}}
		case ext.VerbStart, ext.VerbConnect:
			params = []hostfn.Param{{Name: "language"}, {Name: "options"}}
		}
		out = append(out, hostfn.Builtin{
			Name: v, Doc: verbDoc(v, packs), Params: params, Variadic: true,
			Fn: func(ctx context.Context, args map[string]any) (any, error) {
				f := current()
				if f == nil {
					f = &Facade{now: time.Now}
				}
				pos, _ := args[hostfn.VarArgs].([]any)
				kw := make(map[string]any, len(args))
				for k, x := range args {
					if k != hostfn.VarArgs {
						kw[k] = x
					}
				}
				res, err := f.Call(ctx, v, pos, kw)
				if err != nil {
					var fe *Error
					if errors.As(err, &fe) {
						return nil, &hostfn.ToolError{Message: fe.Message, Hint: fe.Hint}
					}
					return nil, err
				}
				return res, nil
			},
		})
	}
	return out
}

// Surface holds a session's current facade: the sandbox binds
// Surface.Builtins once, and the engine calls Set at the top of every turn.
type Surface struct{ cur atomic.Pointer[Facade] }

// Set makes f the facade the verbs dispatch to from now on.
func (s *Surface) Set(f *Facade) { s.cur.Store(f) }

// Current returns the facade set last (nil before the first Set).
func (s *Surface) Current() *Facade { return s.cur.Load() }

// Builtins returns the verbs bound to whatever facade is current.
func (s *Surface) Builtins() []hostfn.Builtin { return Builtins(s.Current) }
