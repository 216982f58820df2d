package pylib

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// pyStr renders v as Python's str() would.
func pyStr(v starlark.Value) string {
	switch x := v.(type) {
	case starlark.String:
		return string(x)
	case *TextDict:
		return x.text()
	}
	var b strings.Builder
	writeRepr(&b, v, 0)
	return b.String()
}

// pyRepr renders v as Python's repr() would.
func pyRepr(v starlark.Value) string {
	var b strings.Builder
	writeRepr(&b, v, 0)
	return b.String()
}

func quotePy(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r) && r > 0x7f:
			if r <= 0xff {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else if r <= 0xffff {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// pyFloat renders a float like Python's repr.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	k := strings.LastIndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[k+1:])
	if exp < -4 || exp >= 16 {
		mant := e[:k]
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

func writeRepr(b *strings.Builder, v starlark.Value, depth int) {
	if depth > 50 {
		b.WriteString("...")
		return
	}
	switch x := v.(type) {
	case starlark.NoneType:
		b.WriteString("None")
	case starlark.Bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case starlark.String:
		b.WriteString(quotePy(string(x)))
	case starlark.Int:
		b.WriteString(x.String())
	case starlark.Float:
		b.WriteString(pyFloat(float64(x)))
	case starlark.Bytes:
		b.WriteString("b" + quotePy(string(x)))
	case *starlark.List:
		b.WriteByte('[')
		for i := 0; i < x.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, x.Index(i), depth+1)
		}
		b.WriteByte(']')
	case starlark.Tuple:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e, depth+1)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *starlark.Dict:
		writeDict(b, x, depth)
	case *TextDict:
		writeDict(b, x.d, depth)
	case *starlark.Set:
		if x.Len() == 0 {
			b.WriteString("set()")
			return
		}
		b.WriteByte('{')
		i := 0
		for e := range x.Elements() {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e, depth+1)
			i++
		}
		b.WriteByte('}')
	case *counter:
		if x.d.Len() == 0 {
			b.WriteString("Counter()")
			return
		}
		b.WriteString("Counter({")
		for i, kv := range x.sortedItems() {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, kv[0], depth+1)
			b.WriteString(": ")
			writeRepr(b, kv[1], depth+1)
		}
		b.WriteString("})")
	case *defaultDict:
		b.WriteString("defaultdict(")
		writeRepr(b, x.factory, depth+1)
		b.WriteString(", ")
		writeDict(b, x.d, depth)
		b.WriteByte(')')
	case *pyType:
		b.WriteString("<class '" + x.name + "'>")
	case *starlark.Function:
		b.WriteString("<function " + x.Name() + ">")
	case *starlark.Builtin:
		b.WriteString("<built-in function " + x.Name() + ">")
	case *starlarkstruct.Module:
		b.WriteString("<module '" + x.Name + "'>")
	case *starlarkstruct.Struct:
		ctor := x.Constructor()
		name := "struct"
		if s, ok := ctor.(starlark.String); ok {
			name = string(s)
		}
		b.WriteString(name + "(")
		for i, n := range x.AttrNames() {
			if i > 0 {
				b.WriteString(", ")
			}
			av, _ := x.Attr(n)
			b.WriteString(n + "=")
			writeRepr(b, av, depth+1)
		}
		b.WriteByte(')')
	default:
		if r, ok := v.(interface{ pyRepr() string }); ok {
			b.WriteString(r.pyRepr())
			return
		}
		b.WriteString(v.String())
	}
}

func writeDict(b *strings.Builder, x *starlark.Dict, depth int) {
	b.WriteByte('{')
	for i, kv := range x.Items() {
		if i > 0 {
			b.WriteString(", ")
		}
		writeRepr(b, kv[0], depth+1)
		b.WriteString(": ")
		writeRepr(b, kv[1], depth+1)
	}
	b.WriteByte('}')
}

// ---- format-spec mini-language ----

type fmtSpec struct {
	fill      rune
	align     byte // < > ^ =
	sign      byte // + - space
	alt       bool
	zero      bool
	width     int
	grouping  byte // , _
	precision int  // -1 = none
	typ       byte
}

