package pylib

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"math/big"
	"math/rand"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// num unpacks an int or a float argument as float64.
type num float64

func (n *num) Unpack(v starlark.Value) error {
	f, ok := starlark.AsFloat(v)
	if !ok {
		return fmt.Errorf("must be real number, not %s", pyTypeName(v))
	}
	*n = num(f)
	return nil
}

// UnsupportedImportError is an import of a module the sandbox does not provide.
type UnsupportedImportError struct {
	Module string
	Msg    string
	Hint   string
}

func (e *UnsupportedImportError) Error() string { return e.Msg }

var importAdvice = map[string]string{
	"subprocess":  "run commands with shell(cmd)",
	"pathlib":     "use os.path functions and the file tools (cat, write; see apropos('file'))",
	"glob":        "use the file tools to list and search files (see apropos('file'))",
	"shutil":      "run commands with shell(cmd)",
	"requests":    "there is no network access from Python; use shell('curl ...') when the task allows it",
	"urllib":      "there is no network access from Python; use shell('curl ...') when the task allows it",
	"http":        "there is no network access from Python; use shell('curl ...') when the task allows it",
	"socket":      "there is no network access from Python",
	"numpy":       "numpy is not available: use lists, comprehensions and the math module",
	"pandas":      "pandas is not available: use lists of dicts, sorted() and Counter",
	"dataclasses": "classes are not supported: use dicts",
	"io":          "there are no file handles: read with cat(), write with write()",
	"tempfile":    "there are no file handles: write files with write()",
	"asyncio":     "tool calls run synchronously: call them directly",
	"threading":   "there are no threads: call tools one after another",
	"sqlite3":     "run sqlite3 through shell(cmd)",
	"yaml":        "yaml is not available: use json, or shell() with a converter",
	"logging":     "print() what you want to see",
	"pickle":      "use json",
	"csv":         "split lines yourself: [line.split(',') for line in text.splitlines()]",
	"argparse":    "there is no command line: set variables directly",
}

func (in *Env) module(name string) (starlark.Value, error) {
	if m, ok := in.modules[name]; ok {
		return m, nil
	}
	root := strings.SplitN(name, ".", 2)[0]
	advice, ok := importAdvice[root]
	if !ok {
		advice = "available modules: " + strings.Join(in.moduleNames(), ", ")
	}
	return nil, &UnsupportedImportError{Module: name, Msg: fmt.Sprintf("module '%s' is not available in this sandbox", name), Hint: advice}
}

func (in *Env) moduleNames() []string {
	var names []string
	for n := range in.modules {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func mod(name string, members starlark.StringDict) *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: name, Members: members}
}

type fn = func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

func bi(name string, f fn) *starlark.Builtin { return starlark.NewBuiltin(name, f) }

func float1(name string, f func(float64) (float64, error)) *starlark.Builtin {
	return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &x); err != nil {
			return nil, err
		}
		xf, ok := starlark.AsFloat(x)
		if !ok {
			return nil, fmt.Errorf("math.%s: must be real number, not %s", name, pyTypeName(x))
		}
		r, err := f(xf)
		if err != nil {
			return nil, err
		}
		return starlark.Float(r), nil
	})
}

var errDomain = &RaisedError{Name: "ValueError", Msg: "math domain error"}

func floatToInt(name string, f func(float64) float64) *starlark.Builtin {
	return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &x); err != nil {
			return nil, err
		}
		if i, ok := x.(starlark.Int); ok {
			return i, nil
		}
		xf, ok := starlark.AsFloat(x)
		if !ok {
			return nil, fmt.Errorf("math.%s: must be real number, not %s", name, pyTypeName(x))
		}
		if math.IsInf(xf, 0) || math.IsNaN(xf) {
			return nil, &RaisedError{Name: "ValueError", Msg: "cannot convert float " + pyFloat(xf) + " to integer"}
		}
		return starlark.NumberToInt(starlark.Float(f(xf)))
	})
}

