package pylib

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode"
	_ "unsafe" // go:linkname, see below

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark's string, list and dict method tables are unexported. We add the
// Python methods models use (str.ljust, list.sort, dict.copy...) and replace
// str.format with Python's format-spec implementation. This relies on the
// pinned go.starlark.net version: if the tables move, the build fails at link
// time (not silently). The tables are written once, in init, before any
// interpreter exists.

//go:linkname starlarkStringMethods go.starlark.net/starlark.stringMethods
var starlarkStringMethods map[string]*starlark.Builtin

//go:linkname starlarkListMethods go.starlark.net/starlark.listMethods
var starlarkListMethods map[string]*starlark.Builtin

//go:linkname starlarkDictMethods go.starlark.net/starlark.dictMethods
var starlarkDictMethods map[string]*starlark.Builtin

//go:linkname starlarkSetMethods go.starlark.net/starlark.setMethods
var starlarkSetMethods map[string]*starlark.Builtin

//go:linkname starlarkBytesMethods go.starlark.net/starlark.bytesMethods
var starlarkBytesMethods map[string]*starlark.Builtin

type builtinFn = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

func init() {
	sm := map[string]builtinFn{
		"format": func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			s, err := pyStrFormat(th, string(b.Receiver().(starlark.String)), args, kw)
			return starlark.String(s), err
		},
		"ljust":  justify('<'),
		"rjust":  justify('>'),
		"center": justify('^'),
		"zfill": func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var w int
			if err := starlark.UnpackPositionalArgs("zfill", args, kw, 1, &w); err != nil {
				return nil, err
			}
			s := string(b.Receiver().(starlark.String))
			n := len([]rune(s))
			if n >= w {
				return starlark.String(s), nil
			}
			sign := ""
			if s != "" && (s[0] == '-' || s[0] == '+') {
				sign, s = s[:1], s[1:]
			}
			return starlark.String(sign + strings.Repeat("0", w-n) + s), nil
		},
		"casefold": strFn(strings.ToLower),
		"swapcase": strFn(func(s string) string {
			return strings.Map(func(r rune) rune {
				if unicode.IsUpper(r) {
					return unicode.ToLower(r)
				}
				return unicode.ToUpper(r)
			}, s)
		}),
		"expandtabs": strFn(func(s string) string { return strings.ReplaceAll(s, "\t", "        ") }),
		"isnumeric":  strPred(func(r rune) bool { return unicode.IsNumber(r) }),
		"isdecimal":  strPred(func(r rune) bool { return unicode.IsDigit(r) }),
		"isascii": func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			for _, r := range string(b.Receiver().(starlark.String)) {
				if r > 127 {
					return starlark.False, nil
				}
			}
			return starlark.True, nil
		},
		"isidentifier": func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(isIdentifier(string(b.Receiver().(starlark.String)))), nil
		},
		"encode": func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bytes(string(b.Receiver().(starlark.String))), nil
		},
	}
	origJoin := starlarkStringMethods["join"]
	sm["join"] = func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Call(th, origJoin.BindReceiver(b.Receiver()), charsArgs(args), kw)
	}
	for name, fn := range sm {
		starlarkStringMethods[name] = starlark.NewBuiltin(name, fn)
	}
	starlarkBytesMethods["decode"] = starlark.NewBuiltin("decode", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.String(string(b.Receiver().(starlark.Bytes))), nil
	})
	starlarkListMethods["sort"] = starlark.NewBuiltin("sort", listSort)
	starlarkListMethods["reverse"] = starlark.NewBuiltin("reverse", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		l := b.Receiver().(*starlark.List)
		n := l.Len()
		elems := listElems(l)
		for i := 0; i < n; i++ {
			if err := l.SetIndex(i, elems[n-1-i]); err != nil {
				return nil, err
			}
		}
		return starlark.None, nil
	})
	starlarkListMethods["copy"] = starlark.NewBuiltin("copy", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.NewList(listElems(b.Receiver().(*starlark.List))), nil
	})
	starlarkListMethods["count"] = starlark.NewBuiltin("count", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("count", args, kw, 1, &x); err != nil {
			return nil, err
		}
		n := 0
		for _, e := range listElems(b.Receiver().(*starlark.List)) {
			if eq, _ := starlark.Equal(e, x); eq {
				n++
			}
		}
		return starlark.MakeInt(n), nil
	})
	starlarkDictMethods["copy"] = starlark.NewBuiltin("copy", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		d := b.Receiver().(*starlark.Dict)
		out := starlark.NewDict(d.Len())
		for _, kv := range d.Items() {
			_ = out.SetKey(kv[0], kv[1])
		}
		return out, nil
	})
	starlarkSetMethods["copy"] = starlark.NewBuiltin("copy", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		s := b.Receiver().(*starlark.Set)
		out := starlark.NewSet(s.Len())
		for e := range s.Elements() {
			_ = out.Insert(e)
		}
		return out, nil
	})
}