func parseSpec(spec string) (fmtSpec, error) {
	s := fmtSpec{fill: ' ', precision: -1}
	rs := []rune(spec)
	i := 0
	if len(rs) >= 2 && strings.ContainsRune("<>^=", rs[1]) {
		s.fill = rs[0]
		s.align = byte(rs[1])
		i = 2
	} else if len(rs) >= 1 && strings.ContainsRune("<>^=", rs[0]) {
		s.align = byte(rs[0])
		i = 1
	}
	if i < len(rs) && strings.ContainsRune("+- ", rs[i]) {
		s.sign = byte(rs[i])
		i++
	}
	if i < len(rs) && rs[i] == 'z' {
		i++
	}
	if i < len(rs) && rs[i] == '#' {
		s.alt = true
		i++
	}
	if i < len(rs) && rs[i] == '0' {
		s.zero = true
		i++
	}
	start := i
	for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
		i++
	}
	if i > start {
		s.width, _ = strconv.Atoi(string(rs[start:i]))
	}
	if i < len(rs) && (rs[i] == ',' || rs[i] == '_') {
		s.grouping = byte(rs[i])
		i++
	}
	if i < len(rs) && rs[i] == '.' {
		i++
		start = i
		for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
			i++
		}
		if i == start {
			return s, fmt.Errorf("format specifier missing precision")
		}
		s.precision, _ = strconv.Atoi(string(rs[start:i]))
	}
	if i < len(rs) {
		s.typ = byte(rs[i])
		i++
	}
	if i != len(rs) {
		return s, fmt.Errorf("invalid format specifier %q", spec)
	}
	return s, nil
}

// pyFormat implements Python's format(value, spec).
func pyFormat(v starlark.Value, spec string) (string, error) {
	if spec == "" {
		return pyStr(v), nil
	}
	s, err := parseSpec(spec)
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case starlark.Bool:
		if s.typ == 0 || s.typ == 's' {
			return pad(s, pyStr(v), false), nil
		}
		n := 0
		if x {
			n = 1
		}
		return formatInt(s, big.NewInt(int64(n)))
	case starlark.Int:
		switch s.typ {
		case 'e', 'E', 'f', 'F', 'g', 'G', '%':
			f, _ := starlark.AsFloat(x)
			return formatFloat(s, f)
		}
		return formatInt(s, x.BigInt())
	case starlark.Float:
		switch s.typ {
		case 'd', 'x', 'X', 'o', 'b', 'c':
			return "", fmt.Errorf("unknown format code '%c' for object of type 'float'", s.typ)
		}
		return formatFloat(s, float64(x))
	default:
		if s.typ != 0 && s.typ != 's' {
			return "", fmt.Errorf("unknown format code '%c' for object of type '%s'", s.typ, pyTypeName(v))
		}
		str := pyStr(v)
		if s.precision >= 0 {
			r := []rune(str)
			if len(r) > s.precision {
				str = string(r[:s.precision])
			}
		}
		if s.align == '=' {
			return "", fmt.Errorf("'=' alignment not allowed in string format specifier")
		}
		return pad(s, str, false), nil
	}
}

func pad(s fmtSpec, body string, numeric bool) string {
	n := utf8.RuneCountInString(body)
	if n >= s.width {
		return body
	}
	align := s.align
	if align == 0 {
		if numeric {
			align = '>'
		} else {
			align = '<'
		}
	}
	fill := string(s.fill)
	if s.zero && s.align == 0 && numeric {
		fill = "0"
		align = '='
	}
	gap := s.width - n
	switch align {
	case '>':
		return strings.Repeat(fill, gap) + body
	case '^':
		l := gap / 2
		return strings.Repeat(fill, l) + body + strings.Repeat(fill, gap-l)
	case '=':
		// padding after the sign/prefix
		k := 0
		for k < len(body) && strings.ContainsRune("+- ", rune(body[k])) {
			k++
		}
		if k+1 < len(body) && body[k] == '0' && strings.ContainsRune("xXob", rune(body[k+1])) {
			k += 2
		}
		return body[:k] + strings.Repeat(fill, gap) + body[k:]
	default:
		return body + strings.Repeat(fill, gap)
	}
}

func group(digits string, sep byte, every int) string {
	if sep == 0 || len(digits) <= every {
		return digits
	}
	var b strings.Builder
	first := len(digits) % every
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += every {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(digits[i : i+every])
	}
	return b.String()
}

func signOf(s fmtSpec, neg bool) string {
	if neg {
		return "-"
	}
	switch s.sign {
	case '+':
		return "+"
	case ' ':
		return " "
	}
	return ""
}