func mathModule() *starlarkstruct.Module {
	m := starlark.StringDict{
		"pi": starlark.Float(math.Pi), "e": starlark.Float(math.E), "tau": starlark.Float(2 * math.Pi),
		"inf": starlark.Float(math.Inf(1)), "nan": starlark.Float(math.NaN()),
		"sqrt": float1("sqrt", func(x float64) (float64, error) {
			if x < 0 {
				return 0, errDomain
			}
			return math.Sqrt(x), nil
		}),
		"exp":  float1("exp", func(x float64) (float64, error) { return math.Exp(x), nil }),
		"log2": float1("log2", func(x float64) (float64, error) { return logChecked(x, math.Log2) }),
		"log10": float1("log10", func(x float64) (float64, error) {
			return logChecked(x, math.Log10)
		}),
		"log1p":   float1("log1p", func(x float64) (float64, error) { return math.Log1p(x), nil }),
		"fabs":    float1("fabs", func(x float64) (float64, error) { return math.Abs(x), nil }),
		"sin":     float1("sin", func(x float64) (float64, error) { return math.Sin(x), nil }),
		"cos":     float1("cos", func(x float64) (float64, error) { return math.Cos(x), nil }),
		"tan":     float1("tan", func(x float64) (float64, error) { return math.Tan(x), nil }),
		"asin":    float1("asin", func(x float64) (float64, error) { return math.Asin(x), nil }),
		"acos":    float1("acos", func(x float64) (float64, error) { return math.Acos(x), nil }),
		"atan":    float1("atan", func(x float64) (float64, error) { return math.Atan(x), nil }),
		"degrees": float1("degrees", func(x float64) (float64, error) { return x * 180 / math.Pi, nil }),
		"radians": float1("radians", func(x float64) (float64, error) { return x * math.Pi / 180, nil }),
		"floor":   floatToInt("floor", math.Floor),
		"ceil":    floatToInt("ceil", math.Ceil),
		"trunc":   floatToInt("trunc", math.Trunc),
		"log": bi("log", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, base starlark.Value
			if err := starlark.UnpackPositionalArgs("log", args, kw, 1, &x, &base); err != nil {
				return nil, err
			}
			xf, _ := starlark.AsFloat(x)
			r, err := logChecked(xf, math.Log)
			if err != nil {
				return nil, err
			}
			if base != nil {
				bf, _ := starlark.AsFloat(base)
				r /= math.Log(bf)
			}
			return starlark.Float(r), nil
		}),
		"pow": bi("pow", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y num
			if err := starlark.UnpackPositionalArgs("pow", args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			return starlark.Float(math.Pow(float64(x), float64(y))), nil
		}),
		"atan2": bi("atan2", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var y, x num
			if err := starlark.UnpackPositionalArgs("atan2", args, kw, 2, &y, &x); err != nil {
				return nil, err
			}
			return starlark.Float(math.Atan2(float64(y), float64(x))), nil
		}),
		"copysign": bi("copysign", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y num
			if err := starlark.UnpackPositionalArgs("copysign", args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			return starlark.Float(math.Copysign(float64(x), float64(y))), nil
		}),
		"fmod": bi("fmod", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var x, y num
			if err := starlark.UnpackPositionalArgs("fmod", args, kw, 2, &x, &y); err != nil {
				return nil, err
			}
			return starlark.Float(math.Mod(float64(x), float64(y))), nil
		}),
		"hypot": bi("hypot", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			s := 0.0
			for _, a := range args {
				f, _ := starlark.AsFloat(a)
				s += f * f
			}
			return starlark.Float(math.Sqrt(s)), nil
		}),
		"isclose": bi("isclose", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var a, c num
			rel, abs := num(1e-9), num(0)
			if err := starlark.UnpackArgs("isclose", args, kw, "a", &a, "b", &c, "rel_tol?", &rel, "abs_tol?", &abs); err != nil {
				return nil, err
			}
			af, cf := float64(a), float64(c)
			d := math.Abs(af - cf)
			return starlark.Bool(af == cf || d <= math.Max(float64(rel)*math.Max(math.Abs(af), math.Abs(cf)), float64(abs))), nil
		}),
		"isnan":    floatPred("isnan", math.IsNaN),
		"isinf":    floatPred("isinf", func(f float64) bool { return math.IsInf(f, 0) }),
		"isfinite": floatPred("isfinite", func(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }),
		"gcd": bi("gcd", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			g := new(big.Int)
			for _, a := range args {
				i, ok := a.(starlark.Int)
				if !ok {
					return nil, fmt.Errorf("math.gcd: integers required")
				}
				g.GCD(nil, nil, g, new(big.Int).Abs(i.BigInt()))
			}
			return starlark.MakeBigInt(g), nil
		}),
		"lcm": bi("lcm", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			l := big.NewInt(1)
			for _, a := range args {
				i, ok := a.(starlark.Int)
				if !ok {
					return nil, fmt.Errorf("math.lcm: integers required")
				}
				x := new(big.Int).Abs(i.BigInt())
				if x.Sign() == 0 {
					return starlark.MakeInt(0), nil
				}
				g := new(big.Int).GCD(nil, nil, l, x)
				l.Mul(l, x).Div(l, g)
			}
			return starlark.MakeBigInt(l), nil
		}),
		"factorial": bi("factorial", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var n int
			if err := starlark.UnpackPositionalArgs("factorial", args, kw, 1, &n); err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, &RaisedError{Name: "ValueError", Msg: "factorial() not defined for negative values"}
			}
			return starlark.MakeBigInt(new(big.Int).MulRange(1, int64(n))), nil
		}),
		"comb": bi("comb", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var n, k int64
			if err := starlark.UnpackPositionalArgs("comb", args, kw, 2, &n, &k); err != nil {
				return nil, err
			}
			if k > n {
				return starlark.MakeInt(0), nil
			}
			return starlark.MakeBigInt(new(big.Int).Binomial(n, k)), nil
		}),
		"perm": bi("perm", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var n, k int64
			if err := starlark.UnpackPositionalArgs("perm", args, kw, 2, &n, &k); err != nil {
				return nil, err
			}
			if k > n {
				return starlark.MakeInt(0), nil
			}
			return starlark.MakeBigInt(new(big.Int).MulRange(n-k+1, n)), nil
		}),
		"prod": bi("prod", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			var acc starlark.Value = starlark.MakeInt(1)
			if err := starlark.UnpackArgs("prod", args, kw, "iterable", &it, "start?", &acc); err != nil {
				return nil, err
			}
			for _, x := range listOf(it) {
				r, err := starlark.Binary(syntax.STAR, acc, x)
				if err != nil {
					return nil, err
				}
				acc = r
			}
			return acc, nil
		}),
		"fsum": bi("fsum", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			if err := starlark.UnpackPositionalArgs("fsum", args, kw, 1, &it); err != nil {
				return nil, err
			}
			// Neumaier summation
			sum, c := 0.0, 0.0
			for _, x := range listOf(it) {
				f, _ := starlark.AsFloat(x)
				t := sum + f
				if math.Abs(sum) >= math.Abs(f) {
					c += (sum - t) + f
				} else {
					c += (f - t) + sum
				}
				sum = t
			}
			return starlark.Float(sum + c), nil
		}),
	}
	return mod("math", m)
}

func logChecked(x float64, f func(float64) float64) (float64, error) {
	if x <= 0 {
		return 0, errDomain
	}
	return f(x), nil
}

func floatPred(name string, f func(float64) bool) *starlark.Builtin {
	return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x num
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &x); err != nil {
			return nil, err
		}
		return starlark.Bool(f(float64(x))), nil
	})
}

// ---- json ----

func jsonModule() *starlarkstruct.Module {
	return mod("json", starlark.StringDict{
		"dumps": bi("dumps", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			var indent starlark.Value = starlark.None
			var def starlark.Value = starlark.None
			var seps starlark.Value = starlark.None
			sortKeys, ensureASCII := false, true
			var skip, checkCirc, allowNaN starlark.Value
			if err := starlark.UnpackArgs("dumps", args, kw, "obj", &v, "indent?", &indent, "sort_keys?", &sortKeys,
				"ensure_ascii?", &ensureASCII, "default?", &def, "separators?", &seps,
				"skipkeys?", &skip, "check_circular?", &checkCirc, "allow_nan?", &allowNaN); err != nil {
				return nil, err
			}
			e := &jsonEnc{th: th, sortKeys: sortKeys, ascii: ensureASCII, def: def, itemSep: ", ", keySep: ": "}
			switch x := indent.(type) {
			case starlark.Int:
				n, _ := x.Int64()
				e.indent = strings.Repeat(" ", int(n))
				e.pretty = true
				e.itemSep = ","
			case starlark.String:
				e.indent = string(x)
				e.pretty = true
				e.itemSep = ","
			}
			if t, ok := seps.(starlark.Tuple); ok && len(t) == 2 {
				e.itemSep, _ = starlark.AsString(t[0])
				e.keySep, _ = starlark.AsString(t[1])
			}
			var buf strings.Builder
			if err := e.encode(&buf, v, 0); err != nil {
				return nil, err
			}
			return starlark.String(buf.String()), nil
		}),
		"loads": bi("loads", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := starlark.UnpackPositionalArgs("loads", args, kw, 1, &s); err != nil {
				return nil, err
			}
			var text string
			switch x := s.(type) {
			case starlark.String:
				text = string(x)
			case starlark.Bytes:
				text = string(x)
			default:
				return nil, fmt.Errorf("json.loads: the JSON object must be str, not %s", pyTypeName(s))
			}
			return jsonDecode(text)
		}),
		"dump": refused("dump", "json.dump() needs a file handle: use write(path, json.dumps(obj))"),
		"load": refused("load", "json.load() needs a file handle: use json.loads(cat(path))"),
	})
}

type jsonEnc struct {
	th              *starlark.Thread
	sortKeys, ascii bool
	pretty          bool
	indent          string
	itemSep, keySep string
	def             starlark.Value
}

func (e *jsonEnc) nl(b *strings.Builder, level int) {
	if e.pretty {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(e.indent, level))
	}
}