func listElems(l *starlark.List) []starlark.Value {
	out := make([]starlark.Value, l.Len())
	for i := range out {
		out[i] = l.Index(i)
	}
	return out
}

func strFn(f func(string) string) builtinFn {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.String(f(string(b.Receiver().(starlark.String)))), nil
	}
}

func strPred(f func(rune) bool) builtinFn {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		s := string(b.Receiver().(starlark.String))
		if s == "" {
			return starlark.False, nil
		}
		for _, r := range s {
			if !f(r) {
				return starlark.False, nil
			}
		}
		return starlark.True, nil
	}
}

func justify(align byte) builtinFn {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var w int
		fill := " "
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &w, &fill); err != nil {
			return nil, err
		}
		if len([]rune(fill)) != 1 {
			return nil, fmt.Errorf("%s: the fill character must be exactly one character long", b.Name())
		}
		s := string(b.Receiver().(starlark.String))
		n := len([]rune(s))
		if n >= w {
			return starlark.String(s), nil
		}
		marg := w - n
		switch align {
		case '<':
			return starlark.String(s + strings.Repeat(fill, marg)), nil
		case '>':
			return starlark.String(strings.Repeat(fill, marg) + s), nil
		}
		left := marg/2 + (marg & w & 1)
		return starlark.String(strings.Repeat(fill, left) + s + strings.Repeat(fill, marg-left)), nil
	}
}

func listSort(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value = starlark.None
	reverse := false
	if err := starlark.UnpackArgs("sort", args, kw, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	l := b.Receiver().(*starlark.List)
	sorted, err := sortValues(th, listElems(l), key, reverse)
	if err != nil {
		return nil, err
	}
	for i, v := range sorted {
		if err := l.SetIndex(i, v); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

func sortValues(th *starlark.Thread, elems []starlark.Value, key starlark.Value, reverse bool) ([]starlark.Value, error) {
	keys := elems
	if key != starlark.None {
		keys = make([]starlark.Value, len(elems))
		for i, e := range elems {
			k, err := starlark.Call(th, key, starlark.Tuple{e}, nil)
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
	}
	idx := make([]int, len(elems))
	for i := range idx {
		idx[i] = i
	}
	var cmpErr error
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := keys[idx[a]], keys[idx[b]]
		if reverse {
			x, y = y, x
		}
		lt, err := starlark.Compare(syntax.LT, x, y)
		if err != nil && cmpErr == nil {
			cmpErr = err
		}
		return lt
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	out := make([]starlark.Value, len(elems))
	for i, j := range idx {
		out[i] = elems[j]
	}
	return out, nil
}

// ---- Python type objects ----

// pyType is a Python class object (str, int, list...): callable, usable in
// isinstance, and equal to type(x) for values of that type.
type pyType struct {
	name  string
	call  builtinFn
	attrs map[string]starlark.Value
}

func (t *pyType) String() string        { return "<class '" + t.name + "'>" }
func (t *pyType) Type() string          { return "type" }
func (t *pyType) Freeze()               {}
func (t *pyType) Truth() starlark.Bool  { return true }
func (t *pyType) Hash() (uint32, error) { return starlark.String(t.name).Hash() }
func (t *pyType) Name() string          { return t.name }
func (t *pyType) CallInternal(th *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if t.call == nil {
		return nil, fmt.Errorf("cannot create '%s' instances", t.name)
	}
	return t.call(th, starlark.NewBuiltin(t.name, t.call), args, kw)
}
func (t *pyType) Attr(name string) (starlark.Value, error) {
	if name == "__name__" {
		return starlark.String(t.name), nil
	}
	if v, ok := t.attrs[name]; ok {
		return v, nil
	}
	if t.name == "str" || t.name == "list" || t.name == "dict" || t.name == "set" {
		// unbound method: str.lower(x) == x.lower()
		return starlark.NewBuiltin(t.name+"."+name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, fmt.Errorf("%s.%s needs an argument", t.name, name)
			}
			m, err := getAttr(args[0], name)
			if err != nil {
				return nil, err
			}
			return starlark.Call(th, m, args[1:], kw)
		}), nil
	}
	return nil, nil
}
func (t *pyType) AttrNames() []string { return []string{"__name__"} }

var (
	typeStr, typeInt, typeFloat, typeBool, typeList, typeDict, typeTuple, typeSet, typeNone *pyType
	typeFunction, typeBytes, typeCounter, typeDefaultDict                                   *pyType
	otherTypes                                                                              = map[string]*pyType{}
)

func universe(name string) builtinFn {
	b := starlark.Universe[name].(*starlark.Builtin)
	return func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Call(th, b, args, kw)
	}
}

// stringsAsChars wraps a universe builtin so that string arguments iterate by character.
func stringsAsChars(name string) builtinFn {
	inner := universe(name)
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return inner(th, b, charsArgs(args), kw)
	}
}

