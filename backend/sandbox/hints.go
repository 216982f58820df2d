package sandbox

import (
	"regexp"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/sandbox/pylib"
)

// Hints turn Starlark's terse errors into advice a model can act on.

var missingPython = map[string]string{
	"globals":        "there is no globals(); names defined in earlier blocks are simply in scope",
	"locals":         "there is no locals(); use the variables directly",
	"vars":           "there is no vars(); use dicts",
	"id":             "there is no id(); compare values with ==",
	"super":          "classes are not supported: use dicts and functions",
	"object":         "classes are not supported: use dicts and functions",
	"property":       "classes are not supported: use dicts and functions",
	"staticmethod":   "classes are not supported: use dicts and functions",
	"classmethod":    "classes are not supported: use dicts and functions",
	"setattr":        "values have no settable attributes: use a dict",
	"delattr":        "values have no settable attributes: use a dict",
	"issubclass":     "classes are not supported; isinstance(x, (str, int, ...)) works",
	"bytearray":      "use str or bytes",
	"complex":        "complex numbers are not supported",
	"slice":          "use xs[a:b] directly",
	"memoryview":     "use str or bytes",
	"help":           "use doc(name) or apropos(text)",
	"breakpoint":     "there is no debugger: print() what you want to see",
	"compile":        "write the code directly",
	"self":           "classes are not supported: pass a dict to plain functions",
	"cls":            "classes are not supported: pass a dict to plain functions",
	"Path":           "pathlib is not available: use os.path functions and the file tools (cat, write)",
	"subprocess":     "run commands with shell(cmd)",
	"np":             "numpy is not available: use lists and the math module",
	"pd":             "pandas is not available: use lists of dicts",
	"null":           "Python spells it None",
	"true":           "Python spells it True",
	"false":          "Python spells it False",
	"nil":            "Python spells it None",
	"NotImplemented": "raise NotImplementedError(\"...\") instead",
}

func undefinedHint(name string) string {
	if h, ok := missingPython[name]; ok {
		return h
	}
	return "check the spelling; names from earlier blocks persist, defs() lists your helpers and apropos(text) finds tools"
}

func resolveHint(msg string) string {
	switch {
	case strings.Contains(msg, "cannot reassign"):
		return "rename the variable"
	case strings.Contains(msg, "nested def"):
		return "define the helper at top level"
	}
	return ""
}

func syntaxHint(msg, line string) string {
	t := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(t, "else") && strings.Contains(msg, "else"):
		return "for/while ... else is not supported: use a flag variable"
	case strings.Contains(msg, "got '*'") || strings.HasPrefix(t, "*"):
		return "starred assignment (a, *rest = xs) is not supported: use slicing (a, rest = xs[0], xs[1:])"
	case strings.Contains(msg, "lambda"):
		return "a lambda body must be one expression"
	case strings.Contains(msg, "got string literal") || strings.Contains(msg, "got identifier"):
		return "this dialect is Starlark (Python syntax without try/class/with/yield); check for a missing comma or bracket"
	}
	return "this dialect is Starlark: Python syntax without try/except, class, with, yield or decorators"
}

var (
	reNoAttr   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\w+) has no \.(\w+) field or method`) })
	reKeyNotIn = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^key (.*) not in (dict|Counter|defaultdict)$`) })
	reIndexOOR = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`index (-?\d+) out of range`) })
	reBinaryOp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unknown binary op: (\w+) ([^ ]+) (\w+)`) })
	reFrozen   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`frozen|cannot (insert into|delete from|clear|append to|assign to element of) (frozen|immutable)`)
	})
	reNotIterab = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\w+) (value )?is not iterable`) })
)

var missingMethods = map[string]string{
	"translate":  "use replace() in a loop, or a comprehension over the characters",
	"maketrans":  "use replace() in a loop, or a comprehension over the characters",
	"items":      "only dicts have .items()",
	"append":     "only lists have .append(); strings are immutable: s = s + x",
	"add":        "only sets have .add()",
	"decode":     "strings are already text",
	"readlines":  "there are no file handles: cat(path).splitlines()",
	"read":       "there are no file handles: use cat(path)",
	"write":      "there are no file handles: use write(path, text)",
	"keys":       "only dicts have .keys()",
	"get":        "only dicts have .get()",
	"popleft":    "use xs.pop(0)",
	"appendleft": "use xs.insert(0, x)",
	"discard":    "only sets have .discard()",
}

// runtimeHint rewrites a Starlark runtime message into Python's words and adds a hint.
func runtimeHint(msg string) (string, string) {
	if strings.Contains(msg, "session") || reFrozen().MatchString(msg) {
		if reFrozen().MatchString(msg) {
			return msg + " (`session` is read-only)", "`session` is host-owned and rebuilt before every block; keep your own state in a global variable"
		}
	}
	if m := reNoAttr().FindStringSubmatch(msg); m != nil {
		typ, attr := m[1], m[2]
		out := "AttributeError: '" + pyTypeWord(typ) + "' object has no attribute '" + attr + "'"
		if h, ok := missingMethods[attr]; ok {
			return out, h
		}
		return out, "dir(x) lists what a value has"
	}
	if m := reKeyNotIn().FindStringSubmatch(msg); m != nil {
		return "KeyError: " + pyQuoteMsg(m[1]), "use d.get(key, default) or check `key in d` first"
	}
	if reIndexOOR().MatchString(msg) {
		return "IndexError: " + msg, "check len(xs) first"
	}
	if m := reBinaryOp().FindStringSubmatch(msg); m != nil {
		l, op, r := m[1], m[2], m[3]
		out := "TypeError: unsupported operand type(s) for " + op + ": '" + pyTypeWord(l) + "' and '" + pyTypeWord(r) + "'"
		if (l == "string" || r == "string") && op == "+" {
			return out, "convert with str(x) first, or use an f-string"
		}
		return out, ""
	}
	if m := reNotIterab().FindStringSubmatch(msg); m != nil {
		return "TypeError: '" + pyTypeWord(m[1]) + "' object is not iterable", ""
	}
	switch {
	case strings.Contains(msg, "division by zero"), strings.Contains(msg, "modulo by zero"):
		return "ZeroDivisionError: " + msg, ""
	case strings.Contains(msg, "invalid literal") || strings.Contains(msg, "invalid syntax for integer"):
		return "ValueError: " + msg, "strip the text or check it with .isdigit() first"
	case strings.Contains(msg, "not hashable") || strings.Contains(msg, "unhashable"):
		return "TypeError: " + msg, "use a tuple or a string as the key"
	case strings.Contains(msg, "called recursively"):
		return msg, ""
	}
	return msg, ""
}

func pyTypeWord(t string) string {
	switch t {
	case "string":
		return "str"
	case "NoneType":
		return "NoneType"
	}
	return t
}

func pyQuoteMsg(s string) string {
	if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) && len(s) >= 2 {
		return pylib.Quote(s[1 : len(s)-1])
	}
	return s
}