func (e *jsonEnc) encode(b *strings.Builder, v starlark.Value, level int) error {
	if level > 100 {
		return fmt.Errorf("json.dumps: nesting too deep (circular reference?)")
	}
	switch x := v.(type) {
	case starlark.NoneType:
		b.WriteString("null")
	case starlark.Bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case starlark.Int:
		b.WriteString(x.String())
	case starlark.Float:
		f := float64(x)
		switch {
		case math.IsInf(f, 1):
			b.WriteString("Infinity")
		case math.IsInf(f, -1):
			b.WriteString("-Infinity")
		case math.IsNaN(f):
			b.WriteString("NaN")
		default:
			b.WriteString(pyFloat(f))
		}
	case starlark.String:
		e.str(b, string(x))
	case *starlark.List, starlark.Tuple:
		elems := listOf(v.(starlark.Iterable))
		if len(elems) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, el := range elems {
			if i > 0 {
				b.WriteString(e.itemSep)
			}
			e.nl(b, level+1)
			if err := e.encode(b, el, level+1); err != nil {
				return err
			}
		}
		e.nl(b, level)
		b.WriteByte(']')
	case starlark.IterableMapping:
		items := x.Items()
		if len(items) == 0 {
			b.WriteString("{}")
			return nil
		}
		type kv struct {
			k string
			v starlark.Value
		}
		var kvs []kv
		for _, it := range items {
			var k string
			switch kk := it[0].(type) {
			case starlark.String:
				k = string(kk)
			case starlark.Int:
				k = kk.String()
			case starlark.Float:
				k = pyFloat(float64(kk))
			case starlark.Bool:
				k = map[bool]string{true: "true", false: "false"}[bool(kk)]
			case starlark.NoneType:
				k = "null"
			default:
				return &RaisedError{Name: "TypeError", Msg: "keys must be str, int, float, bool or None, not " + pyTypeName(it[0])}
			}
			kvs = append(kvs, kv{k, it[1]})
		}
		if e.sortKeys {
			sort.SliceStable(kvs, func(i, j int) bool { return kvs[i].k < kvs[j].k })
		}
		b.WriteByte('{')
		for i, p := range kvs {
			if i > 0 {
				b.WriteString(e.itemSep)
			}
			e.nl(b, level+1)
			e.str(b, p.k)
			b.WriteString(e.keySep)
			if err := e.encode(b, p.v, level+1); err != nil {
				return err
			}
		}
		e.nl(b, level)
		b.WriteByte('}')
	default:
		if e.def != starlark.None && e.def != nil {
			r, err := starlark.Call(e.th, e.def, starlark.Tuple{v}, nil)
			if err != nil {
				return err
			}
			return e.encode(b, r, level)
		}
		return &RaisedError{Name: "TypeError", Msg: "Object of type " + pyTypeName(v) + " is not JSON serializable"}
	}
	return nil
}

func (e *jsonEnc) str(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20:
				fmt.Fprintf(b, `\u%04x`, r)
			case r > 0x7e && e.ascii:
				if r > 0xffff {
					r1, r2 := utf16.EncodeRune(r)
					fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
				} else {
					fmt.Fprintf(b, `\u%04x`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// jsonDecode parses JSON keeping object key order, ints as int, floats as float.
func jsonDecode(text string) (starlark.Value, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := jsonValue(dec, 0)
	if errors.Is(err, errJSONDepth) {
		return nil, &RaisedError{Name: "RecursionError", Msg: fmt.Sprintf("maximum recursion depth exceeded while decoding JSON nested more than %d levels (char %d)", maxJSONDepth, dec.InputOffset())}
	}
	if err != nil {
		return nil, &RaisedError{Name: "json.JSONDecodeError", Msg: jsonErrMsg(err, dec)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &RaisedError{Name: "json.JSONDecodeError", Msg: fmt.Sprintf("Extra data: char %d", dec.InputOffset())}
	}
	return v, nil
}

func jsonErrMsg(err error, dec *json.Decoder) string {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return "Expecting value: unexpected end of input"
	}
	return fmt.Sprintf("%s (char %d)", strings.TrimPrefix(err.Error(), "json: "), dec.InputOffset())
}

// maxJSONDepth is Python's own recursion limit, where its json.loads
// gives up: deeper input would otherwise recurse until Go's stack
// overflows and the whole app dies.
const maxJSONDepth = 1000

var errJSONDepth = errors.New("json nesting too deep")

func jsonValue(dec *json.Decoder, depth int) (starlark.Value, error) {
	if depth > maxJSONDepth {
		return nil, errJSONDepth
	}
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case json.Delim:
		switch x {
		case '{':
			d := starlark.NewDict(0)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				_ = d.SetKey(starlark.String(k), v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return d, nil
		case '[':
			var elems []starlark.Value
			for dec.More() {
				v, err := jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				elems = append(elems, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return starlark.NewList(elems), nil
		}
	case string:
		return starlark.String(x), nil
	case json.Number:
		s := string(x)
		if strings.ContainsAny(s, ".eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, err
			}
			return starlark.Float(f), nil
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("bad number %s", s)
		}
		return starlark.MakeBigInt(n), nil
	case bool:
		return starlark.Bool(x), nil
	case nil:
		return starlark.None, nil
	}
	return nil, fmt.Errorf("unexpected token %v", t)
}

// ---- time, datetime ----

func (in *Env) timeModule() *starlarkstruct.Module {
	return mod("time", starlark.StringDict{
		"time": bi("time", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(float64(time.Now().UnixNano()) / 1e9), nil
		}),
		"time_ns": bi("time_ns", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt64(time.Now().UnixNano()), nil
		}),
		"monotonic":    bi("monotonic", monotonic),
		"perf_counter": bi("perf_counter", monotonic),
		"sleep": bi("sleep", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var secs num
			if err := starlark.UnpackPositionalArgs("sleep", args, kw, 1, &secs); err != nil {
				return nil, err
			}
			ctx := ThreadCtx(th)
			t := time.NewTimer(time.Duration(float64(secs) * float64(time.Second)))
			defer t.Stop()
			select {
			case <-t.C:
				return starlark.None, nil
			case <-ctx.Done():
				return nil, fmt.Errorf("time.sleep interrupted: %w", context.Cause(ctx))
			}
		}),
		"strftime": bi("strftime", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f string
			if err := starlark.UnpackPositionalArgs("strftime", args, kw, 1, &f); err != nil {
				return nil, err
			}
			return starlark.String(strftime(time.Now(), f)), nil
		}),
	})
}

var processStart = time.Now()

func monotonic(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	return starlark.Float(time.Since(processStart).Seconds()), nil
}