func charsArgs(args starlark.Tuple) starlark.Tuple {
	conv := false
	for _, a := range args {
		if _, ok := a.(starlark.String); ok {
			conv = true
		}
	}
	if !conv {
		return args
	}
	out := make(starlark.Tuple, len(args))
	for i, a := range args {
		if s, ok := a.(starlark.String); ok {
			out[i] = chars(string(s))
		} else {
			out[i] = a
		}
	}
	return out
}

func chars(s string) *starlark.List {
	var elems []starlark.Value
	for _, r := range s {
		elems = append(elems, starlark.String(string(r)))
	}
	return starlark.NewList(elems)
}

func init() {
	typeStr = &pyType{name: "str", call: func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return starlark.String(""), nil
		}
		if bs, ok := args[0].(starlark.Bytes); ok && len(args) > 1 {
			return starlark.String(string(bs)), nil
		}
		return starlark.String(pyStr(args[0])), nil
	}}
	typeInt = &pyType{name: "int", call: func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 && len(kw) == 0 {
			return starlark.MakeInt(0), nil
		}
		if len(args) > 0 {
			if s, ok := args[0].(starlark.String); ok {
				args = append(starlark.Tuple{starlark.String(strings.TrimSpace(strings.ReplaceAll(string(s), "_", "")))}, args[1:]...)
			}
		}
		return universe("int")(th, b, args, kw)
	}}
	typeFloat = &pyType{name: "float", call: func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 && len(kw) == 0 {
			return starlark.Float(0), nil
		}
		if len(args) == 1 {
			if s, ok := args[0].(starlark.String); ok {
				t := strings.ToLower(strings.TrimSpace(string(s)))
				switch t {
				case "inf", "+inf", "infinity":
					return starlark.Float(math.Inf(1)), nil
				case "-inf", "-infinity":
					return starlark.Float(math.Inf(-1)), nil
				case "nan":
					return starlark.Float(math.NaN()), nil
				}
				f, err := strconv.ParseFloat(t, 64)
				if err != nil {
					return nil, fmt.Errorf("ValueError: could not convert string to float: %s", quotePy(string(s)))
				}
				return starlark.Float(f), nil
			}
		}
		return universe("float")(th, b, args, kw)
	}}
	typeBool = &pyType{name: "bool", call: func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return starlark.False, nil
		}
		return universe("bool")(th, b, args, kw)
	}}
	typeList = &pyType{name: "list", call: stringsAsChars("list")}
	typeDict = &pyType{name: "dict", call: universe("dict"), attrs: map[string]starlark.Value{
		"fromkeys": starlark.NewBuiltin("dict.fromkeys", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var keys starlark.Iterable
			var v starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs("dict.fromkeys", charsArgs(args), kw, 1, &keys, &v); err != nil {
				return nil, err
			}
			d := starlark.NewDict(0)
			it := keys.Iterate()
			defer it.Done()
			var k starlark.Value
			for it.Next(&k) {
				if err := d.SetKey(k, v); err != nil {
					return nil, err
				}
			}
			return d, nil
		}),
	}}
	typeTuple = &pyType{name: "tuple", call: func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return starlark.Tuple{}, nil
		}
		return stringsAsChars("tuple")(th, b, args, kw)
	}}
	typeSet = &pyType{name: "set", call: stringsAsChars("set")}
	typeNone = &pyType{name: "NoneType"}
	typeFunction = &pyType{name: "function"}
	typeBytes = &pyType{name: "bytes", call: universe("bytes")}
	typeCounter = &pyType{name: "Counter", call: newCounter}
	typeDefaultDict = &pyType{name: "defaultdict", call: newDefaultDict}
}

