package workspace

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrOutside means a path names something outside the workspace.
var ErrOutside = errors.New("outside the workspace")

// Within makes p absolute against cwd (when relative) and cleans it; with a
// root, a result outside it is refused (ErrOutside). Symlinks are not
// followed: this is about the path the model named, the tools' os.Root jail
// guards the filesystem.
func Within(root, cwd, p string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, p)
	}
	abs = filepath.Clean(abs)
	if root != "" {
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s is %w", p, ErrOutside)
		}
	}
	return abs, nil
}

// Canonical is the one spelling of a path that names a folder or file
// however it was reached: absolute, symlinks resolved, cleaned. A path that
// does not exist (or cannot be resolved) comes back absolute and cleaned;
// "" stays "". Sessions, trust lists, REPL ids and the AGENTS.md chain
// compare paths in this form; Resolve is the strict form that also
// requires an existing directory.
func Canonical(p string) string {
	if p == "" {
		return ""
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return filepath.Clean(p)
}

// RelTo shows abs relative to base (slash-separated) when it lies inside
// base, else abs unchanged.
func RelTo(base, abs string) string {
	if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return abs
}
