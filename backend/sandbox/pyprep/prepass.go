// Package pyprep is the sandbox's pre-pass: it rewrites Python as models
// write it into Starlark that go.starlark.net accepts (f-strings, `**`,
// `is None`, imports of the modules the sandbox provides, generator
// expressions, raise/assert, annotations, chained comparisons, `%`).
//
// Contract: the rewrite is line-preserving. The output has exactly as many
// newlines as the input and every statement stays on the line it started
// on, so a line number in an error is the line of the model's code
// (FuzzPrepass holds this). Constructs the sandbox cannot run fail with an
// *UnsupportedError naming the line and what to write instead; a tokenizer
// failure is a *SyntaxError. Pure functions of their input, safe from any
// goroutine; RewriteCtx stops with the ctx's error when it ends. No module
// imports.
package pyprep

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The pre-pass turns Python as models write it into Starlark that
// go.starlark.net accepts. It works on tokens and is line-preserving: every
// rewrite keeps each statement on the line it started on, and the output has
// exactly as many newlines as the input, so error lines map 1:1 to the
// model's code.

type tokKind int

const (
	tkSpace   tokKind = iota // spaces, tabs, backslash-newline continuations
	tkComment                // # ...
	tkNL                     // a newline that does not end a statement
	tkNewline                // a newline that ends a logical line
	tkName
	tkNumber
	tkString // a plain string literal (Starlark-compatible after fix-up)
	tkAtom   // an already-rewritten operand (f-string expansion)
	tkOp
)

type token struct {
	kind tokKind
	text string
	line int
}

// UnsupportedError is a construct the sandbox cannot run; Hint says what to
// write instead.
type UnsupportedError struct {
	Line    int
	Message string
	Hint    string
}

func (e *UnsupportedError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Message) }

// SyntaxError is a tokenizer failure (unterminated string...).
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

var threeCharOps = []string{"**=", "//=", ">>=", "<<=", "...", "!=="}
var twoCharOps = []string{"**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", ":="}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}
func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }
func isDigit(c byte) bool     { return c >= '0' && c <= '9' }

func isStringPrefix(s string) bool {
	switch strings.ToLower(s) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// tokenize splits src into tokens whose texts concatenate back to src.
func tokenize(src string, startLine int) ([]token, error) {
	var toks []token
	line := startLine
	depth := 0
	i := 0
	n := len(src)
	add := func(k tokKind, text string) {
		toks = append(toks, token{kind: k, text: text, line: line})
		line += strings.Count(text, "\n")
	}
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			j := i
			for j < n && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f') {
				j++
			}
			add(tkSpace, src[i:j])
			i = j
		case c == '\\' && i+1 < n && (src[i+1] == '\n' || (src[i+1] == '\r' && i+2 < n && src[i+2] == '\n')):
			j := i + 2
			if src[i+1] == '\r' {
				j = i + 3
			}
			add(tkSpace, src[i:j])
			i = j
		case c == '\r' || c == '\n':
			j := i + 1
			if c == '\r' && j < n && src[j] == '\n' {
				j++
			}
			k := tkNewline
			if depth > 0 || lastSignificant(toks) == nil || lastSignificantIsNewline(toks) {
				k = tkNL
			}
			add(k, src[i:j])
			i = j
		case c == '#':
			j := strings.IndexAny(src[i:], "\r\n")
			if j < 0 {
				j = n - i
			}
			add(tkComment, src[i:i+j])
			i += j
		case c == '"' || c == '\'':
			j, err := scanString(src, i, line)
			if err != nil {
				return nil, err
			}
			add(tkString, src[i:j])
			i = j
		case isIdentStart(c):
			j := i
			for j < n && isIdentChar(src[j]) {
				j++
			}
			if j < n && (src[j] == '"' || src[j] == '\'') && isStringPrefix(src[i:j]) {
				k, err := scanString(src, j, line)
				if err != nil {
					return nil, err
				}
				add(tkString, src[i:k])
				i = k
				continue
			}
			add(tkName, src[i:j])
			i = j
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(src[i+1])):
			j := i
			for j < n && (isIdentChar(src[j]) || src[j] == '.' ||
				((src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(strings.ToLower(src[i:]), "0x"))) {
				j++
			}
			add(tkNumber, src[i:j])
			i = j
		default:
			op := string(c)
			for _, o := range threeCharOps {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if len(op) == 1 {
				for _, o := range twoCharOps {
					if strings.HasPrefix(src[i:], o) {
						op = o
						break
					}
				}
			}
			switch op {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			}
			add(tkOp, op)
			i += len(op)
		}
	}
	return toks, nil
}

func lastSignificant(toks []token) *token {
	for i := len(toks) - 1; i >= 0; i-- {
		switch toks[i].kind {
		case tkSpace, tkComment:
			continue
		}
		return &toks[i]
	}
	return nil
}

func lastSignificantIsNewline(toks []token) bool {
	t := lastSignificant(toks)
	return t != nil && (t.kind == tkNewline || t.kind == tkNL)
}

// scanString returns the end offset of the string literal whose quote starts at i.
func scanString(src string, i, line int) (int, error) {
	q := src[i]
	triple := strings.HasPrefix(src[i:], strings.Repeat(string(q), 3))
	j := i + 1
	if triple {
		j = i + 3
	}
	for j < len(src) {
		c := src[j]
		if c == '\\' {
			j += 2
			continue
		}
		if triple {
			if strings.HasPrefix(src[j:], strings.Repeat(string(q), 3)) {
				return j + 3, nil
			}
		} else {
			if c == q {
				return j + 1, nil
			}
			if c == '\n' {
				break
			}
		}
		j++
	}
	return 0, &SyntaxError{Line: line, Msg: "unterminated string literal"}
}

// splitString separates a string token into prefix, quote and body.
func splitString(text string) (prefix, quote, body string) {
	k := strings.IndexAny(text, "\"'")
	prefix = text[:k]
	rest := text[k:]
	q := rest[:1]
	if strings.HasPrefix(rest, q+q+q) && len(rest) >= 6 {
		quote = q + q + q
	} else {
		quote = q
	}
	body = rest[len(quote) : len(rest)-len(quote)]
	return
}

// fixEscapes doubles the backslash of escapes Python tolerates but Starlark rejects ("\d").
func fixEscapes(body string) string {
	if !strings.Contains(body, "\\") {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		d := body[i+1]
		switch d {
		case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\', '\'', '"', '\n', 'x', 'u', 'U', '0', '1', '2', '3', '4', '5', '6', '7':
			b.WriteByte(c)
			b.WriteByte(d)
		case '\r':
			b.WriteByte(c)
			b.WriteByte(d)
		default:
			b.WriteString("\\\\")
			b.WriteByte(d)
		}
		i++
	}
	return b.String()
}

// convertString rewrites one string token: f-strings become concatenations of
// literals and __fv(...) calls; other strings get their escapes fixed.
func convertString(t token) (token, error) {
	prefix, quote, body := splitString(t.text)
	lp := strings.ToLower(prefix)
	raw := strings.Contains(lp, "r")
	lp = strings.ReplaceAll(lp, "u", "")
	if !strings.Contains(lp, "f") {
		if !raw {
			body = fixEscapes(body)
		}
		return token{kind: tkString, text: lp + quote + body + quote, line: t.line}, nil
	}
	np := strings.ReplaceAll(lp, "f", "")
	expr, err := fstringExpr(body, np, quote, raw, t.line)
	if err != nil {
		return t, err
	}
	return token{kind: tkAtom, text: expr, line: t.line}, nil
}

