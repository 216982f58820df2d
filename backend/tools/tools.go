// Package tools implements the agent's workspace tools (ls, cat, grep, glob,
// write, patch, shell) as plain Go methods on a Set, plus the adapter that
// binds them into the Starlark sandbox (builtins.go).
//
// Contract:
//   - A Set is opened on one workspace root with os.OpenRoot; every file tool
//     reads and writes through that *os.Root, so ".." and symlinks that lead
//     out of the workspace are refused. Absolute paths inside the workspace
//     are accepted and made relative; results always carry slash-separated
//     paths relative to the root.
//   - ls, grep and glob skip what .gitignore ignores (workspace.Ignore, read
//     afresh on every call); cat, write and patch act on any path they are
//     given.
//   - The Set remembers a content hash per file it last read (cat) or wrote
//     (write, patch). A line-range patch is refused as STALE when the file on
//     disk no longer has that hash or was never read: line numbers the model
//     holds are then not trustworthy.
//   - Failures the model should see are *Error values with a Kind, a Message
//     and a Hint saying what to do instead; other errors (a cancelled ctx) are
//     returned wrapped.
//   - Writes are atomic: a temp file in the target's directory, then rename.
//   - Shell runs `bash -c` in the workspace root (not jailed: it is a real
//     shell) in its own process group, which is killed on timeout, on ctx
//     cancellation, and when the command's main process exits.
//
// A Set is safe for concurrent use by several goroutines (the sandbox may run
// tools in parallel); two concurrent edits of the same file are serialised
// only at the rename, so the last writer wins.
package tools

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/workspace"
)

// Kind classifies a tool failure so callers can tell cases apart.
type Kind string

// Failure kinds.
const (
	KindInvalid   Kind = "invalid"   // bad arguments
	KindNotFound  Kind = "not_found" // no such file or directory
	KindOutside   Kind = "outside"   // path leads outside the workspace
	KindIsDir     Kind = "is_dir"    // a directory where a file was expected
	KindNotDir    Kind = "not_dir"   // a file where a directory was expected
	KindBinary    Kind = "binary"    // binary file where text was expected
	KindTooLarge  Kind = "too_large" // file too large for the tool
	KindStale     Kind = "stale"     // line-range patch on a file changed since read
	KindNoMatch   Kind = "no_match"  // patch old text not found
	KindAmbiguous Kind = "ambiguous" // patch old text found several times
	KindIO        Kind = "io"        // other file-system failure
)

// Error is a tool failure meant for the model: Message says what went wrong,
// Hint what to do instead.
type Error struct {
	Kind    Kind
	Message string
	Hint    string
}

func (e *Error) Error() string {
	if e.Hint == "" {
		return e.Message
	}
	return e.Message + " (hint: " + e.Hint + ")"
}

func failf(kind Kind, hint, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// IsKind reports whether err is an *Error of the given kind.
func IsKind(err error, kind Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == kind
}

// Limits. Variables rather than constants only so tests can lower them.
var (
	maxCatLines    = 2000            // lines per cat window
	maxLineBytes   = 2000            // bytes shown per line by cat before truncation
	maxFileBytes   = int64(10 << 20) // cat/patch refuse larger files
	maxGrepFile    = int64(2 << 20)  // grep skips larger files
	maxGrepLine    = 300             // bytes of a matching line kept in a grep result
	maxLsEntries   = 500             // entries per ls
	maxGlobResults = 10000           // glob fails beyond this
	maxLsDepth     = 10              // deepest ls
	maxGrepResults = 2000            // upper bound for max_results
	maxShellOutput = 64 << 10        // bytes of shell output kept
	shellGrace     = 2 * time.Second // SIGTERM -> SIGKILL grace
)

// Set is the tool set of one workspace.
type Set struct {
	root  *os.Root
	abs   string // resolved absolute root
	given string // root as given (cleaned, absolute), may contain symlinks

	mu     sync.Mutex
	hashes map[string][sha256.Size]byte // by rel path: content last read or written
}

// New opens the workspace at root. It fails when root is not a directory.
func New(root string) (*Set, error) {
	abs, err := workspace.Resolve(root)
	if err != nil {
		return nil, fmt.Errorf("open tools: %w", err)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open tools: %w", err)
	}
	given, _ := filepath.Abs(root)
	return &Set{root: r, abs: abs, given: filepath.Clean(given), hashes: map[string][sha256.Size]byte{}}, nil
}

// Close releases the workspace root. Tools called afterwards fail.
func (s *Set) Close() error { return s.root.Close() }

// Root returns the absolute, symlink-resolved workspace root.
func (s *Set) Root() string { return s.abs }

func (s *Set) fsys() fs.FS { return s.root.FS() }

// rel turns a model-given path into a clean slash-separated path relative
// to the root ("." for the root itself), refusing paths that lead outside.
func (s *Set) rel(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", failf(KindInvalid, "pass a plain path such as \"src/main.go\"", "path contains a NUL byte")
	}
	if p == "" {
		p = "."
	}
	if filepath.IsAbs(p) {
		clean := filepath.Clean(p)
		for _, base := range []string{s.abs, s.given} {
			if r, err := filepath.Rel(base, clean); err == nil && (r == "." || filepath.IsLocal(r)) {
				return filepath.ToSlash(r), nil
			}
		}
		return "", failf(KindOutside, "use a path inside the workspace, relative to its root (e.g. \"src/main.go\")",
			"%s is outside the workspace %s", p, s.abs)
	}
	r := path.Clean(filepath.ToSlash(p))
	if r == ".." || strings.HasPrefix(r, "../") {
		return "", failf(KindOutside, "use a path inside the workspace, relative to its root (e.g. \"src/main.go\")",
			"%s leads outside the workspace %s", p, s.abs)
	}
	return r, nil
}

