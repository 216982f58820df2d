package prompt

import (
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
)

func TestBlock(t *testing.T) {
	tests := []struct {
		name, tag, body, want string
	}{
		{"tag upper-cased, underscores to dashes", "current_user_message", "hi", ";; -- CURRENT-USER-MESSAGE --\nhi\n"},
		{"dashes kept", "project-instructions", "x\n", ";; -- PROJECT-INSTRUCTIONS --\nx\n"},
		{"trailing newline not doubled", "a", "x\n\n", ";; -- A --\nx\n\n"},
		{"empty body gives no block", "a", "", ""},
		{"blank body gives no block", "a", " \n\t\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Block(tc.tag, tc.body); got != tc.want {
				t.Errorf("Block(%q, %q) = %q, want %q", tc.tag, tc.body, got, tc.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"blank", " \n\t\n ", ""},
		{"trims edges", "\n\n  hello  \n\n", "hello"},
		{"common indentation removed, relative kept", "    a\n      b\n    c", "a\n  b\nc"},
		{"blank runs collapse to one blank line", "a\n\n\n\n\nb\n \n\t\nc", "a\n\nb\n\nc"},
		{"CRLF and CR become LF", "a\r\nb\rc", "a\nb\nc"},
		{"trailing spaces cut", "a  \t\nb ", "a\nb"},
		{"tabs count as indentation", "\tx\n\t\ty", "x\n\ty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Normalize(tc.in)
			if got != tc.want {
				t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if strings.Contains(got, "\n\n\n") {
				t.Errorf("Normalize left a triple newline in %q", got)
			}
		})
	}
}

func TestStableTextJoinsAndNormalizes(t *testing.T) {
	msgs := []chat.Message{
		chat.System(";; -- A --\none\n\n\n\n"),
		chat.System("   "),
		{Role: chat.RoleUser, Parts: []chat.Part{{Type: "image_url", ImageURL: "data:x"}, {Type: "text", Text: "two"}}},
	}
	want := ";; -- A --\none\n\ntwo"
	if got := StableText(msgs); got != want {
		t.Errorf("StableText = %q, want %q", got, want)
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 1},
		{"abcd", 1},
		{"abcde", 2},
		{strings.Repeat("x", 4000), 1000},
		{"é", 1}, // two bytes
	}
	for _, tc := range tests {
		if got := EstimateTokens(tc.in); got != tc.want {
			t.Errorf("EstimateTokens(%d bytes) = %d, want %d", len(tc.in), got, tc.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	long := strings.Repeat("abcdefghij", 12)
	tests := []struct{ in, want string }{
		{"for f in files:\n    print(f)\n", "for f in files: print(f)"},
		{"  a\t\tb  ", "a b"},
		{long, long[:89] + "…"},
	}
	for _, tc := range tests {
		got := oneLine(tc.in, 90)
		if got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if n := len([]rune(got)); n > 90 {
			t.Errorf("oneLine gave %d runes, cap is 90", n)
		}
	}
}