// fstringExpr compiles an f-string body into a Starlark expression.
func fstringExpr(body, prefix, quote string, raw bool, line int) (string, error) {
	var parts []string
	var lit strings.Builder
	flush := func() {
		if lit.Len() == 0 {
			return
		}
		s := lit.String()
		if !raw {
			s = fixEscapes(s)
			if strings.HasSuffix(s, quote[:1]) && !strings.HasSuffix(s, "\\"+quote[:1]) {
				s = s[:len(s)-1] + "\\" + quote[:1]
			}
		}
		parts = append(parts, prefix+quote+s+quote)
		lit.Reset()
	}
	i := 0
	for i < len(body) {
		c := body[i]
		if c == '\\' && !raw && i+1 < len(body) {
			lit.WriteByte(c)
			lit.WriteByte(body[i+1])
			i += 2
			continue
		}
		if c == '{' && i+1 < len(body) && body[i+1] == '{' {
			lit.WriteByte('{')
			i += 2
			continue
		}
		if c == '}' && i+1 < len(body) && body[i+1] == '}' {
			lit.WriteByte('}')
			i += 2
			continue
		}
		if c == '}' {
			return "", &SyntaxError{Line: line, Msg: "f-string: single '}' is not allowed"}
		}
		if c != '{' {
			lit.WriteByte(c)
			i++
			continue
		}
		// replacement field
		start := i
		j := i + 1
		depth := 0
		exprEnd := -1
		for j < len(body) {
			d := body[j]
			if d == '"' || d == '\'' {
				k := strings.IndexByte(body[j+1:], d)
				if k < 0 {
					return "", &SyntaxError{Line: line, Msg: "f-string: unterminated string in expression"}
				}
				j += k + 2
				continue
			}
			if d == '(' || d == '[' || d == '{' {
				depth++
			} else if d == ')' || d == ']' || (d == '}' && depth > 0) {
				depth--
			} else if depth == 0 {
				if d == '}' || d == ':' || (d == '!' && j+1 < len(body) && body[j+1] != '=') {
					exprEnd = j
					break
				}
				if d == '=' && j+1 < len(body) && body[j+1] != '=' && j > i+1 && !strings.ContainsRune("=!<>", rune(body[j-1])) {
					exprEnd = j
					break
				}
			}
			j++
		}
		if exprEnd < 0 {
			return "", &SyntaxError{Line: line, Msg: "f-string: expecting '}'"}
		}
		exprText := body[i+1 : exprEnd]
		j = exprEnd
		selfDoc := false
		if body[j] == '=' {
			selfDoc = true
			j++
		}
		conv := ""
		if j < len(body) && body[j] == '!' {
			if j+1 >= len(body) {
				return "", &SyntaxError{Line: line, Msg: "f-string: bad conversion"}
			}
			conv = string(body[j+1])
			if !strings.Contains("sra", conv) {
				return "", &SyntaxError{Line: line, Msg: "f-string: invalid conversion character: expected 's', 'r', or 'a'"}
			}
			j += 2
		}
		spec := ""
		specExpr := ""
		if j < len(body) && body[j] == ':' {
			k := j + 1
			d := 0
			for k < len(body) {
				if body[k] == '{' {
					d++
				} else if body[k] == '}' {
					if d == 0 {
						break
					}
					d--
				}
				k++
			}
			spec = body[j+1 : k]
			if strings.Contains(spec, "{") {
				se, err := fstringExpr(spec, "", `"`, true, line)
				if err != nil {
					return "", err
				}
				specExpr = se
			}
			j = k
		}
		if j >= len(body) || body[j] != '}' {
			return "", &SyntaxError{Line: line, Msg: "f-string: expecting '}'"}
		}
		i = j + 1
		flush()
		field := len(parts)
		src := exprText
		if selfDoc {
			// The text keeps the field's line breaks; the expression, written
			// a second time, goes on one line (its comments left out).
			parts = append(parts, lineQuote(exprText+"="))
			if conv == "" && spec == "" {
				conv = "r"
			}
			var err error
			if src, err = oneLine(exprText, line); err != nil {
				return "", err
			}
		}
		inner, err := rewriteExpr(src, line)
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(inner) == "" {
			return "", &SyntaxError{Line: line, Msg: "f-string: valid expression required before '}'"}
		}
		inner = strings.Trim(inner, " \t\r") // newlines stay: the lines after keep their numbers
		switch {
		case specExpr != "":
			parts = append(parts, fmt.Sprintf("__fv(%s, %s, %q)", inner, specExpr, conv))
		case spec != "" || conv != "":
			parts = append(parts, fmt.Sprintf("__fv(%s, %s, %q)", inner, lineQuote(spec), conv))
		default:
			parts = append(parts, fmt.Sprintf("__fv(%s)", inner))
		}
		// Any line break of the field the parts above do not hold goes back
		// before the call's closing parenthesis, so the lines after keep
		// their numbers.
		last := parts[len(parts)-1]
		if miss := strings.Count(body[start:i], "\n") - strings.Count(strings.Join(parts[field:], ""), "\n"); miss > 0 {
			parts[len(parts)-1] = last[:len(last)-1] + strings.Repeat("\n", miss) + ")"
		}
	}
	flush()
	if len(parts) == 0 {
		return `""`, nil
	}
	if len(parts) == 1 {
		if strings.HasPrefix(parts[0], "__fv(") {
			return parts[0], nil
		}
		return "(" + parts[0] + ")", nil
	}
	return "(" + strings.Join(parts, " + ") + ")", nil
}

