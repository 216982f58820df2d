package sandbox

import (
	"context"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// Strings count, index, slice and iterate by code point, as in Python;
// ASCII and every other value keep Starlark's results and errors.
func TestStringsAreCodePoints(t *testing.T) {
	greet := hostfn.Builtin{Name: "greet", Fn: func(context.Context, map[string]any) (any, error) {
		return map[string]any{"text": "Grüße, 世界 👋"}, nil
	}}
	in := newInterp(t, Options{}, greet)
	tests := []struct{ name, code, want string }{
		{"len", `print(len("héllo"), len("👋🏽"), len(""), len([1, 2]), len({"a": 1}))`, "5 2 0 2 1"},
		{"slice", `print("héllo"[1:3] == "él", "héllo"[1:3], "héllo"[-2:], "héllo"[::-1], "héllo"[::2])`, "True él lo olléh hlo"},
		{"index", `s = "héllo"` + "\n" + `print(s[1], s[-1], s[0] + s[4])`, "é o ho"},
		{"iteration", "out = []\nfor c in \"héllo\":\n    out.append(c)\nprint(out, list(\"né\"), [c for c in \"日本\"])", "['h', 'é', 'l', 'l', 'o'] ['n', 'é'] ['日', '本']"},
		{"isidentifier", `print("héllo".isidentifier(), "1a".isidentifier(), "a1".isidentifier(), "a-b".isidentifier())`, "True False True False"},
		{"upper", `print("héllo straße".upper(), "ÉCOLE".lower())`, "HÉLLO STRASSE école"},
		{"emoji", `s = "a👋b"` + "\n" + `print(len(s), s[1], s[2], s[1:], s.find("b"), s.index("b", 1))`, "3 👋 b 👋b 2 2"},
		{"find counts code points", `s = "héllo wörld"` + "\n" + `print(s.find("w"), s.rfind("l"), s.find("l", 4), s.find("z"), s.rindex("ö"))`, "6 9 9 -1 7"},
		{"tool result", "r = greet()\nt = r[\"text\"]\nprint(len(t), t[7:9], t[-1], t.split(\", \")[1][0])", "11 世界 👋 世"},
		{"ascii and lists unchanged", `x = [1, 2, 3]` + "\n" + `print("abc"[1], "abcdef"[1:5:2], x[-1], x[::-1], {"k": 3}["k"], (4, 5)[1])`, "b bd 3 [3, 2, 1] 3 5"},
		{"assignment targets", "d = {}\nd[\"k\"] = [0, 0]\nd[\"k\"][1] += 5\nprint(d)", "{'k': [0, 5]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := exec(t, in, tt.code)
			if r.Err != nil {
				t.Fatalf("%s: %s", tt.code, r.Wire())
			}
			if got := strings.TrimSpace(r.Output); got != tt.want {
				t.Errorf("%s\ngot  %s\nwant %s", tt.code, got, tt.want)
			}
		})
	}
}

// Out-of-range and missing-key errors read as before the rewrite (the
// same messages, the same Python-style translations), on the model's line.
func TestSubscriptErrors(t *testing.T) {
	in := newInterp(t, Options{})
	for _, tt := range []struct{ code, want string }{
		{"x = 1\nprint(\"héllo\"[5])", "string index 5 out of range [-5:4]"},
		{"x = 1\nprint(\"abc\"[3])", "string index 3 out of range [-3:2]"},
		{"x = 1\nprint({\"a\": 1}[\"b\"])", "KeyError: 'b'"},
		{"x = 1\nprint([][0])", "index 0 out of range: empty list"},
		{"x = 1\nprint(\"abc\"[::0])", "zero is not a valid slice step"},
	} {
		r := exec(t, in, tt.code)
		if r.Err == nil || !strings.Contains(r.Err.Message, tt.want) || r.Err.Line != 2 {
			t.Errorf("%q: got %+v, want line 2 with %q", tt.code, r.Err, tt.want)
		}
	}
}