func formatInt(s fmtSpec, n *big.Int) (string, error) {
	neg := n.Sign() < 0
	a := new(big.Int).Abs(n)
	var digits, prefix string
	switch s.typ {
	case 0, 'd', 'n':
		digits = a.String()
		digits = group(digits, s.grouping, 3)
	case 'x':
		digits, prefix = a.Text(16), "0x"
	case 'X':
		digits, prefix = strings.ToUpper(a.Text(16)), "0X"
	case 'o':
		digits, prefix = a.Text(8), "0o"
	case 'b':
		digits, prefix = a.Text(2), "0b"
	case 'c':
		return pad(s, string(rune(n.Int64())), false), nil
	case 's':
		return "", fmt.Errorf("unknown format code 's' for object of type 'int'")
	default:
		return "", fmt.Errorf("unknown format code '%c' for object of type 'int'", s.typ)
	}
	if s.typ != 0 && s.typ != 'd' && s.typ != 'n' && s.grouping == '_' {
		digits = group(digits, '_', 4)
	}
	if !s.alt {
		prefix = ""
	}
	return pad(s, signOf(s, neg)+prefix+digits, true), nil
}

func formatFloat(s fmtSpec, f float64) (string, error) {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	prec := s.precision
	var body string
	switch s.typ {
	case 'f', 'F', '%':
		if prec < 0 {
			prec = 6
		}
		if s.typ == '%' {
			a *= 100
		}
		body = strconv.FormatFloat(a, 'f', prec, 64)
		if s.alt && prec == 0 {
			body += "."
		}
	case 'e', 'E':
		if prec < 0 {
			prec = 6
		}
		body = fixExp(strconv.FormatFloat(a, 'e', prec, 64))
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		}
		if prec == 0 {
			prec = 1
		}
		body = pyGeneral(a, prec, s.alt)
	case 0:
		if prec < 0 {
			body = pyFloat(a)
		} else {
			body = pyGeneral(a, prec, s.alt)
			if !strings.ContainsAny(body, ".e") && !math.IsInf(a, 0) && !math.IsNaN(a) {
				body += ".0"
			}
		}
	case 'n':
		return formatFloat(fmtSpec{fill: s.fill, align: s.align, sign: s.sign, zero: s.zero, width: s.width, precision: s.precision, typ: 'g'}, f)
	default:
		return "", fmt.Errorf("unknown format code '%c' for object of type 'float'", s.typ)
	}
	if math.IsInf(a, 0) {
		body = "inf"
	} else if math.IsNaN(a) {
		body = "nan"
	}
	if s.typ == 'E' || s.typ == 'G' || s.typ == 'F' {
		body = strings.ToUpper(body)
	}
	if s.grouping != 0 {
		intPart, rest := body, ""
		if k := strings.IndexAny(body, ".eE"); k >= 0 {
			intPart, rest = body[:k], body[k:]
		}
		body = group(intPart, s.grouping, 3) + rest
	}
	if s.typ == '%' {
		body += "%"
	}
	return pad(s, signOf(s, neg)+body, true), nil
}

// fixExp makes Go's exponent look like Python's (at least two digits, already true).
func fixExp(s string) string { return s }

// pyGeneral implements the 'g' presentation type.
func pyGeneral(a float64, prec int, alt bool) string {
	if a == 0 {
		if alt {
			return "0." + strings.Repeat("0", prec-1)
		}
		return "0"
	}
	e := strconv.FormatFloat(a, 'e', prec-1, 64)
	k := strings.LastIndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[k+1:])
	var out string
	if exp < -4 || exp >= prec {
		mant := e[:k]
		if !alt && strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		out = fmt.Sprintf("%se%s%02d", mant, sign, exp)
	} else {
		out = strconv.FormatFloat(a, 'f', prec-1-exp, 64)
		if !alt && strings.Contains(out, ".") {
			out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
		}
	}
	return out
}

// ---- str.format ----