// lineQuote is s as a Starlark string literal whose line breaks stay line
// breaks (a triple-quoted literal when s has any), so that what follows
// them in the source keeps its line.
func lineQuote(s string) string {
	if !strings.Contains(s, "\n") {
		return strconv.Quote(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		q := strconv.Quote(l)
		lines[i] = q[1 : len(q)-1]
	}
	return `"""` + strings.Join(lines, "\n") + `"""`
}

// oneLine is an f-string field's expression on one line: its comments
// left out, its line breaks (inside brackets, or continuations) spaces.
func oneLine(src string, line int) (string, error) {
	if !strings.Contains(src, "\n") {
		return src, nil
	}
	toks, err := tokenize(src, line)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, t := range toks {
		switch {
		case t.kind == tkComment:
		case t.kind != tkString && strings.Contains(t.text, "\n"):
			b.WriteByte(' ')
		default:
			b.WriteString(t.text)
		}
	}
	return b.String(), nil
}

// rewriteExpr applies the expression-level passes to a fragment (an f-string field).
func rewriteExpr(src string, line int) (string, error) {
	toks, err := tokenize(src, line)
	if err != nil {
		return "", err
	}
	toks, err = exprPasses(toks)
	if err != nil {
		return "", err
	}
	return joinTokens(toks), nil
}

func joinTokens(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String()
}

// Rewrite rewrites a Python-style program into Starlark, preserving lines.
func Rewrite(src string) (string, error) { return RewriteCtx(context.Background(), src) }

// RewriteCtx is Rewrite that stops with ctx's error once ctx ends (Stop,
// the block's wall limit). The expression passes run one logical line at a
// time: a rewrite never crosses a statement, and each pass rescans what it
// is given after every rewrite, so over a whole program they were
// quadratic in its length (332 KB of ordinary lines took three minutes).
func RewriteCtx(ctx context.Context, src string) (string, error) {
	toks, err := tokenize(src, 1)
	if err != nil {
		return "", err
	}
	toks, err = statementPasses(toks)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(len(src) + len(src)/8)
	for _, ln := range logicalLines(toks) {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		line, err := exprPassesCtx(ctx, toks[ln[0]:ln[1]:ln[1]])
		if err != nil {
			return "", err
		}
		for _, t := range line {
			b.WriteString(t.text)
		}
		if ln[1] < len(toks) {
			b.WriteString(toks[ln[1]].text) // the newline or ; that ended it
		}
	}
	return b.String(), nil
}

func sig(t token) bool { return t.kind != tkSpace && t.kind != tkComment && t.kind != tkNL }

// nextSig returns the index of the next significant token after i (or len).
func nextSig(toks []token, i int) int {
	for j := i + 1; j < len(toks); j++ {
		if sig(toks[j]) {
			return j
		}
	}
	return len(toks)
}

func prevSig(toks []token, i int) int {
	for j := i - 1; j >= 0; j-- {
		if sig(toks[j]) {
			return j
		}
	}
	return -1
}

var pyKeywords = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "is": true, "if": true, "else": true, "elif": true,
	"for": true, "while": true, "def": true, "return": true, "lambda": true, "pass": true, "break": true,
	"continue": true, "import": true, "from": true, "as": true, "raise": true, "assert": true, "del": true,
	"yield": true, "await": true, "async": true, "class": true, "try": true, "except": true, "finally": true,
	"with": true, "global": true, "nonlocal": true,
}

// endsOperand reports whether token t can end an operand (so a following
// "(" is a call and a following "**" is binary).
func endsOperand(t token) bool {
	switch t.kind {
	case tkName:
		return !pyKeywords[t.text] || t.text == "None" || t.text == "True" || t.text == "False"
	case tkNumber, tkString, tkAtom:
		return true
	case tkOp:
		return t.text == ")" || t.text == "]" || t.text == "}"
	}
	return false
}

// matchBrackets returns, for every bracket token index, the index of its partner.
func matchBrackets(toks []token) map[int]int {
	m := map[int]int{}
	var stack []int
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			if len(stack) > 0 {
				o := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				m[o] = i
				m[i] = o
			}
		}
	}
	return m
}

func isOp(t token, s string) bool   { return t.kind == tkOp && t.text == s }
func isName(t token, s string) bool { return t.kind == tkName && t.text == s }

