package pylib

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Python's re module on Go's RE2. Lookarounds and backreferences cannot be
// translated and fail with a clear error.

const (
	reIgnoreCase = 2
	reMultiline  = 8
	reDotAll     = 16
	reVerbose    = 64
	reASCII      = 256
)

type rePattern struct {
	src   string
	flags int
	re    *regexp.Regexp // search
	match *regexp.Regexp // anchored at start
	full  *regexp.Regexp // anchored at both ends
}

var reCache sync.Map // key string -> *rePattern

// RegexUnsupportedError is a Python regex feature RE2 cannot express.
type RegexUnsupportedError struct{ Feature, Pattern string }

func (e *RegexUnsupportedError) Error() string {
	return fmt.Sprintf("re: %s is not supported by this sandbox's regex engine (RE2) in %s", e.Feature, quotePy(e.Pattern))
}

func translateRegex(p string, flags int) (string, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			d := p[i+1]
			if !inClass && d >= '1' && d <= '9' {
				return "", &RegexUnsupportedError{Feature: "a backreference (\\" + string(d) + ")", Pattern: p}
			}
			switch d {
			case 'Z':
				b.WriteString(`\z`)
			default:
				b.WriteByte(c)
				b.WriteByte(d)
			}
			i++
			continue
		}
		if inClass {
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
			continue
		}
		if c == '[' {
			inClass = true
			b.WriteByte(c)
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteString(`\]`)
				i++
			}
			continue
		}
		if flags&reVerbose != 0 {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				continue
			}
			if c == '#' {
				for i < len(p) && p[i] != '\n' {
					i++
				}
				continue
			}
		}
		if c == '(' && strings.HasPrefix(p[i:], "(?") {
			rest := p[i:]
			switch {
			case strings.HasPrefix(rest, "(?="), strings.HasPrefix(rest, "(?!"):
				return "", &RegexUnsupportedError{Feature: "lookahead " + rest[:3] + "...)", Pattern: p}
			case strings.HasPrefix(rest, "(?<="), strings.HasPrefix(rest, "(?<!"):
				return "", &RegexUnsupportedError{Feature: "lookbehind " + rest[:4] + "...)", Pattern: p}
			case strings.HasPrefix(rest, "(?P="):
				return "", &RegexUnsupportedError{Feature: "a named backreference (?P=...)", Pattern: p}
			}
		}
		b.WriteByte(c)
	}
	prefix := ""
	if flags&reIgnoreCase != 0 {
		prefix += "i"
	}
	if flags&reMultiline != 0 {
		prefix += "m"
	}
	if flags&reDotAll != 0 {
		prefix += "s"
	}
	out := b.String()
	if prefix != "" {
		out = "(?" + prefix + ")" + out
	}
	return out, nil
}

