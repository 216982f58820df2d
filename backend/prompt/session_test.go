package prompt

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRenderPython(t *testing.T) {
	n := 7
	var nilMap map[string]any
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"None", nil, "None"},
		{"True", true, "True"},
		{"False", false, "False"},
		{"int", 42, "42"},
		{"int64", int64(-9), "-9"},
		{"uint8", uint8(200), "200"},
		{"float keeps a point", 1.0, "1.0"},
		{"float", 0.25, "0.25"},
		{"float big uses exponent like Python", 1e16, "1e+16"},
		{"float below 1e16 positional", 123456789.5, "123456789.5"},
		{"float small uses exponent like Python", 0.00001, "1e-05"},
		{"float 0.0001 positional", 0.0001, "0.0001"},
		{"nan", math.NaN(), `float("nan")`},
		{"json number", json.Number("12.5"), "12.5"},
		{"string", "hi", `"hi"`},
		{"escapes", "a\"b\\c\nd\te\rf", `"a\"b\\c\nd\te\rf"`},
		{"control chars", "\x00\x1b\x7f", `"\x00\x1b\x7f"`},
		{"unicode printable kept", "héllo — ✓ 日本", `"héllo — ✓ 日本"`},
		{"unprintable unicode escaped", "a\u200bb\u2028", `"a\u200bb\u2028"`},
		{"single quote not escaped", "it's", `"it's"`},
		{"invalid utf8", "a\xffb", `"a\ufffdb"`},
		{"list", []any{1, "a", nil, []string{"x"}}, `[1, "a", None, ["x"]]`},
		{"empty list", []string{}, "[]"},
		{"nil typed map", nilMap, "{}"},
		{"nested dict sorted", map[string]any{"z": 1, "a": map[string]int{"y": 2, "b": 3}}, `{"a": {"b": 3, "y": 2}, "z": 1}`},
		{"top-level session order then sorted", map[string]any{"zeta": 1, "workspace": 2, "alpha": 3, "turn": 4, "id": 5},
			`{"id": 5, "turn": 4, "workspace": 2, "alpha": 3, "zeta": 1}`},
		{"nested dict does not use session order", map[string]any{"x": map[string]any{"turn": 1, "id": 2}}, `{"x": {"id": 2, "turn": 1}}`},
		{"pointer", &n, "7"},
		{"struct falls back to its string", struct{ A int }{1}, `"{1}"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RenderPython(tc.in); got != tc.want {
				t.Errorf("RenderPython(%#v) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func sampleSession() map[string]any {
	return map[string]any{
		"id":   "s-3f2a",
		"turn": 2,
		"scope": map[string]any{
			"turn": 2, "iter": 1, "next_form": 1,
		},
		"workspace": map[string]any{
			"root":     "/home/ada/src/shop",
			"vcs_kind": "git",
			"isolated": false,
		},
		"env": map[string]any{
			"host":    map[string]any{"os": "linux", "shell": "/bin/bash"},
			"project": map[string]any{"kind": "go", "primary_language": "go"},
			"extensions": map[string]any{
				"active_count": 3,
				"aliases":      []any{"go", "git", "shell"},
			},
		},
		"routing": map[string]any{
			"current":   map[string]any{"provider": "lmstudio", "model": "qwen3-coder-30b"},
			"available": []any{"qwen3-coder-30b", "gpt-5-mini", "claude-sonnet-4.5", "gemini-2.5-pro", "llama-3.3-70b-instruct"},
		},
		"symbols":   []any{"ls", "cat", "grep", "glob", "write", "patch", "shell", "doc", "apropos", "defs"},
		"resources": map[string]any{},
		"custom":    "unknown keys go last",
	}
}

func TestSessionBlockGolden(t *testing.T) {
	got := SessionBlock(sampleSession())
	golden(t, "session_block", got, tree{})
	if !strings.HasPrefix(got, "```python\n# ") || !strings.HasSuffix(got, "\n```\n") {
		t.Errorf("not a fenced python block with comments:\n%s", got)
	}
	for _, want := range []string{"read-only", "session[...] = …", "del session[...]", "session = {\n    \"id\": \"s-3f2a\",\n    \"turn\": 2,\n    \"scope\": "} {
		if !strings.Contains(got, want) {
			t.Errorf("session block lacks %q", want)
		}
	}
	if SessionBlock(nil) != "" {
		t.Error("nil session should give no block")
	}
}

func TestSessionDelta(t *testing.T) {
	tests := []struct {
		name     string
		old, new map[string]any
		want     []string
	}{
		{
			name: "no change gives no lines",
			old:  sampleSession(),
			new:  sampleSession(),
			want: nil,
		},
		{
			name: "nested leaf change sends only the leaf",
			old:  map[string]any{"scope": map[string]any{"turn": 2, "iter": 1, "next_form": 1}},
			new:  map[string]any{"scope": map[string]any{"turn": 2, "iter": 2, "next_form": 1}},
			want: []string{`session["scope"]["iter"] = 2`},
		},
		{
			name: "removal at depth",
			old:  map[string]any{"env": map[string]any{"languages": map[string]any{"clojure": map[string]any{"nrepl": "up"}}, "host": "x"}},
			new:  map[string]any{"env": map[string]any{"languages": map[string]any{}, "host": "x"}},
			want: []string{`del session["env"]["languages"]["clojure"]`},
		},
		{
			name: "top-level addition and removal",
			old:  map[string]any{"id": "a", "goal_status": "active"},
			new:  map[string]any{"id": "a", "utilization": map[string]any{"saturation": 12, "headroom_tokens": 90000}},
			want: []string{`del session["goal_status"]`, `session["utilization"] = {"headroom_tokens": 90000, "saturation": 12}`},
		},
		{
			name: "lists compare whole",
			old:  map[string]any{"symbols": []any{"a", "b"}},
			new:  map[string]any{"symbols": []any{"a", "b", "c"}},
			want: []string{`session["symbols"] = ["a", "b", "c"]`},
		},
		{
			name: "dict replaced by scalar and back",
			old:  map[string]any{"routing": map[string]any{"x": 1}, "access": "none"},
			new:  map[string]any{"routing": "off", "access": map[string]any{"net": false}},
			want: []string{`session["access"] = {"net": False}`, `session["routing"] = "off"`},
		},
		{
			name: "same value of different Go types is no change",
			old:  map[string]any{"turn": 3, "w": map[string]string{"a": "b"}},
			new:  map[string]any{"turn": int64(3), "w": map[string]any{"a": "b"}},
			want: nil,
		},
		{
			name: "order: session keys first, then sorted, nested sorted",
			old:  map[string]any{},
			new:  map[string]any{"zz": 1, "symbols": []any{}, "id": "x", "env": map[string]any{"b": 1, "a": 2}, "aa": true},
			want: []string{`session["id"] = "x"`, `session["env"] = {"a": 2, "b": 1}`, `session["symbols"] = []`, `session["aa"] = True`, `session["zz"] = 1`},
		},
		{
			name: "keys are escaped",
			old:  map[string]any{"env": map[string]any{}},
			new:  map[string]any{"env": map[string]any{`we"ird`: "x"}},
			want: []string{`session["env"]["we\"ird"] = "x"`},
		},
		{
			name: "nil old is an empty baseline",
			old:  nil,
			new:  map[string]any{"turn": 1},
			want: []string{`session["turn"] = 1`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SessionDelta(tc.old, tc.new)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("delta (-want +got):\n%s", diff)
			}
		})
	}
}