func typeOf(v starlark.Value) *pyType {
	switch v.(type) {
	case starlark.String:
		return typeStr
	case starlark.Int:
		return typeInt
	case starlark.Float:
		return typeFloat
	case starlark.Bool:
		return typeBool
	case *starlark.List:
		return typeList
	case *starlark.Dict, *TextDict:
		return typeDict
	case starlark.Tuple:
		return typeTuple
	case *starlark.Set:
		return typeSet
	case starlark.NoneType:
		return typeNone
	case *starlark.Function, *starlark.Builtin:
		return typeFunction
	case starlark.Bytes:
		return typeBytes
	case *counter:
		return typeCounter
	case *defaultDict:
		return typeDefaultDict
	}
	name := v.Type()
	if t, ok := otherTypes[name]; ok {
		return t
	}
	return &pyType{name: name}
}

func pyTypeName(v starlark.Value) string { return typeOf(v).name }

func isInstance(v starlark.Value, t *pyType) bool {
	vt := typeOf(v)
	if vt == t || vt.name == t.name {
		return true
	}
	switch t {
	case typeInt:
		return vt == typeBool
	case typeDict:
		return vt == typeCounter || vt == typeDefaultDict
	}
	return false
}

// ---- exceptions ----

// pyException is the value of ValueError("msg"): raise turns it into an error.
type pyException struct {
	name string
	msg  string
}

func (e *pyException) String() string        { return e.name + "(" + quotePy(e.msg) + ")" }
func (e *pyException) Type() string          { return e.name }
func (e *pyException) Freeze()               {}
func (e *pyException) Truth() starlark.Bool  { return true }
func (e *pyException) Hash() (uint32, error) { return starlark.String(e.msg).Hash() }
func (e *pyException) pyRepr() string        { return e.String() }

// RaisedError is the error of a `raise X("m")` statement.
type RaisedError struct{ Name, Msg string }

func (e *RaisedError) Error() string {
	if e.Msg == "" {
		return e.Name
	}
	return e.Name + ": " + e.Msg
}

var exceptionNames = []string{"Exception", "ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError",
	"FileNotFoundError", "NotImplementedError", "AssertionError", "AttributeError", "OSError", "IOError",
	"ZeroDivisionError", "StopIteration", "LookupError", "PermissionError", "TimeoutError", "SystemExit"}

func exceptionCtor(name string) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var parts []string
		for _, a := range args {
			parts = append(parts, pyStr(a))
		}
		return &pyException{name: name, msg: strings.Join(parts, ", ")}, nil
	})
}

// ---- core builtins ----