// opens and closes: t is an opening or a closing bracket; nesting is how t
// changes the bracket depth (+1, -1 or 0).
func opens(t token) bool  { return t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{") }
func closes(t token) bool { return t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}") }
func nesting(t token) int {
	switch {
	case opens(t):
		return 1
	case closes(t):
		return -1
	}
	return 0
}

func mk(kind tokKind, text string, line int) token { return token{kind: kind, text: text, line: line} }

// keptBreaks appends to out the tokens of dropped that carry a line break
// (a newline inside brackets, a backslash continuation), as they are: a
// rewrite that drops the tokens between two it keeps leaves the lines after
// on their numbers.
func keptBreaks(out, dropped []token) []token {
	for _, t := range dropped {
		if strings.Contains(t.text, "\n") {
			out = append(out, t)
		}
	}
	return out
}

func splice(toks []token, at int, ins ...token) []token {
	out := make([]token, 0, len(toks)+len(ins))
	out = append(out, toks[:at]...)
	out = append(out, ins...)
	return append(out, toks[at:]...)
}

// ---- expression passes ----

// stopCheck says whether the pre-pass must give up (ctx ended).
type stopCheck func() error

// exprPassesCtx is exprPasses that gives up with ctx's error: a single
// long line (thousands of ** in a literal) keeps its rewrites quadratic
// in the line's length, so they must be stoppable.
func exprPassesCtx(ctx context.Context, toks []token) ([]token, error) {
	return exprPassesStop(toks, ctx.Err)
}

func exprPasses(toks []token) ([]token, error) {
	return exprPassesStop(toks, func() error { return nil })
}

func exprPassesStop(toks []token, stop stopCheck) ([]token, error) {
	var err error
	// strings, numbers, await, is/is not
	out := make([]token, 0, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tkString:
			t, err = convertString(t)
			if err != nil {
				return nil, err
			}
		case tkNumber:
			if strings.Contains(t.text, "_") {
				t.text = strings.ReplaceAll(t.text, "_", "")
			}
			if strings.HasSuffix(t.text, "j") || strings.HasSuffix(t.text, "J") {
				return nil, &UnsupportedError{Line: t.line, Message: "complex numbers are not supported", Hint: "use pairs of floats"}
			}
		case tkName:
			switch t.text {
			case "await":
				j := nextSig(toks, i)
				if j > i+1 && toks[i+1].kind == tkSpace && !strings.Contains(toks[i+1].text, "\n") {
					i++ // drop the space after await (not a line continuation)
				}
				continue
			case "async":
				j := nextSig(toks, i)
				if j < len(toks) && (isName(toks[j], "def") || isName(toks[j], "for") || isName(toks[j], "with")) {
					if i+1 < len(toks) && toks[i+1].kind == tkSpace && !strings.Contains(toks[i+1].text, "\n") {
						i++ // the space after async (not a line continuation)
					}
					continue
				}
			case "is":
				j := nextSig(toks, i)
				if j < len(toks) && isName(toks[j], "not") {
					out = keptBreaks(append(out, mk(tkOp, "!=", t.line)), toks[i+1:j])
					i = j
					continue
				}
				t = mk(tkOp, "==", t.line)
			case "yield":
				return nil, &UnsupportedError{Line: t.line, Message: "`yield` (generators) is not supported", Hint: "build and return a list instead"}
			}
		case tkOp:
			if t.text == ":=" {
				return nil, &UnsupportedError{Line: t.line, Message: "the walrus operator `:=` is not supported", Hint: "assign the value on its own line first"}
			}
		}
		out = append(out, t)
	}
	toks = out
	toks = joinAdjacentStrings(toks)
	toks = setLiterals(toks)
	toks = genexpInCalls(toks)
	toks = wrapForIterables(toks)
	if err := stop(); err != nil {
		return nil, err
	}
	toks, err = rewritePower(toks, stop)
	if err != nil {
		return nil, err
	}
	if toks, err = rewritePercent(toks, stop); err != nil {
		return nil, err
	}
	if err := stop(); err != nil {
		return nil, err
	}
	toks = rewriteChainedComparisons(toks)
	toks = unpackStrings(toks)
	return rewriteSubscripts(toks, stop)
}

// unpackStrings wraps the value of an unpacking assignment, a, b = v, in
// __it(v), so a string unpacks into its characters as in Python (Starlark
// strings are not iterable). Only one plain = outside brackets, targets
// with a comma and a value without one (a tuple display never is a string).
func unpackStrings(toks []token) []token {
	depth, eq, targetComma := 0, -1, false
	for i, t := range toks {
		if d := nesting(t); d != 0 || t.kind != tkOp {
			depth += d
			continue
		}
		switch {
		case depth != 0:
		case t.text == "=":
			if eq >= 0 {
				return toks // a = b = c, or a lambda's default
			}
			eq = i
		case assignOps[t.text]:
			return toks
		case t.text == ",":
			if eq >= 0 {
				return toks // the value is a tuple display
			}
			targetComma = true
		}
	}
	if eq < 0 || !targetComma {
		return toks
	}
	end := len(toks)
	for end > eq+1 && !sig(toks[end-1]) {
		end--
	}
	start := nextSig(toks, eq)
	if start >= end {
		return toks
	}
	line := toks[eq].line
	out := append([]token(nil), toks[:start]...)
	out = append(out, mk(tkName, "__it", line), mk(tkOp, "(", line))
	out = append(out, toks[start:end]...)
	out = append(out, mk(tkOp, ")", line))
	return append(out, toks[end:]...)
}

// assignOps end an assignment's targets.
var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"**=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

// valueStart is the index after the last assignment operator outside
// brackets (0 when toks assign nothing): what comes before it is targets.
func valueStart(toks []token) int {
	depth, from := 0, 0
	for i, t := range toks {
		depth += nesting(t)
		if depth == 0 && t.kind == tkOp && assignOps[t.text] {
			from = i + 1
		}
	}
	return from
}

// rewriteSubscripts turns each subscript the line reads, x[i] or
// x[lo:hi:step], into __ix(x, i) or __sl(x, lo, hi, step) (None for a
// missing part), so the runtime can index a string by code point as Python
// does. An assignment's targets keep Starlark's subscripts; so does a
// subscript with both a slice and a comma (x[1:2, 3]) or nothing in it.
// The rightmost subscript goes first: nothing inside it is a subscript
// still to rewrite, and the ones in its operand (x[1] of x[1][2]) come
// next. Tokens are replaced in place, so the lines stay where they were.
func rewriteSubscripts(toks []token, stop stopCheck) ([]token, error) {
	from, limit := valueStart(toks), len(toks)
	if !slices.ContainsFunc(toks[from:], func(t token) bool { return isOp(t, "[") }) {
		return toks, nil
	}
	for {
		if err := stop(); err != nil {
			return nil, err
		}
		m := matchBrackets(toks)
		idx := -1
		for i := limit - 1; i >= from; i-- {
			if isOp(toks[i], "[") {
				if _, closed := m[i]; closed {
					if p := prevSig(toks, i); p >= from && endsOperand(toks[p]) {
						idx = i
						break
					}
				}
			}
		}
		if idx < 0 {
			return toks, nil
		}
		limit = idx
		c := m[idx]
		var colons, commas []int
		depth, empty := 0, true
		for i := idx + 1; i < c; i++ {
			t := toks[i]
			if sig(t) {
				empty = false
			}
			if t.kind != tkOp {
				continue
			}
			depth += nesting(t)
			switch t.text {
			case ":":
				if depth == 0 {
					colons = append(colons, i)
				}
			case ",":
				if depth == 0 {
					commas = append(commas, i)
				}
			}
		}
		if empty || len(colons) > 2 || (len(colons) > 0 && len(commas) > 0) {
			continue
		}
		line := toks[idx].line
		ps := operandStart(toks, m, prevSig(toks, idx))
		fn := "__ix"
		var inner []token
		switch {
		case len(colons) > 0:
			fn = "__sl"
			bounds := append(append([]int{idx}, colons...), c)
			for k := 0; k < 3; k++ {
				if k > 0 {
					inner = append(inner, mk(tkOp, ",", line), mk(tkSpace, " ", line))
				}
				part := []token(nil)
				if k+1 < len(bounds) {
					part = toks[bounds[k]+1 : bounds[k+1]]
				}
				if nextSig(part, -1) == len(part) {
					inner = append(inner, part...) // keep its newlines
					inner = append(inner, mk(tkName, "None", line))
				} else {
					inner = append(inner, part...)
				}
			}
		case len(commas) > 0: // x[1, 2] indexes with a tuple
			inner = append([]token{mk(tkOp, "(", line)}, toks[idx+1:c]...)
			inner = append(inner, mk(tkOp, ")", line))
		default:
			inner = append([]token(nil), toks[idx+1:c]...)
		}
		repl := append([]token{mk(tkOp, ",", line), mk(tkSpace, " ", line)}, inner...)
		repl = append(repl, mk(tkOp, ")", line))
		rest := append(repl, toks[c+1:]...)
		toks = append(toks[:idx:idx], rest...)
		toks = splice(toks, ps, mk(tkName, fn, line), mk(tkOp, "(", line))
		limit = idx + 2
	}
}

// joinAdjacentStrings turns "a" "b" (implicit concatenation) into ("a" + "b").
func joinAdjacentStrings(toks []token) []token {
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != tkString && toks[i].kind != tkAtom {
			continue
		}
		j := nextSig(toks, i)
		if j >= len(toks) || (toks[j].kind != tkString && toks[j].kind != tkAtom) {
			continue
		}
		// find the run
		last := j
		for {
			k := nextSig(toks, last)
			if k < len(toks) && (toks[k].kind == tkString || toks[k].kind == tkAtom) {
				last = k
				continue
			}
			break
		}
		var run []token
		run = append(run, mk(tkOp, "(", toks[i].line))
		for k := i; k <= last; k++ {
			if toks[k].kind == tkComment {
				continue // inside the atom a comment would hide what follows once a pass joins its lines
			}
			run = append(run, toks[k])
			if k < last && sig(toks[k]) {
				run = append(run, mk(tkOp, " +", toks[k].line))
			}
		}
		run = append(run, mk(tkOp, ")", toks[last].line))
		// compress into one atom so later passes see one operand
		atom := mk(tkAtom, joinTokens(run), toks[i].line)
		rest := append([]token{atom}, toks[last+1:]...)
		toks = append(toks[:i:i], rest...)
	}
	return toks
}

// setLiterals turns {a, b} into set([a, b]) and {x for x in y} into set([x for x in y]).
func setLiterals(toks []token) []token {
	for i := len(toks) - 1; i >= 0; i-- {
		if !isOp(toks[i], "{") {
			continue
		}
		m := matchBrackets(toks)
		c, ok := m[i]
		if !ok || nextSig(toks, i) == c {
			continue // {} is a dict
		}
		depth := 0
		isDict := false
		for k := i + 1; k < c; k++ {
			t := toks[k]
			if t.kind == tkOp {
				depth += nesting(t)
				switch t.text {
				case ":", "**":
					if depth == 0 {
						isDict = true
					}
				}
			}
			if depth == 0 && isName(t, "lambda") {
				isDict = true // a lambda's colon; leave it alone
			}
		}
		if isDict {
			if text, ok := dictUnpacking(toks[i+1 : c]); ok {
				// The literal's line breaks go after the call, less those its
				// text keeps already (a nested {**...} rewritten before it).
				nl := max(0, strings.Count(joinTokens(toks[i:c+1]), "\n")-strings.Count(text, "\n"))
				atom := mk(tkAtom, text+strings.Repeat("\n", nl)+")", toks[i].line)
				rest := append([]token{atom}, toks[c+1:]...)
				toks = append(toks[:i:i], rest...)
			}
			continue
		}
		line := toks[i].line
		toks[c] = mk(tkOp, "])", toks[c].line)
		toks[i] = mk(tkOp, "[", line)
		toks = splice(toks, i, mk(tkName, "set", line), mk(tkOp, "(", line))
	}
	return toks
}