func strftime(t time.Time, f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			fmt.Fprintf(&b, "%04d", t.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			fmt.Fprintf(&b, "%02d", h)
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'f':
			fmt.Fprintf(&b, "%06d", t.Nanosecond()/1000)
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// dateTime is a datetime.datetime or datetime.date value.
type dateTime struct {
	t      time.Time
	isDate bool
}

func (d *dateTime) String() string {
	if d.isDate {
		return d.t.Format("2006-01-02")
	}
	s := d.t.Format("2006-01-02 15:04:05")
	if d.t.Nanosecond() != 0 {
		s += fmt.Sprintf(".%06d", d.t.Nanosecond()/1000)
	}
	return s
}
func (d *dateTime) pyRepr() string {
	if d.isDate {
		return fmt.Sprintf("datetime.date(%d, %d, %d)", d.t.Year(), d.t.Month(), d.t.Day())
	}
	return fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d, %d)", d.t.Year(), d.t.Month(), d.t.Day(), d.t.Hour(), d.t.Minute(), d.t.Second())
}
func (d *dateTime) Type() string          { return "datetime" }
func (d *dateTime) Freeze()               {}
func (d *dateTime) Truth() starlark.Bool  { return true }
func (d *dateTime) Hash() (uint32, error) { return uint32(d.t.Unix()), nil }
func (d *dateTime) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*dateTime)
	return threeway(op, d.t.Compare(o.t)), nil
}
func (d *dateTime) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if o, ok := y.(*dateTime); ok && op == syntax.MINUS && side == starlark.Left {
		return starlark.Float(d.t.Sub(o.t).Seconds()), nil
	}
	return nil, nil
}
func (d *dateTime) Attr(name string) (starlark.Value, error) {
	switch name {
	case "year":
		return starlark.MakeInt(d.t.Year()), nil
	case "month":
		return starlark.MakeInt(int(d.t.Month())), nil
	case "day":
		return starlark.MakeInt(d.t.Day()), nil
	case "hour":
		return starlark.MakeInt(d.t.Hour()), nil
	case "minute":
		return starlark.MakeInt(d.t.Minute()), nil
	case "second":
		return starlark.MakeInt(d.t.Second()), nil
	case "isoformat":
		return bi("isoformat", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if d.isDate {
				return starlark.String(d.t.Format("2006-01-02")), nil
			}
			return starlark.String(strings.Replace(d.String(), " ", "T", 1)), nil
		}), nil
	case "strftime":
		return bi("strftime", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f string
			if err := starlark.UnpackPositionalArgs("strftime", args, kw, 1, &f); err != nil {
				return nil, err
			}
			return starlark.String(strftime(d.t, f)), nil
		}), nil
	case "timestamp":
		return bi("timestamp", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(float64(d.t.UnixNano()) / 1e9), nil
		}), nil
	case "date":
		return bi("date", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			y, m, dd := d.t.Date()
			return &dateTime{t: time.Date(y, m, dd, 0, 0, 0, 0, d.t.Location()), isDate: true}, nil
		}), nil
	}
	return nil, nil
}
func (d *dateTime) AttrNames() []string {
	return []string{"date", "day", "hour", "isoformat", "minute", "month", "second", "strftime", "timestamp", "year"}
}

func threeway(op syntax.Token, c int) bool {
	switch op {
	case syntax.EQL:
		return c == 0
	case syntax.NEQ:
		return c != 0
	case syntax.LT:
		return c < 0
	case syntax.LE:
		return c <= 0
	case syntax.GT:
		return c > 0
	}
	return c >= 0
}

func datetimeModule() *starlarkstruct.Module {
	now := bi("now", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return &dateTime{t: time.Now()}, nil
	})
	ctor := func(isDate bool) fn {
		return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var y, m, d, hh, mm, ss int
			if err := starlark.UnpackArgs(b.Name(), args, kw, "year", &y, "month", &m, "day", &d, "hour?", &hh, "minute?", &mm, "second?", &ss); err != nil {
				return nil, err
			}
			return &dateTime{t: time.Date(y, time.Month(m), d, hh, mm, ss, 0, time.Local), isDate: isDate}, nil
		}
	}
	dtType := &pyType{name: "datetime", call: ctor(false), attrs: map[string]starlark.Value{
		"now": now,
		"utcnow": bi("utcnow", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return &dateTime{t: time.Now().UTC()}, nil
		}),
		"fromtimestamp": bi("fromtimestamp", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var ts num
			if err := starlark.UnpackPositionalArgs("fromtimestamp", args, kw, 1, &ts); err != nil {
				return nil, err
			}
			return &dateTime{t: time.Unix(0, int64(float64(ts)*1e9))}, nil
		}),
	}}
	dateType := &pyType{name: "date", call: ctor(true), attrs: map[string]starlark.Value{
		"today": bi("today", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			y, m, d := time.Now().Date()
			return &dateTime{t: time.Date(y, m, d, 0, 0, 0, 0, time.Local), isDate: true}, nil
		}),
	}}
	return mod("datetime", starlark.StringDict{"datetime": dtType, "date": dateType})
}

// ---- os, os.path ----

func (in *Env) osPathModule() *starlarkstruct.Module {
	s1 := func(name string, f func(string) string) *starlark.Builtin {
		return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var p string
			if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &p); err != nil {
				return nil, err
			}
			return starlark.String(f(p)), nil
		})
	}
	info := func(name string, pick func(exists, isDir bool) bool) *starlark.Builtin {
		return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var p string
			if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &p); err != nil {
				return nil, err
			}
			if in.PathInfo == nil {
				return starlark.False, nil
			}
			return starlark.Bool(pick(in.PathInfo(p))), nil
		})
	}
	abs := func(p string) string {
		if !path.IsAbs(p) {
			p = path.Join(in.Getwd, p)
		}
		return path.Clean(p)
	}
	return mod("os.path", starlark.StringDict{
		"sep": starlark.String("/"),
		"join": bi("join", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			out := ""
			for _, a := range args {
				s, ok := starlark.AsString(a)
				if !ok {
					return nil, fmt.Errorf("os.path.join: expected str, got %s", pyTypeName(a))
				}
				switch {
				case strings.HasPrefix(s, "/"):
					out = s
				case out == "" || strings.HasSuffix(out, "/"):
					out += s
				default:
					out += "/" + s
				}
			}
			return starlark.String(out), nil
		}),
		"basename": s1("basename", func(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }),
		"dirname": s1("dirname", func(p string) string {
			k := strings.LastIndexByte(p, '/')
			if k < 0 {
				return ""
			}
			d := strings.TrimRight(p[:k+1], "/")
			if d == "" {
				return "/"
			}
			return d
		}),
		"splitext": bi("splitext", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var p string
			if err := starlark.UnpackPositionalArgs("splitext", args, kw, 1, &p); err != nil {
				return nil, err
			}
			base := p[strings.LastIndexByte(p, '/')+1:]
			k := strings.LastIndexByte(base, '.')
			if k <= 0 || strings.Trim(base[:k], ".") == "" {
				return starlark.Tuple{starlark.String(p), starlark.String("")}, nil
			}
			cut := len(p) - len(base) + k
			return starlark.Tuple{starlark.String(p[:cut]), starlark.String(p[cut:])}, nil
		}),
		"split": bi("split", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var p string
			if err := starlark.UnpackPositionalArgs("split", args, kw, 1, &p); err != nil {
				return nil, err
			}
			k := strings.LastIndexByte(p, '/')
			head, tail := p[:k+1], p[k+1:]
			if t := strings.TrimRight(head, "/"); t != "" {
				head = t
			}
			return starlark.Tuple{starlark.String(head), starlark.String(tail)}, nil
		}),
		"normpath": s1("normpath", func(p string) string {
			if p == "" {
				return "."
			}
			return path.Clean(p)
		}),
		"abspath":    s1("abspath", abs),
		"realpath":   s1("realpath", abs),
		"expanduser": s1("expanduser", func(p string) string { return p }),
		"isabs": bi("isabs", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var p string
			if err := starlark.UnpackPositionalArgs("isabs", args, kw, 1, &p); err != nil {
				return nil, err
			}
			return starlark.Bool(strings.HasPrefix(p, "/")), nil
		}),
		"relpath": bi("relpath", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var p string
			start := in.Getwd
			if err := starlark.UnpackArgs("relpath", args, kw, "path", &p, "start?", &start); err != nil {
				return nil, err
			}
			return starlark.String(relPath(abs(start), abs(p))), nil
		}),
		"exists": info("exists", func(e, d bool) bool { return e }),
		"isfile": info("isfile", func(e, d bool) bool { return e && !d }),
		"isdir":  info("isdir", func(e, d bool) bool { return e && d }),
	})
}

