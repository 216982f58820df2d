package workspace

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrBadPattern reports a glob or ignore pattern that cannot be parsed,
// such as an unterminated character class.
var ErrBadPattern = errors.New("bad pattern")

// matchSegments matches slash-separated pattern segments against path
// segments. A segment "**" matches zero or more path segments, except that
// a final "**" must match at least one (git's "abc/**" matches what is
// inside abc, not abc itself).
func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return len(name) > 0
			}
			for i := 0; i <= len(name); i++ {
				if matchSegments(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 || !matchSegment(pat[0], name[0]) {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// matchSegment reports whether one path segment (no slashes) matches a
// wildmatch pattern: '*' any run of characters, '?' one character, '[...]'
// a class ('!' or '^' negates, ranges a-z, POSIX classes like [:digit:]),
// and '\' escaping the next character. A malformed class never matches.
func matchSegment(pat, s string) bool {
	// Iterative matching with single-star backtracking, as in path.Match.
	var starPat, starS = -1, -1
	p, i := 0, 0
	for i < len(s) || p < len(pat) {
		if p < len(pat) {
			switch pat[p] {
			case '*':
				for p < len(pat) && pat[p] == '*' {
					p++
				}
				starPat, starS = p, i
				continue
			case '?':
				if i < len(s) {
					_, w := utf8.DecodeRuneInString(s[i:])
					p++
					i += w
					continue
				}
			case '[':
				if i < len(s) {
					r, w := utf8.DecodeRuneInString(s[i:])
					ok, n, valid := matchClass(pat[p:], r)
					if !valid {
						return false
					}
					if ok {
						p += n
						i += w
						continue
					}
				}
			default:
				pc := pat[p]
				pn := 1
				if pc == '\\' && p+1 < len(pat) {
					pc = pat[p+1]
					pn = 2
				}
				if i < len(s) && s[i] == pc {
					p += pn
					i++
					continue
				}
			}
		}
		if starPat >= 0 && starS < len(s) {
			_, w := utf8.DecodeRuneInString(s[starS:])
			starS += w
			p, i = starPat, starS
			continue
		}
		return false
	}
	return true
}

var posixClasses = map[string]func(rune) bool{
	"alnum":  func(r rune) bool { return isAlpha(r) || isDigit(r) },
	"alpha":  isAlpha,
	"blank":  func(r rune) bool { return r == ' ' || r == '\t' },
	"cntrl":  func(r rune) bool { return r < 32 || r == 127 },
	"digit":  isDigit,
	"graph":  func(r rune) bool { return r > 32 && r < 127 },
	"lower":  func(r rune) bool { return r >= 'a' && r <= 'z' },
	"print":  func(r rune) bool { return r >= 32 && r < 127 },
	"punct":  func(r rune) bool { return r > 32 && r < 127 && !isAlpha(r) && !isDigit(r) },
	"space":  func(r rune) bool { return strings.ContainsRune(" \t\n\r\v\f", r) },
	"upper":  func(r rune) bool { return r >= 'A' && r <= 'Z' },
	"xdigit": func(r rune) bool { return isDigit(r) || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F') },
}

func isAlpha(r rune) bool { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') }
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// matchClass matches r against the class at the start of pat (pat[0]=='[').
// It returns whether r matched, the class's length in bytes, and whether the
// class is well formed.
func matchClass(pat string, r rune) (matched bool, n int, valid bool) {
	i := 1
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	first := true
	for {
		if i >= len(pat) {
			return false, 0, false
		}
		if pat[i] == ']' && !first {
			i++
			break
		}
		first = false
		if strings.HasPrefix(pat[i:], "[:") {
			end := strings.Index(pat[i+2:], ":]")
			if end < 0 {
				return false, 0, false
			}
			fn, ok := posixClasses[pat[i+2:i+2+end]]
			if !ok {
				return false, 0, false
			}
			if fn(r) {
				matched = true
			}
			i += 2 + end + 2
			continue
		}
		lo, w, ok := classChar(pat, i)
		if !ok {
			return false, 0, false
		}
		i += w
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			hi, w, ok = classChar(pat, i+1)
			if !ok {
				return false, 0, false
			}
			i += 1 + w
		}
		if lo <= r && r <= hi {
			matched = true
		}
	}
	return matched != negate, i, true
}

func classChar(pat string, i int) (rune, int, bool) {
	if pat[i] == '\\' {
		if i+1 >= len(pat) {
			return 0, 0, false
		}
		r, w := utf8.DecodeRuneInString(pat[i+1:])
		return r, 1 + w, true
	}
	r, w := utf8.DecodeRuneInString(pat[i:])
	return r, w, true
}

// validateSegment reports ErrBadPattern when a segment holds a malformed
// character class or ends in a lone backslash.
func validateSegment(seg string) error {
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '\\':
			if i+1 >= len(seg) {
				return errors.New("trailing backslash")
			}
			i++
		case '[':
			_, n, valid := matchClass(seg[i:], 'a')
			if !valid {
				return errors.New("unterminated or malformed character class")
			}
			i += n - 1
		}
	}
	return nil
}

func hasMeta(seg string) bool { return strings.ContainsAny(seg, `*?[\`) }

// Glob is a compiled path pattern over slash-separated relative paths:
// '*' and '?' never cross a '/', '[...]' is a character class, and a whole
// segment "**" matches zero or more directories ("**/*.go" is every .go file,
// "src/**" everything under src). A pattern without '/' matches only at the
// top level, as in a shell. Glob values are immutable and safe to share.
type Glob struct {
	pattern string
	segs    []string
}

// CompileGlob parses pattern. A leading "./" or "/" is dropped. It fails with
// an error wrapping ErrBadPattern for an empty pattern or a malformed class.
func CompileGlob(pattern string) (*Glob, error) {
	p := strings.TrimPrefix(pattern, "./")
	p = strings.TrimLeft(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return nil, fmt.Errorf("%w: empty pattern", ErrBadPattern)
	}
	segs := strings.Split(p, "/")
	out := segs[:0]
	for _, s := range segs {
		if s == "" || s == "." {
			continue
		}
		if strings.Contains(s, "**") && s != "**" {
			s = strings.ReplaceAll(s, "**", "*")
		}
		if err := validateSegment(s); err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrBadPattern, pattern, err)
		}
		// Collapse "**/**".
		if s == "**" && len(out) > 0 && out[len(out)-1] == "**" {
			continue
		}
		out = append(out, s)
	}
	return &Glob{pattern: pattern, segs: out}, nil
}

// String returns the pattern as given.
func (g *Glob) String() string { return g.pattern }

// Match reports whether the slash-separated relative path rel matches.
func (g *Glob) Match(rel string) bool {
	return matchSegments(g.segs, splitPath(rel))
}

// Base returns the longest leading directory of the pattern that holds no
// wildcard, "." when there is none. A walk can start there.
func (g *Glob) Base() string {
	var lit []string
	for i, s := range g.segs {
		if hasMeta(s) || s == "**" || i == len(g.segs)-1 {
			break
		}
		lit = append(lit, s)
	}
	if len(lit) == 0 {
		return "."
	}
	return strings.Join(lit, "/")
}

// CanMatchUnder reports whether some path strictly inside directory dir
// could match, so a walk may skip dir when it returns false.
func (g *Glob) CanMatchUnder(dir string) bool {
	if dir == "." || dir == "" {
		return true
	}
	return prefixCanMatch(g.segs, splitPath(dir))
}

// prefixCanMatch reports whether the path segments dir can be a proper
// prefix of a path matching pat.
func prefixCanMatch(pat, dir []string) bool {
	if len(dir) == 0 {
		return len(pat) > 0
	}
	if len(pat) == 0 {
		return false
	}
	if pat[0] == "**" {
		return true
	}
	if !matchSegment(pat[0], dir[0]) {
		return false
	}
	return prefixCanMatch(pat[1:], dir[1:])
}

func splitPath(rel string) []string {
	rel = strings.Trim(rel, "/")
	if rel == "" || rel == "." {
		return nil
	}
	return strings.Split(rel, "/")
}
