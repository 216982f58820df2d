package pylib

import (
	"strings"
	"unicode/utf8"
	_ "unsafe" // go:linkname, see below

	"go.starlark.net/starlark"
)

// Strings as Python sees them. A Starlark string is a byte string: len()
// counts bytes, s[i] is one byte and s[a:b] cuts bytes, so "héllo" has
// length 6 and "héllo"[1:3] is "é" alone. Models write Python, where a
// string is a sequence of code points. So:
//   - len(s) counts code points;
//   - the pre-pass turns every subscript it reads (not an assignment's
//     target) into __ix(x, i) or __sl(x, lo, hi, step), which index and
//     slice a non-ASCII string by code point and leave every other value
//     to Starlark's own indexing (the same results and the same errors);
//   - for loops and the builtins that iterate take a string as its
//     characters (charsArgs, __it);
//   - str.find/rfind/index/rindex count in code points, and str.upper()
//     writes ß as SS (and the ﬁ-style ligatures as two letters).
//   - an unpacking assignment's value goes through __it (a, b = "ab").
// What still differs: s.elems() and bytes are bytes, and the store side of
// a subscript is Starlark's (strings are immutable either way).

// Starlark's own x[i] and x[lo:hi:step], unexported: linked by name like
// the method tables in pybuiltins.go, so they rely on the pinned
// go.starlark.net; TestEnv and the sandbox's TestSubscriptErrors call both.
//
//go:linkname starlarkGetIndex go.starlark.net/starlark.getIndex
func starlarkGetIndex(x, y starlark.Value) (starlark.Value, error)

//go:linkname starlarkSlice go.starlark.net/starlark.slice
func starlarkSlice(x, lo, hi, step starlark.Value) (starlark.Value, error)

// isASCII reports whether s has no multi-byte characters (then bytes are
// code points and Starlark's own indexing is Python's).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// runeStr is a string seen as its code points, for Starlark's index and
// slice logic (it has the string's type name, so errors read the same).
type runeStr []rune

var _ starlark.Sliceable = runeStr(nil)

func (r runeStr) String() string        { return starlark.String(string(r)).String() }
func (r runeStr) Type() string          { return "string" }
func (r runeStr) Freeze()               {}
func (r runeStr) Truth() starlark.Bool  { return len(r) > 0 }
func (r runeStr) Hash() (uint32, error) { return starlark.String(string(r)).Hash() }
func (r runeStr) Len() int              { return len(r) }
func (r runeStr) Index(i int) starlark.Value {
	return starlark.String(string(r[i]))
}
func (r runeStr) Slice(start, end, step int) starlark.Value {
	if step == 1 {
		return starlark.String(string(r[start:end]))
	}
	var b strings.Builder
	if step > 0 {
		for i := start; i < end; i += step {
			b.WriteRune(r[i])
		}
	} else {
		for i := start; i > end; i += step {
			b.WriteRune(r[i])
		}
	}
	return starlark.String(b.String())
}

// asRunes returns x as code points when it is a non-ASCII string.
func asRunes(x starlark.Value) (runeStr, bool) {
	s, ok := x.(starlark.String)
	if !ok || isASCII(string(s)) {
		return nil, false
	}
	return runeStr(string(s)), true
}

// pyIndex is x[y] as Python reads it.
func pyIndex(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kw) != 0 {
		return nil, errBadSubscript
	}
	if r, ok := asRunes(args[0]); ok {
		return starlarkGetIndex(r, args[1])
	}
	return starlarkGetIndex(args[0], args[1])
}

// pySlice is x[lo:hi:step] as Python reads it (None for a missing part).
func pySlice(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 4 || len(kw) != 0 {
		return nil, errBadSubscript
	}
	if r, ok := asRunes(args[0]); ok {
		return starlarkSlice(r, args[1], args[2], args[3])
	}
	return starlarkSlice(args[0], args[1], args[2], args[3])
}

var errBadSubscript = &RefusedError{Msg: "internal error: a subscript the pre-pass rewrote has the wrong shape"}

var universeLen = starlark.Universe["len"].(*starlark.Builtin)

// pyLen is len(): a string's length in code points.
func pyLen(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 && len(kw) == 0 {
		if s, ok := args[0].(starlark.String); ok {
			return starlark.MakeInt(utf8.RuneCountInString(string(s))), nil
		}
	}
	return universeLen.CallInternal(th, args, kw)
}

// strBuiltins are the globals the string handling adds (pyBuiltins).
func strBuiltins() starlark.StringDict {
	return starlark.StringDict{
		"len":  starlark.NewBuiltin("len", pyLen),
		"__ix": starlark.NewBuiltin("index", pyIndex),
		"__sl": starlark.NewBuiltin("slice", pySlice),
	}
}

// runeOffsets wraps str.find/rfind/index/rindex: on a non-ASCII receiver
// the start/end arguments and the answer are code point offsets.
func runeOffsets(name string) {
	orig := starlarkStringMethods[name]
	if orig == nil {
		return
	}
	starlarkStringMethods[name] = starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		recv := b.Receiver().(starlark.String)
		s := string(recv)
		if isASCII(s) {
			return starlark.Call(th, orig.BindReceiver(recv), args, kw)
		}
		r := []rune(s)
		// Python's start/end are code point offsets: find them as bytes.
		byteAt := func(v starlark.Value) (starlark.Value, error) {
			if v == nil || v == starlark.None {
				return v, nil
			}
			i, err := starlark.AsInt32(v)
			if err != nil {
				return nil, err
			}
			if i < 0 {
				i += len(r)
			}
			i = max(0, min(i, len(r)))
			return starlark.MakeInt(len(string(r[:i]))), nil
		}
		conv := make(starlark.Tuple, len(args))
		copy(conv, args)
		for i := 1; i < len(conv) && i < 3; i++ {
			v, err := byteAt(conv[i])
			if err != nil {
				return nil, err
			}
			conv[i] = v
		}
		res, err := starlark.Call(th, orig.BindReceiver(recv), conv, kw)
		if err != nil {
			return nil, err
		}
		if n, ok := res.(starlark.Int); ok {
			if i, ok := n.Int64(); ok && i > 0 {
				return starlark.MakeInt(utf8.RuneCountInString(s[:i])), nil
			}
		}
		return res, nil
	})
}

// upperSpecial are the characters whose Python upper case is more than
// one character (Unicode's SpecialCasing; Go's ToUpper keeps them).
var upperSpecial = strings.NewReplacer("ß", "SS", "ﬀ", "FF", "ﬁ", "FI", "ﬂ", "FL", "ﬃ", "FFI", "ﬄ", "FFL", "ﬅ", "ST", "ﬆ", "ST")

func init() {
	for _, m := range []string{"find", "rfind", "index", "rindex"} {
		runeOffsets(m)
	}
	starlarkStringMethods["upper"] = starlark.NewBuiltin("upper", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("upper", args, kw, 0); err != nil {
			return nil, err
		}
		s := string(b.Receiver().(starlark.String))
		if isASCII(s) {
			return starlark.String(strings.ToUpper(s)), nil
		}
		return starlark.String(strings.ToUpper(upperSpecial.Replace(s))), nil
	})
}
