package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/visdesktop/vis/backend/workspace"
)

// Entry is one ls entry. Name is relative to the listed directory.
type Entry struct {
	Name string
	Type string // "file", "dir" or "symlink"
	Size int64  // bytes; 0 for directories
}

// LsResult is what ls returns.
type LsResult struct {
	Path      string
	Entries   []Entry
	Truncated bool
	Note      string
}

// Ls lists path (a directory, or one file) down to depth levels (1 = direct
// children), skipping ignored entries; a directory that is itself ignored
// is listed anyway, since the caller named it.
func (s *Set) Ls(ctx context.Context, p string, depth int) (LsResult, error) {
	if depth < 1 {
		return LsResult{}, failf(KindInvalid, "use depth=1 for direct children, 2 to include grandchildren", "ls: depth must be at least 1, got %d", depth)
	}
	var note string
	if depth > maxLsDepth {
		depth = maxLsDepth
		note = fmt.Sprintf("depth capped at %d", maxLsDepth)
	}
	rel, err := s.rel(p)
	if err != nil {
		return LsResult{}, err
	}
	fsys := s.fsys()
	fi, err := fs.Stat(fsys, rel)
	if err != nil {
		return LsResult{}, fsErr("ls", rel, err)
	}
	if !fi.IsDir() {
		return LsResult{Path: rel, Entries: []Entry{{Name: path.Base(rel), Type: typeOf(fi.Mode()), Size: fi.Size()}}}, nil
	}
	ign := workspace.NewIgnore(fsys)
	if ign.Ignored(rel, true) {
		note = joinNote(note, rel+" is ignored by .gitignore; listed because you asked for it")
		ign = nil
	}
	res := LsResult{Path: rel, Entries: []Entry{}}
	base := rel + "/"
	err = workspace.WalkFS(ctx, fsys, ign, rel, func(r string, d fs.DirEntry) error {
		name := r
		if rel != "." {
			name = strings.TrimPrefix(r, base)
		}
		if len(res.Entries) >= maxLsEntries {
			res.Truncated = true
			return fs.SkipAll
		}
		e := Entry{Name: name, Type: typeOf(d.Type())}
		if e.Type == "file" {
			if info, err := d.Info(); err == nil {
				e.Size = info.Size()
			}
		}
		res.Entries = append(res.Entries, e)
		if d.IsDir() && strings.Count(name, "/")+1 >= depth {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return LsResult{}, ctxOr("ls", rel, err)
	}
	if res.Truncated {
		note = joinNote(note, fmt.Sprintf("stopped after %d entries; ls a subdirectory or use glob(pattern) to narrow", maxLsEntries))
	}
	res.Note = note
	return res, nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func typeOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsDir():
		return "dir"
	}
	return "file"
}

// ctxOr returns ctx errors wrapped as they are and maps the rest for the model.
func ctxOr(tool, rel string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w", tool, err)
	}
	return fsErr(tool, rel, err)
}

// CatResult is what cat returns. Start..End are the lines shown (End is
// Start-1 for an empty file); Remaining counts lines after End.
type CatResult struct {
	Path       string
	Start, End int
	TotalLines int
	Text       string
	Remaining  int
	Note       string
}

// Cat shows lines start..end (1-based, inclusive) of a text file, numbered;
// end <= 0 means "to the end". At most maxCatLines lines are shown per call.
// The file's content hash is remembered for patch.
func (s *Set) Cat(ctx context.Context, p string, start, end int) (CatResult, error) {
	if err := ctx.Err(); err != nil {
		return CatResult{}, fmt.Errorf("cat: %w", err)
	}
	if start < 1 {
		return CatResult{}, failf(KindInvalid, "lines are numbered from 1; use cat(path) for the top of the file", "cat: start must be at least 1, got %d", start)
	}
	if end > 0 && end < start {
		return CatResult{}, failf(KindInvalid, "end is inclusive and must be >= start; omit end to read to the end", "cat: end %d is before start %d", end, start)
	}
	rel, err := s.rel(p)
	if err != nil {
		return CatResult{}, err
	}
	data, err := s.readText("cat", rel)
	if err != nil {
		return CatResult{}, err
	}
	s.remember(rel, data)
	lines := splitLines(data)
	total := len(lines)
	if total == 0 {
		return CatResult{Path: rel, Start: 1, End: 0, Note: "the file is empty"}, nil
	}
	if start > total {
		return CatResult{}, failf(KindInvalid, fmt.Sprintf("the file has %d lines; try cat(%q, start=%d)", total, rel, max(1, total-50)),
			"cat: start %d is past the end of %s (%d lines)", start, rel, total)
	}
	var note string
	if end <= 0 || end > total {
		end = total
	}
	if end-start+1 > maxCatLines {
		end = start + maxCatLines - 1
	}
	remaining := total - end
	if remaining > 0 {
		note = fmt.Sprintf("%d more lines (%d-%d); continue with cat(%q, start=%d)", remaining, end+1, total, rel, end+1)
	}
	return CatResult{Path: rel, Start: start, End: end, TotalLines: total, Text: numbered(lines, start, end), Remaining: remaining, Note: note}, nil
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path string
	Line int
	Text string
}

// GrepOptions are grep's optional arguments.
type GrepOptions struct {
	Path       string // file or directory to search; "" = workspace root
	Glob       string // only files matching (no "/" = match the base name)
	IgnoreCase bool
	MaxResults int // 0 = 200
}

// GrepResult is what grep returns. Truncated is set when more matches
// exist than were returned. SkippedLarge lists files skipped for size.
type GrepResult struct {
	Matches      []GrepMatch
	Count        int
	Truncated    bool
	SkippedLarge []string
}

