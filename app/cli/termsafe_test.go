package cli

import "testing"

func TestTermSafe(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain\ttext\nnext":                           "plain\ttext\nnext",
		"\x1b[31mred\x1b[0m":                          "red",
		"\x1b]0;owned title\x07after":                 "after",
		"\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\": "link",
		"secret\rfake":                                "secretfake",
		"bell\x07 del\x7f c1\u009b2J":                 "bell del c12J",
		"\x1bPtmux;\x1b\x1b]52;c;Zm9v\x07\x1b\\":      "",
		"ünïcödé ✓":                                   "ünïcödé ✓",
	} {
		if got := termSafe(in); got != want {
			t.Errorf("termSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