func (in *Env) pyBuiltins() starlark.StringDict {
	nb := starlark.NewBuiltin
	d := starlark.StringDict{
		"str": typeStr, "int": typeInt, "float": typeFloat, "bool": typeBool, "list": typeList,
		"dict": typeDict, "tuple": typeTuple, "set": typeSet, "frozenset": typeSet, "bytes": typeBytes,
		"__name__": starlark.String("__main__"),
		"print":    nb("print", in.builtinPrint),
		"repr": nb("repr", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("repr", args, kw, 1, &v); err != nil {
				return nil, err
			}
			return starlark.String(pyRepr(v)), nil
		}),
		"ascii": nb("ascii", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("ascii", args, kw, 1, &v); err != nil {
				return nil, err
			}
			return starlark.String(pyRepr(v)), nil
		}),
		"type": nb("type", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("type", args, kw, 1, &v); err != nil {
				return nil, err
			}
			return typeOf(v), nil
		}),
		"format": nb("format", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			spec := ""
			if err := starlark.UnpackPositionalArgs("format", args, kw, 1, &v, &spec); err != nil {
				return nil, err
			}
			s, err := pyFormat(v, spec)
			return starlark.String(s), err
		}),
		"__fv": nb("__fv", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 1 {
				if s, ok := args[0].(starlark.String); ok {
					return s, nil
				}
				return starlark.String(pyStr(args[0])), nil
			}
			var v starlark.Value
			spec, conv := "", ""
			if err := starlark.UnpackPositionalArgs("f-string", args, kw, 1, &v, &spec, &conv); err != nil {
				return nil, err
			}
			switch conv {
			case "r", "a":
				v = starlark.String(pyRepr(v))
			case "s":
				v = starlark.String(pyStr(v))
			}
			s, err := pyFormat(v, spec)
			if err != nil {
				return nil, fmt.Errorf("f-string: %w", err)
			}
			return starlark.String(s), nil
		}),
		"__pct": nb("%", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 2 {
				return nil, fmt.Errorf("%%: bad arguments")
			}
			f, ok := args[0].(starlark.String)
			if !ok {
				return starlark.Binary(syntax.PERCENT, args[0], args[1])
			}
			s, err := pyPercent(string(f), args[1])
			return starlark.String(s), err
		}),
		"__it": nb("__it", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("for: bad iterable")
			}
			if s, ok := args[0].(starlark.String); ok {
				return chars(string(s)), nil
			}
			return args[0], nil
		}),
		"iter": nb("iter", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Iterable
			if err := starlark.UnpackPositionalArgs("iter", charsArgs(args), kw, 1, &v); err != nil {
				return nil, err
			}
			return toList(v), nil
		}),
		"next": nb("next", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Iterable
			var def starlark.Value
			if err := starlark.UnpackPositionalArgs("next", charsArgs(args), kw, 1, &v, &def); err != nil {
				return nil, err
			}
			it := v.Iterate()
			defer it.Done()
			var x starlark.Value
			if it.Next(&x) {
				return x, nil
			}
			if def != nil {
				return def, nil
			}
			return nil, &RaisedError{Name: "StopIteration", Msg: "next() of an empty sequence (this sandbox's next() returns the first element and does not consume)"}
		}),
		"__raise": nb("raise", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, &RaisedError{Name: "RuntimeError", Msg: "No active exception to reraise"}
			}
			switch e := args[0].(type) {
			case *pyException:
				return nil, &RaisedError{Name: e.name, Msg: e.msg}
			case *starlark.Builtin:
				return nil, &RaisedError{Name: e.Name()}
			default:
				return nil, &RaisedError{Name: "Exception", Msg: pyStr(e)}
			}
		}),
		"__assert": nb("assert", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, fmt.Errorf("assert: missing condition")
			}
			if args[0].Truth() {
				return starlark.None, nil
			}
			msg := ""
			if len(args) > 1 {
				msg = pyStr(args[1])
			}
			return nil, &RaisedError{Name: "AssertionError", Msg: msg}
		}),
		"sum": nb("sum", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			var acc starlark.Value = starlark.MakeInt(0)
			if err := starlark.UnpackArgs("sum", args, kw, "iterable", &it, "start?", &acc); err != nil {
				return nil, err
			}
			iter := it.Iterate()
			defer iter.Done()
			var x starlark.Value
			for iter.Next(&x) {
				r, err := starlark.Binary(syntax.PLUS, acc, x)
				if err != nil {
					return nil, fmt.Errorf("sum: %w", err)
				}
				acc = r
			}
			return acc, nil
		}),
		"round": nb("round", builtinRound),
		"__merge": nb("dict", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			d := starlark.NewDict(0)
			for _, a := range args {
				m, ok := a.(starlark.IterableMapping)
				if !ok {
					return nil, fmt.Errorf("'%s' object is not a mapping", pyTypeName(a))
				}
				for _, kv := range m.Items() {
					if err := d.SetKey(kv[0], kv[1]); err != nil {
						return nil, err
					}
				}
			}
			return d, nil
		}),
		"pow": nb("pow", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y, m starlark.Value
			if err := starlark.UnpackPositionalArgs("pow", args, kw, 2, &x, &y, &m); err != nil {
				return nil, err
			}
			return pyPow(x, y, m)
		}),
		"divmod": nb("divmod", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y starlark.Value
			if err := starlark.UnpackPositionalArgs("divmod", args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			q, err := starlark.Binary(syntax.SLASHSLASH, x, y)
			if err != nil {
				return nil, err
			}
			r, err := starlark.Binary(syntax.PERCENT, x, y)
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{q, r}, nil
		}),
		"isinstance": nb("isinstance", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v, t starlark.Value
			if err := starlark.UnpackPositionalArgs("isinstance", args, kw, 2, &v, &t); err != nil {
				return nil, err
			}
			types := []starlark.Value{t}
			if tup, ok := t.(starlark.Tuple); ok {
				types = tup
			}
			for _, x := range types {
				pt, ok := x.(*pyType)
				if !ok {
					return nil, fmt.Errorf("isinstance() arg 2 must be a type or tuple of types, not %s", pyTypeName(x))
				}
				if isInstance(v, pt) {
					return starlark.True, nil
				}
			}
			return starlark.False, nil
		}),
		"map": nb("map", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) < 2 {
				return nil, fmt.Errorf("map() must have at least two arguments")
			}
			fn := args[0]
			lists := make([][]starlark.Value, len(args)-1)
			n := -1
			for i, a := range charsArgs(args[1:]) {
				it, ok := a.(starlark.Iterable)
				if !ok {
					return nil, fmt.Errorf("map: '%s' object is not iterable", pyTypeName(a))
				}
				lists[i] = listOf(it)
				if n < 0 || len(lists[i]) < n {
					n = len(lists[i])
				}
			}
			out := make([]starlark.Value, 0, n)
			for k := 0; k < n; k++ {
				call := make(starlark.Tuple, len(lists))
				for i := range lists {
					call[i] = lists[i][k]
				}
				r, err := starlark.Call(th, fn, call, nil)
				if err != nil {
					return nil, err
				}
				out = append(out, r)
			}
			return starlark.NewList(out), nil
		}),
		"filter": nb("filter", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fn starlark.Value
			var it starlark.Iterable
			if err := starlark.UnpackPositionalArgs("filter", charsArgs(args), kw, 2, &fn, &it); err != nil {
				return nil, err
			}
			var out []starlark.Value
			for _, x := range listOf(it) {
				keep := x.Truth()
				if fn != starlark.None {
					r, err := starlark.Call(th, fn, starlark.Tuple{x}, nil)
					if err != nil {
						return nil, err
					}
					keep = r.Truth()
				}
				if keep {
					out = append(out, x)
				}
			}
			return starlark.NewList(out), nil
		}),
		"min":      nb("min", minmaxDefault("min")),
		"max":      nb("max", minmaxDefault("max")),
		"sorted":   nb("sorted", stringsAsChars("sorted")),
		"reversed": nb("reversed", stringsAsChars("reversed")),
		"enumerate": nb("enumerate", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(kw) == 1 && string(kw[0][0].(starlark.String)) == "start" && len(args) == 1 {
				args = starlark.Tuple{args[0], kw[0][1]}
				kw = nil
			}
			return stringsAsChars("enumerate")(th, b, args, kw)
		}),
		"zip": nb("zip", stringsAsChars("zip")),
		"any": nb("any", stringsAsChars("any")),
		"all": nb("all", stringsAsChars("all")),
		"hex": nb("hex", intBase("hex", 16, "0x")),
		"oct": nb("oct", intBase("oct", 8, "0o")),
		"bin": nb("bin", intBase("bin", 2, "0b")),
		"callable": nb("callable", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("callable", args, kw, 1, &v); err != nil {
				return nil, err
			}
			_, ok := v.(starlark.Callable)
			return starlark.Bool(ok), nil
		}),
		"open":  refused("open", "open() is not available: read a file with cat(path), write one with write(path, text)"),
		"input": refused("input", "input() is not available: there is no user at a terminal; finish your reply and ask in prose"),
		"exit":  refused("exit", "exit() is not available: a block ends when its code ends"),
		"quit":  refused("quit", "quit() is not available: a block ends when its code ends"),
		"eval":  refused("eval", "eval() is not available: write the expression directly"),
		"exec":  refused("exec", "exec() is not available: write the code directly"),
		"__import": nb("import", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var name, bind string
			if err := starlark.UnpackPositionalArgs("import", args, kw, 1, &name, &bind); err != nil {
				return nil, err
			}
			if bind != "" && bind != name {
				// "import os.path" binds os (after checking os.path exists)
				if _, err := in.module(name); err != nil {
					return nil, err
				}
				return in.module(bind)
			}
			return in.module(name)
		}),
		"__from": nb("from", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) < 2 {
				return nil, fmt.Errorf("from: bad import")
			}
			name, _ := starlark.AsString(args[0])
			mod, err := in.module(name)
			if err != nil {
				return nil, err
			}
			var out starlark.Tuple
			for _, a := range args[1:] {
				attr, _ := starlark.AsString(a)
				v, err := getAttr(mod, attr)
				if err != nil || v == nil {
					sub, serr := in.module(name + "." + attr)
					if serr != nil {
						return nil, &UnsupportedImportError{Module: name + "." + attr, Msg: fmt.Sprintf("cannot import name '%s' from '%s' (this sandbox's %s provides: %s)", attr, name, name, strings.Join(attrNames(mod), ", "))}
					}
					v = sub
				}
				out = append(out, v)
			}
			return out, nil
		}),
	}
	for _, n := range exceptionNames {
		d[n] = exceptionCtor(n)
	}
	for k, v := range strBuiltins() {
		d[k] = v
	}
	return d
}

