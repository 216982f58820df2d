// Package checkpoint keeps a snapshot of a workspace's files before and
// after each turn, so a turn's changes can be listed as a diff and undone
// exactly, whatever made them (host functions, shell, a REPL, a test
// runner, a formatter).
//
// Storage: one shadow Git repository per workspace under the directory
// given to New (the engine passes $VIS_HOME/desktop/checkpoints), driven by
// the `git` binary with GIT_DIR=<shadow> and GIT_WORK_TREE=<workspace>, its
// own index, and no inherited GIT_* variable, global or system config. The
// project's own .git is never written: no commit, no stash, no index change,
// no ref (its .git/info/exclude is only read, as an excludes file). A
// snapshot is a commit of the shadow repository whose tree holds the kept
// files and whose message holds what a Git tree cannot (exact permission
// bits, files over the size caps, empty directories) as JSON; refs
// refs/vis/turns/<turn>/{before,after} name a turn's two snapshots.
//
// Why Git and not content-addressed blobs in SQLite (measured, see
// docs/PERFORMANCE.md "Checkpoints"): Git's index is a stat cache, so an
// incremental snapshot hashes only the files whose stat changed and writes
// only their blobs and the trees above them (bytes proportional to what
// changed), and diff, rename detection, binary detection and unified
// patches come with it. A SQLite blob store would need the same stat cache,
// tree dedup and a diff of its own to reach the same figures.
//
// What is kept: the workspace's entries that are not ignored
// (.gitignore files, .git/info/exclude, and any .git, with the workspace
// package's rules, which are Git's); directories holding a .git of their
// own (nested repositories) are left out. Regular files, executable bits
// and exact permissions, symlinks (recorded as links, never followed), and
// binary files. A file over Options.MaxFileBytes, or a changed file that
// would take the turn's kept bytes over Options.MaxTurnBytes, is not
// stored: it is recorded by size, mtime and mode, shown as "too-large" in a
// diff, and reported as not restored by an undo that would need its
// content. Nothing is dropped silently.
//
// Concurrency: a Keeper is safe for concurrent use; operations on one
// workspace are serialized by an advisory lock file in its shadow
// repository (flock), across processes too (the window and `vis undo`).
// Failure: every error names the step that failed; a failed Take leaves the
// previous snapshots intact, and an Undo that is refused (ConflictError)
// changes nothing on disk.
package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Phase names one of a turn's two snapshots.
type Phase string

const (
	Before Phase = "before"
	After  Phase = "after"
)

// Default caps.
const (
	DefaultMaxFileBytes = 8 << 20
	DefaultMaxTurnBytes = 64 << 20
)

// Options tune a Keeper. Zero values take the defaults.
type Options struct {
	MaxFileBytes int64  // a file larger than this is recorded, not kept
	MaxTurnBytes int64  // changed bytes kept per snapshot; the rest recorded, not kept
	Git          string // the git binary; "git" from PATH when empty
}

// Keeper takes, diffs and undoes snapshots of workspaces.
type Keeper struct {
	dir  string
	opts Options
}

// New returns a Keeper whose shadow repositories live under dir (created
// when first needed).
func New(dir string, opts Options) *Keeper {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.MaxTurnBytes <= 0 {
		opts.MaxTurnBytes = DefaultMaxTurnBytes
	}
	if opts.Git == "" {
		opts.Git = "git"
	}
	return &Keeper{dir: dir, opts: opts}
}

// ErrNoCheckpoint: the turn has no snapshot (it ran no program, or it ran
// before checkpoints existed).
var ErrNoCheckpoint = errors.New("no checkpoint for this turn")

// ConflictError is an Undo refused because files the turn changed were
// changed again afterwards (by the person or a later turn). Nothing was
// changed on disk. Retry with UndoRest to restore the other files, or
// UndoOverwrite to restore them all.
type ConflictError struct {
	Files []string // workspace-relative, slash-separated, sorted
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%d file(s) changed since the turn: %s", len(e.Files), strings.Join(e.Files, ", "))
}

// repoDir is the shadow repository of a workspace: a hash of its absolute
// path, so two workspaces never share one.
func (k *Keeper) repoDir(ws string) string {
	sum := sha256.Sum256([]byte(ws))
	return filepath.Join(k.dir, hex.EncodeToString(sum[:8]))
}

func refName(turn int64, p Phase) string {
	return "refs/vis/turns/" + strconv.FormatInt(turn, 10) + "/" + string(p)
}

// Take snapshots the workspace at ws as the turn's before or after state
// and returns the snapshot's id (a commit of the shadow repository). A
// before snapshot that exists already is kept and its id returned, so a
// turn's before is taken once, lazily.
func (k *Keeper) Take(ctx context.Context, ws string, turn int64, p Phase) (string, error) {
	r, unlock, err := k.open(ctx, ws)
	if err != nil {
		return "", err
	}
	defer unlock()
	if p == Before {
		if id, ok := r.readRef(refName(turn, Before)); ok {
			return id, nil
		}
	}
	id, err := r.snapshot(ctx, k.opts)
	if err != nil {
		return "", err
	}
	if err := r.writeRef(refName(turn, p), id); err != nil {
		return "", err
	}
	return id, nil
}

// Has reports whether the turn has both snapshots.
func (k *Keeper) Has(ws string, turn int64) bool {
	r := &repo{git: k.opts.Git, dir: k.repoDir(ws), ws: ws}
	_, b := r.readRef(refName(turn, Before))
	_, a := r.readRef(refName(turn, After))
	return a && b
}

// Forget removes a turn's refs (its snapshots' objects stay until the
// shadow repository is collected).
func (k *Keeper) Forget(ws string, turn int64) error {
	d := filepath.Join(k.repoDir(ws), "refs", "vis", "turns", strconv.FormatInt(turn, 10))
	return os.RemoveAll(d)
}

// pair reads a turn's two snapshots.
func (r *repo) pair(turn int64) (before, after string, err error) {
	b, ok := r.readRef(refName(turn, Before))
	if !ok {
		return "", "", ErrNoCheckpoint
	}
	a, ok := r.readRef(refName(turn, After))
	if !ok {
		return "", "", ErrNoCheckpoint
	}
	return b, a, nil
}

// Drop removes turns' snapshots from the workspace's shadow repository:
// their refs, then every object no remaining snapshot (or the shadow
// index) needs, under the workspace's lock so no snapshot is being written
// meanwhile. A workspace without a shadow repository is nothing to do.
func (k *Keeper) Drop(ctx context.Context, ws string, turns []int64) error {
	dir := k.repoDir(filepath.Clean(ws))
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		return nil
	}
	r, unlock, err := k.open(ctx, ws)
	if err != nil {
		return err
	}
	defer unlock()
	for _, t := range turns {
		if err := os.RemoveAll(filepath.Join(r.dir, "refs", "vis", "turns", strconv.FormatInt(t, 10))); err != nil {
			return fmt.Errorf("checkpoint: drop: %w", err)
		}
	}
	if _, err := r.run(ctx, nil, nil, "prune", "--expire=now"); err != nil {
		return err
	}
	return nil
}

// RemoveWorkspace deletes the workspace's shadow repository, every
// snapshot of it with it (no session uses the workspace any more).
func (k *Keeper) RemoveWorkspace(ctx context.Context, ws string) error {
	dir := k.repoDir(filepath.Clean(ws))
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	unlock, err := lockFile(ctx, filepath.Join(dir, "vis.lock"))
	if err != nil {
		return fmt.Errorf("checkpoint: lock: %w", err)
	}
	defer unlock()
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("checkpoint: remove: %w", err)
	}
	return nil
}
