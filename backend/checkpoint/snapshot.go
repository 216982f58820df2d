package checkpoint

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/visdesktop/vis/backend/workspace"
)

// fsig is a walked entry's stat signature: what tells an unchanged file
// from a changed one without reading it (Git's index does the same).
type fsig struct {
	Size  int64
	Mtime int64
	Ctime int64
	Ino   uint64
	Mode  uint32
}

// state is what the last snapshot of a workspace saw, kept in the shadow
// repository (vis-state.gob): it lets a snapshot of an unchanged workspace
// reuse the last commit, and tells which files changed since (the per-turn
// cap counts their bytes).
type state struct {
	Commit   string
	TakenAt  int64 // unix ns
	Sigs     map[string]fsig
	Excluded map[string]bool // large paths already removed from the shadow index
	Info     fsig            // the project's .git/info/exclude
}

// walked is one walk of the workspace.
type walked struct {
	sigs    map[string]fsig // files and symlinks
	exclude []string        // nested repositories and irregular files: never added
	empty   []string        // empty directories
	info    fsig
}

func sigOf(fi fs.FileInfo) fsig {
	s := fsig{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: uint32(fi.Mode())}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Ino = uint64(st.Ino)
		s.Ctime = ctimeOf(st)
	}
	return s
}

// walk visits the workspace's kept entries.
func (r *repo) walk(ctx context.Context) (*walked, error) {
	w := &walked{sigs: map[string]fsig{}}
	dirs := map[string]bool{}
	full := map[string]bool{}
	err := workspace.Walk(ctx, r.ws, func(rel string, d fs.DirEntry) error {
		full[path.Dir(rel)] = true
		if d.IsDir() {
			if _, err := os.Lstat(filepath.Join(r.ws, filepath.FromSlash(rel), ".git")); err == nil {
				w.exclude = append(w.exclude, rel) // a nested repository: its own history
				return fs.SkipDir
			}
			dirs[rel] = true
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil // gone since the directory was read
		}
		if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0 {
			w.exclude = append(w.exclude, rel) // socket, fifo, device
			return nil
		}
		w.sigs[rel] = sigOf(fi)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("checkpoint: walk %s: %w", r.ws, err)
	}
	for d := range dirs {
		if !full[d] {
			w.empty = append(w.empty, d)
		}
	}
	slices.Sort(w.empty)
	if fi, err := os.Lstat(filepath.Join(r.ws, ".git", "info", "exclude")); err == nil {
		w.info = sigOf(fi)
	}
	return w, nil
}

func (r *repo) loadState() state {
	st := state{}
	f, err := os.Open(filepath.Join(r.dir, "vis-state.gob"))
	if err == nil {
		defer f.Close()
		if gob.NewDecoder(f).Decode(&st) != nil {
			st = state{}
		}
	}
	return st
}

func (r *repo) saveState(st state) error {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(st); err != nil {
		return fmt.Errorf("checkpoint: state: %w", err)
	}
	p := filepath.Join(r.dir, "vis-state.gob")
	if err := os.WriteFile(p+".tmp", b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("checkpoint: state: %w", err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		return fmt.Errorf("checkpoint: state: %w", err)
	}
	return nil
}

// racyWindow: a file whose mtime or ctime is this close to (or after) the
// start of the last snapshot's walk may have changed unseen: the kernel
// stamps files with a clock that ticks every few milliseconds, so a write
// right after the walk read a file can leave the same stamp and size. Such
// files are hashed again (Git's "racy" entries, with a margin for the tick).
const racyWindow = 100 * time.Millisecond

// snapshot records the workspace as a commit of the shadow repository and
// returns its id.
func (r *repo) snapshot(ctx context.Context, o Options) (string, error) {
	started := time.Now().UnixNano()
	w, err := r.walk(ctx)
	if err != nil {
		return "", err
	}
	st := r.loadState()
	if st.Commit != "" && w.info == st.Info && unchanged(w.sigs, st) {
		if _, err := os.Stat(filepath.Join(r.dir, "objects", st.Commit[:2], st.Commit[2:])); err == nil {
			return st.Commit, nil
		}
	}
	// What is recorded, not kept: files over the per-file cap, then the
	// changed files past the turn's budget (in path order).
	large := map[string]sig{}
	var changed []string
	for p, s := range w.sigs {
		if fs.FileMode(s.Mode).IsRegular() && s.Size > o.MaxFileBytes {
			large[p] = sig{Size: s.Size, Mtime: s.Mtime, Mode: s.Mode}
			continue
		}
		old, ok := st.Sigs[p]
		if ok && old == s && st.Excluded[p] {
			// Left out of an earlier snapshot by the turn's budget and
			// unchanged since: it stays recorded, not kept.
			large[p] = sig{Size: s.Size, Mtime: s.Mtime, Mode: s.Mode}
			continue
		}
		if !ok || old != s {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	budget := o.MaxTurnBytes
	for _, p := range changed {
		s := w.sigs[p]
		if s.Size > budget {
			large[p] = sig{Size: s.Size, Mtime: s.Mtime, Mode: s.Mode}
			continue
		}
		budget -= s.Size
	}
	if err := r.updateIndex(ctx, w, st, large); err != nil {
		return "", err
	}
	out, err := r.run(ctx, nil, nil, "write-tree")
	if err != nil {
		return "", err
	}
	tree := strings.TrimSpace(string(out))
	m := permsOf(w.sigs, large)
	m.V, m.Empty = 1, w.empty
	if len(large) > 0 {
		m.Large = large
	}
	msg, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("checkpoint: %w", err)
	}
	out, err = r.run(ctx, msg, nil, "commit-tree", tree)
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(out))
	excl := map[string]bool{}
	for p := range large {
		excl[p] = true
	}
	if err := r.saveState(state{Commit: id, TakenAt: started, Sigs: w.sigs, Excluded: excl, Info: w.info}); err != nil {
		return "", err
	}
	return id, nil
}

// updateIndex brings the shadow index to the walk: what the last snapshot
// kept and is gone, ignored now or too large now is removed; what is new,
// changed, or changed recently enough to have changed unseen is hashed and
// added. Only those paths are touched, so Git hashes only the files that
// changed and write-tree rebuilds only the trees above them. Without a
// previous state (a first snapshot, or a lost state file) the index is
// rebuilt from the walk.
func (r *repo) updateIndex(ctx context.Context, w *walked, st state, large map[string]sig) error {
	if st.Commit == "" || st.Sigs == nil {
		if _, err := r.run(ctx, nil, nil, "read-tree", "--empty"); err != nil {
			return err
		}
		st.Sigs = nil
	}
	racy := st.TakenAt - int64(racyWindow)
	var add, remove []string
	for p, old := range st.Sigs {
		if st.Excluded[p] {
			continue
		}
		s, ok := w.sigs[p]
		if _, big := large[p]; !ok || big || fs.FileMode(s.Mode).Type() != fs.FileMode(old.Mode).Type() {
			remove = append(remove, p)
		}
	}
	for p, s := range w.sigs {
		if _, big := large[p]; big {
			continue
		}
		old, ok := st.Sigs[p]
		if !ok || st.Excluded[p] || old != s || s.Mtime >= racy || s.Ctime >= racy {
			add = append(add, p)
		}
	}
	slices.Sort(remove)
	slices.Sort(add)
	if len(remove) > 0 {
		if _, err := r.run(ctx, nulList(remove), nil, "update-index", "-z", "--force-remove", "--stdin"); err != nil {
			return err
		}
	}
	if len(add) > 0 {
		if _, err := r.run(ctx, nulList(add), nil, "update-index", "-z", "--add", "--replace", "--stdin"); err != nil {
			return err
		}
	}
	return nil
}

// unchanged reports whether the walk saw exactly what the last snapshot
// saw, none of it recent enough to have changed unseen.
func unchanged(now map[string]fsig, st state) bool {
	if len(now) != len(st.Sigs) {
		return false
	}
	racy := st.TakenAt - int64(racyWindow)
	for p, s := range now {
		old, ok := st.Sigs[p]
		if !ok || old != s || s.Mtime >= racy || s.Ctime >= racy {
			return false
		}
	}
	return true
}

// permsOf finds the usual permission bits of plain and executable files
// and lists the files that differ.
func permsOf(sigs map[string]fsig, large map[string]sig) *meta {
	count := [2]map[uint32]int{{}, {}}
	for _, s := range sigs {
		m := fs.FileMode(s.Mode)
		if !m.IsRegular() {
			continue
		}
		x := 0
		if m&0o100 != 0 {
			x = 1
		}
		count[x][uint32(m.Perm())]++
	}
	pick := func(c map[uint32]int, def uint32) uint32 {
		best, n := def, c[def]
		for _, k := range slices.Sorted(maps.Keys(c)) {
			if c[k] > n {
				best, n = k, c[k]
			}
		}
		return best
	}
	m := &meta{Perm: pick(count[0], 0o644), XPerm: pick(count[1], 0o755)}
	for p, s := range sigs {
		fm := fs.FileMode(s.Mode)
		if !fm.IsRegular() {
			continue
		}
		if _, ok := large[p]; ok {
			continue
		}
		want := m.Perm
		if fm&0o100 != 0 {
			want = m.XPerm
		}
		if uint32(fm.Perm()) != want {
			if m.Perms == nil {
				m.Perms = map[string]uint32{}
			}
			m.Perms[p] = uint32(fm.Perm())
		}
	}
	return m
}

func nulList(items []string) []byte {
	var b bytes.Buffer
	for _, s := range items {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.Bytes()
}

var errUnsafe = errors.New("path leaves the workspace through a symlink")