func attrNames(v starlark.Value) []string {
	if h, ok := v.(starlark.HasAttrs); ok {
		return h.AttrNames()
	}
	return nil
}

func refused(name, msg string) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return nil, &RefusedError{Msg: msg}
	})
}

// RefusedError is a call of a Python builtin the sandbox deliberately lacks.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

func toList(it starlark.Iterable) *starlark.List { return starlark.NewList(listOf(it)) }

func listOf(it starlark.Iterable) []starlark.Value {
	if l, ok := it.(*starlark.List); ok {
		return listElems(l)
	}
	iter := it.Iterate()
	defer iter.Done()
	var out []starlark.Value
	var x starlark.Value
	for iter.Next(&x) {
		out = append(out, x)
	}
	return out
}

func minmaxDefault(name string) builtinFn {
	inner := universe(name)
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var def starlark.Value
		var rest []starlark.Tuple
		for _, kv := range kw {
			if string(kv[0].(starlark.String)) == "default" {
				def = kv[1]
			} else {
				rest = append(rest, kv)
			}
		}
		if len(args) == 1 {
			args = charsArgs(args)
		}
		if def != nil && len(args) == 1 {
			if it, ok := args[0].(starlark.Iterable); ok && len(listOf(it)) == 0 {
				return def, nil
			}
		}
		v, err := inner(th, b, args, rest)
		if err != nil && strings.Contains(err.Error(), "empty") {
			return nil, fmt.Errorf("ValueError: %s() arg is an empty sequence (pass default=...)", name)
		}
		return v, err
	}
}