// dictUnpacking renders {**a, "k": v, **b} as __merge(a, {"k": v}, b
// (without the closing paren) when the literal uses ** unpacking.
func dictUnpacking(inner []token) (string, bool) {
	var elems [][]token
	depth := 0
	start := 0
	has := false
	for k, t := range inner {
		if t.kind == tkOp {
			depth += nesting(t)
			switch t.text {
			case ",":
				if depth == 0 {
					elems = append(elems, inner[start:k])
					start = k + 1
				}
			case "**":
				if depth == 0 {
					has = true
				}
			}
		}
	}
	elems = append(elems, inner[start:])
	if !has {
		return "", false
	}
	var parts, pairs []string
	flush := func() {
		if len(pairs) > 0 {
			parts = append(parts, "{"+strings.Join(pairs, ", ")+"}")
			pairs = nil
		}
	}
	for _, e := range elems {
		text := operandText(e)
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "**") {
			flush()
			parts = append(parts, strings.TrimSpace(text[2:]))
		} else {
			pairs = append(pairs, text)
		}
	}
	flush()
	return "__merge(" + strings.Join(parts, ", "), true
}

// genexpInCalls turns generator expressions into list comprehensions:
// f(x for x in y) -> f([x for x in y]); (x for x in y) -> [x for x in y].
func genexpInCalls(toks []token) []token {
	m := matchBrackets(toks)
	type edit struct {
		open, close int
		call        bool
	}
	var edits []edit
	for i, t := range toks {
		if !isOp(t, "(") {
			continue
		}
		c, ok := m[i]
		if !ok {
			continue
		}
		// A `for` directly inside (not in a nested bracket, which is
		// jumped over whole: each token is looked at from its own
		// enclosing bracket only, so deep nesting stays linear).
		hasFor := false
		for k := i + 1; k < c; k++ {
			tk := toks[k]
			if opens(tk) {
				if end, ok := m[k]; ok && end > k {
					k = end
				}
				continue
			}
			if isName(tk, "for") {
				hasFor = true
				break
			}
		}
		if !hasFor {
			continue
		}
		p := prevSig(toks, i)
		call := p >= 0 && endsOperand(toks[p])
		edits = append(edits, edit{i, c, call})
	}
	if len(edits) == 0 {
		return toks
	}
	// The parentheses that become brackets change in place; then the
	// brackets a call's argument gets are inserted from the last position
	// back, so no insertion moves a position still to come (an edit inside
	// another's brackets would otherwise shift the outer one's close).
	type insert struct {
		at  int
		tok token
	}
	var ins []insert
	for _, e := range edits {
		if e.call {
			ins = append(ins, insert{e.open + 1, mk(tkOp, "[", toks[e.open].line)}, insert{e.close, mk(tkOp, "]", toks[e.close].line)})
		} else {
			toks[e.open].text = "["
			toks[e.close].text = "]"
		}
	}
	sort.SliceStable(ins, func(a, b int) bool { return ins[a].at > ins[b].at })
	for _, in := range ins {
		toks = splice(toks, in.at, in.tok)
	}
	return toks
}

// wrapForIterables rewrites `for x in EXPR` to `for x in __it(EXPR)` so that
// strings iterate by character as in Python.
func wrapForIterables(toks []token) []token {
	for i := 0; i < len(toks); i++ {
		if !isName(toks[i], "for") {
			continue
		}
		m := matchBrackets(toks)
		// find "in" at same depth
		depth := 0
		in := -1
		for k := i + 1; k < len(toks); k++ {
			t := toks[k]
			depth += nesting(t)
			if depth < 0 || t.kind == tkNewline {
				break
			}
			if depth == 0 && isName(t, "in") {
				in = k
				break
			}
		}
		if in < 0 {
			continue
		}
		start := nextSig(toks, in)
		if start >= len(toks) {
			continue
		}
		// end: statement for -> ':' at depth 0; comprehension -> for/if/closing bracket at depth 0
		depth = 0
		end := -1
		for k := start; k < len(toks); k++ {
			t := toks[k]
			if t.kind == tkOp {
				switch t.text {
				case "(", "[", "{":
					if mm, ok := m[k]; ok {
						k = mm // skip the whole group
						continue
					}
				case ")", "]", "}":
					depth--
				}
			}
			if depth < 0 || t.kind == tkNewline || (depth == 0 && (isOp(t, ":") || isName(t, "for") || isName(t, "if"))) {
				end = k
				break
			}
		}
		if end < 0 {
			end = len(toks)
		}
		last := prevSig(toks, end)
		if last < start {
			continue
		}
		if !needsIterWrap(toks[start : last+1]) {
			continue
		}
		toks = splice(toks, last+1, mk(tkOp, ")", toks[last].line))
		toks = splice(toks, start, mk(tkName, "__it", toks[start].line), mk(tkOp, "(", toks[start].line))
		i = start
	}
	return toks
}

func needsIterWrap(expr []token) bool {
	var s []token
	for _, t := range expr {
		if sig(t) {
			s = append(s, t)
		}
	}
	if len(s) == 0 {
		return false
	}
	if s[0].kind == tkName && len(s) > 1 && isOp(s[1], "(") {
		switch s[0].text {
		case "range", "enumerate", "zip", "sorted", "reversed", "list", "__it":
			return false
		}
	}
	if isOp(s[0], "[") && isOp(s[len(s)-1], "]") {
		return false
	}
	if len(s) >= 4 && isOp(s[len(s)-1], ")") && isOp(s[len(s)-2], "(") && s[len(s)-3].kind == tkName && isOp(s[len(s)-4], ".") {
		switch s[len(s)-3].text {
		case "items", "keys", "values", "split", "splitlines", "findall", "finditer", "most_common":
			return false
		}
	}
	return true
}

// operandStart finds where the primary expression ending at token index e begins.
func operandStart(toks []token, m map[int]int, e int) int {
	i := e
	for {
		t := toks[i]
		if closes(t) {
			o, ok := m[i]
			if !ok {
				return i
			}
			i = o
			p := prevSig(toks, i)
			if p >= 0 && endsOperand(toks[p]) && t.text != "}" {
				i = p
				continue
			}
		}
		p := prevSig(toks, i)
		if p >= 0 && isOp(toks[p], ".") {
			q := prevSig(toks, p)
			if q >= 0 && endsOperand(toks[q]) {
				i = q
				continue
			}
		}
		return i
	}
}

// operandEnd finds where the unary/primary expression starting at index s ends.
func operandEnd(toks []token, m map[int]int, s int) int {
	i := s
	for i < len(toks) && toks[i].kind == tkOp && (toks[i].text == "-" || toks[i].text == "+" || toks[i].text == "~") {
		i = nextSig(toks, i)
	}
	if i >= len(toks) {
		return len(toks) - 1
	}
	if isName(toks[i], "not") {
		i = nextSig(toks, i)
	}
	if i >= len(toks) {
		return len(toks) - 1
	}
	if t := toks[i]; opens(t) {
		if c, ok := m[i]; ok {
			i = c
		}
	}
	for {
		j := nextSig(toks, i)
		if j >= len(toks) {
			return i
		}
		t := toks[j]
		if t.kind == tkOp && (t.text == "(" || t.text == "[") {
			if c, ok := m[j]; ok {
				i = c
				continue
			}
		}
		if isOp(t, ".") {
			k := nextSig(toks, j)
			if k < len(toks) && toks[k].kind == tkName {
				i = k
				continue
			}
		}
		return i
	}
}

