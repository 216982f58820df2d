package loop

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/chat"
)

// program is one python_execution call to run.
type program struct {
	CallID string
	Code   string
	// Reject, when set, is the corrective message returned instead of
	// running the code (preflight).
	Reject string
}

// codeFromArguments extracts the program from a tool call's raw arguments.
// Models drift: keys may carry a leading colon, the payload may not be an
// object, or the code may arrive raw instead of JSON. It returns the code
// and whether the arguments were usable at all.
func codeFromArguments(raw string) (string, bool) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", false
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		// Not JSON: accept it as the program itself only when it does not
		// look like a broken JSON object.
		if strings.HasPrefix(s, "{") {
			return "", false
		}
		return raw, true
	}
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if strings.TrimPrefix(k, ":") == "code" {
				if str, ok := val.(string); ok {
					return str, true
				}
			}
		}
		// A single string value under another key is still the program.
		if len(t) == 1 {
			for _, val := range t {
				if str, ok := val.(string); ok {
					return str, true
				}
			}
		}
		return "", false
	case string:
		return t, true
	}
	return "", false
}

var fenceRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?s)^\\s*```[a-zA-Z0-9_+-]*[ \\t]*\\n(.*?)\\n?```\\s*$")
})

// preflight checks one program before it runs, repairing what is safe to
// repair (a Markdown fence around the whole program) and rejecting what would
// waste a run.
func preflight(p program) program {
	if m := fenceRe().FindStringSubmatch(p.Code); m != nil {
		p.Code = m[1]
	}
	trimmed := strings.TrimSpace(p.Code)
	switch {
	case trimmed == "":
		p.Reject = "The program was empty: nothing ran. Call python_execution with code that print()s what you need, or reply with your final answer as plain text."
	case isStringLiteral(trimmed):
		p.Reject = "The program is only a string literal, so nothing ran. If that text is your answer, reply with plain text and DON'T call python_execution."
	case commentsOnly(trimmed):
		p.Reject = "The program contains only comments, so nothing ran. Write the code after your comments."
	}
	return p
}

func isStringLiteral(s string) bool {
	for _, q := range []string{`"""`, `'''`} {
		if len(s) >= 6 && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) && !strings.Contains(s[3:len(s)-3], q) {
			return true
		}
	}
	if len(s) < 2 || (s[0] != '"' && s[0] != '\'') || s[len(s)-1] != s[0] || strings.ContainsRune(s, '\n') {
		return false
	}
	inner := s[1 : len(s)-1]
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '\\':
			i++
		case s[0]:
			return false // an expression such as "a" + "b"
		}
	}
	return true
}

func commentsOnly(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		l := strings.TrimSpace(line)
		if l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

// programsFromResponse turns the model's tool calls into programs, dropping
// exact duplicates (provider stutter) and keeping distinct calls separate.
// cutMessage is what the model hears for a program its reply's output-token
// limit cut short.
const cutMessage = "Your reply was cut off at the output-token limit before this program's arguments were complete, so it may be cut short too; nothing ran. Send a shorter program (split the work over several calls)."

// programsFromResponse turns a reply's tool calls into programs. cut says
// the reply ended at the output-token limit (finish_reason "length"): then
// only a call whose arguments are a complete JSON object can be trusted to
// hold the whole program; any other is refused unrun.
func programsFromResponse(calls []chat.ToolCall, toolName string, cut bool) []program {
	var out []program
	seen := map[string]bool{}
	for _, c := range calls {
		p := program{CallID: c.ID}
		if c.Name != toolName {
			p.Reject = fmt.Sprintf("There is no tool %q. The only tool is %s(code); the functions you want are inside the sandbox (doc() lists them).", c.Name, toolName)
			out = append(out, p)
			continue
		}
		if cut && !json.Valid([]byte(strings.TrimSpace(c.Arguments))) {
			p.Reject = cutMessage
			out = append(out, p)
			continue
		}
		code, ok := codeFromArguments(c.Arguments)
		if !ok {
			p.Reject = fmt.Sprintf(`The arguments of %s were not {"code": "<program>"}; nothing ran. Send the program as the "code" string.`, toolName)
			out = append(out, p)
			continue
		}
		p.Code = code
		key := strings.TrimSpace(code)
		if key != "" && seen[key] {
			p.Reject = "Duplicate of an earlier call in this reply with the same code; it ran once."
		}
		seen[key] = true
		if p.Reject == "" {
			p = preflight(p)
		}
		out = append(out, p)
	}
	return out
}

var anyFenceRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)```([a-zA-Z0-9_+-]*)[ \\t]*\\n(.*?)```") })

// fencedProgram extracts the program from a reply of a model without tool
// calling: the first fenced block tagged python/py/starlark, else the first
// untagged one. The remaining text is returned as prose.
func fencedProgram(content string) (code, prose string, ok bool) {
	ms := anyFenceRe().FindAllStringSubmatchIndex(content, -1)
	pick := -1
	for i, m := range ms {
		lang := strings.ToLower(content[m[2]:m[3]])
		if lang == "python" || lang == "py" || lang == "starlark" || lang == "python3" {
			pick = i
			break
		}
		if lang == "" && pick < 0 {
			pick = i
		}
	}
	if pick < 0 {
		return "", content, false
	}
	m := ms[pick]
	return content[m[4]:m[5]], strings.TrimSpace(content[:m[0]] + content[m[1]:]), true
}

var wsRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+`) })

// proseBeyondCode returns the assistant prose that accompanied tool calls
// when it says more than the code itself: fenced blocks are removed and
// prose equal to the code (whitespace-squashed) is dropped.
func proseBeyondCode(content string, codes []string) string {
	p := strings.TrimSpace(anyFenceRe().ReplaceAllString(content, ""))
	if p == "" {
		return ""
	}
	sq := wsRe().ReplaceAllString(p, " ")
	for _, c := range codes {
		if sq == wsRe().ReplaceAllString(strings.TrimSpace(c), " ") {
			return ""
		}
	}
	return p
}

// partialCode extracts the "code" string from possibly incomplete JSON
// arguments as they stream, for the tool-preview event. Best effort.
func partialCode(args string) string {
	i := strings.Index(args, `"code"`)
	if i < 0 {
		return ""
	}
	rest := args[i+len(`"code"`):]
	j := strings.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	rest = rest[j+1:]
	var b strings.Builder
	for k := 0; k < len(rest); k++ {
		c := rest[k]
		if c == '"' {
			break
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if k+1 >= len(rest) {
			break
		}
		k++
		switch rest[k] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'u':
			if k+4 < len(rest) {
				if r, err := strconv.ParseUint(rest[k+1:k+5], 16, 32); err == nil {
					b.WriteRune(rune(r))
					k += 4
					continue
				}
			}
			return b.String()
		default:
			b.WriteByte(rest[k])
		}
	}
	return b.String()
}
