// Package workspace knows the project folder an agent works on: where its
// root is, which files git would ignore, and how to visit the rest.
//
// Contract:
//   - Resolve turns a user-given folder into the absolute, symlink-free root.
//   - Ignore implements .gitignore semantics (nested files, "!", anchors,
//     "dir/", "**", character classes, .git/info/exclude) plus an
//     always-ignored ".git". It reads ignore files lazily through an fs.FS and
//     is safe for concurrent use.
//   - Walk and WalkFS visit the entries that are not ignored, depth first, in
//     byte order of names, never following symlinks, skipping ignored
//     directories without reading them. They stop at the first error from the
//     callback or when ctx ends (returning ctx.Err()). Directories below the
//     start that cannot be read are skipped.
//   - Glob compiles path patterns with "**" for tools such as glob().
//
// Paths handed to callbacks are slash-separated and relative to the root.
// The fsnotify watcher is not part of this slice yet.
package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// Resolve returns the absolute, cleaned, symlink-resolved form of dir and
// fails when it is not an existing directory.
func Resolve(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve workspace %q: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolve workspace %q: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("resolve workspace %q: %w", dir, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("resolve workspace %q: not a directory", dir)
	}
	return real, nil
}

// WalkFunc is called for each entry a walk visits: files, symlinks and
// directories (not the starting directory itself). rel is slash-separated
// and relative to the root. Returning fs.SkipDir for a directory skips its
// contents; fs.SkipAll ends the walk without error; any other error ends it
// and is returned.
type WalkFunc func(rel string, d fs.DirEntry) error

// Walk visits the non-ignored entries of the workspace at root. Access goes
// through an os.Root, so nothing outside root is read.
func Walk(ctx context.Context, root string, fn WalkFunc) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("walk workspace: %w", err)
	}
	defer r.Close()
	fsys := r.FS()
	return WalkFS(ctx, fsys, NewIgnore(fsys), ".", fn)
}

// WalkFS visits the entries below dir (slash-separated, relative to the root
// of fsys) that ign does not ignore; a nil ign filters nothing. Whether dir
// itself is ignored is the caller's business.
func WalkFS(ctx context.Context, fsys fs.FS, ign *Ignore, dir string, fn WalkFunc) error {
	dir = path.Clean(dir)
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return fmt.Errorf("walk %s: %w", dir, err)
	}
	err = walkDir(ctx, fsys, ign, dir, entries, fn)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

func walkDir(ctx context.Context, fsys fs.FS, ign *Ignore, dir string, entries []fs.DirEntry, fn WalkFunc) error {
	for _, d := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		rel := d.Name()
		if dir != "." {
			rel = dir + "/" + d.Name()
		}
		if ign != nil && ign.leafIgnored(rel, d.IsDir()) {
			continue
		}
		err := fn(rel, d)
		if d.IsDir() {
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			if err != nil {
				return err
			}
			sub, rerr := fs.ReadDir(fsys, rel)
			if rerr != nil {
				continue // unreadable directory: skipped, as documented
			}
			if err := walkDir(ctx, fsys, ign, rel, sub, fn); err != nil {
				return err
			}
			continue
		}
		if errors.Is(err, fs.SkipDir) {
			return nil // like fs.WalkDir: SkipDir on a file skips the rest of its directory
		}
		if err != nil {
			return err
		}
	}
	return nil
}
