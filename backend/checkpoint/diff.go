package checkpoint

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// File statuses of a diff entry.
const (
	StatusAdded    = "added"
	StatusDeleted  = "deleted"
	StatusModified = "modified"
	StatusRenamed  = "renamed"
	StatusBinary   = "binary"    // a binary file changed (added/deleted binaries say added/deleted, with Binary set)
	StatusTooLarge = "too-large" // changed, over a size cap: recorded, not kept, no diff
)

// FileChange is one file a turn changed.
type FileChange struct {
	Path     string `json:"path"`
	OldPath  string `json:"old_path,omitempty"` // renamed from
	Status   string `json:"status"`
	Binary   bool   `json:"binary,omitempty"`
	TooLarge bool   `json:"too_large,omitempty"`
	Added    int    `json:"added"`
	Deleted  int    `json:"deleted"`
	OldMode  string `json:"old_mode,omitempty"` // octal permission bits or "symlink", when they changed
	NewMode  string `json:"new_mode,omitempty"`
	Size     int64  `json:"size,omitempty"` // a too-large file's size after the turn (0 when deleted)
	Patch    string `json:"patch,omitempty"`
	// PatchClipped: the patch text was cut at MaxPatchBytes.
	PatchClipped bool `json:"patch_clipped,omitempty"`
}

// Changes is a turn's diff.
type Changes struct {
	Files   []FileChange `json:"files"`
	Added   int          `json:"added"`
	Deleted int          `json:"deleted"`
}

// Summary is a turn's figures: N files changed, +Added −Deleted.
type Summary struct {
	Files   int `json:"files"`
	Added   int `json:"added"`
	Deleted int `json:"deleted"`
}

// Summary returns the figures of the diff.
func (c Changes) Summary() Summary {
	return Summary{Files: len(c.Files), Added: c.Added, Deleted: c.Deleted}
}

// MaxPatchBytes bounds one file's patch text in a Diff.
const MaxPatchBytes = 512 << 10

// Diff returns what the turn changed: its before snapshot against its
// after snapshot, renames detected, sorted by path. withPatch adds each
// file's unified diff text.
func (k *Keeper) Diff(ctx context.Context, ws string, turn int64, withPatch bool) (Changes, error) {
	r, unlock, err := k.open(ctx, ws)
	if err != nil {
		return Changes{}, err
	}
	defer unlock()
	b, a, err := r.pair(turn)
	if err != nil {
		return Changes{}, err
	}
	return r.diff(ctx, b, a, withPatch)
}

// rawEntry is one line of `git diff-tree --raw -z`.
type rawEntry struct {
	oldMode, newMode string
	oldID, newID     string
	status           byte
	path, oldPath    string
}

// rawDiff lists the tree entries that differ between two snapshots.
func (r *repo) rawDiff(ctx context.Context, from, to string, renames bool) ([]rawEntry, error) {
	args := []string{"diff-tree", "-r", "-z", "--raw", "--no-ext-diff", "--no-textconv"}
	if renames {
		args = append(args, "-M")
	} else {
		args = append(args, "--no-renames")
	}
	out, err := r.run(ctx, nil, nil, append(args, from, to)...)
	if err != nil {
		return nil, err
	}
	f := strings.Split(string(out), "\x00")
	var es []rawEntry
	for i := 0; i < len(f); i++ {
		h := f[i]
		if !strings.HasPrefix(h, ":") {
			continue
		}
		parts := strings.Fields(h[1:])
		if len(parts) < 5 || i+1 >= len(f) {
			return nil, fmt.Errorf("checkpoint: unexpected diff-tree line %q", h)
		}
		e := rawEntry{oldMode: parts[0], newMode: parts[1], oldID: parts[2], newID: parts[3], status: parts[4][0]}
		if e.status == 'R' || e.status == 'C' {
			e.oldPath, e.path = f[i+1], f[i+2]
			i += 2
		} else {
			e.path = f[i+1]
			i++
		}
		es = append(es, e)
	}
	return es, nil
}