// rewritePower turns a ** b into pow(a, b), right to left (right associative).
func rewritePower(toks []token, stop stopCheck) ([]token, error) {
	for {
		if err := stop(); err != nil {
			return nil, err
		}
		idx := -1
		for i := len(toks) - 1; i >= 0; i-- {
			if isOp(toks[i], "**") {
				p := prevSig(toks, i)
				if p >= 0 && endsOperand(toks[p]) {
					idx = i
					break
				}
			}
		}
		if idx < 0 {
			return toks, nil
		}
		m := matchBrackets(toks)
		p := prevSig(toks, idx)
		ls := operandStart(toks, m, p)
		rs := nextSig(toks, idx)
		if rs >= len(toks) {
			return nil, &SyntaxError{Line: toks[idx].line, Msg: "missing right operand of **"}
		}
		re := operandEnd(toks, m, rs)
		line := toks[idx].line
		toks[idx] = mk(tkOp, ",", line)
		toks = splice(toks, re+1, mk(tkOp, ")", line))
		toks = splice(toks, ls, mk(tkName, "pow", line), mk(tkOp, "(", line))
	}
}

// rewritePercent turns "fmt" % args into __pct("fmt", args) when the left
// operand is a string literal, for Python's full printf-style formatting.
func rewritePercent(toks []token, stop stopCheck) ([]token, error) {
	for i := len(toks) - 1; i >= 0; i-- {
		if !isOp(toks[i], "%") {
			continue
		}
		if err := stop(); err != nil {
			return nil, err
		}
		p := prevSig(toks, i)
		if p < 0 || (toks[p].kind != tkString && toks[p].kind != tkAtom) {
			continue
		}
		if toks[p].kind == tkAtom && !strings.HasPrefix(toks[p].text, "(") {
			continue
		}
		m := matchBrackets(toks)
		rs := nextSig(toks, i)
		if rs >= len(toks) {
			continue
		}
		re := operandEnd(toks, m, rs)
		line := toks[i].line
		toks[i] = mk(tkOp, ",", line)
		toks = splice(toks, re+1, mk(tkOp, ")", line))
		toks = splice(toks, p, mk(tkName, "__pct", line), mk(tkOp, "(", line))
	}
	return toks, nil
}

var cmpOps = map[string]bool{"<": true, ">": true, "<=": true, ">=": true, "==": true, "!=": true}

// rewriteChainedComparisons turns a < b < c into (a < b and b < c).
func rewriteChainedComparisons(toks []token) []token {
	for iter := 0; iter < 50; iter++ {
		// scan segments at each depth
		var segStart []int
		var ops [][]int
		segStart = append(segStart, 0)
		ops = append(ops, nil)
		boundary := func(t token) bool {
			if t.kind == tkNewline {
				return true
			}
			if t.kind == tkOp {
				switch t.text {
				case ",", ":", "=", ";", "+=", "-=", "*=", "/=":
					return true
				}
			}
			if t.kind == tkName {
				switch t.text {
				case "and", "or", "not", "if", "else", "for", "in", "lambda", "return", "while", "elif", "assert":
					return true
				}
			}
			return false
		}
		var found []int
		var foundStart int
		for i := 0; i < len(toks) && found == nil; i++ {
			t := toks[i]
			d := len(segStart) - 1
			if opens(t) {
				segStart = append(segStart, i+1)
				ops = append(ops, nil)
				continue
			}
			closeSeg := closes(t)
			if closeSeg || boundary(t) {
				if len(ops[d]) >= 2 {
					found = ops[d]
					foundStart = segStart[d]
					break
				}
				if closeSeg && d > 0 {
					segStart = segStart[:d]
					ops = ops[:d]
				} else {
					segStart[d] = i + 1
					ops[d] = nil
				}
				continue
			}
			if t.kind == tkOp && cmpOps[t.text] {
				ops[d] = append(ops[d], i)
			}
		}
		if found == nil {
			d := len(segStart) - 1
			if d >= 0 && len(ops[d]) >= 2 {
				found = ops[d]
				foundStart = segStart[d]
			}
		}
		if found == nil {
			return toks
		}
		// segment end
		end := prevSig(toks, len(toks))
		depth := 0
		for k := found[len(found)-1] + 1; k < len(toks); k++ {
			t := toks[k]
			if opens(t) {
				depth++
			} else if closes(t) {
				if depth == 0 {
					end = prevSig(toks, k)
					break
				}
				depth--
			} else if depth == 0 && boundary(t) {
				end = prevSig(toks, k)
				break
			}
		}
		start := foundStart
		for start < len(toks) && !sig(toks[start]) {
			start++
		}
		// operands between ops
		bounds := append([]int{start - 1}, found...)
		bounds = append(bounds, end+1)
		// Each operand's first copy keeps its line breaks where they were
		// (inside the new parentheses); the second copy of a middle operand
		// goes on one line. A middle operand that itself spans lines (a
		// multi-line string) cannot be written twice without moving a line:
		// the chain is left as it is, and Starlark refuses it with an error
		// on its line ("does not associate"), never a wrong answer.
		var kept, flat []string
		for k := 0; k+1 < len(bounds); k++ {
			ts := toks[bounds[k]+1 : bounds[k+1]]
			f, ok := oneLineText(ts)
			if !ok && k > 0 && k+2 < len(bounds) {
				return toks
			}
			kept, flat = append(kept, keptText(ts)), append(flat, f)
		}
		var parts []string
		for k, opIdx := range found {
			left := kept[k]
			if k > 0 {
				left = flat[k]
			}
			parts = append(parts, left+" "+toks[opIdx].text+" "+kept[k+1])
		}
		text := "(" + strings.Join(parts, " and ") + ")"
		if miss := strings.Count(joinTokens(toks[start:end+1]), "\n") - strings.Count(text, "\n"); miss > 0 {
			text = text[:len(text)-1] + strings.Repeat("\n", miss) + ")" // the last resort: the count stays
		}
		atom := mk(tkAtom, text, toks[start].line)
		rest := append([]token{atom}, toks[end+1:]...)
		toks = append(toks[:start:start], rest...)
	}
	return toks
}

// keptText is an operand as written, without its comments (a comment
// would hide what follows it on the line) and the spaces at its ends.
func keptText(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		if t.kind != tkComment {
			b.WriteString(t.text)
		}
	}
	return strings.Trim(b.String(), " \t")
}

// oneLineText is an operand on one line: comments left out, line breaks
// between its tokens spaces; ok is false when a token itself spans lines.
func oneLineText(toks []token) (string, bool) {
	var b strings.Builder
	for _, t := range toks {
		switch {
		case t.kind == tkComment:
		case t.kind == tkNL || (t.kind == tkSpace && strings.Contains(t.text, "\n")):
			b.WriteByte(' ')
		case !strings.Contains(t.text, "\n"):
			b.WriteString(t.text)
		default:
			return "", false
		}
	}
	return strings.TrimSpace(b.String()), true
}

func operandText(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		switch t.kind {
		case tkComment:
			continue
		case tkNL:
			b.WriteByte(' ')
			continue
		}
		b.WriteString(t.text)
	}
	return strings.TrimSpace(b.String())
}

// ---- statement passes ----

