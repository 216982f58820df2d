package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// collector gathers callback batches on a channel.
type collector struct{ ch chan []string }

func newCollector() *collector { return &collector{ch: make(chan []string, 64)} }

func (c *collector) fn(changed []string) { c.ch <- changed }

// until reads batches until want is seen (failing after a generous bound),
// returning every path seen and the number of batches.
func (c *collector) until(t *testing.T, want string) (map[string]bool, int) {
	t.Helper()
	seen := map[string]bool{}
	batches := 0
	deadline := time.After(20 * time.Second)
	for !seen[want] {
		select {
		case b := <-c.ch:
			batches++
			for _, p := range b {
				seen[p] = true
			}
		case <-deadline:
			t.Fatalf("no change reported for %s; saw %v", want, seen)
		}
	}
	return seen, batches
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func startWatch(t *testing.T, root string, c *collector) *Watcher {
	t.Helper()
	w, err := Watch(context.Background(), root, c.fn, WatchOptions{Debounce: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

func TestWatchReportsANewPythonFile(t *testing.T) {
	root := t.TempDir()
	write(t, root, "go.mod", "module x\n")
	c := newCollector()
	startWatch(t, root, c)
	write(t, root, "tool.py", "print(1)\n")
	seen, _ := c.until(t, "tool.py")
	if seen["go.mod"] {
		t.Errorf("untouched go.mod reported: %v", seen)
	}
}

func TestWatchSkipsIgnoredAndFollowsNewDirectories(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".gitignore", "build/\n*.log\n")
	write(t, root, "build/keep", "")
	write(t, root, "node_modules/pkg/index.js", "")
	write(t, root, "src/existing.go", "package src\n")
	c := newCollector()
	startWatch(t, root, c)

	write(t, root, "build/out.py", "x")
	write(t, root, "node_modules/pkg/new.js", "x")
	write(t, root, "src/debug.log", "x")
	write(t, root, ".git/HEAD", "ref")
	// A directory created after the start, with a file written at once: the
	// file may land before the directory is watched and is still reported.
	write(t, root, "pkg/deep/mod.py", "x")
	write(t, root, "src/existing.go", "package src // edited\n")
	write(t, root, "zz_sentinel.py", "x")

	seen, _ := c.until(t, "zz_sentinel.py")
	for _, p := range []string{"build/out.py", "node_modules/pkg/new.js", "src/debug.log", ".git/HEAD", ".git"} {
		if seen[p] {
			t.Errorf("ignored %s reported", p)
		}
	}
	for _, p := range []string{"pkg", "src/existing.go"} {
		if !seen[p] {
			t.Errorf("%s not reported; saw %v", p, seen)
		}
	}
	if !seen["pkg/deep/mod.py"] {
		seen2, _ := c.until(t, "pkg/deep/mod.py")
		_ = seen2
	}
	// The new directory is watched now: a later file in it is reported.
	write(t, root, "pkg/deep/later.py", "x")
	c.until(t, "pkg/deep/later.py")
}

func TestWatchDebouncesABurst(t *testing.T) {
	root := t.TempDir()
	c := newCollector()
	startWatch(t, root, c)
	var names []string
	for i := 0; i < 20; i++ {
		n := "f" + string(rune('a'+i)) + ".py"
		names = append(names, n)
		write(t, root, n, "x")
	}
	seen := map[string]bool{}
	batches := 0
	for _, n := range names {
		if seen[n] {
			continue
		}
		s, b := c.until(t, n)
		batches += b
		for k := range s {
			seen[k] = true
		}
	}
	if batches >= len(names) {
		t.Errorf("%d writes gave %d callbacks: not debounced", len(names), batches)
	}
}

func TestWatchNewGitignoreTakesEffect(t *testing.T) {
	root := t.TempDir()
	c := newCollector()
	startWatch(t, root, c)
	write(t, root, ".gitignore", "tmp/\n")
	c.until(t, ".gitignore")
	write(t, root, "tmp/scratch.py", "x")
	write(t, root, "zz.py", "x")
	seen, _ := c.until(t, "zz.py")
	if seen["tmp"] || seen["tmp/scratch.py"] {
		t.Errorf("path ignored by the new .gitignore reported: %v", seen)
	}
}

func TestWatchCloseStopsCallbacks(t *testing.T) {
	root := t.TempDir()
	c := newCollector()
	w, err := Watch(context.Background(), root, c.fn, WatchOptions{Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, "a.py", "x")
	c.until(t, "a.py")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
	write(t, root, "b.py", "x")
	// Close waited for the goroutine: nothing can be delivered any more.
	select {
	case b := <-c.ch:
		if slices.Contains(b, "b.py") {
			t.Errorf("callback after Close: %v", b)
		}
	default:
	}
}

func TestWatchEndsWithItsContext(t *testing.T) {
	root := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := Watch(ctx, root, nil, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-w.done
	_ = w.Close()
}

func TestWatchMissingRoot(t *testing.T) {
	if _, err := Watch(context.Background(), filepath.Join(t.TempDir(), "nope"), nil, WatchOptions{}); err == nil {
		t.Fatal("watching a missing folder: no error")
	}
}
