package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchTree writes dirs*files Go-like files of about 200 lines each.
func benchTree(b *testing.B, dirs, files int) string {
	b.Helper()
	root := b.TempDir()
	body := strings.Repeat("\tx := compute(a, b) // some ordinary line of code\n", 200)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("vendor/\n"), 0o644)
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		os.MkdirAll(dir, 0o755)
		for f := range files {
			content := "package p\n\nfunc F() {\n" + body + "\tneedle()\n}\n"
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", f)), []byte(content), 0o644)
		}
	}
	return root
}

// BenchmarkGrep: 1000 files x ~10 KiB (10 MiB), one match per file.
func BenchmarkGrep(b *testing.B) {
	root := benchTree(b, 50, 20)
	s, err := New(root)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		r, err := s.Grep(context.Background(), `needle\(\)`, GrepOptions{MaxResults: 2000})
		if err != nil || r.Count != 1000 {
			b.Fatalf("count %d err %v", r.Count, err)
		}
	}
}

// BenchmarkGlob: 1000 files, "**/*.go".
func BenchmarkGlob(b *testing.B) {
	root := benchTree(b, 50, 20)
	s, _ := New(root)
	defer s.Close()
	for b.Loop() {
		if r, err := s.Glob(context.Background(), "**/*.go"); err != nil || len(r) != 1000 {
			b.Fatal(len(r), err)
		}
	}
}

// BenchmarkCat2000: the default window of a 2500-line file.
func BenchmarkCat2000(b *testing.B) {
	root := b.TempDir()
	os.WriteFile(filepath.Join(root, "big.go"), []byte(strings.Repeat("\tx := compute(a, b)\n", 2500)), 0o644)
	s, _ := New(root)
	defer s.Close()
	for b.Loop() {
		if _, err := s.Cat(context.Background(), "big.go", 1, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShellTrue: the fixed cost of one shell call.
func BenchmarkShellTrue(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Shell(context.Background(), dir, "true", 10e9); err != nil {
			b.Fatal(err)
		}
	}
}
