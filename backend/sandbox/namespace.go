package sandbox

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// Namespace is a global whose members are groups of host functions found
// when they are used: <Name>.<group>.<member>(...), such as
// mcp.<server>.<tool>(**kwargs). The groups may change between blocks
// (Groups is asked at every attribute access); a member is looked up
// without I/O when the program names it (Member) and does its work, such
// as starting a server or refusing an unknown name, when called. Calls go
// through the same path as other builtins: hooks, the tool-call record,
// the block's clock and deadline.
type Namespace struct {
	Name string // the global, e.g. "mcp"
	Doc  string // doc("<Name>") shows it, then the groups
	// Groups lists the current groups (e.g. the configured servers).
	Groups func() []string
	// Member returns the builtin <Name>.<group>.<member> (its Name is the
	// dotted path) without I/O; an error (shown as the attribute error)
	// when the group is known to have no such member.
	Member func(group, member string) (b Builtin, err error)
	// Describe answers doc("<Name>.<path>") for a group or a member
	// (path "fs" or "fs.read_file"), with the block's ctx (it may start
	// a server to list its tools); ok false when unknown.
	Describe func(ctx context.Context, path string) (doc string, ok bool)
}

func (ns *Namespace) groups() []string {
	if ns.Groups == nil {
		return nil
	}
	return ns.Groups()
}

func (ns *Namespace) hasGroup(g string) bool {
	for _, x := range ns.groups() {
		if x == g {
			return true
		}
	}
	return false
}

// nsValue is the Starlark value of a Namespace.
type nsValue struct {
	in *Interp
	ns *Namespace
}

var _ starlark.HasAttrs = nsValue{}

func (v nsValue) String() string        { return "<namespace " + v.ns.Name + ">" }
func (v nsValue) Type() string          { return "namespace" }
func (v nsValue) Freeze()               {}
func (v nsValue) Truth() starlark.Bool  { return true }
func (v nsValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: namespace") }
func (v nsValue) AttrNames() []string {
	gs := append([]string(nil), v.ns.groups()...)
	sort.Strings(gs)
	return gs
}

func (v nsValue) Attr(name string) (starlark.Value, error) {
	if !v.ns.hasGroup(name) {
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
	ns    *Namespace
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
			gs := append([]string(nil), ns.groups()...)
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
		gs := append([]string(nil), ns.groups()...)
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
