package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// UndoMode says what Undo does with files changed again since the turn.
type UndoMode int

const (
	// UndoRefuse: any such file refuses the whole undo (ConflictError).
	UndoRefuse UndoMode = iota
	// UndoRest restores the other files and leaves those as they are.
	UndoRest
	// UndoOverwrite restores them too, losing the later changes (they stay
	// in the undo's own before snapshot, so undoing the undo brings them
	// back).
	UndoOverwrite
)

// UndoResult says what an Undo did.
type UndoResult struct {
	Restored    []string `json:"restored"`               // written back as before the turn (content and mode)
	Removed     []string `json:"removed"`                // created by the turn, deleted now
	Skipped     []string `json:"skipped,omitempty"`      // changed since the turn, left as they are (UndoRest)
	NotRestored []string `json:"not_restored,omitempty"` // too large to have been kept before the turn, or behind a symlink
	Conflicts   []string `json:"conflicts,omitempty"`    // changed since the turn (overwritten or skipped)
}

// Files is how many files the undo changed.
func (u UndoResult) Files() int { return len(u.Restored) + len(u.Removed) }

// Undo puts every file turn changed back as it was before the turn:
// contents and permission bits, files it created removed, files it deleted
// back, empty directories it created removed. Files changed again since the
// turn's after snapshot are conflicts, handled as mode says; with
// UndoRefuse any conflict returns *ConflictError and changes nothing. The
// undo is recorded as the before and after snapshots of the turn that into
// returns (called once the undo goes ahead, before any file changes), so
// undoing that turn redoes turn.
func (k *Keeper) Undo(ctx context.Context, ws string, turn int64, mode UndoMode, into func() (int64, error)) (UndoResult, error) {
	return k.undo(ctx, ws, turn, nil, mode, into)
}