func intBase(name string, base int, prefix string) builtinFn {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Int
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &x); err != nil {
			return nil, err
		}
		n := x.BigInt()
		sign := ""
		if n.Sign() < 0 {
			sign = "-"
			n = new(big.Int).Neg(n)
		}
		return starlark.String(sign + prefix + n.Text(base)), nil
	}
}

func builtinRound(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	var nd starlark.Value = starlark.None
	if err := starlark.UnpackArgs("round", args, kw, "number", &x, "ndigits?", &nd); err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case starlark.Int:
		if nd == starlark.None {
			return v, nil
		}
		n, err := starlark.AsInt32(nd)
		if err != nil {
			return nil, err
		}
		if n >= 0 {
			return v, nil
		}
		f, _ := starlark.AsFloat(v)
		p := math.Pow(10, float64(-n))
		return starlark.MakeInt64(int64(math.RoundToEven(f/p) * p)), nil
	case starlark.Float:
		f := float64(v)
		if nd == starlark.None {
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, fmt.Errorf("round: cannot convert %s to integer", pyFloat(f))
			}
			return starlark.NumberToInt(starlark.Float(math.RoundToEven(f)))
		}
		n, err := starlark.AsInt32(nd)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			p := math.Pow(10, float64(-n))
			return starlark.Float(math.RoundToEven(f/p) * p), nil
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', n, 64), 64)
		return starlark.Float(r), nil
	case starlark.Bool:
		if v {
			return starlark.MakeInt(1), nil
		}
		return starlark.MakeInt(0), nil
	}
	return nil, fmt.Errorf("round: type %s doesn't define __round__", pyTypeName(x))
}