func relPath(base, target string) string {
	bp := strings.Split(strings.Trim(base, "/"), "/")
	tp := strings.Split(strings.Trim(target, "/"), "/")
	if base == "/" {
		bp = nil
	}
	if target == "/" {
		tp = nil
	}
	i := 0
	for i < len(bp) && i < len(tp) && bp[i] == tp[i] {
		i++
	}
	var parts []string
	for j := i; j < len(bp); j++ {
		parts = append(parts, "..")
	}
	parts = append(parts, tp[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func (in *Env) osModule(osPath *starlarkstruct.Module) *starlarkstruct.Module {
	env := starlark.NewDict(0)
	env.Freeze()
	return mod("os", starlark.StringDict{
		"path":    osPath,
		"sep":     starlark.String("/"),
		"linesep": starlark.String("\n"),
		"name":    starlark.String("posix"),
		"environ": env,
		"getcwd": bi("getcwd", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(in.Getwd), nil
		}),
		"getenv": bi("getenv", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var k string
			var def starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs("getenv", args, kw, 1, &k, &def); err != nil {
				return nil, err
			}
			return def, nil
		}),
		"system":   refused("system", "os.system() is not available: run commands with shell(cmd)"),
		"popen":    refused("popen", "os.popen() is not available: run commands with shell(cmd)"),
		"listdir":  refused("listdir", "os.listdir() is not available: list files with the file tools (see apropos('file')) or shell('ls')"),
		"walk":     refused("walk", "os.walk() is not available: list files with the file tools (see apropos('file'))"),
		"makedirs": refused("makedirs", "os.makedirs() is not available: write() creates parent directories, or use shell('mkdir -p ...')"),
		"mkdir":    refused("mkdir", "os.mkdir() is not available: use shell('mkdir -p ...')"),
		"remove":   refused("remove", "os.remove() is not available: use shell('rm ...')"),
		"rename":   refused("rename", "os.rename() is not available: use shell('mv ...')"),
		"chdir":    refused("chdir", "os.chdir() is not available: pass paths relative to the workspace root"),
		"getpid":   refused("getpid", "os.getpid() is not available"),
		"cpu_count": bi("cpu_count", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(1), nil
		}),
	})
}

// ---- collections, itertools, functools ----

func collectionsModule() *starlarkstruct.Module {
	return mod("collections", starlark.StringDict{
		"Counter":     typeCounter,
		"defaultdict": typeDefaultDict,
		"OrderedDict": typeDict,
		"deque": bi("deque", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Value = starlark.NewList(nil)
			var maxlen starlark.Value
			if err := starlark.UnpackArgs("deque", charsArgs(args), kw, "iterable?", &it, "maxlen?", &maxlen); err != nil {
				return nil, err
			}
			i, ok := it.(starlark.Iterable)
			if !ok {
				return nil, fmt.Errorf("deque: not iterable")
			}
			return toList(i), nil
		}),
		"namedtuple": bi("namedtuple", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var name string
			var fields starlark.Value
			if err := starlark.UnpackPositionalArgs("namedtuple", args, nil, 2, &name, &fields); err != nil {
				return nil, err
			}
			var names []string
			switch f := fields.(type) {
			case starlark.String:
				names = strings.Fields(strings.ReplaceAll(string(f), ",", " "))
			case starlark.Iterable:
				for _, x := range listOf(f) {
					s, _ := starlark.AsString(x)
					names = append(names, s)
				}
			}
			return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				if len(args) > len(names) {
					return nil, fmt.Errorf("%s: too many arguments", name)
				}
				d := starlark.StringDict{}
				for i, a := range args {
					d[names[i]] = a
				}
				for _, kv := range kw {
					d[string(kv[0].(starlark.String))] = kv[1]
				}
				for _, n := range names {
					if _, ok := d[n]; !ok {
						return nil, fmt.Errorf("%s: missing argument '%s'", name, n)
					}
				}
				return starlarkstruct.FromStringDict(starlark.String(name), d), nil
			}), nil
		}),
	})
}

