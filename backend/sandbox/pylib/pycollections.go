package pylib

import (
	"fmt"
	"sort"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// counter is collections.Counter: a dict whose missing keys read as 0.
type counter struct{ d *starlark.Dict }

var (
	_ starlark.IterableMapping = (*counter)(nil)
	_ starlark.HasSetKey       = (*counter)(nil)
	_ starlark.Container       = (*counter)(nil)
	_ starlark.HasAttrs        = (*counter)(nil)
)

func (c *counter) String() string        { return pyRepr(c) }
func (c *counter) Type() string          { return "Counter" }
func (c *counter) Freeze()               { c.d.Freeze() }
func (c *counter) Truth() starlark.Bool  { return c.d.Len() > 0 }
func (c *counter) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: 'Counter'") }
func (c *counter) Len() int              { return c.d.Len() }
func (c *counter) Iterate() starlark.Iterator {
	return c.d.Iterate()
}
func (c *counter) Items() []starlark.Tuple { return c.d.Items() }
func (c *counter) Get(k starlark.Value) (starlark.Value, bool, error) {
	v, found, err := c.d.Get(k)
	if err != nil {
		return nil, false, err
	}
	if !found {
		return starlark.MakeInt(0), true, nil
	}
	return v, true, nil
}
func (c *counter) SetKey(k, v starlark.Value) error { return c.d.SetKey(k, v) }
func (c *counter) Has(k starlark.Value) (bool, error) {
	_, found, err := c.d.Get(k)
	return found, err
}

// sortedItems returns items by descending count, ties in insertion order.
func (c *counter) sortedItems() []starlark.Tuple {
	items := c.d.Items()
	sort.SliceStable(items, func(i, j int) bool {
		lt, err := starlark.Compare(syntax.GT, items[i][1], items[j][1])
		return err == nil && lt
	})
	return items
}

func (c *counter) add(th *starlark.Thread, src starlark.Value, sign int) error {
	if src == nil || src == starlark.None {
		return nil
	}
	if m, ok := src.(starlark.IterableMapping); ok {
		for _, kv := range m.Items() {
			cur, _, _ := c.Get(kv[0])
			delta := kv[1]
			if sign < 0 {
				var err error
				if delta, err = starlark.Unary(syntax.MINUS, delta); err != nil {
					return err
				}
			}
			n, err := starlark.Binary(syntax.PLUS, cur, delta)
			if err != nil {
				return err
			}
			if err := c.d.SetKey(kv[0], n); err != nil {
				return err
			}
		}
		return nil
	}
	if s, ok := src.(starlark.String); ok {
		src = chars(string(s))
	}
	it, ok := src.(starlark.Iterable)
	if !ok {
		return fmt.Errorf("Counter: '%s' object is not iterable", pyTypeName(src))
	}
	for _, x := range listOf(it) {
		cur, _, _ := c.Get(x)
		n, err := starlark.Binary(syntax.PLUS, cur, starlark.MakeInt(sign))
		if err != nil {
			return err
		}
		if err := c.d.SetKey(x, n); err != nil {
			return err
		}
	}
	return nil
}

func (c *counter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "most_common":
		return starlark.NewBuiltin("most_common", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var n starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs("most_common", args, kw, 0, &n); err != nil {
				return nil, err
			}
			items := c.sortedItems()
			if n != starlark.None {
				k, err := starlark.AsInt32(n)
				if err != nil {
					return nil, err
				}
				if k < len(items) && k >= 0 {
					items = items[:k]
				}
			}
			out := make([]starlark.Value, len(items))
			for i, kv := range items {
				out[i] = kv
			}
			return starlark.NewList(out), nil
		}), nil
	case "update", "subtract":
		sign := 1
		if name == "subtract" {
			sign = -1
		}
		return starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var src starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, nil, 0, &src); err != nil {
				return nil, err
			}
			if err := c.add(th, src, sign); err != nil {
				return nil, err
			}
			for _, kv := range kw {
				if err := c.add(th, starlark.Tuple{kv[0]}, sign); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}), nil
	case "total":
		return starlark.NewBuiltin("total", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var acc starlark.Value = starlark.MakeInt(0)
			for _, kv := range c.d.Items() {
				r, err := starlark.Binary(syntax.PLUS, acc, kv[1])
				if err != nil {
					return nil, err
				}
				acc = r
			}
			return acc, nil
		}), nil
	case "elements":
		return starlark.NewBuiltin("elements", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var out []starlark.Value
			for _, kv := range c.d.Items() {
				n, _ := starlark.AsInt32(kv[1])
				for i := 0; i < n; i++ {
					out = append(out, kv[0])
				}
			}
			return starlark.NewList(out), nil
		}), nil
	}
	return c.d.Attr(name)
}