// logicalLines splits toks into statements: [start, end) ranges, end at the tkNewline (exclusive).
func logicalLines(toks []token) [][2]int {
	var out [][2]int
	s := 0
	for i, t := range toks {
		if t.kind == tkNewline || (t.kind == tkOp && t.text == ";") {
			out = append(out, [2]int{s, i})
			s = i + 1
		}
	}
	out = append(out, [2]int{s, len(toks)})
	return out
}

var unsupportedStmts = map[string][2]string{
	"try":      {"`try`/`except` is not supported: there are no exceptions in this sandbox", "check conditions first (if/else, `in`, .get()); a failing tool call stops the block and its error comes back to you"},
	"except":   {"`try`/`except` is not supported: there are no exceptions in this sandbox", "check conditions first (if/else, `in`, .get()); a failing tool call stops the block and its error comes back to you"},
	"finally":  {"`try`/`finally` is not supported", "run the cleanup code unconditionally after the work"},
	"class":    {"`class` is not supported", "use dicts for records and plain functions for behaviour"},
	"with":     {"`with` is not supported (no file handles or context managers)", "read files with cat() and write them with write(); run commands with shell()"},
	"global":   {"`global` is not supported: functions cannot rebind globals", "return the new value, or mutate a global dict/list (counts[\"n\"] += 1)"},
	"nonlocal": {"`nonlocal` is not supported", "return the new value, or mutate a dict/list held by the outer function"},
	"match":    {"", ""},
}

func statementPasses(toks []token) ([]token, error) {
	lines := logicalLines(toks)
	var out []token
	prev := 0
	for _, ln := range lines {
		s, e := ln[0], ln[1]
		first := s
		for first < e && !sig(toks[first]) {
			first++
		}
		if first >= e {
			continue
		}
		stmt := toks[first:e]
		repl, err := rewriteStatement(stmt)
		if err != nil {
			return nil, err
		}
		if repl == nil {
			continue
		}
		out = append(out, toks[prev:first]...)
		out = append(out, repl...)
		prev = e
	}
	out = append(out, toks[prev:]...)
	return out, nil
}

func unsupported(t token, what string) error {
	u := unsupportedStmts[what]
	return &UnsupportedError{Line: t.line, Message: u[0], Hint: u[1]}
}

// rewriteStatement returns replacement tokens for one logical line, or nil to keep it.
func rewriteStatement(stmt []token) ([]token, error) {
	t0 := stmt[0]
	line := t0.line
	nls := 0
	for _, t := range stmt {
		nls += strings.Count(t.text, "\n")
	}
	// s = significant tokens
	var s []token
	for _, t := range stmt {
		if sig(t) {
			s = append(s, t)
		}
	}
	if t0.kind == tkOp && t0.text == "@" {
		return nil, &UnsupportedError{Line: line, Message: "decorators are not supported", Hint: "call the wrapper explicitly: f = wrapper(f)"}
	}
	if t0.kind != tkName {
		return nil, nil
	}
	switch t0.text {
	case "try", "except", "finally", "class", "global", "nonlocal":
		return nil, unsupported(t0, t0.text)
	case "with":
		return nil, unsupported(t0, "with")
	case "async":
		if len(s) > 1 && isName(s[1], "with") {
			return nil, unsupported(t0, "with")
		}
	case "import":
		return rewriteImport(s, line, nls)
	case "from":
		return rewriteFromImport(s, line, nls)
	case "raise":
		return wrapStatement(stmt, "__raise(", ")", line), nil
	case "assert":
		if len(s) > 1 && !isOp(s[1], "=") && !isOp(s[1], ".") {
			return wrapStatement(stmt, "__assert(", ")", line), nil
		}
	case "del":
		return rewriteDel(stmt, s, line)
	case "print":
		if len(s) > 1 && s[1].kind == tkString {
			return nil, &UnsupportedError{Line: line, Message: "`print x` is Python 2 syntax", Hint: "write print(x)"}
		}
	case "doc", "apropos", "defs":
		// a bare call of a discovery builtin prints its result
		if len(s) >= 3 && isOp(s[1], "(") && isOp(s[len(s)-1], ")") {
			m := matchBrackets(s)
			if m[1] == len(s)-1 {
				return wrapStatement(stmt, "print(", ")", line), nil
			}
		}
	}
	if t0.text == "def" || (t0.text == "async" && len(s) > 1 && isName(s[1], "def")) {
		return stripDefAnnotations(stmt), nil
	}
	if !pyKeywords[t0.text] && len(s) > 1 && isOp(s[1], ":") {
		return stripVarAnnotation(stmt, line), nil
	}
	if t0.text == "for" || t0.text == "while" {
		// for/while ... else is unsupported; detected by the parser later.
		return nil, nil
	}
	// chained assignment a = b = expr
	var eqs []int
	depth := 0
	for i, t := range stmt {
		if t.kind == tkOp {
			depth += nesting(t)
			switch t.text {
			case "=":
				if depth == 0 {
					eqs = append(eqs, i)
				}
			}
		}
		if t.kind == tkName && t.text == "lambda" && depth == 0 {
			break
		}
	}
	if len(eqs) >= 2 {
		// a = b = expr becomes a = expr; b = a, the value's tokens kept as
		// they are (their newlines and comments on their own lines) and the
		// copies put after its last significant token, before a comment.
		lastEq := eqs[len(eqs)-1]
		end := len(stmt)
		for end > lastEq+1 && !sig(stmt[end-1]) {
			end--
		}
		var targets []string // each target's tokens joined on one line
		prevEq := -1
		for _, q := range eqs {
			var parts []string
			for _, t := range stmt[prevEq+1 : q] {
				if sig(t) {
					parts = append(parts, t.text)
				}
			}
			tg := strings.Join(parts, " ")
			if strings.Contains(tg, "\n") { // a multi-line string as a target: no copy fits on one line
				return nil, nil
			}
			targets = append(targets, tg)
			prevEq = q
		}
		var copies strings.Builder
		for _, tg := range targets[1:] {
			copies.WriteString("; " + tg + " = " + targets[0])
		}
		out := append([]token{}, stmt[:eqs[0]+1]...)
		// A target split over lines leaves its comments and newlines where
		// they were, inside parentheses around the value.
		var kept []token
		for _, t := range stmt[eqs[0]+1 : lastEq+1] {
			if t.kind == tkComment || t.kind == tkNL || strings.Contains(t.text, "\n") {
				kept = append(kept, t)
			}
		}
		if len(kept) > 0 {
			out = append(out, mk(tkAtom, " (", line))
			out = append(out, kept...)
		}
		out = append(out, stmt[lastEq+1:end]...)
		if len(kept) > 0 {
			out = append(out, mk(tkAtom, ")", line))
		}
		out = append(out, mk(tkAtom, copies.String(), line))
		return append(out, stmt[end:]...), nil
	}
	return nil, nil
}

func nlsOf(toks []token) int {
	n := 0
	for _, t := range toks {
		n += strings.Count(t.text, "\n")
	}
	return n
}

func hasTopLevelComma(s []token) bool {
	depth := 0
	for i, t := range s {
		if t.kind == tkOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
				if depth == 0 && i < len(s)-1 {
					return false
				}
			case ",":
				if depth == 1 {
					return false
				}
				if depth == 0 {
					return true
				}
			}
		}
	}
	return false
}

