package ext

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// ErrDuplicate is returned by Register when an extension's name, or one of
// its symbols, is already registered.
var ErrDuplicate = errors.New("already registered")

// ErrInvalid is returned by Register for an extension that cannot work
// (no name, no description, symbols without a kind, a nameless symbol).
var ErrInvalid = errors.New("invalid extension")

// Registry holds the registered extensions in registration order.
type Registry struct {
	mu   sync.RWMutex
	exts []Extension
	logf func(format string, args ...any)
}

// Option configures a Registry.
type Option func(*Registry)

// WithLogf sets where failing activation functions, prompt functions and
// contributions are reported (default: dropped).
func WithLogf(f func(format string, args ...any)) Option {
	return func(r *Registry) {
		if f != nil {
			r.logf = f
		}
	}
}

// NewRegistry returns an empty registry.
func NewRegistry(opts ...Option) *Registry {
	r := &Registry{logf: func(string, ...any) {}}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Register adds e. It refuses (ErrDuplicate) a name or a symbol name that
// another extension already uses, and (ErrInvalid) an extension without a
// name or description, or with symbols but no kind.
func (r *Registry) Register(e Extension) error {
	if strings.TrimSpace(e.Name) == "" {
		return fmt.Errorf("register extension: %w: no name", ErrInvalid)
	}
	if strings.TrimSpace(e.Description) == "" {
		return fmt.Errorf("register extension %s: %w: no description", e.Name, ErrInvalid)
	}
	if len(e.Symbols) > 0 && e.Kind == "" {
		return fmt.Errorf("register extension %s: %w: symbols need a kind", e.Name, ErrInvalid)
	}
	seen := map[string]bool{}
	for _, s := range e.Symbols {
		if s.Name == "" || s.Fn == nil {
			return fmt.Errorf("register extension %s: %w: symbol %q has no name or no function", e.Name, ErrInvalid, s.Name)
		}
		if seen[s.Name] {
			return fmt.Errorf("register extension %s: symbol %s twice: %w", e.Name, s.Name, ErrDuplicate)
		}
		seen[s.Name] = true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, o := range r.exts {
		if o.Name == e.Name {
			return fmt.Errorf("register extension %s: %w", e.Name, ErrDuplicate)
		}
		for _, s := range o.Symbols {
			if seen[s.Name] {
				return fmt.Errorf("register extension %s: symbol %s belongs to %s: %w", e.Name, s.Name, o.Name, ErrDuplicate)
			}
		}
	}
	r.exts = append(r.exts, e)
	return nil
}

// Extensions returns every registered extension, in registration order.
func (r *Registry) Extensions() []Extension {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Extension(nil), r.exts...)
}

// Active evaluates every extension's activation function for env, once,
// and returns the frozen result. An activation that returns an error or
// panics counts as inactive and is logged. Call it once per turn and pass
// the value on.
func (r *Registry) Active(env Environment) *Active {
	r.mu.RLock()
	exts := append([]Extension(nil), r.exts...)
	logf := r.logf
	r.mu.RUnlock()
	a := &Active{env: env, logf: logf, registered: exts}
	for _, e := range exts {
		if e.Activate == nil {
			a.exts = append(a.exts, e)
			continue
		}
		ok, err := safeCall(func() (bool, error) { return e.Activate(env) })
		if err != nil {
			logf("extension %s: activation failed (counted inactive): %v", e.Name, err)
			continue
		}
		if ok {
			a.exts = append(a.exts, e)
		}
	}
	return a
}

// Active is the set of extensions active for one turn, with everything
// derived from it. It is immutable; Fragments is computed once on first use
// and Ctx on every call (contributions may report live state). Safe for
// concurrent use.
type Active struct {
	env        Environment
	exts       []Extension
	registered []Extension // every extension registered when the set was computed
	logf       func(format string, args ...any)

	fragOnce  sync.Once
	fragments []Fragment
}

// Fragment is one extension's prompt text for the EXTENSIONS block.
type Fragment struct {
	Name    string // the alias, else the extension name
	Builtin bool   // rendered bare and first
	Text    string
}

// Env returns the environment the set was computed for.
func (a *Active) Env() Environment {
	if a == nil {
		return Environment{}
	}
	return a.env
}

// Extensions returns the active extensions in registration order.
func (a *Active) Extensions() []Extension {
	if a == nil {
		return nil
	}
	return append([]Extension(nil), a.exts...)
}

// Registered returns every extension that was registered when the set was
// computed, active or not, in registration order (their markers explain
// what would switch them on).
func (a *Active) Registered() []Extension {
	if a == nil {
		return nil
	}
	return append([]Extension(nil), a.registered...)
}

// Names returns the names of the active extensions in registration order
// (for pack badges).
func (a *Active) Names() []string {
	if a == nil {
		return nil
	}
	out := make([]string, len(a.exts))
	for i, e := range a.exts {
		out[i] = e.Name
	}
	return out
}

// Has reports whether the extension named name is active.
func (a *Active) Has(name string) bool {
	if a == nil {
		return false
	}
	for _, e := range a.exts {
		if e.Name == name {
			return true
		}
	}
	return false
}

// Snapshot is the seed's extensions snapshot: one plain map per active
// extension with alias (nil when none), namespace, doc, kind, registry_id
// (the alias, else the name) and symbols (the names bound in the sandbox).
func (a *Active) Snapshot() []map[string]any {
	if a == nil {
		return []map[string]any{}
	}
	out := make([]map[string]any, 0, len(a.exts))
	for _, e := range a.exts {
		var alias any
		if e.Alias != "" {
			alias = e.Alias
		}
		syms := make([]any, 0, len(e.Symbols))
		for _, s := range e.Symbols {
			syms = append(syms, s.Name)
		}
		out = append(out, map[string]any{
			"alias":       alias,
			"namespace":   e.Name,
			"doc":         e.Description,
			"kind":        e.Kind,
			"registry_id": registryID(e),
			"symbols":     syms,
		})
	}
	return out
}

func registryID(e Extension) string {
	if e.Alias != "" {
		return e.Alias
	}
	return e.Name
}

// Fragments returns the active extensions' prompt fragments: built-in ones
// first, then the others, each group in registration order. Empty texts are
// left out; text is trimmed and runs of blank lines are collapsed to one. A
// failing prompt function is logged and contributes nothing.
func (a *Active) Fragments() []Fragment {
	if a == nil {
		return nil
	}
	a.fragOnce.Do(func() {
		var builtin, rest []Fragment
		for _, e := range a.exts {
			if e.Prompt == nil {
				continue
			}
			text, err := safeCall(func() (string, error) { return e.Prompt(a.env) })
			if err != nil {
				a.logf("extension %s: prompt failed (left out): %v", e.Name, err)
				continue
			}
			text = NormalizeText(text)
			if text == "" {
				continue
			}
			f := Fragment{Name: registryID(e), Builtin: e.Builtin, Text: text}
			if e.Builtin {
				builtin = append(builtin, f)
			} else {
				rest = append(rest, f)
			}
		}
		a.fragments = append(builtin, rest...)
	})
	return append([]Fragment(nil), a.fragments...)
}

var blankRuns = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)+`) })

// NormalizeText trims text, drops trailing spaces on each line and collapses
// runs of blank lines into one (no triple newlines in the prompt).
func NormalizeText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	s = strings.Join(lines, "\n")
	s = blankRuns().ReplaceAllString(s, "\n\n")
	return strings.TrimSpace(s)
}

// Ctx calls every active extension's contribution and deep-merges the
// results in registration order (later wins on a scalar conflict; maps merge
// recursively). A failing contribution is logged and ignored. The result is
// a fresh map the caller may modify.
func (a *Active) Ctx(ctx context.Context) map[string]any {
	out := map[string]any{}
	if a == nil {
		return out
	}
	for _, e := range a.exts {
		if e.Ctx == nil {
			continue
		}
		m, err := safeCall(func() (map[string]any, error) { return e.Ctx(ctx, a.env) })
		if err != nil {
			a.logf("extension %s: ctx contribution failed (ignored): %v", e.Name, err)
			continue
		}
		DeepMerge(out, m)
	}
	return out
}

// DeepMerge merges src into dst: nested map[string]any values merge
// recursively, anything else in src replaces dst's value. Values from src
// are copied when they are maps, so dst never aliases src's maps.
func DeepMerge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			dm, ok := dst[k].(map[string]any)
			if !ok {
				dm = map[string]any{}
				dst[k] = dm
			}
			DeepMerge(dm, sm)
			continue
		}
		dst[k] = v
	}
}

// Symbols returns the sandbox builtins of the active extensions, in
// registration order. Names are unique (Register refuses collisions).
// Symbols of an extension with an alias are returned under their own names
// too; the snapshot tells the model which extension they belong to.
func (a *Active) Symbols() []hostfn.Builtin {
	if a == nil {
		return nil
	}
	var out []hostfn.Builtin
	for _, e := range a.exts {
		out = append(out, e.Symbols...)
	}
	return out
}

// LanguageTools returns the language handlers of the active extensions, in
// registration order.
func (a *Active) LanguageTools() []LanguageTools {
	if a == nil {
		return nil
	}
	var out []LanguageTools
	for _, e := range a.exts {
		out = append(out, e.LanguageTools...)
	}
	return out
}

// Languages returns the sorted, distinct languages the active handlers
// register (aliases excluded).
func (a *Active) Languages() []string {
	set := map[string]bool{}
	for _, lt := range a.LanguageTools() {
		set[strings.ToLower(lt.Language)] = true
	}
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// safeCall runs f, turning a panic into an error.
func safeCall[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}
