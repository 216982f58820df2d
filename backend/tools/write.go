package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// WriteResult is what write returns.
type WriteResult struct {
	Path    string
	Bytes   int
	Lines   int
	Created bool
}

// Write replaces (or creates) the file at p with content, creating parent
// directories, atomically. The new content's hash is remembered.
func (s *Set) Write(ctx context.Context, p, content string) (WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return WriteResult{}, fmt.Errorf("write: %w", err)
	}
	rel, err := s.rel(p)
	if err != nil {
		return WriteResult{}, err
	}
	if rel == "." {
		return WriteResult{}, failf(KindIsDir, "give a file path such as \"notes.md\"", "write: the workspace root is a directory")
	}
	created, err := s.writeAtomic("write", rel, []byte(content))
	if err != nil {
		return WriteResult{}, err
	}
	return WriteResult{Path: rel, Bytes: len(content), Lines: len(splitLines([]byte(content))), Created: created}, nil
}

// writeAtomic writes data to rel through a temp file in the same directory
// and a rename, keeping an existing file's permissions, and remembers the
// hash. It reports whether the file was created.
func (s *Set) writeAtomic(tool, rel string, data []byte) (created bool, err error) {
	name := filepath.FromSlash(rel)
	perm := fs.FileMode(0o644)
	fi, err := s.root.Lstat(name)
	switch {
	case err == nil && fi.IsDir():
		return false, failf(KindIsDir, "choose a file path; ls(\""+rel+"\") shows what the directory holds", "%s: %s is a directory", tool, rel)
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		target, _ := s.root.Readlink(name)
		return false, failf(KindInvalid, "write to the file the link points to, by its own path", "%s: %s is a symlink (to %s); refusing to replace the link", tool, rel, target)
	case err == nil:
		perm = fi.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		created = true
	default:
		return false, fsErr(tool, rel, err)
	}
	dir := path.Dir(rel)
	if dir != "." {
		if err := s.root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
			return false, fsErr(tool, dir, err)
		}
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(dir, "."+path.Base(rel)+".vis-"+hex.EncodeToString(rnd[:])+".tmp")
	f, err := s.root.OpenFile(filepath.FromSlash(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return false, fsErr(tool, rel, err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = s.root.Chmod(filepath.FromSlash(tmp), perm) // umask may have narrowed it
	}
	if werr == nil {
		werr = s.root.Rename(filepath.FromSlash(tmp), name)
	}
	if werr != nil {
		_ = s.root.Remove(filepath.FromSlash(tmp))
		if strings.Contains(werr.Error(), "no space") {
			return false, failf(KindIO, "free some disk space", "%s: %s: disk full", tool, rel)
		}
		return false, fsErr(tool, rel, werr)
	}
	s.remember(rel, data)
	return created, nil
}