// wrapStatement replaces the leading keyword of stmt (if pre ends with "(")
// and wraps the rest: raise X -> __raise(X).
func wrapStatement(stmt []token, pre, post string, line int) []token {
	var out []token
	rest := stmt[1:]
	if pre == "print(" {
		rest = stmt
	}
	for len(rest) > 0 && rest[0].kind == tkSpace {
		rest = rest[1:]
	}
	// trailing comments/spaces go after the closing paren
	end := len(rest)
	for end > 0 && !sig(rest[end-1]) {
		end--
	}
	out = append(out, mk(tkOp, pre, line))
	out = append(out, rest[:end]...)
	out = append(out, mk(tkOp, post, line))
	out = append(out, rest[end:]...)
	return out
}

func rewriteDel(stmt, s []token, line int) ([]token, error) {
	// del x[k] -> x.pop(k)
	m := matchBrackets(stmt)
	last := len(stmt) - 1
	for last > 0 && !sig(stmt[last]) {
		last--
	}
	if isOp(stmt[last], "]") {
		o := m[last]
		if o > 1 && !hasTopLevelComma(stmt[1:o]) {
			inner := stmt[o+1 : last]
			for _, t := range inner {
				if isOp(t, ":") {
					return nil, &UnsupportedError{Line: line, Message: "`del` of a slice is not supported", Hint: "rebuild the list: xs = xs[:i] + xs[j:]"}
				}
			}
			var out []token
			k := 1
			for k < o && stmt[k].kind == tkSpace {
				k++
			}
			out = append(out, stmt[k:o]...)
			out = append(out, mk(tkOp, ".pop(", line))
			out = append(out, inner...)
			out = append(out, mk(tkOp, ")", line))
			out = append(out, stmt[last+1:]...)
			return out, nil
		}
	}
	return nil, &UnsupportedError{Line: line, Message: "`del` is only supported as `del d[key]` / `del xs[i]`", Hint: "rebind the name instead (x = None), or use d.pop(key)"}
}

func rewriteImport(s []token, line, nls int) ([]token, error) {
	// import a.b as c, d
	var stmts []string
	i := 1
	for i < len(s) {
		var mod []string
		for i < len(s) && s[i].kind == tkName && s[i].text != "as" {
			mod = append(mod, s[i].text)
			i++
			if i < len(s) && isOp(s[i], ".") {
				i++
				continue
			}
			break
		}
		if len(mod) == 0 {
			return nil, &SyntaxError{Line: line, Msg: "invalid import statement"}
		}
		name := strings.Join(mod, ".")
		bind := mod[0]
		full := false
		if i+1 < len(s) && isName(s[i], "as") {
			bind = s[i+1].text
			full = true
			i += 2
		}
		if full {
			stmts = append(stmts, fmt.Sprintf("%s = __import(%q)", bind, name))
		} else {
			stmts = append(stmts, fmt.Sprintf("%s = __import(%q, %q)", bind, name, mod[0]))
		}
		if i < len(s) && isOp(s[i], ",") {
			i++
			continue
		}
		break
	}
	return []token{mk(tkAtom, strings.Join(stmts, "; ")+strings.Repeat("\n", nls), line)}, nil
}

func rewriteFromImport(s []token, line, nls int) ([]token, error) {
	i := 1
	var mod []string
	for i < len(s) && !isName(s[i], "import") {
		if s[i].kind == tkName {
			mod = append(mod, s[i].text)
		} else if isOp(s[i], ".") && len(mod) == 0 {
			return nil, &UnsupportedError{Line: line, Message: "relative imports are not supported", Hint: "there are no local modules in the sandbox; define helpers with def"}
		}
		i++
	}
	i++
	name := strings.Join(mod, ".")
	var binds, names []string
	for i < len(s) {
		t := s[i]
		if isOp(t, "(") || isOp(t, ")") || isOp(t, ",") {
			i++
			continue
		}
		if isOp(t, "*") {
			return nil, &UnsupportedError{Line: line, Message: "`from " + name + " import *` is not supported", Hint: "import the names you use: from " + name + " import a, b"}
		}
		if t.kind == tkName {
			b := t.text
			if i+2 < len(s) && isName(s[i+1], "as") {
				b = s[i+2].text
				i += 2
			}
			binds = append(binds, b)
			names = append(names, fmt.Sprintf("%q", t.text))
		}
		i++
	}
	if len(binds) == 0 {
		return nil, &SyntaxError{Line: line, Msg: "invalid import statement"}
	}
	text := fmt.Sprintf("%s = __from(%q, %s)", strings.Join(binds, ", "), name, strings.Join(names, ", "))
	if len(binds) == 1 {
		text = fmt.Sprintf("%s = __from(%q, %s)[0]", binds[0], name, names[0])
	}
	return []token{mk(tkAtom, text+strings.Repeat("\n", nls), line)}, nil
}

// stripDefAnnotations removes parameter and return annotations from a def header.
func stripDefAnnotations(stmt []token) []token {
	m := matchBrackets(stmt)
	open := -1
	for i, t := range stmt {
		if isOp(t, "(") {
			open = i
			break
		}
	}
	if open < 0 {
		return nil
	}
	closeIdx, ok := m[open]
	if !ok {
		return nil
	}
	changed := false
	var out []token
	out = append(out, stmt[:open+1]...)
	depth := 0
	skipping := false
	for i := open + 1; i < closeIdx; i++ {
		t := stmt[i]
		depth += nesting(t)
		if depth == 0 && isOp(t, ":") && !skipping {
			skipping = true
			changed = true
			continue
		}
		if skipping && depth == 0 && (isOp(t, ",") || isOp(t, "=")) {
			skipping = false
		}
		if skipping {
			out = keptBreaks(out, stmt[i:i+1])
			continue
		}
		out = append(out, t)
	}
	out = append(out, stmt[closeIdx])
	rest := stmt[closeIdx+1:]
	j := 0
	for j < len(rest) && !sig(rest[j]) {
		j++
	}
	if j < len(rest) && isOp(rest[j], "->") {
		changed = true
		depth = 0
		k := j
		for ; k < len(rest); k++ {
			t := rest[k]
			depth += nesting(t)
			if depth == 0 && isOp(t, ":") {
				break
			}
		}
		// The annotation goes, its line breaks stay (an unclosed bracket in
		// it runs over the lines after it).
		rest = append(keptBreaks(nil, rest[:k]), rest[k:]...)
	}
	if !changed {
		return nil
	}
	return append(out, rest...)
}

// stripVarAnnotation turns "x: int = 5" into "x = 5" and "x: int" into "pass".
func stripVarAnnotation(stmt []token, line int) []token {
	colon := -1
	eq := -1
	depth := 0
	for i, t := range stmt {
		if t.kind == tkOp {
			depth += nesting(t)
			switch t.text {
			case ":":
				if depth == 0 && colon < 0 {
					colon = i
				}
			case "=":
				if depth == 0 && colon >= 0 && eq < 0 {
					eq = i
				}
			}
		}
	}
	if colon < 0 {
		return nil
	}
	if eq < 0 {
		return []token{mk(tkAtom, "pass"+strings.Repeat("\n", nlsOf(stmt)), line)}
	}
	out := append([]token{}, stmt[:colon]...)
	out = append(out, mk(tkSpace, " ", line))
	out = keptBreaks(out, stmt[colon+1:eq])
	return append(out, stmt[eq:]...)
}