func itertoolsModule() *starlarkstruct.Module {
	lists := func(args starlark.Tuple) ([][]starlark.Value, error) {
		var out [][]starlark.Value
		for _, a := range charsArgs(args) {
			it, ok := a.(starlark.Iterable)
			if !ok {
				return nil, fmt.Errorf("'%s' object is not iterable", pyTypeName(a))
			}
			out = append(out, listOf(it))
		}
		return out, nil
	}
	chainFn := func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		ls, err := lists(args)
		if err != nil {
			return nil, err
		}
		var out []starlark.Value
		for _, l := range ls {
			out = append(out, l...)
		}
		return starlark.NewList(out), nil
	}
	chain := &pyType{name: "chain", call: chainFn, attrs: map[string]starlark.Value{
		"from_iterable": bi("from_iterable", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			if err := starlark.UnpackPositionalArgs("from_iterable", args, kw, 1, &it); err != nil {
				return nil, err
			}
			return chainFn(th, b, starlark.Tuple(listOf(it)), nil)
		}),
	}}
	return mod("itertools", starlark.StringDict{
		"chain": chain,
		"product": bi("product", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			repeat := 1
			for _, kv := range kw {
				if string(kv[0].(starlark.String)) == "repeat" {
					repeat, _ = starlark.AsInt32(kv[1])
				}
			}
			ls, err := lists(args)
			if err != nil {
				return nil, err
			}
			var pools [][]starlark.Value
			for r := 0; r < repeat; r++ {
				pools = append(pools, ls...)
			}
			res := []starlark.Tuple{{}}
			for _, pool := range pools {
				var next []starlark.Tuple
				for _, r := range res {
					for _, x := range pool {
						t := append(append(starlark.Tuple{}, r...), x)
						next = append(next, t)
					}
				}
				res = next
				if len(res) > 1_000_000 {
					return nil, fmt.Errorf("itertools.product: more than 1,000,000 results")
				}
			}
			out := make([]starlark.Value, len(res))
			for i, t := range res {
				out[i] = t
			}
			return starlark.NewList(out), nil
		}),
		"permutations": bi("permutations", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Value
			var rv starlark.Value = starlark.None
			if err := starlark.UnpackArgs("permutations", charsArgs(args), kw, "iterable", &it, "r?", &rv); err != nil {
				return nil, err
			}
			pool := listOf(it.(starlark.Iterable))
			r := len(pool)
			if rv != starlark.None {
				r, _ = starlark.AsInt32(rv)
			}
			var out []starlark.Value
			used := make([]bool, len(pool))
			var cur starlark.Tuple
			var rec func()
			rec = func() {
				if len(cur) == r {
					out = append(out, append(starlark.Tuple{}, cur...))
					return
				}
				for i := range pool {
					if !used[i] && len(out) < 1_000_000 {
						used[i] = true
						cur = append(cur, pool[i])
						rec()
						cur = cur[:len(cur)-1]
						used[i] = false
					}
				}
			}
			rec()
			return starlark.NewList(out), nil
		}),
		"combinations": bi("combinations", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Value
			var r int
			if err := starlark.UnpackArgs("combinations", charsArgs(args), kw, "iterable", &it, "r", &r); err != nil {
				return nil, err
			}
			pool := listOf(it.(starlark.Iterable))
			var out []starlark.Value
			var cur starlark.Tuple
			var rec func(start int)
			rec = func(start int) {
				if len(cur) == r {
					out = append(out, append(starlark.Tuple{}, cur...))
					return
				}
				for i := start; i < len(pool) && len(out) < 1_000_000; i++ {
					cur = append(cur, pool[i])
					rec(i + 1)
					cur = cur[:len(cur)-1]
				}
			}
			rec(0)
			return starlark.NewList(out), nil
		}),
		"groupby": bi("groupby", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Value
			var key starlark.Value = starlark.None
			if err := starlark.UnpackArgs("groupby", charsArgs(args), kw, "iterable", &it, "key?", &key); err != nil {
				return nil, err
			}
			var out []starlark.Value
			var curKey starlark.Value
			var cur []starlark.Value
			for _, x := range listOf(it.(starlark.Iterable)) {
				k := x
				if key != starlark.None {
					var err error
					if k, err = starlark.Call(th, key, starlark.Tuple{x}, nil); err != nil {
						return nil, err
					}
				}
				if curKey != nil {
					if eq, _ := starlark.Equal(k, curKey); eq {
						cur = append(cur, x)
						continue
					}
					out = append(out, starlark.Tuple{curKey, starlark.NewList(cur)})
				}
				curKey, cur = k, []starlark.Value{x}
			}
			if curKey != nil {
				out = append(out, starlark.Tuple{curKey, starlark.NewList(cur)})
			}
			return starlark.NewList(out), nil
		}),
		"islice": bi("islice", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) < 2 {
				return nil, fmt.Errorf("islice: expected iterable and stop")
			}
			ls, err := lists(args[:1])
			if err != nil {
				return nil, err
			}
			l := ls[0]
			start, stop, step := 0, len(l), 1
			nums := args[1:]
			get := func(v starlark.Value, d int) int {
				if v == starlark.None {
					return d
				}
				n, _ := starlark.AsInt32(v)
				return n
			}
			if len(nums) == 1 {
				stop = get(nums[0], len(l))
			} else {
				start = get(nums[0], 0)
				stop = get(nums[1], len(l))
				if len(nums) > 2 {
					step = get(nums[2], 1)
				}
			}
			if stop > len(l) {
				stop = len(l)
			}
			var out []starlark.Value
			for i := start; i < stop; i += step {
				out = append(out, l[i])
			}
			return starlark.NewList(out), nil
		}),
		"accumulate": bi("accumulate", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			var f starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs("accumulate", args, kw, 1, &it, &f); err != nil {
				return nil, err
			}
			var out []starlark.Value
			var acc starlark.Value
			for _, x := range listOf(it) {
				if acc == nil {
					acc = x
				} else if f == starlark.None {
					r, err := starlark.Binary(syntax.PLUS, acc, x)
					if err != nil {
						return nil, err
					}
					acc = r
				} else {
					r, err := starlark.Call(th, f, starlark.Tuple{acc, x}, nil)
					if err != nil {
						return nil, err
					}
					acc = r
				}
				out = append(out, acc)
			}
			return starlark.NewList(out), nil
		}),
		"zip_longest": bi("zip_longest", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fill starlark.Value = starlark.None
			for _, kv := range kw {
				if string(kv[0].(starlark.String)) == "fillvalue" {
					fill = kv[1]
				}
			}
			ls, err := lists(args)
			if err != nil {
				return nil, err
			}
			n := 0
			for _, l := range ls {
				if len(l) > n {
					n = len(l)
				}
			}
			out := make([]starlark.Value, n)
			for i := 0; i < n; i++ {
				t := make(starlark.Tuple, len(ls))
				for j, l := range ls {
					if i < len(l) {
						t[j] = l[i]
					} else {
						t[j] = fill
					}
				}
				out[i] = t
			}
			return starlark.NewList(out), nil
		}),
		"count":  refused("count", "itertools.count() is infinite: use range(start, stop)"),
		"cycle":  refused("cycle", "itertools.cycle() is infinite: index with i % len(xs)"),
		"repeat": refused("repeat", "itertools.repeat(): use [x] * n"),
	})
}

func functoolsModule() *starlarkstruct.Module {
	identity := bi("cache", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 1 {
			return args[0], nil
		}
		return bi("cache", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("lru_cache: expected a function")
			}
			return args[0], nil
		}), nil
	})
	return mod("functools", starlark.StringDict{
		"reduce": bi("reduce", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			var it starlark.Iterable
			var acc starlark.Value
			if err := starlark.UnpackPositionalArgs("reduce", args, kw, 2, &f, &it, &acc); err != nil {
				return nil, err
			}
			for _, x := range listOf(it) {
				if acc == nil {
					acc = x
					continue
				}
				r, err := starlark.Call(th, f, starlark.Tuple{acc, x}, nil)
				if err != nil {
					return nil, err
				}
				acc = r
			}
			if acc == nil {
				return nil, &RaisedError{Name: "TypeError", Msg: "reduce() of empty iterable with no initial value"}
			}
			return acc, nil
		}),
		"partial": bi("partial", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, fmt.Errorf("partial: missing function")
			}
			f := args[0]
			pre := append(starlark.Tuple{}, args[1:]...)
			prekw := append([]starlark.Tuple{}, kw...)
			return bi("partial", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				return starlark.Call(th, f, append(append(starlark.Tuple{}, pre...), args...), append(append([]starlark.Tuple{}, prekw...), kw...))
			}), nil
		}),
		"lru_cache": identity,
		"cache":     identity,
	})
}

// ---- textwrap, shlex, string, sys, random, typing, hashlib, base64, copy, statistics ----

func textwrapModule() *starlarkstruct.Module {
	wrapLines := func(text string, width int) []string {
		words := strings.Fields(text)
		var lines []string
		cur := ""
		for _, w := range words {
			if cur == "" {
				cur = w
			} else if len(cur)+1+len(w) <= width {
				cur += " " + w
			} else {
				lines = append(lines, cur)
				cur = w
			}
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		return lines
	}
	return mod("textwrap", starlark.StringDict{
		"dedent": bi("dedent", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs("dedent", args, kw, 1, &s); err != nil {
				return nil, err
			}
			return starlark.String(dedent(s)), nil
		}),
		"indent": bi("indent", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s, prefix string
			if err := starlark.UnpackPositionalArgs("indent", args, kw, 2, &s, &prefix); err != nil {
				return nil, err
			}
			lines := strings.SplitAfter(s, "\n")
			for i, l := range lines {
				if strings.TrimSpace(l) != "" {
					lines[i] = prefix + l
				}
			}
			return starlark.String(strings.Join(lines, "")), nil
		}),
		"wrap": bi("wrap", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			width := 70
			if err := starlark.UnpackArgs("wrap", args, kw, "text", &s, "width?", &width); err != nil {
				return nil, err
			}
			var out []starlark.Value
			for _, l := range wrapLines(s, width) {
				out = append(out, starlark.String(l))
			}
			return starlark.NewList(out), nil
		}),
		"fill": bi("fill", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			width := 70
			if err := starlark.UnpackArgs("fill", args, kw, "text", &s, "width?", &width); err != nil {
				return nil, err
			}
			return starlark.String(strings.Join(wrapLines(s, width), "\n")), nil
		}),
		"shorten": bi("shorten", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			var width int
			placeholder := " [...]"
			if err := starlark.UnpackArgs("shorten", args, kw, "text", &s, "width", &width, "placeholder?", &placeholder); err != nil {
				return nil, err
			}
			words := strings.Fields(s)
			joined := strings.Join(words, " ")
			if len(joined) <= width {
				return starlark.String(joined), nil
			}
			cur := ""
			for _, w := range words {
				next := w
				if cur != "" {
					next = cur + " " + w
				}
				if len(next)+len(placeholder) > width {
					break
				}
				cur = next
			}
			return starlark.String(strings.TrimLeft(cur+placeholder, " ")), nil
		}),
	})
}

