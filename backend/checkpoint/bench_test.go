package checkpoint

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/workspace"
	"github.com/visdesktop/vis/internal/fixture"
)

// project writes n files of about 1 KiB, 100 per directory, last
// modified an hour ago.
func project(b *testing.B, n int) string {
	ws := b.TempDir()
	line := strings.Repeat("x", 60) + "\n"
	for i := 0; i < n; i++ {
		fixture.WriteMode(b, filepath.Join(ws, fmt.Sprintf("pkg%03d/file%05d.go", i/100, i)), fmt.Sprintf("// file %d\n%s", i, strings.Repeat(line, 16)), 0o644)
	}
	// A project's files are older than its last snapshot.
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

func dirBytes(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if fi, err := d.Info(); err == nil && !d.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// benchTake measures an incremental snapshot: one file changed since the
// last one. Reports the shadow repository's growth per snapshot.
func benchTake(b *testing.B, n int) {
	ctx := context.Background()
	ws := project(b, n)
	k := New(b.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 0, Before); err != nil {
		b.Fatal(err)
	}
	start := dirBytes(b, k.dir)
	target := filepath.Join(ws, "pkg000", "file00000.go")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f, err := os.OpenFile(target, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "// change %d\n", i)
		f.Close()
		b.StartTimer()
		if _, err := k.Take(ctx, ws, int64(i+1), After); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(dirBytes(b, k.dir)-start)/float64(b.N), "disk-B/op")
}

func BenchmarkTake10Files(b *testing.B)      { benchTake(b, 10) }
func BenchmarkTake10000Files(b *testing.B)   { benchTake(b, 10000) }
func BenchmarkFirstTake10000(b *testing.B)   { benchFirst(b, 10000) }
func BenchmarkUnchanged10000(b *testing.B)   { benchUnchanged(b, 10000) }
func BenchmarkWalkOnly10000(b *testing.B)    { benchWalk(b, 10000) }
func BenchmarkHashEvery10000(b *testing.B)   { benchHashAll(b, 10000) }
func BenchmarkDiffOneFile10000(b *testing.B) { benchDiff(b, 10000) }

// benchFirst: the first snapshot of a workspace (every file hashed and
// stored); reports the shadow repository's size.
func benchFirst(b *testing.B, n int) {
	ctx := context.Background()
	ws := project(b, n)
	var size int64
	for i := 0; i < b.N; i++ {
		k := New(b.TempDir(), Options{})
		if _, err := k.Take(ctx, ws, 1, Before); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		size = dirBytes(b, k.dir)
		b.StartTimer()
	}
	b.ReportMetric(float64(size), "disk-B")
}

// benchUnchanged: a snapshot when nothing changed (a turn's before right
// after the previous turn's after).
func benchUnchanged(b *testing.B, n int) {
	ctx := context.Background()
	ws := project(b, n)
	k := New(b.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 0, Before); err != nil {
		b.Fatal(err)
	}
	// Past the racy window, as a workspace between turns is.
	r := &repo{git: "git", dir: k.repoDir(ws), ws: ws}
	st := r.loadState()
	st.TakenAt += int64(racyWindow) * 2
	if err := r.saveState(st); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := k.Take(ctx, ws, int64(i+1), After); err != nil {
			b.Fatal(err)
		}
	}
}

// benchWalk: the walk with an lstat per file alone, the floor of any
// stat-cached store (a SQLite blob store would pay it too).
func benchWalk(b *testing.B, n int) {
	ctx := context.Background()
	ws := project(b, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := workspace.Walk(ctx, ws, func(rel string, d fs.DirEntry) error {
			_, err := d.Info()
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchHashAll: reading and hashing every file, what a content-addressed
// store without a stat cache pays per snapshot.
func benchHashAll(b *testing.B, n int) {
	ctx := context.Background()
	ws := project(b, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := workspace.Walk(ctx, ws, func(rel string, d fs.DirEntry) error {
			if d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(filepath.Join(ws, rel))
			_ = sha256.Sum256(data)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchDiff: a turn's diff with patches, one file changed.
func benchDiff(b *testing.B, n int) {
	ctx := context.Background()
	ws := project(b, n)
	k := New(b.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		b.Fatal(err)
	}
	fixture.WriteMode(b, filepath.Join(ws, "pkg001/file00100.go"), "changed\n", 0o644)
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := k.Diff(ctx, ws, 1, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRevertHunk10000: "Revert hunk" from a turn's diff in a
// 10,000-file project: the file's patch, `git apply -R --check`, the
// revert's before snapshot, `git apply -R`, its after snapshot (the undo
// that puts the hunk back between iterations is not timed).
func BenchmarkRevertHunk10000(b *testing.B) {
	ctx := context.Background()
	ws := project(b, 10000)
	k := New(b.TempDir(), Options{})
	if _, err := k.Take(ctx, ws, 1, Before); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(ws, "pkg000", "file00000.go")
	body, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(string(body), "\n")
	lines[1], lines[15] = "// first change", "// second change"
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := k.Take(ctx, ws, 1, After); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rev := int64(1000 + 2*i)
		if _, err := k.RevertHunk(ctx, ws, 1, "pkg000/file00000.go", 0, turnID(rev)); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, err := k.Undo(ctx, ws, rev, UndoRefuse, turnID(rev+1)); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
