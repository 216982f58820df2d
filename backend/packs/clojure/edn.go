package clojure

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// A small reader for EDN and for the subset of Clojure source the pack
// reads: project files (deps.edn, project.clj, shadow-cljs.edn, bb.edn),
// the ns form of a source file, and the printed result of an in-REPL test
// run. It never evaluates anything. Reader macros that only matter to a
// compiler (#(), `, ~, @, #') are read as the form they wrap.

// Keyword is an EDN keyword without its leading colon ("test", "kaocha/x").
type Keyword string

// Symbol is an EDN symbol.
type Symbol string

// List is a parenthesised form.
type List []any

// Set is #{...}.
type Set []any

// Tagged is a tagged literal (#shadow/env "X", #inst "...").
type Tagged struct {
	Tag   string
	Value any
}

// ReaderCond is #?(...) or #?@(...): the raw feature/form pairs.
type ReaderCond struct {
	Splice bool
	Forms  []any
}

// Regex is #"...".
type Regex string

// MapEntry is one key/value of a Map.
type MapEntry struct{ Key, Value any }

// Map keeps EDN map entries in order (keys may be any value).
type Map []MapEntry

// Get returns the value under key (compared with equalEDN).
func (m Map) Get(key any) (any, bool) {
	for _, e := range m {
		if equalEDN(e.Key, key) {
			return e.Value, true
		}
	}
	return nil, false
}

// Kw returns the value under the keyword k.
func (m Map) Kw(k string) any {
	v, _ := m.Get(Keyword(k))
	return v
}

