package workspace

import (
	"io/fs"
	"path"
	"strings"
	"sync"
)

// rule is one parsed line of a .gitignore file.
type rule struct {
	segs    []string // slash-separated pattern, relative to the file's directory
	negate  bool     // "!pattern": re-include
	dirOnly bool     // "pattern/": directories only
}

// rules are the patterns of one directory's ignore files, in file order.
type rules []rule

// parseRules parses .gitignore content. Lines that cannot be parsed (a
// malformed character class) are skipped, as git skips them.
func parseRules(data []byte) rules {
	var out rules
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		line = trimTrailingSpaces(line)
		if line == "" {
			continue
		}
		var r rule
		if line[0] == '!' {
			r.negate = true
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		var segs []string
		if !anchored {
			segs = append(segs, "**")
		}
		ok := true
		for _, s := range strings.Split(line, "/") {
			if s == "" {
				continue
			}
			if s != "**" && strings.Contains(s, "**") {
				s = strings.ReplaceAll(s, "**", "*")
			}
			if validateSegment(s) != nil {
				ok = false
				break
			}
			if s == "**" && len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue
			}
			segs = append(segs, s)
		}
		if !ok || len(segs) == 0 {
			continue
		}
		r.segs = segs
		out = append(out, r)
	}
	return out
}

// trimTrailingSpaces drops trailing spaces unless escaped with a backslash.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			// Keep the escaped space, without its backslash.
			return s[:len(s)-2] + " "
		}
		s = s[:len(s)-1]
	}
	return s
}

// match reports whether rel (relative to the rules' directory) matches a
// rule, and if so whether the last matching rule ignores it.
func (rs rules) match(rel string, isDir bool) (matched, ignored bool) {
	segs := splitPath(rel)
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		if r.dirOnly && !isDir {
			continue
		}
		if matchSegments(r.segs, segs) {
			return true, !r.negate
		}
	}
	return false, false
}

// Ignore answers whether a workspace path is ignored, with git's semantics:
// every directory's .gitignore applies to paths below it (deeper files take
// precedence, and within a file the last matching line wins), "!" re-includes,
// a leading or inner "/" anchors a pattern to its file's directory, a
// trailing "/" matches directories only, "**" spans directories, and "[...]"
// is a character class. A path under an ignored directory is ignored and
// cannot be re-included. The root's .git/info/exclude applies with the lowest
// precedence, and any path with a ".git" component is always ignored.
//
// An Ignore reads each ignore file lazily, at most once, through its fs.FS:
// it is a snapshot, so make a new one to see edited .gitignore files. It is
// safe for concurrent use. Unreadable ignore files count as empty.
type Ignore struct {
	fsys  fs.FS
	mu    sync.Mutex
	cache map[string]rules // by directory, "." for the root
}

// NewIgnore returns an Ignore reading ignore files from fsys, whose root is
// the workspace root.
func NewIgnore(fsys fs.FS) *Ignore {
	return &Ignore{fsys: fsys, cache: map[string]rules{}}
}

// Ignored reports whether rel, a slash-separated path relative to the
// workspace root, is ignored. isDir says whether rel names a directory
// (needed for "dir/" patterns). The root itself is never ignored.
func (ig *Ignore) Ignored(rel string, isDir bool) bool {
	rel = path.Clean(strings.TrimPrefix(rel, "/"))
	if rel == "." {
		return false
	}
	segs := strings.Split(rel, "/")
	for _, s := range segs {
		if s == ".git" {
			return true
		}
	}
	for k := 1; k < len(segs); k++ {
		if ig.leafIgnored(strings.Join(segs[:k], "/"), true) {
			return true
		}
	}
	return ig.leafIgnored(rel, isDir)
}

// leafIgnored decides rel on its own rules, assuming its ancestors are not
// ignored.
func (ig *Ignore) leafIgnored(rel string, isDir bool) bool {
	if base := path.Base(rel); base == ".git" {
		return true
	}
	dir := path.Dir(rel)
	for {
		rs := ig.load(dir)
		sub := rel
		if dir != "." {
			sub = rel[len(dir)+1:]
		}
		if m, ign := rs.match(sub, isDir); m {
			return ign
		}
		if dir == "." {
			return false
		}
		dir = path.Dir(dir)
	}
}

func (ig *Ignore) load(dir string) rules {
	ig.mu.Lock()
	defer ig.mu.Unlock()
	if rs, ok := ig.cache[dir]; ok {
		return rs
	}
	var rs rules
	if dir == "." {
		if data, err := fs.ReadFile(ig.fsys, ".git/info/exclude"); err == nil {
			rs = append(rs, parseRules(data)...)
		}
	}
	if data, err := fs.ReadFile(ig.fsys, path.Join(dir, ".gitignore")); err == nil {
		rs = append(rs, parseRules(data)...)
	}
	ig.cache[dir] = rs
	return rs
}
