package ext

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// The facade verbs (seed 001), as the keys of VerbOptions. They are the
// names the model calls; backend/langtools defines the same strings.
const (
	VerbFormat  = "format_code"
	VerbLint    = "lint_code"
	VerbTest    = "run_tests"
	VerbEval    = "repl_eval"
	VerbStart   = "repl_start"
	VerbStatus  = "repl_status"
	VerbStop    = "repl_stop"
	VerbConnect = "repl_connect"
)

// OptionSpec declares one key a pack's verb takes in its options map, besides
// the keys the facade itself reads (paths, code, cwd, id). The declaration
// is the single source of truth for the key: the facade refuses a key no
// declaration names before the handler runs (listing the ones it knows),
// and doc() prints the declarations of every pack.
type OptionSpec struct {
	Key  string // "ns"
	Type string // how the model writes it: "str", "int", "[str]", "str | [str]", "{str: str}"
	Doc  string // one line for doc()
	// Instead marks a spelling the pack does NOT take: the facade refuses
	// the key with this advice ("use \"ns\" (a namespace, or ns/var)")
	// instead of the list of known keys, and doc() leaves it out.
	Instead string
}

// VerbOptions are a handler's declared option keys by verb (VerbTest, ...).
// A verb without an entry takes only the facade's own keys.
type VerbOptions map[string][]OptionSpec

// Takes reports whether verb takes key (a declared key that is not an
// Instead spelling).
func (v VerbOptions) Takes(verb, key string) bool {
	for _, o := range v[verb] {
		if o.Key == key && o.Instead == "" {
			return true
		}
	}
	return false
}

// Keys lists the keys verb takes, in declaration order (Instead spellings
// left out).
func (v VerbOptions) Keys(verb string) []string {
	var out []string
	for _, o := range v[verb] {
		if o.Instead == "" {
			out = append(out, o.Key)
		}
	}
	return out
}

// Refused returns the first key of opts (sorted) that verb declares as an
// Instead spelling, with its advice.
func (v VerbOptions) Refused(verb string, opts map[string]any) (key, instead string, ok bool) {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, o := range v[verb] {
			if o.Key == k && o.Instead != "" {
				return k, o.Instead, true
			}
		}
	}
	return "", "", false
}

// The options every pack declares for the verbs that run a tool (format,
// lint, tests) where it honours them.
var (
	EnvOption  = OptionSpec{Key: "env", Type: "{str: str}", Doc: "variables added to the tool's environment for this call"}
	ArgsOption = OptionSpec{Key: "args", Type: "[str]", Doc: "extra arguments for the tool's command line, after Vis's own (before the files or packages where the tool wants options first)"}
)

// PackOptions is one pack's declaration as doc() shows it.
type PackOptions struct {
	Pack      string      // how doc() names the pack ("python")
	Languages []string    // the languages its handlers serve
	Verbs     VerbOptions // the same value its LanguageTools carry
}

var (
	declMu   sync.RWMutex
	declared = map[string]PackOptions{}
)

// DeclareOptions records a pack's option declarations for the verbs' doc()
// pages, which are written when a session's sandbox is built and name
// every pack of the build, active or not. Packs call it from init with the
// same VerbOptions their LanguageTools carry; declaring a pack again
// replaces it. Safe for concurrent use.
func DeclareOptions(p PackOptions) {
	declMu.Lock()
	defer declMu.Unlock()
	declared[p.Pack] = p
}

// DeclaredOptions returns every declared pack, sorted by name.
func DeclaredOptions() []PackOptions {
	declMu.RLock()
	defer declMu.RUnlock()
	out := make([]PackOptions, 0, len(declared))
	for _, p := range declared {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pack < out[j].Pack })
	return out
}

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// EnvOf reads the "env" option: a dict of strings, returned as NAME=value
// entries sorted by name (nil when absent), to add to a child's
// environment (they win over the inherited ones). A value that is not a
// string, or a name that is not a variable name, is an error.
func EnvOf(opts map[string]any) ([]string, error) {
	v, ok := opts["env"]
	if !ok || v == nil {
		return nil, nil
	}
	m := map[string]string{}
	switch x := v.(type) {
	case map[string]string:
		for k, s := range x {
			m[k] = s
		}
	case map[string]any:
		for k, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf(`env[%q] must be a string, got %s (e.g. {"env": {"DEBUG": "1"}})`, k, TypeName(e))
			}
			m[k] = s
		}
	default:
		return nil, fmt.Errorf(`env must be a dict of strings, got %s (e.g. {"env": {"DEBUG": "1"}})`, TypeName(v))
	}
	out := make([]string, 0, len(m))
	for k, s := range m {
		if !envName().MatchString(k) {
			return nil, fmt.Errorf("env name %q is not a variable name", k)
		}
		out = append(out, k+"="+s)
	}
	sort.Strings(out)
	return out, nil
}

