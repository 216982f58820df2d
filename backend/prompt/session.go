package prompt

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SessionKeyOrder is the order of the top-level keys of the model-facing
// `session` dict (spec §1.6). Keys not listed follow, sorted.
var SessionKeyOrder = []string{"id", "turn", "scope", "goal_status", "utilization", "workspace", "access", "env", "routing", "resources", "symbols"}

// prettyWidth is the line width under which a nested dict or list of the
// session block stays on one line.
const prettyWidth = 100

// RenderPython renders v as a one-line Python literal: dicts, lists, str,
// int, float, True/False/None. Strings are always double-quoted, with
// Python's escapes (\\ \" \n \r \t, \xNN for other control characters,
// \uXXXX / \UXXXXXXXX for unprintable runes), so the text reads like JSON and
// is valid Python. The outermost dict is ordered by SessionKeyOrder (other
// keys after it, sorted); nested dicts are sorted by key. Maps with string
// keys, slices and arrays of any element type, pointers and json.Number are
// accepted; anything else is rendered as the string of its fmt.Sprint.
func RenderPython(v any) string {
	var b strings.Builder
	writeCompact(&b, v, true)
	return b.String()
}

// SessionBlock renders the standing session context: a fenced Python block
// with two comment lines (the dict is read-only and kept current by later
// `session[...] = …` / `del session[...]` lines) and `session = {…}`
// pretty-printed, one top-level key per line, nested values on one line while
// they fit in 100 columns. A nil session gives "".
func SessionBlock(session map[string]any) string {
	if session == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("```python\n")
	b.WriteString("# `session` is a read-only view of this session that the host rebuilds before every block; assigning to it changes nothing.\n")
	b.WriteString("# Later tool results keep it current with `session[...] = …` and `del session[...]` lines when it changes; `scope` and `utilization` only when the turn, the hint or the tens of `saturation` change (each result's `# tN/iM` header names its iteration).\n")
	b.WriteString("session = ")
	if len(session) == 0 {
		b.WriteString("{}")
	} else {
		b.WriteString("{\n")
		for _, k := range orderedKeys(session, true) {
			prefix := "    " + pyString(k) + ": "
			b.WriteString(prefix)
			writePretty(&b, session[k], "    ", len(prefix))
			b.WriteString(",\n")
		}
		b.WriteString("}")
	}
	b.WriteString("\n```\n")
	return b.String()
}

// ShownSession returns the `session` dict as the next tool result's delta
// should leave the model's picture of it: cur, except for the values that
// move with every block and tell the model nothing it needs each time,
// which keep what the model was shown last (shown, the previous picture).
// Seed 000 asks for the `session[...] = …` structural delta "when it
// changes"; re-sending counters on every result cost ~170 bytes an
// iteration (a third of a short iteration's request growth) and every
// later request re-sends them. So:
//   - scope.iter is folded: every result is headed `# tN/iM`, and the
//     program after it is iM+1. The whole scope is re-sent when the turn
//     changes.
//   - utilization (its token figures, saturation, cache hit rate) is
//     re-sent when it first appears, when the turn changes, when the
//     saturation's tens digit changes, and when the hint, the window or
//     the fold budget change — what the model acts on; between those it
//     keeps the figures last sent. A program reads the current figures
//     from `session` itself, which the host rebuilds before every block.
//
// Every other key is cur's, so anything else that moves (a REPL started,
// the goal's status, the sandbox) is sent at once. The block's comment
// tells the model this.
func ShownSession(shown, cur map[string]any) map[string]any {
	if shown == nil || cur == nil {
		return cur
	}
	oldScope, _ := shown["scope"].(map[string]any)
	newScope, _ := cur["scope"].(map[string]any)
	sameTurn := oldScope != nil && newScope != nil && oldScope["turn"] == newScope["turn"]
	out := make(map[string]any, len(cur))
	for k, v := range cur {
		out[k] = v
	}
	if sameTurn {
		if iter, ok := oldScope["iter"]; ok {
			sc := make(map[string]any, len(newScope))
			for k, v := range newScope {
				sc[k] = v
			}
			sc["iter"] = iter
			out["scope"] = sc
		}
		oldU, _ := shown["utilization"].(map[string]any)
		newU, _ := cur["utilization"].(map[string]any)
		if oldU != nil && newU != nil && sameUtilizationLevel(oldU, newU) {
			out["utilization"] = oldU
		}
	}
	return out
}

// sameUtilizationLevel: nothing the model acts on moved between two
// utilization dicts (see ShownSession).
func sameUtilizationLevel(a, b map[string]any) bool {
	for _, k := range []string{"hint", "model_input_limit", "auto_compress_above"} {
		if compact(a[k]) != compact(b[k]) {
			return false
		}
	}
	sa, okA := a["saturation"].(int)
	sb, okB := b["saturation"].(int)
	return okA == okB && sa/10 == sb/10
}