func dedent(s string) string {
	lines := strings.Split(s, "\n")
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ind, false
			continue
		}
		for !strings.HasPrefix(ind, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = strings.TrimLeft(l, " \t")
		} else {
			lines[i] = strings.TrimPrefix(l, prefix)
		}
	}
	return strings.Join(lines, "\n")
}

func shlexQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

func shlexSplit(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, &RaisedError{Name: "ValueError", Msg: "No closing quotation"}
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.ContainsRune("\\\"$`", rune(s[i+1])) {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, &RaisedError{Name: "ValueError", Msg: "No closing quotation"}
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

func shlexModule() *starlarkstruct.Module {
	return mod("shlex", starlark.StringDict{
		"quote": bi("quote", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs("quote", args, kw, 1, &s); err != nil {
				return nil, err
			}
			return starlark.String(shlexQuote(s)), nil
		}),
		"join": bi("join", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			if err := starlark.UnpackPositionalArgs("join", args, kw, 1, &it); err != nil {
				return nil, err
			}
			var parts []string
			for _, x := range listOf(it) {
				s, _ := starlark.AsString(x)
				parts = append(parts, shlexQuote(s))
			}
			return starlark.String(strings.Join(parts, " ")), nil
		}),
		"split": bi("split", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs("split", args, kw, 1, &s); err != nil {
				return nil, err
			}
			parts, err := shlexSplit(s)
			if err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(parts))
			for i, p := range parts {
				out[i] = starlark.String(p)
			}
			return starlark.NewList(out), nil
		}),
	})
}

func stringModule() *starlarkstruct.Module {
	return mod("string", starlark.StringDict{
		"ascii_letters":   starlark.String("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
		"ascii_lowercase": starlark.String("abcdefghijklmnopqrstuvwxyz"),
		"ascii_uppercase": starlark.String("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
		"digits":          starlark.String("0123456789"),
		"hexdigits":       starlark.String("0123456789abcdefABCDEF"),
		"octdigits":       starlark.String("01234567"),
		"punctuation":     starlark.String("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
		"whitespace":      starlark.String(" \t\n\r\x0b\x0c"),
	})
}

func (in *Env) sysModule() *starlarkstruct.Module {
	write := bi("write", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs("write", args, kw, 1, &s); err != nil {
			return nil, err
		}
		if out, _ := th.Local(OutputLocal).(Output); out != nil {
			out.WriteString(s)
		}
		return starlark.MakeInt(len([]rune(s))), nil
	})
	flush := bi("flush", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, nil
	})
	stream := func(name string) starlark.Value {
		return starlarkstruct.FromStringDict(starlark.String(name), starlark.StringDict{"write": write, "flush": flush})
	}
	return mod("sys", starlark.StringDict{
		"argv":         starlark.NewList([]starlark.Value{starlark.String("")}),
		"version":      starlark.String("3.11 (Starlark sandbox)"),
		"platform":     starlark.String("linux"),
		"maxsize":      starlark.MakeInt64(math.MaxInt64),
		"stdout":       stream("stdout"),
		"stderr":       stream("stderr"),
		"path":         starlark.NewList(nil),
		"version_info": starlark.Tuple{starlark.MakeInt(3), starlark.MakeInt(11), starlark.MakeInt(0)},
		"exit":         refused("exit", "sys.exit() is not available: a block ends when its code ends"),
	})
}

func randomModule() *starlarkstruct.Module {
	r := rand.New(rand.NewSource(time.Now().UnixNano()))
	return mod("random", starlark.StringDict{
		"seed": bi("seed", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value = starlark.None
			_ = starlark.UnpackPositionalArgs("seed", args, kw, 0, &s)
			h, _ := s.Hash()
			r.Seed(int64(h))
			return starlark.None, nil
		}),
		"random": bi("random", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(r.Float64()), nil
		}),
		"uniform": bi("uniform", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var a, c num
			if err := starlark.UnpackPositionalArgs("uniform", args, kw, 2, &a, &c); err != nil {
				return nil, err
			}
			return starlark.Float(float64(a) + float64(c-a)*r.Float64()), nil
		}),
		"randint": bi("randint", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var a, c int
			if err := starlark.UnpackPositionalArgs("randint", args, kw, 2, &a, &c); err != nil {
				return nil, err
			}
			if c < a {
				return nil, &RaisedError{Name: "ValueError", Msg: "empty range for randint()"}
			}
			return starlark.MakeInt(a + r.Intn(c-a+1)), nil
		}),
		"choice": bi("choice", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			if err := starlark.UnpackPositionalArgs("choice", charsArgs(args), kw, 1, &it); err != nil {
				return nil, err
			}
			l := listOf(it)
			if len(l) == 0 {
				return nil, &RaisedError{Name: "IndexError", Msg: "Cannot choose from an empty sequence"}
			}
			return l[r.Intn(len(l))], nil
		}),
		"shuffle": bi("shuffle", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var l *starlark.List
			if err := starlark.UnpackPositionalArgs("shuffle", args, kw, 1, &l); err != nil {
				return nil, err
			}
			el := listElems(l)
			r.Shuffle(len(el), func(i, j int) { el[i], el[j] = el[j], el[i] })
			for i, v := range el {
				if err := l.SetIndex(i, v); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}),
		"sample": bi("sample", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var it starlark.Iterable
			var k int
			if err := starlark.UnpackPositionalArgs("sample", charsArgs(args), kw, 2, &it, &k); err != nil {
				return nil, err
			}
			l := listOf(it)
			if k > len(l) {
				return nil, &RaisedError{Name: "ValueError", Msg: "Sample larger than population or is negative"}
			}
			perm := r.Perm(len(l))
			out := make([]starlark.Value, k)
			for i := 0; i < k; i++ {
				out[i] = l[perm[i]]
			}
			return starlark.NewList(out), nil
		}),
	})
}

func typingModule() *starlarkstruct.Module {
	m := starlark.StringDict{}
	for _, n := range []string{"Any", "Optional", "Union", "Callable", "Iterable", "Iterator", "Sequence", "Mapping", "TypedDict", "Literal", "Tuple", "List", "Dict", "Set", "Generator", "NamedTuple", "cast"} {
		m[n] = &pyType{name: n}
	}
	return mod("typing", m)
}

// hashObj is a hashlib hash object.
type hashObj struct {
	name string
	h    hash.Hash
}

func (h *hashObj) String() string        { return "<" + h.name + " HASH object>" }
func (h *hashObj) Type() string          { return "hash" }
func (h *hashObj) Freeze()               {}
func (h *hashObj) Truth() starlark.Bool  { return true }
func (h *hashObj) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable") }
func (h *hashObj) Attr(name string) (starlark.Value, error) {
	switch name {
	case "hexdigest":
		return bi("hexdigest", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(hex.EncodeToString(h.h.Sum(nil))), nil
		}), nil
	case "digest":
		return bi("digest", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bytes(h.h.Sum(nil)), nil
		}), nil
	case "update":
		return bi("update", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("update: expected one argument")
			}
			s, _ := bytesOrString(args[0])
			h.h.Write([]byte(s))
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}
func (h *hashObj) AttrNames() []string { return []string{"digest", "hexdigest", "update"} }