func compileRe(p string, flags int) (*rePattern, error) {
	key := strconv.Itoa(flags) + "\x00" + p
	if v, ok := reCache.Load(key); ok {
		return v.(*rePattern), nil
	}
	t, err := translateRegex(p, flags)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(t)
	if err != nil {
		return nil, fmt.Errorf("re.error: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	rp := &rePattern{src: p, flags: flags, re: re,
		match: regexp.MustCompile(`\A(?:` + t + `)`),
		full:  regexp.MustCompile(`\A(?:` + t + `)\z`)}
	reCache.Store(key, rp)
	return rp, nil
}

// reMatch is a Python re.Match.
type reMatch struct {
	s   string
	idx []int // byte offsets, pairs
	p   *rePattern
}

func (m *reMatch) String() string {
	return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", m.pos(m.idx[0]), m.pos(m.idx[1]), quotePy(m.s[m.idx[0]:m.idx[1]]))
}
func (m *reMatch) pyRepr() string        { return m.String() }
func (m *reMatch) Type() string          { return "re.Match" }
func (m *reMatch) Freeze()               {}
func (m *reMatch) Truth() starlark.Bool  { return true }
func (m *reMatch) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: re.Match") }
func (m *reMatch) pos(b int) int {
	if b < 0 {
		return -1
	}
	return utf8.RuneCountInString(m.s[:b])
}

func (m *reMatch) groupIndex(v starlark.Value) (int, error) {
	switch x := v.(type) {
	case starlark.Int:
		n, _ := x.Int64()
		if n < 0 || int(n)*2 >= len(m.idx) {
			return 0, fmt.Errorf("IndexError: no such group")
		}
		return int(n), nil
	case starlark.String:
		k := m.p.re.SubexpIndex(string(x))
		if k < 0 {
			return 0, fmt.Errorf("IndexError: no such group")
		}
		return k, nil
	}
	return 0, fmt.Errorf("IndexError: no such group")
}

func (m *reMatch) group(k int) starlark.Value {
	a, b := m.idx[2*k], m.idx[2*k+1]
	if a < 0 {
		return starlark.None
	}
	return starlark.String(m.s[a:b])
}

func (m *reMatch) Get(k starlark.Value) (starlark.Value, bool, error) {
	i, err := m.groupIndex(k)
	if err != nil {
		return nil, false, err
	}
	return m.group(i), true, nil
}

func (m *reMatch) Attr(name string) (starlark.Value, error) {
	nb := starlark.NewBuiltin
	switch name {
	case "string":
		return starlark.String(m.s), nil
	case "re":
		return &rePatternValue{m.p}, nil
	case "lastindex":
		last := starlark.Value(starlark.None)
		for k := 1; 2*k < len(m.idx); k++ {
			if m.idx[2*k] >= 0 {
				last = starlark.MakeInt(k)
			}
		}
		return last, nil
	case "group":
		return nb("group", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return m.group(0), nil
			}
			var out starlark.Tuple
			for _, a := range args {
				k, err := m.groupIndex(a)
				if err != nil {
					return nil, err
				}
				out = append(out, m.group(k))
			}
			if len(out) == 1 {
				return out[0], nil
			}
			return out, nil
		}), nil
	case "groups":
		return nb("groups", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var def starlark.Value = starlark.None
			if err := starlark.UnpackArgs("groups", args, kw, "default?", &def); err != nil {
				return nil, err
			}
			var out starlark.Tuple
			for k := 1; 2*k < len(m.idx); k++ {
				g := m.group(k)
				if g == starlark.None {
					g = def
				}
				out = append(out, g)
			}
			if out == nil {
				out = starlark.Tuple{}
			}
			return out, nil
		}), nil
	case "groupdict":
		return nb("groupdict", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			d := starlark.NewDict(0)
			for k, n := range m.p.re.SubexpNames() {
				if n != "" {
					_ = d.SetKey(starlark.String(n), m.group(k))
				}
			}
			return d, nil
		}), nil
	case "start", "end", "span":
		return nb(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var g starlark.Value = starlark.MakeInt(0)
			if err := starlark.UnpackPositionalArgs(name, args, kw, 0, &g); err != nil {
				return nil, err
			}
			k, err := m.groupIndex(g)
			if err != nil {
				return nil, err
			}
			s, e := m.pos(m.idx[2*k]), m.pos(m.idx[2*k+1])
			switch name {
			case "start":
				return starlark.MakeInt(s), nil
			case "end":
				return starlark.MakeInt(e), nil
			}
			return starlark.Tuple{starlark.MakeInt(s), starlark.MakeInt(e)}, nil
		}), nil
	case "expand":
		return nb("expand", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var t string
			if err := starlark.UnpackPositionalArgs("expand", args, kw, 1, &t); err != nil {
				return nil, err
			}
			s, err := expandTemplate(t, m)
			return starlark.String(s), err
		}), nil
	}
	return nil, nil
}

func (m *reMatch) AttrNames() []string {
	return []string{"end", "expand", "group", "groupdict", "groups", "lastindex", "re", "span", "start", "string"}
}

// expandTemplate expands a Python replacement template (\1, \g<name>, \n).
func expandTemplate(t string, m *reMatch) (string, error) {
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c != '\\' || i+1 >= len(t) {
			b.WriteByte(c)
			continue
		}
		d := t[i+1]
		switch {
		case d >= '0' && d <= '9':
			j := i + 1
			for j < len(t) && j < i+3 && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			k, _ := strconv.Atoi(t[i+1 : j])
			if 2*k >= len(m.idx) {
				return "", fmt.Errorf("re.error: invalid group reference %d", k)
			}
			if g, ok := m.group(k).(starlark.String); ok {
				b.WriteString(string(g))
			}
			i = j - 1
		case d == 'g' && i+2 < len(t) && t[i+2] == '<':
			end := strings.IndexByte(t[i:], '>')
			if end < 0 {
				return "", fmt.Errorf("re.error: missing >, unterminated name")
			}
			name := t[i+3 : i+end]
			var key starlark.Value = starlark.String(name)
			if n, err := strconv.Atoi(name); err == nil {
				key = starlark.MakeInt(n)
			}
			k, err := m.groupIndex(key)
			if err != nil {
				return "", err
			}
			if g, ok := m.group(k).(starlark.String); ok {
				b.WriteString(string(g))
			}
			i += end
		case d == 'n':
			b.WriteByte('\n')
			i++
		case d == 't':
			b.WriteByte('\t')
			i++
		case d == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte(c)
			b.WriteByte(d)
			i++
		}
	}
	return b.String(), nil
}

