package pylib

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// TextDict is a dict that prints as a text: str() and print() show its
// show fields' strings, each on its own line, as they are now (a program
// that changes one prints the change); everything else (r["k"], r.get, keys, len, in, iteration, json,
// repr, isinstance(r, dict), type(r)) sees the dict. A tool's result whose
// reading is a text (cat: the numbered lines) comes back as one, so the
// program a model writes first, print(cat(path)), shows the lines rather
// than a dict with every newline escaped.
//
// Its Starlark type name is "dict" only to Python (type, isinstance):
// Starlark's own comparison calls a dict's CompareSameType with any value
// whose Type() is "dict" and would fail on this one, so Type() differs;
// == between two of them compares the dicts, and == with a plain dict is
// False.
type TextDict struct {
	d    *starlark.Dict
	show []string
}

// NewTextDict returns d printing as its show fields.
func NewTextDict(d *starlark.Dict, show []string) *TextDict { return &TextDict{d: d, show: show} }

// text is what str() shows: each show field that holds a non-empty string.
func (t *TextDict) text() string {
	var b strings.Builder
	for _, k := range t.show {
		v, found, _ := t.d.Get(starlark.String(k))
		if s, ok := v.(starlark.String); found && ok && s != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(string(s))
		}
	}
	return b.String()
}

var (
	_ starlark.IterableMapping = (*TextDict)(nil)
	_ starlark.HasSetKey       = (*TextDict)(nil)
	_ starlark.HasAttrs        = (*TextDict)(nil)
	_ starlark.Comparable      = (*TextDict)(nil)
	_ starlark.HasBinary       = (*TextDict)(nil)
)

func (t *TextDict) String() string             { return t.text() }
func (t *TextDict) Type() string               { return "dict (text)" }
func (t *TextDict) Freeze()                    { t.d.Freeze() }
func (t *TextDict) Truth() starlark.Bool       { return t.d.Len() > 0 }
func (t *TextDict) Hash() (uint32, error)      { return 0, fmt.Errorf("unhashable type: 'dict'") }
func (t *TextDict) Len() int                   { return t.d.Len() }
func (t *TextDict) Iterate() starlark.Iterator { return t.d.Iterate() }
func (t *TextDict) Items() []starlark.Tuple    { return t.d.Items() }
func (t *TextDict) Get(k starlark.Value) (starlark.Value, bool, error) {
	return t.d.Get(k)
}
func (t *TextDict) SetKey(k, v starlark.Value) error         { return t.d.SetKey(k, v) }
func (t *TextDict) Attr(name string) (starlark.Value, error) { return t.d.Attr(name) }
func (t *TextDict) AttrNames() []string                      { return t.d.AttrNames() }

// Dict is the dict itself.
func (t *TextDict) Dict() *starlark.Dict { return t.d }

func (t *TextDict) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return t.d.CompareSameType(op, y.(*TextDict).d, depth)
}

// Binary is dict union (r | {...}, {...} | r): a plain dict of both.
func (t *TextDict) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op != syntax.PIPE {
		return nil, nil
	}
	var other *starlark.Dict
	switch o := y.(type) {
	case *starlark.Dict:
		other = o
	case *TextDict:
		other = o.d
	default:
		return nil, nil
	}
	if side == starlark.Left {
		return starlark.Binary(syntax.PIPE, t.d, other)
	}
	return starlark.Binary(syntax.PIPE, other, t.d)
}
