package prompt

import (
	"encoding/json"
	"math"
	"sort"
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

// The delta a tool result carries, through ShownSession: the iteration
// counter and the utilization figures are held while the turn, the hint,
// the window and the tens of saturation stay; everything else is sent.
func TestShownSessionDelta(t *testing.T) {
	util := func(last, sat int, hint string) map[string]any {
		u := map[string]any{"last_request_tokens": last, "turn_total_tokens": 2 * last, "saturation": sat,
			"headroom_tokens": 1000 - last, "model_input_limit": 1000, "auto_compress_above": 900, "cache_hit_rate": sat / 2}
		if hint != "" {
			u["hint"] = hint
		}
		return u
	}
	view := func(turn, iter int, u map[string]any, extra ...any) map[string]any {
		v := map[string]any{"id": "s", "turn": turn, "scope": map[string]any{"turn": turn, "iter": iter}, "resources": []any{}}
		if u != nil {
			v["utilization"] = u
		}
		for i := 0; i+1 < len(extra); i += 2 {
			v[extra[i].(string)] = extra[i+1]
		}
		return v
	}
	static := map[string]any{"id": "s", "resources": []any{}}
	tests := []struct {
		name       string
		shown, cur map[string]any
		want       []string
	}{
		{"the turn's first result", static, view(1, 2, util(100, 10, "")),
			[]string{`session["turn"] = 1`, `session["scope"] = {"iter": 2, "turn": 1}`,
				`session["utilization"] = {"auto_compress_above": 900, "cache_hit_rate": 5, "headroom_tokens": 900, "last_request_tokens": 100, "model_input_limit": 1000, "saturation": 10, "turn_total_tokens": 200}`}},
		{"a steady iteration", view(1, 2, util(100, 10, "")), view(1, 3, util(180, 18, "")), nil},
		{"the utilization appears", view(1, 2, nil), view(1, 3, util(100, 10, "")),
			[]string{`session["utilization"] = {"auto_compress_above": 900, "cache_hit_rate": 5, "headroom_tokens": 900, "last_request_tokens": 100, "model_input_limit": 1000, "saturation": 10, "turn_total_tokens": 200}`}},
		{"the saturation's tens move", view(1, 2, util(100, 19, "")), view(1, 3, util(200, 20, "")),
			[]string{`session["utilization"]["cache_hit_rate"] = 10`, `session["utilization"]["headroom_tokens"] = 800`,
				`session["utilization"]["last_request_tokens"] = 200`, `session["utilization"]["saturation"] = 20`, `session["utilization"]["turn_total_tokens"] = 400`}},
		{"a hint appears", view(1, 2, util(740, 74, "")), view(1, 3, util(750, 75, "FOLD SOON")),
			[]string{`session["utilization"]["hint"] = "FOLD SOON"`, `session["utilization"]["headroom_tokens"] = 250`,
				`session["utilization"]["last_request_tokens"] = 750`, `session["utilization"]["saturation"] = 75`, `session["utilization"]["turn_total_tokens"] = 1500`}},
		{"a new turn", view(1, 9, util(300, 30, "")), view(2, 2, util(310, 31, "")),
			[]string{`session["turn"] = 2`, `session["scope"]["iter"] = 2`, `session["scope"]["turn"] = 2`,
				`session["utilization"]["headroom_tokens"] = 690`, `session["utilization"]["last_request_tokens"] = 310`,
				`session["utilization"]["saturation"] = 31`, `session["utilization"]["turn_total_tokens"] = 620`}},
		{"anything else moves at once", view(1, 2, util(100, 10, "")), view(1, 3, util(110, 11, ""), "resources", []any{"repl"}, "goal_status", "active"),
			[]string{`session["goal_status"] = "active"`, `session["resources"] = ["repl"]`}},
		{"the utilization goes", view(1, 2, util(100, 10, "")), view(1, 3, nil), []string{`del session["utilization"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown := ShownSession(tt.shown, tt.cur)
			got := SessionDelta(tt.shown, shown)
			// Compared as sets: the lines' order is SessionDelta's, tested above.
			if diff := cmp.Diff(sortedLines(tt.want), sortedLines(got)); diff != "" {
				t.Errorf("delta (-want +got):\n%s", diff)
			}
		})
	}
}

func sortedLines(l []string) []string {
	out := append([]string(nil), l...)
	sort.Strings(out)
	return out
}
