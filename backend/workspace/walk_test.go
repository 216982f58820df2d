package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// makeTree writes files (path -> content) under a new temp dir; a path
// ending in "/" makes an empty directory.
func makeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func collect(t *testing.T, root string) []string {
	t.Helper()
	var got []string
	err := Walk(context.Background(), root, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			rel += "/"
		}
		got = append(got, rel)
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return got
}

func TestWalkRespectsIgnoresInOrder(t *testing.T) {
	root := makeTree(t, map[string]string{
		".gitignore":              "node_modules/\n*.log\n",
		".git/HEAD":               "ref: refs/heads/main\n",
		"b.txt":                   "",
		"a.txt":                   "",
		"debug.log":               "",
		"node_modules/x/index.js": "",
		"src/.gitignore":          "gen/\n!keep.log\n",
		"src/main.go":             "",
		"src/keep.log":            "",
		"src/drop.log.txt":        "",
		"src/gen/out.go":          "",
		"src/Z.go":                "",
		"empty/":                  "",
	})
	if err := os.Symlink("/etc", filepath.Join(root, "etc-link")); err != nil {
		t.Fatal(err)
	}
	want := []string{
		".gitignore", "a.txt", "b.txt", "empty/", "etc-link",
		"src/", "src/.gitignore", "src/Z.go", "src/drop.log.txt", "src/keep.log", "src/main.go",
	}
	if diff := cmp.Diff(want, collect(t, root)); diff != "" {
		t.Errorf("walk (-want +got):\n%s", diff)
	}
}

func TestWalkSkipDirAndSkipAll(t *testing.T) {
	root := makeTree(t, map[string]string{
		"a/1": "", "a/2": "", "b/1": "", "c": "",
	})
	var got []string
	err := Walk(context.Background(), root, func(rel string, d fs.DirEntry) error {
		got = append(got, rel)
		switch rel {
		case "a":
			return fs.SkipDir
		case "b/1":
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "b/1"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	boom := errors.New("boom")
	err = Walk(context.Background(), root, func(rel string, d fs.DirEntry) error {
		if rel == "b" {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("Walk error = %v, want boom", err)
	}
}

func TestWalkStopsOnCancel(t *testing.T) {
	files := map[string]string{}
	for _, d := range []string{"a", "b", "c", "d"} {
		for _, f := range []string{"1", "2", "3"} {
			files[d+"/"+f] = ""
		}
	}
	root := makeTree(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen int
	err := Walk(ctx, root, func(rel string, d fs.DirEntry) error {
		seen++
		if rel == "b/1" {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Walk error = %v, want context.Canceled", err)
	}
	// a, a/1..3, b, b/1 visited; nothing after the cancel.
	if seen != 6 {
		t.Errorf("visited %d entries, want 6 (stop right after cancel)", seen)
	}
}

func TestWalkFSFromSubdir(t *testing.T) {
	root := makeTree(t, map[string]string{
		".gitignore":   "*.tmp\n",
		"pkg/a.go":     "",
		"pkg/b.tmp":    "",
		"pkg/sub/c.go": "",
		"other/d.go":   "",
	})
	fsys := os.DirFS(root)
	var got []string
	err := WalkFS(context.Background(), fsys, NewIgnore(fsys), "pkg", func(rel string, d fs.DirEntry) error {
		got = append(got, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"pkg/a.go", "pkg/sub", "pkg/sub/c.go"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := WalkFS(context.Background(), fsys, nil, "missing", func(string, fs.DirEntry) error { return nil }); err == nil {
		t.Error("WalkFS on a missing dir succeeded")
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	got, err := Resolve(link)
	if err != nil || got != want {
		t.Errorf("Resolve(link) = %q, %v; want %q", got, err, want)
	}
	f := filepath.Join(dir, "file")
	os.WriteFile(f, nil, 0o644)
	if _, err := Resolve(f); err == nil {
		t.Error("Resolve(file) succeeded")
	}
	if _, err := Resolve(filepath.Join(dir, "nope")); err == nil {
		t.Error("Resolve(missing) succeeded")
	}
}

func BenchmarkWalk(b *testing.B) {
	root := b.TempDir()
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.o\nbuild/\n"), 0o644)
	for i := 0; i < 50; i++ {
		d := filepath.Join(root, "pkg", string(rune('a'+i%26))+strings.Repeat("x", i/26))
		os.MkdirAll(d, 0o755)
		for j := 0; j < 20; j++ {
			os.WriteFile(filepath.Join(d, "f"+string(rune('a'+j))+".go"), nil, 0o644)
			os.WriteFile(filepath.Join(d, "f"+string(rune('a'+j))+".o"), nil, 0o644)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		n := 0
		Walk(context.Background(), root, func(string, fs.DirEntry) error { n++; return nil })
	}
}