// pyStrFormat implements Python's str.format.
func pyStrFormat(thread *starlark.Thread, format string, args starlark.Tuple, kwargs []starlark.Tuple) (string, error) {
	var b strings.Builder
	auto := 0
	i := 0
	for i < len(format) {
		c := format[i]
		if c == '}' {
			if i+1 < len(format) && format[i+1] == '}' {
				b.WriteByte('}')
				i += 2
				continue
			}
			return "", fmt.Errorf("format: single '}' encountered in format string")
		}
		if c != '{' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 < len(format) && format[i+1] == '{' {
			b.WriteByte('{')
			i += 2
			continue
		}
		// find matching close, allowing one level of nesting in the spec
		depth := 0
		j := i + 1
		for j < len(format) {
			if format[j] == '{' {
				depth++
			} else if format[j] == '}' {
				if depth == 0 {
					break
				}
				depth--
			}
			j++
		}
		if j >= len(format) {
			return "", fmt.Errorf("format: expected '}' before end of string")
		}
		field := format[i+1 : j]
		i = j + 1
		name, conv, spec := field, "", ""
		if k := strings.IndexByte(name, ':'); k >= 0 {
			name, spec = name[:k], name[k+1:]
		}
		if k := strings.IndexByte(name, '!'); k >= 0 {
			name, conv = name[:k], name[k+1:]
		}
		if strings.Contains(spec, "{") {
			s, err := pyStrFormat(thread, spec, args, kwargs)
			if err != nil {
				return "", err
			}
			spec = s
		}
		// split name into head and accessors
		head := name
		rest := ""
		if k := strings.IndexAny(name, ".["); k >= 0 {
			head, rest = name[:k], name[k:]
		}
		var v starlark.Value
		if head == "" {
			if auto >= len(args) {
				return "", fmt.Errorf("format: Replacement index %d out of range for positional args tuple", auto)
			}
			v = args[auto]
			auto++
		} else if n, err := strconv.Atoi(head); err == nil {
			if n >= len(args) {
				return "", fmt.Errorf("format: Replacement index %d out of range for positional args tuple", n)
			}
			v = args[n]
		} else {
			found := false
			for _, kv := range kwargs {
				if string(kv[0].(starlark.String)) == head {
					v, found = kv[1], true
				}
			}
			if !found {
				return "", fmt.Errorf("format: KeyError: %s", quotePy(head))
			}
		}
		for rest != "" {
			if rest[0] == '.' {
				k := strings.IndexAny(rest[1:], ".[")
				attr := rest[1:]
				if k >= 0 {
					attr, rest = rest[1:k+1], rest[k+1:]
				} else {
					rest = ""
				}
				av, err := getAttr(v, attr)
				if err != nil {
					return "", err
				}
				v = av
			} else {
				k := strings.IndexByte(rest, ']')
				if k < 0 {
					return "", fmt.Errorf("format: missing ']' in format string")
				}
				key := rest[1:k]
				rest = rest[k+1:]
				var kv starlark.Value = starlark.String(key)
				if n, err := strconv.Atoi(key); err == nil {
					kv = starlark.MakeInt(n)
				}
				iv, err := indexValue(v, kv)
				if err != nil {
					return "", err
				}
				v = iv
			}
		}
		switch conv {
		case "r", "a":
			v = starlark.String(pyRepr(v))
		case "s":
			v = starlark.String(pyStr(v))
		case "":
		default:
			return "", fmt.Errorf("format: unknown conversion specifier %s", conv)
		}
		s, err := pyFormat(v, spec)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

func getAttr(v starlark.Value, name string) (starlark.Value, error) {
	if h, ok := v.(starlark.HasAttrs); ok {
		av, err := h.Attr(name)
		if err != nil {
			return nil, err
		}
		if av != nil {
			return av, nil
		}
	}
	return nil, fmt.Errorf("'%s' object has no attribute '%s'", pyTypeName(v), name)
}

func indexValue(v, k starlark.Value) (starlark.Value, error) {
	switch x := v.(type) {
	case starlark.Mapping:
		r, found, err := x.Get(k)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("KeyError: %s", pyRepr(k))
		}
		return r, nil
	case starlark.Indexable:
		i, err := starlark.AsInt32(k)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			i += x.Len()
		}
		if i < 0 || i >= x.Len() {
			return nil, fmt.Errorf("IndexError: index out of range")
		}
		return x.Index(i), nil
	}
	return nil, fmt.Errorf("'%s' object is not subscriptable", pyTypeName(v))
}

// ---- printf-style % ----

