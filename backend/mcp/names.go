package mcp

import (
	"fmt"
	"strings"
)

// Ident turns a server's or a tool's name into a Starlark identifier: every
// character that is not an ASCII letter, digit or underscore becomes "_"
// (so "brave-search" is brave_search and "files.read" is files_read), a
// leading digit gets a "_" before it, and an empty name is "_". Case is
// kept.
func Ident(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			if c >= 0x80 {
				// one "_" per multi-byte rune
				for i+1 < len(name) && name[i+1]&0xC0 == 0x80 {
					i++
				}
			}
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" {
		return "_"
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "_" + s
	}
	return s
}

// Idents maps names to identifiers in order; a name whose identifier is
// already taken by an earlier one gets "_2", "_3", ... after it.
func Idents(names []string) []string {
	out := make([]string, len(names))
	taken := map[string]bool{}
	for i, n := range names {
		id := Ident(n)
		for k := 2; taken[id]; k++ {
			id = fmt.Sprintf("%s_%d", Ident(n), k)
		}
		taken[id] = true
		out[i] = id
	}
	return out
}