// rePatternValue is a compiled Python re.Pattern.
type rePatternValue struct{ p *rePattern }

func (r *rePatternValue) String() string        { return "re.compile(" + quotePy(r.p.src) + ")" }
func (r *rePatternValue) pyRepr() string        { return r.String() }
func (r *rePatternValue) Type() string          { return "re.Pattern" }
func (r *rePatternValue) Freeze()               {}
func (r *rePatternValue) Truth() starlark.Bool  { return true }
func (r *rePatternValue) Hash() (uint32, error) { return starlark.String(r.p.src).Hash() }
func (r *rePatternValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "pattern":
		return starlark.String(r.p.src), nil
	case "flags":
		return starlark.MakeInt(r.p.flags), nil
	case "groups":
		return starlark.MakeInt(r.p.re.NumSubexp()), nil
	}
	fn, ok := reFuncs[name]
	if !ok {
		return nil, nil
	}
	return starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return fn(th, r.p, args, kw)
	}), nil
}
func (r *rePatternValue) AttrNames() []string {
	return []string{"findall", "finditer", "fullmatch", "match", "pattern", "search", "split", "sub", "subn"}
}

type reFunc func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

func matchOrNone(s string, idx []int, p *rePattern) starlark.Value {
	if idx == nil {
		return starlark.None
	}
	return &reMatch{s: s, idx: idx, p: p}
}

var reFuncs = map[string]reFunc{
	"search": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs("search", args, kw, 1, &s); err != nil {
			return nil, err
		}
		return matchOrNone(s, p.re.FindStringSubmatchIndex(s), p), nil
	},
	"match": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs("match", args, kw, 1, &s); err != nil {
			return nil, err
		}
		return matchOrNone(s, p.match.FindStringSubmatchIndex(s), p), nil
	},
	"fullmatch": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs("fullmatch", args, kw, 1, &s); err != nil {
			return nil, err
		}
		return matchOrNone(s, p.full.FindStringSubmatchIndex(s), p), nil
	},
	"findall": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs("findall", args, kw, 1, &s); err != nil {
			return nil, err
		}
		var out []starlark.Value
		n := p.re.NumSubexp()
		for _, idx := range p.re.FindAllStringSubmatchIndex(s, -1) {
			m := &reMatch{s: s, idx: idx, p: p}
			switch n {
			case 0:
				out = append(out, m.group(0))
			case 1:
				g := m.group(1)
				if g == starlark.None {
					g = starlark.String("")
				}
				out = append(out, g)
			default:
				t := make(starlark.Tuple, n)
				for k := 1; k <= n; k++ {
					g := m.group(k)
					if g == starlark.None {
						g = starlark.String("")
					}
					t[k-1] = g
				}
				out = append(out, t)
			}
		}
		return starlark.NewList(out), nil
	},
	"finditer": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs("finditer", args, kw, 1, &s); err != nil {
			return nil, err
		}
		var out []starlark.Value
		for _, idx := range p.re.FindAllStringSubmatchIndex(s, -1) {
			out = append(out, &reMatch{s: s, idx: idx, p: p})
		}
		return starlark.NewList(out), nil
	},
	"sub": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return reSub(th, p, args, kw, false)
	},
	"subn": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return reSub(th, p, args, kw, true)
	},
	"split": func(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		maxsplit := 0
		if err := starlark.UnpackArgs("split", args, kw, "string", &s, "maxsplit?", &maxsplit); err != nil {
			return nil, err
		}
		n := -1
		if maxsplit > 0 {
			n = maxsplit
		}
		var out []starlark.Value
		last := 0
		for _, idx := range p.re.FindAllStringSubmatchIndex(s, n) {
			if idx[1] == idx[0] && (idx[0] == 0 || idx[0] == len(s)) {
				continue
			}
			out = append(out, starlark.String(s[last:idx[0]]))
			m := &reMatch{s: s, idx: idx, p: p}
			for k := 1; 2*k < len(idx); k++ {
				out = append(out, m.group(k))
			}
			last = idx[1]
		}
		out = append(out, starlark.String(s[last:]))
		return starlark.NewList(out), nil
	},
}