// ArgsOf reads the "args" option: a list of strings, each one argument
// (nil when absent). A string alone is refused rather than split, so
// "-k name" never becomes one argument by accident.
func ArgsOf(opts map[string]any) ([]string, error) {
	v, ok := opts["args"]
	if !ok || v == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case []string:
		return append([]string(nil), x...), nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("args entries must be strings, got %s", TypeName(e))
			}
			out = append(out, s)
		}
		return out, nil
	case string:
		return nil, fmt.Errorf(`args must be a list of strings, one per argument (e.g. {"args": %s}), not one string`, quoteFields(x))
	}
	return nil, fmt.Errorf(`args must be a list of strings (e.g. {"args": ["-v"]}), got %s`, TypeName(v))
}

func quoteFields(s string) string {
	fs := strings.Fields(s)
	if len(fs) == 0 {
		return `["-v"]`
	}
	q := make([]string, len(fs))
	for i, f := range fs {
		q[i] = fmt.Sprintf("%q", f)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// TypeName is how a message to the model names v's type, in Python's words
// ("a string", "a list", "a dict", "None"; Go's name for anything else).
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case string:
		return "a string"
	case bool:
		return "a bool"
	case int, int64, float64:
		return "a number"
	case []any, []string:
		return "a list"
	case map[string]any, map[string]string:
		return "a dict"
	}
	return fmt.Sprintf("%T", v)
}

// EnvArgs reads the call's env and args options (EnvOf, ArgsOf) for a
// child the pack runs; an error is prefixed with what (the pack and verb:
// "python format_code: env must be a dict of strings, ...").
func (c Call) EnvArgs(what string) (env, args []string, err error) {
	if env, err = EnvOf(c.Opts); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	if args, err = ArgsOf(c.Opts); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	return env, args, nil
}

// Dir is the call's directory: Cwd, else the workspace root.
func (c Call) Dir(env ToolEnv) string {
	if c.Cwd != "" {
		return c.Cwd
	}
	return env.Workspace
}

// ErrBadArgs marks a call a pack refuses before doing anything (an option
// of the wrong type, a path outside the workspace): the model's mistake,
// said in the error's text. The packs' refusals and the readers below wrap
// this one sentinel.
var ErrBadArgs = errors.New("bad arguments")

// BadArgs is an ErrBadArgs with a message for the model
// ("bad arguments: ...").
func BadArgs(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrBadArgs, fmt.Sprintf(format, a...))
}

// StringOption is opts[key] when it is a string, else "" (absent, or a
// value of another type), as written (not trimmed).
func StringOption(opts map[string]any, key string) string {
	s, _ := opts[key].(string)
	return s
}

// PathsOption reads a verb's path selectors from opts: "paths" (a list, or
// one string), then "path"; entries are trimmed and blank ones dropped. A
// value of another type is an ErrBadArgs naming the key.
func PathsOption(opts map[string]any) ([]string, error) {
	ps, err := pathsOption(opts)
	if err != nil {
		return nil, BadArgs("%v", err)
	}
	return ps, nil
}

func pathsOption(opts map[string]any) ([]string, error) {
	var out []string
	add := func(v any, key string) error {
		switch x := v.(type) {
		case nil:
		case string:
			if s := strings.TrimSpace(x); s != "" {
				out = append(out, s)
			}
		case []string:
			for _, s := range x {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		case []any:
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return fmt.Errorf("%s entries must be strings, got %T", key, e)
				}
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		default:
			return fmt.Errorf("%s must be a list of strings, got %T", key, v)
		}
		return nil
	}
	if err := add(opts["paths"], "paths"); err != nil {
		return nil, err
	}
	if err := add(opts["path"], "path"); err != nil {
		return nil, err
	}
	return out, nil
}

// Tool is what a call adds to the child process a pack runs for it: its
// environment entries and extra arguments (the env and args options) and
// its time budget (timeout_ms).
type Tool struct {
	Env, Args []string
	Timeout   time.Duration
}

// ToolOf reads opts' env, args and timeout_ms (a positive number of
// milliseconds; def when absent). A value of the wrong type is an
// ErrBadArgs naming the key.
func ToolOf(opts map[string]any, def time.Duration) (Tool, error) {
	t, err := toolOf(opts, def)
	if err != nil {
		return Tool{}, BadArgs("%v", err)
	}
	return t, nil
}

func toolOf(opts map[string]any, def time.Duration) (Tool, error) {
	env, err := EnvOf(opts)
	if err != nil {
		return Tool{}, err
	}
	args, err := ArgsOf(opts)
	if err != nil {
		return Tool{}, err
	}
	t := Tool{Env: env, Args: args, Timeout: def}
	if ms, ok := opts["timeout_ms"]; ok && ms != nil {
		switch v := ms.(type) {
		case int:
			t.Timeout = time.Duration(v) * time.Millisecond
		case int64:
			t.Timeout = time.Duration(v) * time.Millisecond
		case float64:
			t.Timeout = time.Duration(v * float64(time.Millisecond))
		default:
			return Tool{}, fmt.Errorf("timeout_ms must be a number of milliseconds, got %T", ms)
		}
		if t.Timeout <= 0 {
			return Tool{}, fmt.Errorf("timeout_ms must be positive")
		}
	}
	return t, nil
}

// Argv is head, then the call's args, then tail (the files or packages:
// a tool's flag parsing stops at the first of them).
func (t Tool) Argv(head []string, tail ...string) []string {
	out := append(append([]string(nil), head...), t.Args...)
	return append(out, tail...)
}