// fsErr turns a file-system error into an *Error for the model.
func fsErr(tool, rel string, err error) error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	msg := err.Error()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return failf(KindNotFound, fmt.Sprintf("check the path with ls(%q) or glob(\"**/%s\")", path.Dir(rel), path.Base(rel)),
			"%s: no such file or directory: %s", tool, rel)
	case strings.Contains(msg, "path escapes from parent"):
		return failf(KindOutside, "use a path inside the workspace; symlinks that point outside it cannot be followed",
			"%s: %s leads outside the workspace (through .. or a symlink)", tool, rel)
	case errors.Is(err, fs.ErrPermission):
		return failf(KindIO, "", "%s: permission denied: %s", tool, rel)
	case strings.Contains(msg, "not a directory"):
		return failf(KindNotDir, "a component of the path is a file, not a directory", "%s: not a directory: %s", tool, rel)
	}
	return failf(KindIO, "", "%s: %s: %v", tool, rel, err)
}

// remember records the content the model has now seen for rel.
func (s *Set) remember(rel string, data []byte) {
	h := sha256.Sum256(data)
	s.mu.Lock()
	s.hashes[rel] = h
	s.mu.Unlock()
}

// known returns the hash last remembered for rel.
func (s *Set) known(rel string) ([sha256.Size]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.hashes[rel]
	return h, ok
}

// readText reads a text file for cat and patch: refuses directories,
// files over maxFileBytes and binary files.
func (s *Set) readText(tool, rel string) ([]byte, error) {
	if rel == "." {
		return nil, failf(KindIsDir, "use ls(\".\") to list the workspace root", "%s: the workspace root is a directory, not a file", tool)
	}
	fi, err := s.root.Stat(filepath.FromSlash(rel))
	if err != nil {
		return nil, fsErr(tool, rel, err)
	}
	if fi.IsDir() {
		return nil, failf(KindIsDir, fmt.Sprintf("use ls(%q) to list it", rel), "%s: %s is a directory, not a file", tool, rel)
	}
	if !fi.Mode().IsRegular() {
		return nil, failf(KindInvalid, "", "%s: %s is not a regular file", tool, rel)
	}
	if fi.Size() > maxFileBytes {
		return nil, failf(KindTooLarge, fmt.Sprintf("search it with grep(pattern, path=%q) or read a slice with shell(\"sed -n '100,200p' %s\")", rel, rel),
			"%s: %s is %s, more than the %s this tool reads", tool, rel, humanBytes(fi.Size()), humanBytes(maxFileBytes))
	}
	data, err := s.root.ReadFile(filepath.FromSlash(rel))
	if err != nil {
		return nil, fsErr(tool, rel, err)
	}
	if i := indexNUL(data); i >= 0 {
		return nil, failf(KindBinary, fmt.Sprintf("inspect it with shell(\"file %s\") or shell(\"xxd %s | head -20\")", rel, rel),
			"%s: %s is a binary file (NUL byte at offset %d); %s works on text only", tool, rel, i, tool)
	}
	return data, nil
}

func indexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// splitLines splits file content into lines without their "\n"; a final
// newline does not start another line. A "\r" before "\n" stays in the line.
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// numbered renders lines[from-1:to] in cat's format: the line number
// right-aligned to the width of the last one shown, "|", then the line as
// in the file ("%*d|%s"), joined by "\n", with "\r" dropped and over-long
// lines truncated. The gutter is as narrow as the numbers and ASCII: on a
// read of a short file it was most of what cat added to a request
// ("%6d│ " took 10 bytes a line, issue 17).
func numbered(lines []string, from, to int) string {
	var b strings.Builder
	width := len(strconv.Itoa(to))
	for n := from; n <= to; n++ {
		if n > from {
			b.WriteByte('\n')
		}
		line := strings.TrimSuffix(lines[n-1], "\r")
		if len(line) > maxLineBytes {
			cut := maxLineBytes
			for cut > 0 && !utf8RuneStart(line[cut]) {
				cut--
			}
			line = fmt.Sprintf("%s… [line truncated: %d more bytes]", line[:cut], len(line)-cut)
		}
		fmt.Fprintf(&b, "%*d|%s", width, n, line)
	}
	return b.String()
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// PathInfo reports whether a workspace path exists and is a directory; it
// backs the sandbox's os.path.exists/isfile/isdir. Paths outside the
// workspace (or through symlinks leading out) do not exist for the model.
func (s *Set) PathInfo(p string) (exists, isDir bool) {
	rel, err := s.rel(p)
	if err != nil {
		return false, false
	}
	fi, err := s.root.Stat(rel)
	if err != nil {
		return false, false
	}
	return true, fi.IsDir()
}