// SessionDelta diffs two session dicts into the lines that turn old into new:
// `session["a"]["b"] = <literal>` for an added or changed value and
// `del session["a"]["b"]` for a removed one. Where both sides hold a dict the
// diff recurses, so only the leaves that moved are sent; lists and scalars are
// compared whole. Lines follow SessionKeyOrder at the top and sorted keys
// below it. Equal dicts give no lines.
func SessionDelta(old, new map[string]any) []string {
	var lines []string
	diffInto(&lines, "session", old, new, true)
	return lines
}

func diffInto(lines *[]string, path string, old, new map[string]any, top bool) {
	keys := make(map[string]any, len(old)+len(new))
	for k := range old {
		keys[k] = nil
	}
	for k := range new {
		keys[k] = nil
	}
	for _, k := range orderedKeys(keys, top) {
		p := path + "[" + pyString(k) + "]"
		ov, inOld := old[k]
		nv, inNew := new[k]
		switch {
		case !inNew:
			*lines = append(*lines, "del "+p)
		case !inOld:
			*lines = append(*lines, p+" = "+compact(nv))
		default:
			om, oIsMap := asMap(ov)
			nm, nIsMap := asMap(nv)
			if oIsMap && nIsMap {
				diffInto(lines, p, om, nm, false)
				continue
			}
			if n := compact(nv); n != compact(ov) {
				*lines = append(*lines, p+" = "+n)
			}
		}
	}
}

func compact(v any) string {
	var b strings.Builder
	writeCompact(&b, v, false)
	return b.String()
}

// orderedKeys returns the keys of m: sorted, or in SessionKeyOrder first when
// top is set.
func orderedKeys[V any](m map[string]V, top bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !top {
		return keys
	}
	out := make([]string, 0, len(keys))
	for _, k := range SessionKeyOrder {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(SessionKeyOrder, k) {
			out = append(out, k)
		}
	}
	return out
}

// asMap views v as a string-keyed map.
func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case nil:
		return nil, false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil, false
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	out := make(map[string]any, rv.Len())
	it := rv.MapRange()
	for it.Next() {
		out[it.Key().String()] = it.Value().Interface()
	}
	return out, true
}

// asList views v as a list; strings and byte slices are not lists.
func asList(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out, true
	case nil, string, []byte:
		return nil, false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil, false
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	if rv.Kind() == reflect.Slice && rv.IsNil() {
		return []any{}, true
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// writeCompact writes v on one line.
func writeCompact(b *strings.Builder, v any, top bool) {
	if m, ok := asMap(v); ok {
		b.WriteByte('{')
		for i, k := range orderedKeys(m, top) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyString(k))
			b.WriteString(": ")
			writeCompact(b, m[k], false)
		}
		b.WriteByte('}')
		return
	}
	if l, ok := asList(v); ok {
		b.WriteByte('[')
		for i, e := range l {
			if i > 0 {
				b.WriteString(", ")
			}
			writeCompact(b, e, false)
		}
		b.WriteByte(']')
		return
	}
	b.WriteString(scalar(v))
}

// writePretty writes v at the given indentation; col is the column the value
// starts at. Containers stay on one line while they fit in prettyWidth.
func writePretty(b *strings.Builder, v any, indent string, col int) {
	c := compact(v)
	m, isMap := asMap(v)
	l, isList := asList(v)
	if (!isMap && !isList) || col+len(c)+1 <= prettyWidth || (isMap && len(m) == 0) || (isList && len(l) == 0) {
		b.WriteString(c)
		return
	}
	inner := indent + "    "
	if isMap {
		b.WriteString("{\n")
		for _, k := range orderedKeys(m, false) {
			prefix := inner + pyString(k) + ": "
			b.WriteString(prefix)
			writePretty(b, m[k], inner, len(prefix))
			b.WriteString(",\n")
		}
		b.WriteString(indent + "}")
		return
	}
	b.WriteString("[\n")
	for _, e := range l {
		b.WriteString(inner)
		writePretty(b, e, inner, len(inner))
		b.WriteString(",\n")
	}
	b.WriteString(indent + "]")
}

// scalar renders a non-container value.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return pyString(x)
	case []byte:
		return pyString(string(x))
	case int:
		return strconv.Itoa(x)
	case int8, int16, int32, int64:
		return strconv.FormatInt(reflect.ValueOf(x).Int(), 10)
	case uint, uint8, uint16, uint32, uint64, uintptr:
		return strconv.FormatUint(reflect.ValueOf(x).Uint(), 10)
	case float32:
		return pyFloat(float64(x), 32)
	case float64:
		return pyFloat(x, 64)
	case json.Number:
		if _, err := strconv.ParseFloat(string(x), 64); err == nil {
			return string(x)
		}
		return pyString(string(x))
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "None"
		}
		return scalar(rv.Elem().Interface())
	}
	return pyString(fmt.Sprint(v))
}

// pyFloat renders f as Python's repr does: shortest round-trip digits,
// positional notation for exponents in [-4, 16), else 1e+16 style, always
// with a "." or an exponent so it reads back as a float.
func pyFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return `float("nan")`
	case math.IsInf(f, 1):
		return `float("inf")`
	case math.IsInf(f, -1):
		return `-float("inf")`
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return e
	}
	s := strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// pyString renders s as a double-quoted Python string literal.
func pyString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
