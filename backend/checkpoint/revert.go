package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ErrNotInTurn: the file or hunk named is not among the turn's changes.
var ErrNotInTurn = errors.New("not among the turn's changes")

// RevertFile puts one file of the turn's diff back as it was before the
// turn, as Undo does for all of them (a renamed file: both its names; a
// created file is removed, a deleted one comes back). A file changed again
// since the turn is a *ConflictError unless mode is UndoOverwrite (UndoRest
// leaves it, which undoes nothing: also a conflict). The revert is recorded
// as the snapshots of the turn into returns, so undoing that turn redoes it.
func (k *Keeper) RevertFile(ctx context.Context, ws string, turn int64, file string, mode UndoMode, into func() (int64, error)) (UndoResult, error) {
	set, err := k.fileSet(ctx, ws, turn, file)
	if err != nil {
		return UndoResult{}, err
	}
	if mode == UndoRest {
		mode = UndoRefuse
	}
	return k.undo(ctx, ws, turn, func(p string) bool { return set[p] }, mode, into)
}

// fileSet is the paths a revert of file touches: file, and the name it had
// before the turn when the turn renamed it.
func (k *Keeper) fileSet(ctx context.Context, ws string, turn int64, file string) (map[string]bool, error) {
	r, unlock, err := k.open(ctx, ws)
	if err != nil {
		return nil, err
	}
	defer unlock()
	b, a, err := r.pair(turn)
	if err != nil {
		return nil, err
	}
	raw, err := r.rawDiff(ctx, b, a, true)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{file: true}
	for _, e := range raw {
		if e.path == file && e.oldPath != "" {
			set[e.oldPath] = true
		}
	}
	return set, nil
}

// Hunks splits a file's unified diff (a FileChange's Patch) into its
// header and its hunks, each starting at its "@@" line.
func Hunks(patch string) (header string, hunks []string) {
	var cur strings.Builder
	inHunk := false
	for _, line := range strings.SplitAfter(patch, "\n") {
		if strings.HasPrefix(line, "@@") {
			if inHunk {
				hunks = append(hunks, cur.String())
			}
			cur.Reset()
			inHunk = true
		} else if !inHunk {
			header += line
			continue
		}
		cur.WriteString(line)
	}
	if inHunk {
		hunks = append(hunks, cur.String())
	}
	return header, hunks
}

// RevertHunk takes back one hunk (0-based, in the order of the file's
// patch in Diff) of the turn's change to a modified text file, leaving the
// rest of the file as it is now: the hunk is applied in reverse to the
// file on disk, so later edits elsewhere in the file stay. When the file
// no longer holds the hunk's lines (changed there since the turn), nothing
// changes and the answer is a *ConflictError naming the file. Permission
// bits are kept. Recorded like RevertFile.
func (k *Keeper) RevertHunk(ctx context.Context, ws string, turn int64, file string, hunk int, into func() (int64, error)) (UndoResult, error) {
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
	out, err := r.run(ctx, nil, nil, "diff-tree", "-r", "-p", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", b, a, "--", file)
	if err != nil {
		return res, err
	}
	mb, err := r.readMeta(ctx, b)
	if err != nil {
		return res, err
	}
	ma, err := r.readMeta(ctx, a)
	if err != nil {
		return res, err
	}
	_, lb := mb.Large[file]
	_, la := ma.Large[file]
	header, hunks := Hunks(string(out))
	switch {
	case len(out) == 0 || lb || la:
		return res, fmt.Errorf("%s: %w", file, ErrNotInTurn)
	case strings.Contains(header, "new file mode") || strings.Contains(header, "deleted file mode"):
		return res, fmt.Errorf("checkpoint: %s was created or deleted by the turn: revert the whole file", file)
	case strings.Contains(header, "Binary files") || strings.Contains(header, "GIT binary patch"):
		return res, fmt.Errorf("checkpoint: %s is binary: revert the whole file", file)
	case hunk < 0 || hunk >= len(hunks):
		return res, fmt.Errorf("%s has %d hunk(s), not hunk %d: %w", file, len(hunks), hunk+1, ErrNotInTurn)
	case !r.safe(file):
		return res, fmt.Errorf("checkpoint: %s is behind a symlink: not reverted", file)
	}
	patch := []byte(header + hunks[hunk])
	if _, err := r.run(ctx, patch, nil, "apply", "-R", "--check", "-"); err != nil {
		return res, &ConflictError{Files: []string{file}}
	}
	fi, err := os.Lstat(r.abs(file))
	if err != nil || !fi.Mode().IsRegular() {
		return res, &ConflictError{Files: []string{file}}
	}
	c, err := r.snapshot(ctx, k.opts)
	if err != nil {
		return res, err
	}
	undoTurn, err := into()
	if err != nil {
		return res, err
	}
	if err := r.writeRef(refName(undoTurn, Before), c); err != nil {
		return res, err
	}
	if _, err := r.run(ctx, patch, nil, "apply", "-R", "-"); err != nil {
		return res, err
	}
	if err := os.Chmod(r.abs(file), fi.Mode()&fs.ModePerm); err != nil {
		return res, fmt.Errorf("checkpoint: revert: %w", err)
	}
	d, err := r.snapshot(ctx, k.opts)
	if err != nil {
		return res, err
	}
	if err := r.writeRef(refName(undoTurn, After), d); err != nil {
		return res, err
	}
	res.Restored = []string{file}
	return res, nil
}
