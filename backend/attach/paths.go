package attach

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/visdesktop/vis/backend/homedir"
)

// imageExts are the file endings PathsInText looks for (lower case).
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"}

// PathsInText finds the image files a message names (spec §8), which is how
// a terminal drag-and-drop arrives: the terminal pastes the path. It returns
// absolute, cleaned paths of existing regular files, in the order the text
// names them, each file once (two spellings of one file, via "..", "~" or a
// symlink, count once).
//
// What counts as a path: a token ending in .png, .jpg, .jpeg, .gif, .webp or
// .bmp (any case). Quoted spans ("…", '…', `…`) are taken whole first, so a
// quoted path may hold spaces; elsewhere tokens split at whitespace, and a
// backslash-escaped space or shell character ("my\ shot.png") stays in the
// token. A file:// URL becomes its path (percent-escapes decoded); other URLs
// are ignored. A leading "~/" is home; "@" (a mention) and edge punctuation
// — brackets, quotes, a trailing full stop or comma — are trimmed; a markdown
// image "![alt](shot.png)" gives shot.png. A relative path is resolved
// against workspaceRoot (dropped when workspaceRoot is ""). Tokens that name
// no existing regular file are dropped without comment: a message may
// mention "logo.png" without meaning to attach it.
//
// Whether a named file is really an image is left to Prepare, which sniffs
// its bytes. When no image ending appears anywhere in text, PathsInText
// returns nil without tokenizing.
func PathsInText(text, workspaceRoot, home string) []string {
	lower := strings.ToLower(text)
	found := false
	for _, e := range imageExts {
		if strings.Contains(lower, e) {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, tok := range tokens(text) {
		p, ok := candidate(tok, workspaceRoot, home)
		if !ok {
			continue
		}
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		key := p
		if real, err := filepath.EvalSymlinks(p); err == nil {
			key = real
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, p)
	}
	return out
}

// tokens splits text into candidate tokens: quoted spans whole, then the
// rest at unescaped whitespace, in the order they appear.
func tokens(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs) && isEscapable(rs[i+1]):
			cur.WriteRune(rs[i+1])
			i++
		case r == '"' || r == '`' || (r == '\'' && cur.Len() == 0):
			// A quote opens a span; an apostrophe only at a token start
			// (the one in "don't" opens nothing).
			end := indexRune(rs, i+1, r)
			if end < 0 {
				cur.WriteRune(r)
				continue
			}
			flush()
			span := string(rs[i+1 : end])
			if hasImageExt(strings.TrimSpace(span)) {
				out = append(out, span) // a quoted path, spaces and all
			} else {
				out = append(out, tokens(span)...) // quoted prose
			}
			i = end
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

func indexRune(rs []rune, from int, r rune) int {
	for j := from; j < len(rs); j++ {
		if rs[j] == r {
			return j
		}
	}
	return -1
}

// isEscapable reports the characters a shell-escaped path escapes with a
// backslash (terminals escape spaces and shell punctuation when pasting).
func isEscapable(r rune) bool {
	return strings.ContainsRune(" \t()[]{}'\"&;,!$`*?#<>|~=\\", r)
}

// candidate turns a token into an absolute path when it looks like an image
// path.
func candidate(tok, workspaceRoot, home string) (string, bool) {
	tok = strings.TrimSpace(tok)
	if i := strings.LastIndex(tok, "]("); i >= 0 { // markdown ![alt](path)
		tok = tok[i+2:]
	}
	tok = strings.TrimLeft(tok, "([{<\"'`@")
	tok = strings.TrimRight(tok, ".,;:!?)]}>\"'`")
	if strings.HasPrefix(strings.ToLower(tok), "file://") {
		u, err := url.Parse(tok)
		if err != nil || (u.Host != "" && u.Host != "localhost") {
			return "", false
		}
		tok = u.Path
	} else if strings.Contains(tok, "://") {
		return "", false // http(s) and other URLs are not files
	}
	if tok == "" || !hasImageExt(tok) {
		return "", false
	}
	switch {
	case tok == "~" || strings.HasPrefix(tok, "~/"):
		if home == "" {
			return "", false
		}
		tok = homedir.Expand(tok, home)
	case filepath.IsAbs(tok):
	default:
		if workspaceRoot == "" {
			return "", false
		}
		tok = filepath.Join(workspaceRoot, tok)
	}
	return filepath.Clean(tok), true
}

func hasImageExt(p string) bool {
	lower := strings.ToLower(p)
	for _, e := range imageExts {
		if strings.HasSuffix(lower, e) && len(lower) > len(e) {
			return true
		}
	}
	return false
}