func pyPow(x, y, m starlark.Value) (starlark.Value, error) {
	xi, xok := x.(starlark.Int)
	yi, yok := y.(starlark.Int)
	if xok && yok && yi.Sign() >= 0 {
		var mod *big.Int
		if m != nil && m != starlark.None {
			mi, ok := m.(starlark.Int)
			if !ok {
				return nil, fmt.Errorf("pow: modulus must be an int")
			}
			mod = mi.BigInt()
		}
		if yi.BigInt().BitLen() > 32 && mod == nil {
			return nil, fmt.Errorf("pow: exponent too large")
		}
		return starlark.MakeBigInt(new(big.Int).Exp(xi.BigInt(), yi.BigInt(), mod)), nil
	}
	xf, ok1 := starlark.AsFloat(x)
	yf, ok2 := starlark.AsFloat(y)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("unsupported operand type(s) for ** or pow(): '%s' and '%s'", pyTypeName(x), pyTypeName(y))
	}
	if xf == 0 && yf < 0 {
		return nil, &RaisedError{Name: "ZeroDivisionError", Msg: "0.0 cannot be raised to a negative power"}
	}
	return starlark.Float(math.Pow(xf, yf)), nil
}

// builtinPrint implements print(*args, sep=" ", end="\n", file=None, flush=False).
func (in *Env) builtinPrint(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	sep, end := " ", "\n"
	for _, kv := range kw {
		k := string(kv[0].(starlark.String))
		switch k {
		case "sep", "end":
			s := ""
			if kv[1] != starlark.None {
				str, ok := kv[1].(starlark.String)
				if !ok {
					return nil, fmt.Errorf("print: %s must be None or a string, not %s", k, pyTypeName(kv[1]))
				}
				s = string(str)
			} else if k == "sep" {
				s = " "
			} else {
				s = "\n"
			}
			if k == "sep" {
				sep = s
			} else {
				end = s
			}
		case "file", "flush":
		default:
			return nil, fmt.Errorf("print: unexpected keyword argument '%s'", k)
		}
	}
	out, _ := th.Local(OutputLocal).(Output)
	if out == nil {
		return starlark.None, nil
	}
	for i, a := range args {
		if i > 0 {
			out.WriteString(sep)
		}
		out.WriteString(pyStr(a))
	}
	out.WriteString(end)
	return starlark.None, nil
}

// isIdentifier is str.isidentifier(): a letter or _ first, then letters,
// digits, combining marks and _ (Unicode counts, as in Python 3).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)):
		default:
			return false
		}
	}
	return true
}