// numstat counts added and deleted lines per path (-1 for a binary file).
func (r *repo) numstat(ctx context.Context, from, to string) (map[string][2]int, error) {
	out, err := r.run(ctx, nil, nil, "diff-tree", "-r", "-z", "-M", "--numstat", "--no-ext-diff", "--no-textconv", from, to)
	if err != nil {
		return nil, err
	}
	f := strings.Split(string(out), "\x00")
	ns := map[string][2]int{}
	for i := 0; i < len(f); i++ {
		cols := strings.SplitN(f[i], "\t", 3)
		if len(cols) != 3 {
			continue
		}
		p := cols[2]
		if p == "" && i+2 < len(f) { // a rename: "A\tD\t\0old\0new"
			p = f[i+2]
			i += 2
		}
		a, errA := strconv.Atoi(cols[0])
		d, errD := strconv.Atoi(cols[1])
		if errA != nil || errD != nil {
			a, d = -1, -1
		}
		ns[p] = [2]int{a, d}
	}
	return ns, nil
}

// patches splits the unified diff of two snapshots into one text per
// entry, in diff-tree's order.
func (r *repo) patches(ctx context.Context, from, to string) ([]string, error) {
	out, err := r.run(ctx, nil, nil, "diff-tree", "-r", "-M", "-p", "--no-color", "--no-ext-diff", "--no-textconv", from, to)
	if err != nil {
		return nil, err
	}
	var ps []string
	var cur strings.Builder
	started := false
	for _, line := range strings.SplitAfter(string(out), "\n") {
		if strings.HasPrefix(line, "diff --git ") {
			if started {
				ps = append(ps, cur.String())
			}
			cur.Reset()
			started = true
		}
		if started {
			cur.WriteString(line)
		}
	}
	if started {
		ps = append(ps, cur.String())
	}
	return ps, nil
}

func (r *repo) diff(ctx context.Context, b, a string, withPatch bool) (Changes, error) {
	mb, err := r.readMeta(ctx, b)
	if err != nil {
		return Changes{}, err
	}
	ma, err := r.readMeta(ctx, a)
	if err != nil {
		return Changes{}, err
	}
	var ch Changes
	if b == a {
		return Changes{Files: []FileChange{}}, nil
	}
	raw, err := r.rawDiff(ctx, b, a, true)
	if err != nil {
		return ch, err
	}
	ns, err := r.numstat(ctx, b, a)
	if err != nil {
		return ch, err
	}
	var ps []string
	if withPatch {
		if ps, err = r.patches(ctx, b, a); err != nil {
			return ch, err
		}
	}
	large := func(p string) bool {
		_, x := mb.Large[p]
		_, y := ma.Large[p]
		return x || y
	}
	seen := map[string]bool{}
	for i, e := range raw {
		seen[e.path] = true
		if e.oldPath != "" {
			seen[e.oldPath] = true
		}
		if large(e.path) || (e.oldPath != "" && large(e.oldPath)) {
			continue // shown below, as too large
		}
		fc := FileChange{Path: e.path, OldPath: e.oldPath}
		switch e.status {
		case 'A':
			fc.Status = StatusAdded
		case 'D':
			fc.Status = StatusDeleted
		case 'R', 'C':
			fc.Status = StatusRenamed
		default:
			fc.Status = StatusModified
		}
		n, ok := ns[e.path]
		if ok && n[0] < 0 {
			fc.Binary = true
			if fc.Status == StatusModified {
				fc.Status = StatusBinary
			}
		} else if ok {
			fc.Added, fc.Deleted = n[0], n[1]
		}
		src := e.oldPath
		if src == "" {
			src = e.path
		}
		om, nm := modeText(mb, src, e.oldMode), modeText(ma, e.path, e.newMode)
		if e.status != 'A' && e.status != 'D' && om != nm {
			fc.OldMode, fc.NewMode = om, nm
		}
		if withPatch && i < len(ps) {
			fc.Patch = ps[i]
			if len(fc.Patch) > MaxPatchBytes {
				fc.Patch, fc.PatchClipped = fc.Patch[:MaxPatchBytes], true
			}
		}
		ch.Files = append(ch.Files, fc)
	}
	// Files whose permission bits alone changed (Git keeps only the
	// executable bit).
	po, err := r.permOnly(ctx, a, mb, ma, seen)
	if err != nil {
		return ch, err
	}
	for _, x := range po {
		seen[x[0]] = true
		fc := FileChange{Path: x[0], Status: StatusModified, OldMode: x[1], NewMode: x[2]}
		if withPatch {
			fc.Patch = fmt.Sprintf("mode %s → %s\n", fc.OldMode, fc.NewMode)
		}
		ch.Files = append(ch.Files, fc)
	}
	for _, p := range largeChanged(mb, ma) {
		fc := FileChange{Path: p, Status: StatusTooLarge, TooLarge: true}
		if s, ok := ma.Large[p]; ok {
			fc.Size = s.Size
		}
		ch.Files = append(ch.Files, fc)
	}
	slices.SortFunc(ch.Files, func(x, y FileChange) int { return strings.Compare(x.Path, y.Path) })
	for _, f := range ch.Files {
		ch.Added += f.Added
		ch.Deleted += f.Deleted
	}
	if ch.Files == nil {
		ch.Files = []FileChange{}
	}
	return ch, nil
}

