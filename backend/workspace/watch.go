package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchOptions configure a Watcher.
type WatchOptions struct {
	// Debounce is how long the tree must stay quiet before the callback
	// fires with everything that changed meanwhile; 0 = 250ms.
	Debounce time.Duration
	// MaxDirs bounds how many directories are watched (inotify has a
	// per-user budget); deeper directories past it are not watched. 0 = 8192.
	MaxDirs int
	// Logf reports watch errors and the MaxDirs cut-off; nil = dropped.
	Logf func(format string, args ...any)
}

// Watcher watches a workspace recursively with fsnotify, skipping ignored
// directories (.gitignore, .git) and SkipDirs. It calls onChange with the
// sorted, distinct, root-relative paths (slash-separated) that were created,
// written, removed or renamed, once the tree has been quiet for the
// debounce interval. Directories created later are watched as they appear,
// and the files already inside them are reported. An edited .gitignore
// takes effect for later events.
//
// The callback runs on the watcher's own goroutine, one call at a time; a
// slow callback delays later events but loses none. The goroutine ends when
// the ctx given to Watch ends or Close is called; Close waits for it and
// for a callback in progress.
type Watcher struct {
	root     string
	fsw      *fsnotify.Watcher
	rootFS   *os.Root
	opts     WatchOptions
	onChange func([]string)

	ign     *Ignore // owned by the loop goroutine
	watched int     // owned by the loop goroutine after start

	cancel    context.CancelFunc
	done      chan struct{}
	closeOnce sync.Once
}

// Watch starts watching root (an absolute directory) and returns once every
// existing directory is watched.
func Watch(ctx context.Context, root string, onChange func(changed []string), opts WatchOptions) (*Watcher, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = 250 * time.Millisecond
	}
	if opts.MaxDirs <= 0 {
		opts.MaxDirs = 8192
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if onChange == nil {
		onChange = func([]string) {}
	}
	rfs, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("watch workspace: %w", err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		rfs.Close()
		return nil, fmt.Errorf("watch workspace: %w", err)
	}
	w := &Watcher{root: root, fsw: fsw, rootFS: rfs, opts: opts, onChange: onChange,
		ign: NewIgnore(rfs.FS()), done: make(chan struct{})}
	if err := w.fsw.Add(root); err != nil {
		fsw.Close()
		rfs.Close()
		return nil, fmt.Errorf("watch workspace: %w", err)
	}
	w.watched = 1
	if _, err := w.addTree(ctx, "."); err != nil {
		fsw.Close()
		rfs.Close()
		return nil, fmt.Errorf("watch workspace: %w", err)
	}
	ctx, w.cancel = context.WithCancel(ctx)
	go w.loop(ctx) // owner: the Watcher; ends with ctx (Close cancels it)
	return w, nil
}

// Close stops watching and waits for the watcher's goroutine to end.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() { w.cancel() })
	<-w.done
	return nil
}

// addTree watches every non-ignored directory below dir (root-relative) and
// returns the files found there (for directories that appeared after the
// start: their files were created before the watch existed).
func (w *Watcher) addTree(ctx context.Context, dir string) ([]string, error) {
	var files []string
	err := WalkFS(ctx, w.rootFS.FS(), w.ign, dir, func(rel string, d fs.DirEntry) error {
		if !d.IsDir() {
			if d.Type().IsRegular() {
				files = append(files, rel)
			}
			return nil
		}
		if !w.addDir(rel) {
			return fs.SkipDir
		}
		return nil
	})
	return files, err
}

// addDir watches one directory; false when it is skipped or cannot be.
func (w *Watcher) addDir(rel string) bool {
	if skipDir(rel) {
		return false
	}
	if w.watched >= w.opts.MaxDirs {
		w.opts.Logf("watch %s: %d directories watched, not watching %s and below", w.root, w.opts.MaxDirs, rel)
		return false
	}
	if err := w.fsw.Add(filepath.Join(w.root, filepath.FromSlash(rel))); err != nil {
		w.opts.Logf("watch %s: %v", rel, err)
		return false
	}
	w.watched++
	return true
}

func (w *Watcher) loop(ctx context.Context) {
	defer close(w.done)
	defer w.rootFS.Close()
	defer w.fsw.Close()
	pending := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.opts.Logf("watch %s: %v", w.root, err)
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if w.handle(ctx, ev, pending) {
				timer.Reset(w.opts.Debounce)
			}
		case <-timer.C:
			if len(pending) == 0 {
				continue
			}
			changed := make([]string, 0, len(pending))
			for p := range pending {
				changed = append(changed, p)
			}
			sort.Strings(changed)
			clear(pending)
			w.onChange(changed)
		}
	}
}

// handle records one event; it reports whether anything was recorded.
func (w *Watcher) handle(ctx context.Context, ev fsnotify.Event, pending map[string]bool) bool {
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	if ev.Op == fsnotify.Chmod {
		return false
	}
	isDir := false
	if ev.Has(fsnotify.Create) {
		if fi, err := w.rootFS.Lstat(rel); err == nil && fi.IsDir() {
			isDir = true
		}
	}
	if w.ign.Ignored(rel, isDir) || underSkipDir(rel) {
		return false
	}
	if strings.HasSuffix(rel, ".gitignore") && (rel == ".gitignore" || strings.HasSuffix(rel, "/.gitignore")) {
		w.ign = NewIgnore(w.rootFS.FS()) // re-read ignore files from now on
	}
	pending[rel] = true
	if isDir && w.addDir(rel) {
		files, err := w.addTree(ctx, rel)
		if err != nil && !errors.Is(err, context.Canceled) {
			w.opts.Logf("watch %s: %v", rel, err)
		}
		for _, f := range files {
			pending[f] = true
		}
	}
	return true
}

// underSkipDir reports whether a path is, or lies under, a SkipDirs directory.
func underSkipDir(rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		if SkipDirs[seg] {
			return true
		}
	}
	return false
}
