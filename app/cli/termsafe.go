package cli

import (
	"io"
	"regexp"
	"strings"
	"sync"
)

// Model-controlled text (an answer, a program's output, a title) printed to
// a terminal could carry escape sequences that move the cursor, retitle
// the window, hide lines or worse. Plain output strips them: escape
// sequences (CSI, OSC, ...), other C0 and C1 control characters but
// newline and tab, and a carriage return (it can overwrite what a line
// said). --raw prints the text as stored; --json escapes it anyway.

var escapeSeq = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[@-Z\\-_])`)
})

// termSafe returns s without terminal control sequences.
func termSafe(s string) string {
	s = escapeSeq().ReplaceAllString(s, "")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		}
		return r
	}, s)
}

// safeWriter writes what it is given through termSafe.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, termSafe(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