// Grep searches non-ignored text files for a Go RE2 regular expression,
// line by line, in path order.
func (s *Set) Grep(ctx context.Context, pattern string, opt GrepOptions) (GrepResult, error) {
	if pattern == "" {
		return GrepResult{}, failf(KindInvalid, "pass a regular expression, e.g. grep(\"func main\")", "grep: empty pattern")
	}
	if opt.MaxResults == 0 {
		opt.MaxResults = 200
	}
	if opt.MaxResults < 0 || opt.MaxResults > maxGrepResults {
		return GrepResult{}, failf(KindInvalid, fmt.Sprintf("use a max_results between 1 and %d", maxGrepResults), "grep: max_results %d out of range", opt.MaxResults)
	}
	expr := pattern
	if opt.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return GrepResult{}, failf(KindInvalid,
			`patterns are Go RE2 regular expressions: escape literal ( ) [ ] { } . * + ? | \ with a backslash (re.escape(text) does it); lookarounds and backreferences are not supported`,
			"grep: bad regex %q: %v", pattern, err)
	}
	anyLine := regexp.MustCompile("(?m)" + expr) // compiles: expr did
	var match func(rel string) bool
	if opt.Glob != "" {
		g, err := workspace.CompileGlob(opt.Glob)
		if err != nil {
			return GrepResult{}, failf(KindInvalid, "use a glob such as \"*.go\" or \"src/**/*.ts\"", "grep: bad glob: %v", err)
		}
		if strings.Contains(strings.Trim(opt.Glob, "/"), "/") {
			match = g.Match
		} else {
			match = func(rel string) bool { return g.Match(path.Base(rel)) }
		}
	}
	rel, err := s.rel(opt.Path)
	if err != nil {
		return GrepResult{}, err
	}
	fsys := s.fsys()
	fi, err := fs.Stat(fsys, rel)
	if err != nil {
		return GrepResult{}, fsErr("grep", rel, err)
	}
	res := GrepResult{Matches: []GrepMatch{}}
	full := false
	search := func(r string, size int64) error {
		if size > maxGrepFile {
			res.SkippedLarge = append(res.SkippedLarge, r)
			return nil
		}
		data, err := fs.ReadFile(fsys, r)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			return nil // unreadable or binary files are skipped
		}
		// Whole-file prefilter; it may only say "no" when no line matches,
		// so skip it where "$" could sit before a "\r".
		if bytes.IndexByte(data, '\r') < 0 && !anyLine.Match(data) {
			return nil
		}
		for n, rest := 1, data; len(rest) > 0; n++ {
			line := rest
			if i := bytes.IndexByte(rest, '\n'); i >= 0 {
				line, rest = rest[:i], rest[i+1:]
			} else {
				rest = nil
			}
			line = bytes.TrimSuffix(line, []byte("\r"))
			if !re.Match(line) {
				continue
			}
			if len(res.Matches) >= opt.MaxResults {
				full = true
				return fs.SkipAll
			}
			text := string(line)
			if len(text) > maxGrepLine {
				cut := maxGrepLine
				for cut > 0 && !utf8RuneStart(text[cut]) {
					cut--
				}
				text = text[:cut] + "…"
			}
			res.Matches = append(res.Matches, GrepMatch{Path: r, Line: n, Text: text})
		}
		return nil
	}
	if !fi.IsDir() {
		if match == nil || match(rel) {
			search(rel, fi.Size())
		}
	} else {
		ign := workspace.NewIgnore(fsys)
		if ign.Ignored(rel, true) {
			ign = nil
		}
		err = workspace.WalkFS(ctx, fsys, ign, rel, func(r string, d fs.DirEntry) error {
			if !d.Type().IsRegular() || (match != nil && !match(r)) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			return search(r, info.Size())
		})
		if err != nil {
			return GrepResult{}, ctxOr("grep", rel, err)
		}
	}
	res.Count = len(res.Matches)
	res.Truncated = full
	return res, nil
}

// Glob returns the sorted non-ignored paths (files and directories)
// matching pattern; see workspace.Glob for the syntax.
func (s *Set) Glob(ctx context.Context, pattern string) ([]string, error) {
	if filepath.IsAbs(pattern) {
		rel, err := s.rel(pattern)
		if err != nil {
			return nil, err
		}
		pattern = rel
	}
	if c := path.Clean(pattern); c == ".." || strings.HasPrefix(c, "../") {
		return nil, failf(KindOutside, "glob patterns are relative to the workspace root", "glob: %s leads outside the workspace", pattern)
	}
	g, err := workspace.CompileGlob(pattern)
	if err != nil {
		return nil, failf(KindInvalid, "use a pattern such as \"*.go\", \"**/*.go\" or \"src/**/test_*.py\"", "glob: bad pattern: %v", err)
	}
	fsys := s.fsys()
	base := g.Base()
	if fi, err := fs.Stat(fsys, base); err != nil || !fi.IsDir() {
		return []string{}, nil
	}
	ign := workspace.NewIgnore(fsys)
	if ign.Ignored(base, true) {
		ign = nil // the pattern names an ignored directory: search it, as asked
	}
	out := []string{}
	tooMany := false
	err = workspace.WalkFS(ctx, fsys, ign, base, func(r string, d fs.DirEntry) error {
		if g.Match(r) {
			if len(out) >= maxGlobResults {
				tooMany = true
				return fs.SkipAll
			}
			out = append(out, r)
		}
		if d.IsDir() && !g.CanMatchUnder(r) {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, ctxOr("glob", base, err)
	}
	if tooMany {
		return nil, failf(KindTooLarge, "narrow the pattern, e.g. \"src/**/*.go\" instead of \"**/*\"", "glob: %q matches more than %d paths", pattern, maxGlobResults)
	}
	slices.Sort(out)
	return out, nil
}