// largeChanged lists the paths recorded as too large in either snapshot
// whose state differs between them.
func largeChanged(mb, ma *meta) []string {
	var out []string
	for p, s := range ma.Large {
		if old, ok := mb.Large[p]; !ok || old != s {
			out = append(out, p)
		}
	}
	for p := range mb.Large {
		if _, ok := ma.Large[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// permOnly lists files unchanged in both trees (not in seen) whose exact
// permission bits differ, with their bits before and after.
func (r *repo) permOnly(ctx context.Context, a string, mb, ma *meta, seen map[string]bool) ([][3]string, error) {
	cand := map[string]bool{}
	for p := range mb.Perms {
		cand[p] = true
	}
	for p := range ma.Perms {
		cand[p] = true
	}
	var ps []string
	for p := range cand {
		_, lb := mb.Large[p]
		_, la := ma.Large[p]
		if !seen[p] && !lb && !la && mb.Perms[p] != ma.Perms[p] {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 && (mb.Perm == ma.Perm && mb.XPerm == ma.XPerm) {
		return nil, nil
	}
	modes, err := r.treeModes(ctx, a, ps)
	if err != nil {
		return nil, err
	}
	var out [][3]string
	for p, tm := range modes {
		if seen[p] || tm == "120000" {
			continue
		}
		if _, ok := mb.Large[p]; ok {
			continue
		}
		ob, oa := mb.perm(p, tm)&fs.ModePerm, ma.perm(p, tm)&fs.ModePerm
		if ob != oa {
			out = append(out, [3]string{p, fmt.Sprintf("%04o", uint32(ob)), fmt.Sprintf("%04o", uint32(oa))})
		}
	}
	slices.SortFunc(out, func(x, y [3]string) int { return strings.Compare(x[0], y[0]) })
	return out, nil
}

// treeModes returns the tree modes of paths in a snapshot (all its files
// when paths is nil).
func (r *repo) treeModes(ctx context.Context, id string, paths []string) (map[string]string, error) {
	args := []string{"ls-tree", "-r", "-z", "--full-tree", id}
	if paths != nil {
		args = append(args, "--")
		args = append(args, paths...)
	}
	out, err := r.run(ctx, nil, nil, args...)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, rec := range strings.Split(string(out), "\x00") {
		tab := strings.IndexByte(rec, '\t')
		if tab < 0 {
			continue
		}
		f := strings.Fields(rec[:tab])
		if len(f) >= 1 {
			m[rec[tab+1:]] = f[0]
		}
	}
	return m, nil
}

// modeText is an entry's mode as the diff shows it: "symlink", or the
// exact permission bits.
func modeText(m *meta, metaPath, treeMode string) string {
	switch treeMode {
	case "120000":
		return "symlink"
	case "000000", "":
		return ""
	case "160000":
		return "submodule"
	}
	if metaPath == "" {
		return ""
	}
	return fmt.Sprintf("%04o", uint32(m.perm(metaPath, treeMode)&fs.ModePerm))
}

// DiffRange returns what changed from turn from's before snapshot to turn
// to's after snapshot (a session's net change over several turns, with
// whatever happened between them), limited to paths when it is not nil (a
// renamed file is kept when either of its names is in paths).
func (k *Keeper) DiffRange(ctx context.Context, ws string, from, to int64, paths []string, withPatch bool) (Changes, error) {
	r, unlock, err := k.open(ctx, ws)
	if err != nil {
		return Changes{}, err
	}
	defer unlock()
	b, _, err := r.pair(from)
	if err != nil {
		return Changes{}, err
	}
	_, a, err := r.pair(to)
	if err != nil {
		return Changes{}, err
	}
	ch, err := r.diff(ctx, b, a, withPatch)
	if err != nil || paths == nil {
		return ch, err
	}
	keep := map[string]bool{}
	for _, p := range paths {
		keep[p] = true
	}
	out := Changes{Files: []FileChange{}}
	for _, f := range ch.Files {
		if keep[f.Path] || (f.OldPath != "" && keep[f.OldPath]) {
			out.Files = append(out.Files, f)
			out.Added += f.Added
			out.Deleted += f.Deleted
		}
	}
	return out, nil
}
