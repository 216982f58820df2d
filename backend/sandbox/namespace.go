package sandbox

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// nsGroups lists ns's current groups.
func nsGroups(ns *hostfn.Namespace) []string {
	if ns.Groups == nil {
		return nil
	}
	return ns.Groups()
}

func nsHasGroup(ns *hostfn.Namespace, g string) bool {
	for _, x := range nsGroups(ns) {
		if x == g {
			return true
		}
	}
	return false
}

// nsValue is the Starlark value of a Namespace.
type nsValue struct {
	in *Interp
	ns *hostfn.Namespace
}

var _ starlark.HasAttrs = nsValue{}

func (v nsValue) String() string        { return "<namespace " + v.ns.Name + ">" }
func (v nsValue) Type() string          { return "namespace" }
func (v nsValue) Freeze()               {}
func (v nsValue) Truth() starlark.Bool  { return true }
func (v nsValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: namespace") }
func (v nsValue) AttrNames() []string {
	gs := append([]string(nil), nsGroups(v.ns)...)
	sort.Strings(gs)
	return gs
}

func (v nsValue) Attr(name string) (starlark.Value, error) {
	if !nsHasGroup(v.ns, name) {
		gs := v.AttrNames()
		known := "none is configured"
		if len(gs) > 0 {
			known = "known: " + strings.Join(gs, ", ")
		}
		return nil, fmt.Errorf("%s has no %q (%s)", v.ns.Name, name, known)
	}
	return nsGroup{v.in, v.ns, name}, nil
}

// nsGroup is <Name>.<group>.
type nsGroup struct {
	in    *Interp
	ns    *hostfn.Namespace
	group string
}

var _ starlark.HasAttrs = nsGroup{}

func (g nsGroup) String() string        { return "<" + g.ns.Name + "." + g.group + ">" }
func (g nsGroup) Type() string          { return "namespace" }
func (g nsGroup) Freeze()               {}
func (g nsGroup) Truth() starlark.Bool  { return true }
func (g nsGroup) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: namespace") }
func (g nsGroup) AttrNames() []string   { return nil }

func (g nsGroup) Attr(name string) (starlark.Value, error) {
	b, err := g.ns.Member(g.group, name)
	if err != nil {
		return nil, err
	}
	if b.Fn == nil {
		return nil, fmt.Errorf("%s.%s.%s has no function", g.ns.Name, g.group, name)
	}
	return g.in.wrapBuiltin(&b), nil
}

// namespaceDoc answers doc() for a name under a namespace.
func (in *Interp) namespaceDoc(ctx context.Context, name string) (string, bool) {
	for i := range in.opts.Namespaces {
		ns := &in.opts.Namespaces[i]
		if name == ns.Name {
			gs := append([]string(nil), nsGroups(ns)...)
			sort.Strings(gs)
			list := "(none configured)"
			if len(gs) > 0 {
				list = strings.Join(gs, ", ")
			}
			return ns.Doc + "\nGroups: " + list, true
		}
		if rest, ok := strings.CutPrefix(name, ns.Name+"."); ok && ns.Describe != nil {
			return ns.Describe(ctx, rest)
		}
	}
	return "", false
}

// namespaceIndex is doc()'s line for the namespaces with groups.
func (in *Interp) namespaceIndex() string {
	var b strings.Builder
	for i := range in.opts.Namespaces {
		ns := &in.opts.Namespaces[i]
		gs := append([]string(nil), nsGroups(ns)...)
		if len(gs) == 0 {
			continue
		}
		sort.Strings(gs)
		for j, g := range gs {
			gs[j] = ns.Name + "." + g
		}
		fmt.Fprintf(&b, "Namespace %s — %s: %s (doc(%q) lists one's functions)\n", ns.Name, summary(ns.Doc), strings.Join(gs, ", "), ns.Name+".<name>")
	}
	return b.String()
}