func reSub(th *starlark.Thread, p *rePattern, args starlark.Tuple, kw []starlark.Tuple, withCount bool) (starlark.Value, error) {
	var repl starlark.Value
	var s string
	count := 0
	if err := starlark.UnpackArgs("sub", args, kw, "repl", &repl, "string", &s, "count?", &count); err != nil {
		return nil, err
	}
	n := -1
	if count > 0 {
		n = count
	}
	var b strings.Builder
	last := 0
	done := 0
	for _, idx := range p.re.FindAllStringSubmatchIndex(s, n) {
		b.WriteString(s[last:idx[0]])
		m := &reMatch{s: s, idx: idx, p: p}
		switch r := repl.(type) {
		case starlark.String:
			e, err := expandTemplate(string(r), m)
			if err != nil {
				return nil, err
			}
			b.WriteString(e)
		case starlark.Callable:
			v, err := starlark.Call(th, r, starlark.Tuple{m}, nil)
			if err != nil {
				return nil, err
			}
			str, ok := v.(starlark.String)
			if !ok {
				return nil, fmt.Errorf("re.sub: the replacement function must return a str, not %s", pyTypeName(v))
			}
			b.WriteString(string(str))
		default:
			return nil, fmt.Errorf("re.sub: repl must be a str or a function")
		}
		last = idx[1]
		done++
	}
	b.WriteString(s[last:])
	if withCount {
		return starlark.Tuple{starlark.String(b.String()), starlark.MakeInt(done)}, nil
	}
	return starlark.String(b.String()), nil
}

func reModule() *starlarkstruct.Module {
	members := starlark.StringDict{
		"IGNORECASE": starlark.MakeInt(reIgnoreCase), "I": starlark.MakeInt(reIgnoreCase),
		"MULTILINE": starlark.MakeInt(reMultiline), "M": starlark.MakeInt(reMultiline),
		"DOTALL": starlark.MakeInt(reDotAll), "S": starlark.MakeInt(reDotAll),
		"VERBOSE": starlark.MakeInt(reVerbose), "X": starlark.MakeInt(reVerbose),
		"ASCII": starlark.MakeInt(reASCII), "A": starlark.MakeInt(reASCII),
		"escape": starlark.NewBuiltin("escape", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs("escape", args, kw, 1, &s); err != nil {
				return nil, err
			}
			var out strings.Builder
			for _, r := range s {
				if r < 128 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
					out.WriteByte('\\')
				}
				out.WriteRune(r)
			}
			return starlark.String(out.String()), nil
		}),
		"compile": starlark.NewBuiltin("compile", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var pat starlark.Value
			flags := 0
			if err := starlark.UnpackArgs("compile", args, kw, "pattern", &pat, "flags?", &flags); err != nil {
				return nil, err
			}
			if pv, ok := pat.(*rePatternValue); ok {
				return pv, nil
			}
			ps, ok := pat.(starlark.String)
			if !ok {
				return nil, fmt.Errorf("re.compile: pattern must be a str")
			}
			p, err := compileRe(string(ps), flags)
			if err != nil {
				return nil, err
			}
			return &rePatternValue{p}, nil
		}),
	}
	for name, fn := range reFuncs {
		fn := fn
		name := name
		members[name] = starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, fmt.Errorf("re.%s: missing pattern", name)
			}
			flags := 0
			var rest []starlark.Tuple
			for _, kv := range kw {
				if string(kv[0].(starlark.String)) == "flags" {
					f, err := starlark.AsInt32(kv[1])
					if err != nil {
						return nil, err
					}
					flags = f
				} else {
					rest = append(rest, kv)
				}
			}
			pargs := args[1:]
			// positional flags: search(p, s, flags), sub(p, r, s, count, flags), split(p, s, maxsplit, flags)
			maxPos := map[string]int{"sub": 3, "subn": 3, "split": 2}[name]
			if maxPos == 0 {
				maxPos = 1
			}
			if len(pargs) > maxPos+1 {
				f, err := starlark.AsInt32(pargs[len(pargs)-1])
				if err == nil {
					flags = f
					pargs = pargs[:len(pargs)-1]
				}
			} else if len(pargs) == maxPos+1 && maxPos == 1 {
				f, err := starlark.AsInt32(pargs[1])
				if err == nil {
					flags = f
					pargs = pargs[:1]
				}
			}
			var p *rePattern
			switch pat := args[0].(type) {
			case *rePatternValue:
				p = pat.p
			case starlark.String:
				var err error
				if p, err = compileRe(string(pat), flags); err != nil {
					return nil, err
				}
			default:
				return nil, fmt.Errorf("re.%s: pattern must be a str", name)
			}
			return fn(th, p, pargs, rest)
		})
	}
	return &starlarkstruct.Module{Name: "re", Members: members}
}