// undo is Undo limited to the paths only holds (all the turn's paths when
// only is nil).
func (k *Keeper) undo(ctx context.Context, ws string, turn int64, only func(string) bool, mode UndoMode, into func() (int64, error)) (UndoResult, error) {
	var res UndoResult
	r, unlock, err := k.open(ctx, ws)
	if err != nil {
		return res, err
	}
	defer unlock()
	b, a, err := r.pair(turn)
	if err != nil {
		return res, err
	}
	mb, err := r.readMeta(ctx, b)
	if err != nil {
		return res, err
	}
	c, err := r.snapshot(ctx, k.opts)
	if err != nil {
		return res, err
	}
	turnPaths, err := r.changedSet(ctx, b, a)
	if err != nil {
		return res, err
	}
	if only != nil {
		turnPaths = slices.DeleteFunc(turnPaths, func(p string) bool { return !only(p) })
		if len(turnPaths) == 0 {
			return res, ErrNotInTurn
		}
	}
	later, err := r.changedSet(ctx, a, c)
	if err != nil {
		return res, err
	}
	skip := map[string]bool{}
	for _, p := range turnPaths {
		if slices.Contains(later, p) {
			res.Conflicts = append(res.Conflicts, p)
		}
	}
	if len(res.Conflicts) > 0 {
		switch mode {
		case UndoRefuse:
			return UndoResult{}, &ConflictError{Files: res.Conflicts}
		case UndoRest:
			for _, p := range res.Conflicts {
				skip[p] = true
			}
			res.Skipped = res.Conflicts
		}
	}
	undoTurn, err := into()
	if err != nil {
		return res, err
	}
	if err := r.writeRef(refName(undoTurn, Before), c); err != nil {
		return res, err
	}
	treeB, err := r.treeModes(ctx, b, nil)
	if err != nil {
		return res, err
	}
	dirsB := map[string]bool{}
	for p := range treeB {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirsB[d] = true
		}
	}
	for _, d := range mb.Empty {
		dirsB[d] = true
	}
	var checkout, remove []string
	for _, p := range turnPaths {
		switch {
		case skip[p]:
		case !r.safe(p):
			res.NotRestored = append(res.NotRestored, p)
		case treeB[p] != "":
			checkout = append(checkout, p)
		default:
			if _, large := mb.Large[p]; large {
				res.NotRestored = append(res.NotRestored, p)
			} else {
				remove = append(remove, p)
			}
		}
	}
	// Files the turn created go first (deepest first), with the
	// directories they leave empty that did not exist before.
	slices.SortFunc(remove, func(x, y string) int { return strings.Compare(y, x) })
	for _, p := range remove {
		err := os.Remove(r.abs(p))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			if fi, serr := os.Lstat(r.abs(p)); serr == nil && fi.IsDir() {
				err = os.RemoveAll(r.abs(p)) // the turn's file is a directory now: put back what was there
			}
			if err != nil {
				return res, fmt.Errorf("checkpoint: undo: %w", err)
			}
		}
		res.Removed = append(res.Removed, p)
		r.pruneDirs(path.Dir(p), dirsB)
	}
	ma, err := r.readMeta(ctx, a)
	if err != nil {
		return res, err
	}
	for _, d := range ma.Empty {
		if !dirsB[d] && r.safe(d) {
			r.pruneDirs(d, dirsB)
		}
	}
	for _, d := range mb.Empty {
		if r.safe(d) {
			if err := os.MkdirAll(r.abs(d), 0o755); err != nil {
				return res, fmt.Errorf("checkpoint: undo: %w", err)
			}
		}
	}
	if len(checkout) > 0 {
		for _, p := range checkout {
			// A directory where the file was (the turn made one) goes.
			if fi, err := os.Lstat(r.abs(p)); err == nil && fi.IsDir() {
				if err := os.RemoveAll(r.abs(p)); err != nil {
					return res, fmt.Errorf("checkpoint: undo: %w", err)
				}
			}
		}
		idx := filepath.Join(r.dir, "undo.index")
		defer os.Remove(idx)
		env := []string{"GIT_INDEX_FILE=" + idx}
		if _, err := r.run(ctx, nil, env, "read-tree", b); err != nil {
			return res, err
		}
		if _, err := r.run(ctx, nulList(checkout), env, "checkout-index", "-f", "-z", "--stdin"); err != nil {
			return res, err
		}
		for _, p := range checkout {
			if tm := treeB[p]; tm == "100644" || tm == "100755" {
				if err := os.Chmod(r.abs(p), mb.perm(p, tm)&fs.ModePerm); err != nil {
					return res, fmt.Errorf("checkpoint: undo: %w", err)
				}
			}
			res.Restored = append(res.Restored, p)
		}
	}
	d, err := r.snapshot(ctx, k.opts)
	if err != nil {
		return res, err
	}
	if err := r.writeRef(refName(undoTurn, After), d); err != nil {
		return res, err
	}
	slices.Sort(res.Removed)
	return res, nil
}

func (r *repo) abs(p string) string { return filepath.Join(r.ws, filepath.FromSlash(p)) }

// safe reports whether no directory on p's way from the workspace root is
// a symlink (writing there would land outside the workspace, or elsewhere
// in it).
func (r *repo) safe(p string) bool {
	segs := strings.Split(p, "/")
	cur := r.ws
	for _, s := range segs[:len(segs)-1] {
		cur = filepath.Join(cur, s)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return true
		}
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return false
		}
	}
	return true
}

// pruneDirs removes dir and its parents while they are empty and did not
// exist before the turn.
func (r *repo) pruneDirs(dir string, before map[string]bool) {
	for d := dir; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if before[d] {
			return
		}
		if os.Remove(r.abs(d)) != nil {
			return
		}
	}
}

// changedSet lists the paths whose state differs between two snapshots:
// content, link target, executable bit, exact permission bits, presence,
// or a too-large file's size, mtime or mode.
func (r *repo) changedSet(ctx context.Context, x, y string) ([]string, error) {
	if x == y {
		return nil, nil
	}
	mx, err := r.readMeta(ctx, x)
	if err != nil {
		return nil, err
	}
	my, err := r.readMeta(ctx, y)
	if err != nil {
		return nil, err
	}
	raw, err := r.rawDiff(ctx, x, y, false)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, e := range raw {
		set[e.path] = true
	}
	po, err := r.permOnly(ctx, y, mx, my, set)
	if err != nil {
		return nil, err
	}
	for _, e := range po {
		set[e[0]] = true
	}
	for _, p := range largeChanged(mx, my) {
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}