func bytesOrString(v starlark.Value) (string, bool) {
	switch x := v.(type) {
	case starlark.String:
		return string(x), true
	case starlark.Bytes:
		return string(x), true
	}
	return "", false
}

func hashlibModule() *starlarkstruct.Module {
	ctor := func(name string, nh func() hash.Hash) *starlark.Builtin {
		return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			h := &hashObj{name: name, h: nh()}
			if len(args) > 0 {
				s, _ := bytesOrString(args[0])
				h.h.Write([]byte(s))
			}
			return h, nil
		})
	}
	return mod("hashlib", starlark.StringDict{
		"md5": ctor("md5", md5.New), "sha1": ctor("sha1", sha1.New),
		"sha256": ctor("sha256", sha256.New), "sha512": ctor("sha512", sha512.New),
	})
}

func base64Module() *starlarkstruct.Module {
	codec := func(name string, f func(string) (string, error)) *starlark.Builtin {
		return bi(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("%s: expected one argument", name)
			}
			s, ok := bytesOrString(args[0])
			if !ok {
				return nil, fmt.Errorf("%s: expected bytes or str", name)
			}
			r, err := f(s)
			if err != nil {
				return nil, &RaisedError{Name: "binascii.Error", Msg: err.Error()}
			}
			return starlark.Bytes(r), nil
		})
	}
	enc := func(e *base64.Encoding) func(string) (string, error) {
		return func(s string) (string, error) { return e.EncodeToString([]byte(s)), nil }
	}
	dec := func(e *base64.Encoding) func(string) (string, error) {
		return func(s string) (string, error) {
			b, err := e.DecodeString(strings.TrimSpace(s))
			return string(b), err
		}
	}
	return mod("base64", starlark.StringDict{
		"b64encode": codec("b64encode", enc(base64.StdEncoding)), "b64decode": codec("b64decode", dec(base64.StdEncoding)),
		"urlsafe_b64encode": codec("urlsafe_b64encode", enc(base64.URLEncoding)), "urlsafe_b64decode": codec("urlsafe_b64decode", dec(base64.URLEncoding)),
	})
}

func deepCopy(v starlark.Value, depth int) (starlark.Value, error) {
	if depth > 100 {
		return nil, fmt.Errorf("deepcopy: nesting too deep")
	}
	switch x := v.(type) {
	case *starlark.List:
		out := make([]starlark.Value, x.Len())
		for i := range out {
			c, err := deepCopy(x.Index(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return starlark.NewList(out), nil
	case starlark.Tuple:
		out := make(starlark.Tuple, len(x))
		for i, e := range x {
			c, err := deepCopy(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case *starlark.Dict:
		out := starlark.NewDict(x.Len())
		for _, kv := range x.Items() {
			c, err := deepCopy(kv[1], depth+1)
			if err != nil {
				return nil, err
			}
			_ = out.SetKey(kv[0], c)
		}
		return out, nil
	case *TextDict:
		c, err := deepCopy(x.d, depth)
		if err != nil {
			return nil, err
		}
		return NewTextDict(c.(*starlark.Dict), x.show), nil
	case *starlark.Set:
		out := starlark.NewSet(x.Len())
		for e := range x.Elements() {
			_ = out.Insert(e)
		}
		return out, nil
	}
	return v, nil
}

func copyModule() *starlarkstruct.Module {
	return mod("copy", starlark.StringDict{
		"deepcopy": bi("deepcopy", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("deepcopy", args, kw, 1, &v); err != nil {
				return nil, err
			}
			return deepCopy(v, 0)
		}),
		"copy": bi("copy", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("copy", args, kw, 1, &v); err != nil {
				return nil, err
			}
			if h, ok := v.(starlark.HasAttrs); ok {
				if c, _ := h.Attr("copy"); c != nil {
					return starlark.Call(th, c, nil, nil)
				}
			}
			return v, nil
		}),
	})
}

func statisticsModule() *starlarkstruct.Module {
	floats := func(name string, args starlark.Tuple, kw []starlark.Tuple) ([]float64, error) {
		var it starlark.Iterable
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &it); err != nil {
			return nil, err
		}
		var out []float64
		for _, x := range listOf(it) {
			f, ok := starlark.AsFloat(x)
			if !ok {
				return nil, fmt.Errorf("%s: numbers required", name)
			}
			out = append(out, f)
		}
		if len(out) == 0 {
			return nil, &RaisedError{Name: "statistics.StatisticsError", Msg: name + " requires at least one data point"}
		}
		return out, nil
	}
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	return mod("statistics", starlark.StringDict{
		"mean": bi("mean", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			xs, err := floats("mean", args, kw)
			if err != nil {
				return nil, err
			}
			m := mean(xs)
			if allInts(args) && m == math.Trunc(m) {
				return starlark.MakeInt64(int64(m)), nil
			}
			return starlark.Float(m), nil
		}),
		"median": bi("median", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			xs, err := floats("median", args, kw)
			if err != nil {
				return nil, err
			}
			sort.Float64s(xs)
			n := len(xs)
			if n%2 == 1 {
				if allInts(args) {
					return starlark.MakeInt64(int64(xs[n/2])), nil
				}
				return starlark.Float(xs[n/2]), nil
			}
			return starlark.Float((xs[n/2-1] + xs[n/2]) / 2), nil
		}),
		"stdev": bi("stdev", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			xs, err := floats("stdev", args, kw)
			if err != nil {
				return nil, err
			}
			if len(xs) < 2 {
				return nil, &RaisedError{Name: "statistics.StatisticsError", Msg: "stdev requires at least two data points"}
			}
			m := mean(xs)
			s := 0.0
			for _, x := range xs {
				s += (x - m) * (x - m)
			}
			return starlark.Float(math.Sqrt(s / float64(len(xs)-1))), nil
		}),
	})
}

func allInts(args starlark.Tuple) bool {
	if len(args) != 1 {
		return false
	}
	it, ok := args[0].(starlark.Iterable)
	if !ok {
		return false
	}
	for _, x := range listOf(it) {
		if _, ok := x.(starlark.Int); !ok {
			return false
		}
	}
	return true
}

// buildModules creates the importable modules of one interpreter.
func (in *Env) buildModules() map[string]starlark.Value {
	osPath := in.osPathModule()
	ms := map[string]starlark.Value{
		"json": jsonModule(), "re": reModule(), "math": mathModule(), "time": in.timeModule(),
		"os": in.osModule(osPath), "os.path": osPath, "collections": collectionsModule(),
		"textwrap": textwrapModule(), "shlex": shlexModule(), "sys": in.sysModule(),
		"datetime": datetimeModule(), "itertools": itertoolsModule(), "functools": functoolsModule(),
		"string": stringModule(), "random": randomModule(), "typing": typingModule(),
		"hashlib": hashlibModule(), "base64": base64Module(), "copy": copyModule(),
		"statistics": statisticsModule(),
		"__future__": mod("__future__", starlark.StringDict{"annotations": starlark.True}),
	}
	return ms
}

var _ = bytes.MinRead