func (c *counter) AttrNames() []string {
	return append(c.d.AttrNames(), "most_common", "update", "subtract", "total", "elements")
}

func newCounter(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var src starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("Counter", args, nil, 0, &src); err != nil {
		return nil, err
	}
	c := &counter{d: starlark.NewDict(0)}
	if err := c.add(th, src, 1); err != nil {
		return nil, err
	}
	for _, kv := range kw {
		if err := c.d.SetKey(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// defaultDict is collections.defaultdict: reading a missing key inserts factory().
type defaultDict struct {
	factory starlark.Value
	d       *starlark.Dict
}

func (c *defaultDict) String() string             { return pyRepr(c) }
func (c *defaultDict) Type() string               { return "defaultdict" }
func (c *defaultDict) Freeze()                    { c.d.Freeze() }
func (c *defaultDict) Truth() starlark.Bool       { return c.d.Len() > 0 }
func (c *defaultDict) Hash() (uint32, error)      { return 0, fmt.Errorf("unhashable type: 'defaultdict'") }
func (c *defaultDict) Len() int                   { return c.d.Len() }
func (c *defaultDict) Iterate() starlark.Iterator { return c.d.Iterate() }
func (c *defaultDict) Items() []starlark.Tuple    { return c.d.Items() }
func (c *defaultDict) Get(k starlark.Value) (starlark.Value, bool, error) {
	v, found, err := c.d.Get(k)
	if err != nil || found {
		return v, found, err
	}
	if c.factory == starlark.None {
		return nil, false, nil
	}
	// Mapping.Get has no thread; factories are tiny (list, int, lambda: 0).
	nv, err := starlark.Call(&starlark.Thread{Name: "defaultdict"}, c.factory, nil, nil)
	if err != nil {
		return nil, false, err
	}
	if err := c.d.SetKey(k, nv); err != nil {
		return nil, false, err
	}
	return nv, true, nil
}
func (c *defaultDict) SetKey(k, v starlark.Value) error { return c.d.SetKey(k, v) }
func (c *defaultDict) Has(k starlark.Value) (bool, error) {
	_, found, err := c.d.Get(k)
	return found, err
}
func (c *defaultDict) Attr(name string) (starlark.Value, error) {
	if name == "default_factory" {
		return c.factory, nil
	}
	return c.d.Attr(name)
}
func (c *defaultDict) AttrNames() []string { return c.d.AttrNames() }

func newDefaultDict(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var factory starlark.Value = starlark.None
	var src starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("defaultdict", args, kw, 0, &factory, &src); err != nil {
		return nil, err
	}
	if factory != starlark.None {
		if _, ok := factory.(starlark.Callable); !ok {
			return nil, fmt.Errorf("defaultdict: first argument must be callable or None")
		}
	}
	dd := &defaultDict{factory: factory, d: starlark.NewDict(0)}
	if m, ok := src.(starlark.IterableMapping); ok {
		for _, kv := range m.Items() {
			_ = dd.d.SetKey(kv[0], kv[1])
		}
	}
	return dd, nil
}