func equalEDN(a, b any) bool {
	switch x := a.(type) {
	case Keyword, Symbol, string, int64, float64, bool, nil:
		return a == b
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalEDN(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// errEOF is returned by readForm at the end of input.
var errEOF = errors.New("end of input")

type ednReader struct {
	s     []rune
	pos   int
	depth int
}

// maxDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxDepth = 1000

// ReadEDN reads the first form of s.
func ReadEDN(s string) (any, error) {
	r := &ednReader{s: []rune(s)}
	v, err := r.read()
	if err == errEOF {
		return nil, errors.New("edn: no form")
	}
	return v, err
}

// ReadForms reads up to max forms of s (max <= 0: all). A read error ends
// the list; the forms read before it are returned with the error.
func ReadForms(s string, max int) ([]any, error) {
	r := &ednReader{s: []rune(s)}
	var out []any
	for max <= 0 || len(out) < max {
		v, err := r.read()
		if err == errEOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

var errClose = errors.New("unexpected closing delimiter")

func (r *ednReader) errf(format string, args ...any) error {
	return fmt.Errorf("edn at %d: %s", r.pos, fmt.Sprintf(format, args...))
}

func (r *ednReader) skipSpace() {
	for r.pos < len(r.s) {
		c := r.s[r.pos]
		switch {
		case c == ';':
			for r.pos < len(r.s) && r.s[r.pos] != '\n' {
				r.pos++
			}
		case c == ',' || unicode.IsSpace(c):
			r.pos++
		default:
			return
		}
	}
}

func isDelim(c rune) bool {
	return unicode.IsSpace(c) || strings.ContainsRune(`,()[]{}";`, c)
}

// read reads one form; errEOF at the end; errClose at a closing delimiter
// (left unconsumed).
func (r *ednReader) read() (any, error) {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxDepth {
		return nil, r.errf("nested deeper than %d", maxDepth)
	}
	r.skipSpace()
	if r.pos >= len(r.s) {
		return nil, errEOF
	}
	c := r.s[r.pos]
	switch c {
	case ')', ']', '}':
		return nil, errClose
	case '(':
		r.pos++
		l, err := r.readSeq(')')
		return List(l), err
	case '[':
		r.pos++
		return r.readSeq(']')
	case '{':
		r.pos++
		return r.readMap()
	case '"':
		r.pos++
		return r.readString()
	case '\\':
		r.pos++
		return r.readChar()
	case '\'', '`', '@':
		r.pos++
		return r.readRequired()
	case '~':
		r.pos++
		if r.pos < len(r.s) && r.s[r.pos] == '@' {
			r.pos++
		}
		return r.readRequired()
	case '^':
		r.pos++
		if _, err := r.readRequired(); err != nil { // the metadata
			return nil, err
		}
		return r.readRequired()
	case '#':
		return r.readDispatch()
	}
	return r.readAtom()
}

func (r *ednReader) readRequired() (any, error) {
	v, err := r.read()
	if err == errEOF {
		return nil, r.errf("a form was expected")
	}
	if err == errClose {
		return nil, r.errf("a form was expected before %q", string(r.s[r.pos]))
	}
	return v, err
}

func (r *ednReader) readSeq(end rune) ([]any, error) {
	out := []any{}
	for {
		v, err := r.read()
		switch err {
		case nil:
			out = append(out, v)
		case errClose:
			if r.s[r.pos] != end {
				return nil, r.errf("mismatched %q (wanted %q)", string(r.s[r.pos]), string(end))
			}
			r.pos++
			return out, nil
		case errEOF:
			return nil, r.errf("unterminated collection (wanted %q)", string(end))
		default:
			return nil, err
		}
	}
}

func (r *ednReader) readMap() (Map, error) {
	items, err := r.readSeq('}')
	if err != nil {
		return nil, err
	}
	if len(items)%2 != 0 {
		return nil, r.errf("a map needs an even number of forms")
	}
	m := make(Map, 0, len(items)/2)
	for i := 0; i < len(items); i += 2 {
		m = append(m, MapEntry{items[i], items[i+1]})
	}
	return m, nil
}

func (r *ednReader) readString() (string, error) {
	var b strings.Builder
	for r.pos < len(r.s) {
		c := r.s[r.pos]
		r.pos++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if r.pos >= len(r.s) {
				return "", r.errf("unterminated string")
			}
			e := r.s[r.pos]
			r.pos++
			switch e {
			case 'n':
				b.WriteRune('\n')
			case 't':
				b.WriteRune('\t')
			case 'r':
				b.WriteRune('\r')
			case 'b':
				b.WriteRune('\b')
			case 'f':
				b.WriteRune('\f')
			case 'u':
				if r.pos+4 > len(r.s) {
					return "", r.errf("bad \\u escape")
				}
				n, err := strconv.ParseUint(string(r.s[r.pos:r.pos+4]), 16, 32)
				if err != nil {
					return "", r.errf("bad \\u escape")
				}
				r.pos += 4
				b.WriteRune(rune(n))
			default:
				b.WriteRune(e)
			}
		default:
			b.WriteRune(c)
		}
	}
	return "", r.errf("unterminated string")
}

func (r *ednReader) token() string {
	start := r.pos
	for r.pos < len(r.s) && !isDelim(r.s[r.pos]) {
		r.pos++
	}
	return string(r.s[start:r.pos])
}

func (r *ednReader) readChar() (string, error) {
	if r.pos >= len(r.s) {
		return "", r.errf("bad character literal")
	}
	start := r.pos
	r.pos++ // the first rune is part of the literal even when it is a delimiter
	for r.pos < len(r.s) && !isDelim(r.s[r.pos]) {
		r.pos++
	}
	t := string(r.s[start:r.pos])
	switch t {
	case "newline":
		return "\n", nil
	case "space":
		return " ", nil
	case "tab":
		return "\t", nil
	case "return":
		return "\r", nil
	}
	return t, nil
}

func (r *ednReader) readDispatch() (any, error) {
	r.pos++ // '#'
	if r.pos >= len(r.s) {
		return nil, r.errf("bad dispatch")
	}
	c := r.s[r.pos]
	switch c {
	case '{':
		r.pos++
		l, err := r.readSeq('}')
		return Set(l), err
	case '_':
		r.pos++
		if _, err := r.readRequired(); err != nil {
			return nil, err
		}
		return r.read()
	case '"':
		r.pos++
		s, err := r.readRegex()
		return Regex(s), err
	case '(':
		r.pos++
		l, err := r.readSeq(')')
		return List(l), err
	case '\'':
		r.pos++
		return r.readRequired()
	case '?':
		r.pos++
		splice := false
		if r.pos < len(r.s) && r.s[r.pos] == '@' {
			splice = true
			r.pos++
		}
		r.skipSpace()
		if r.pos >= len(r.s) || r.s[r.pos] != '(' {
			return nil, r.errf("#? needs a list")
		}
		r.pos++
		l, err := r.readSeq(')')
		return ReaderCond{Splice: splice, Forms: l}, err
	case ':':
		// namespaced map #:ns{...} / #::{...}: keep the map as written
		r.token()
		r.skipSpace()
		return r.readRequired()
	case '#':
		r.pos++
		return Symbol("##" + r.token()), nil
	}
	tag := r.token()
	if tag == "" {
		return nil, r.errf("bad dispatch %q", string(c))
	}
	v, err := r.readRequired()
	if err != nil {
		return nil, err
	}
	return Tagged{Tag: tag, Value: v}, nil
}

func (r *ednReader) readRegex() (string, error) {
	var b strings.Builder
	for r.pos < len(r.s) {
		c := r.s[r.pos]
		r.pos++
		if c == '"' {
			return b.String(), nil
		}
		b.WriteRune(c)
		if c == '\\' && r.pos < len(r.s) {
			b.WriteRune(r.s[r.pos])
			r.pos++
		}
	}
	return "", r.errf("unterminated regex")
}

func (r *ednReader) readAtom() (any, error) {
	t := r.token()
	if t == "" {
		r.pos++
		return nil, r.errf("unexpected %q", string(r.s[r.pos-1]))
	}
	switch t {
	case "nil":
		return nil, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if t[0] == ':' {
		return Keyword(strings.TrimLeft(t, ":")), nil
	}
	if c := t[0]; c >= '0' && c <= '9' || ((c == '-' || c == '+') && len(t) > 1 && t[1] >= '0' && t[1] <= '9') {
		s := strings.TrimSuffix(strings.TrimSuffix(t, "N"), "M")
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, nil
		}
		return Symbol(t), nil // ratios, radix numbers: kept as text
	}
	return Symbol(t), nil
}

// ---- helpers over read values ----

// asString renders a keyword, symbol or string as text ("" otherwise).
func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case Keyword:
		return string(x)
	case Symbol:
		return string(x)
	}
	return ""
}

// asSeq returns the items of a vector, list or set.
func asSeq(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case List:
		return x
	case Set:
		return x
	}
	return nil
}

// hasTagged reports whether v contains a tagged literal or a reader
// conditional anywhere (a value only known when the tool evaluates it).
func hasTagged(v any) bool {
	switch x := v.(type) {
	case Tagged, ReaderCond:
		return true
	case Map:
		for _, e := range x {
			if hasTagged(e.Key) || hasTagged(e.Value) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasTagged(e) {
				return true
			}
		}
	case List:
		for _, e := range x {
			if hasTagged(e) {
				return true
			}
		}
	case Set:
		for _, e := range x {
			if hasTagged(e) {
				return true
			}
		}
	}
	return false
}