func pyPercent(format string, arg starlark.Value) (string, error) {
	var args []starlark.Value
	var mapping starlark.Mapping
	switch a := arg.(type) {
	case starlark.Tuple:
		args = a
	case *starlark.Dict, *TextDict:
		mapping = a.(starlark.Mapping)
		args = []starlark.Value{a}
	default:
		args = []starlark.Value{a}
	}
	var b strings.Builder
	ai := 0
	next := func() (starlark.Value, error) {
		if ai >= len(args) {
			return nil, fmt.Errorf("not enough arguments for format string")
		}
		v := args[ai]
		ai++
		return v, nil
	}
	usedMap := false
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(format) {
			return "", fmt.Errorf("incomplete format")
		}
		var v starlark.Value
		if format[i] == '(' {
			k := strings.IndexByte(format[i:], ')')
			if k < 0 || mapping == nil {
				return "", fmt.Errorf("format requires a mapping")
			}
			key := format[i+1 : i+k]
			i += k + 1
			r, found, _ := mapping.Get(starlark.String(key))
			if !found {
				return "", fmt.Errorf("KeyError: %s", quotePy(key))
			}
			v = r
			usedMap = true
		}
		s := fmtSpec{fill: ' ', precision: -1, align: '>'}
		for i < len(format) && strings.ContainsRune("-+ 0#", rune(format[i])) {
			switch format[i] {
			case '-':
				s.align = '<'
			case '+':
				s.sign = '+'
			case ' ':
				if s.sign == 0 {
					s.sign = ' '
				}
			case '0':
				s.zero = true
			case '#':
				s.alt = true
			}
			i++
		}
		st := i
		for i < len(format) && (('0' <= format[i] && format[i] <= '9') || format[i] == '*') {
			i++
		}
		if i > st {
			if format[st] == '*' {
				wv, err := next()
				if err != nil {
					return "", err
				}
				w, _ := starlark.AsInt32(wv)
				s.width = w
			} else {
				s.width, _ = strconv.Atoi(format[st:i])
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			st = i
			for i < len(format) && ('0' <= format[i] && format[i] <= '9') {
				i++
			}
			s.precision, _ = strconv.Atoi(format[st:i])
		}
		if i >= len(format) {
			return "", fmt.Errorf("incomplete format")
		}
		conv := format[i]
		if conv == '%' {
			b.WriteByte('%')
			continue
		}
		if v == nil {
			var err error
			if v, err = next(); err != nil {
				return "", err
			}
		}
		if s.zero && s.align == '>' {
			s.align = '='
			s.fill = '0'
		}
		var out string
		var err error
		switch conv {
		case 's':
			out = pyStr(v)
			if s.precision >= 0 && len([]rune(out)) > s.precision {
				out = string([]rune(out)[:s.precision])
			}
			s.fill = ' '
			if s.align == '=' {
				s.align = '>'
			}
			out = pad(s, out, false)
		case 'r', 'a':
			out = pad(fmtSpec{fill: ' ', align: s.align, width: s.width}, pyRepr(v), false)
		case 'd', 'i', 'u':
			var n *big.Int
			switch x := v.(type) {
			case starlark.Int:
				n = x.BigInt()
			case starlark.Float:
				n = big.NewInt(int64(x))
			case starlark.Bool:
				n = big.NewInt(0)
				if x {
					n = big.NewInt(1)
				}
			default:
				return "", fmt.Errorf("%%%c format: a real number is required, not %s", conv, pyTypeName(v))
			}
			s.typ = 'd'
			s.precision = -1
			out, err = formatInt(s, n)
		case 'x', 'X', 'o':
			x, ok := v.(starlark.Int)
			if !ok {
				return "", fmt.Errorf("%%%c format: an integer is required, not %s", conv, pyTypeName(v))
			}
			s.typ = conv
			out, err = formatInt(s, x.BigInt())
		case 'f', 'F', 'e', 'E', 'g', 'G':
			f, ok := starlark.AsFloat(v)
			if !ok {
				return "", fmt.Errorf("must be real number, not %s", pyTypeName(v))
			}
			s.typ = conv
			if s.precision < 0 {
				s.precision = 6
			}
			out, err = formatFloat(s, f)
		case 'c':
			switch x := v.(type) {
			case starlark.String:
				out = string(x)
			case starlark.Int:
				n, _ := x.Int64()
				out = string(rune(n))
			}
			out = pad(s, out, false)
		default:
			return "", fmt.Errorf("unsupported format character '%c'", conv)
		}
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	if ai < len(args) && !usedMap && mapping == nil {
		return "", fmt.Errorf("not all arguments converted during string formatting")
	}
	return b.String(), nil
}
