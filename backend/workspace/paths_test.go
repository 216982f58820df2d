package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		root, cwd, p, want string
		outside            bool
	}{
		{root: "/w", cwd: "/w/sub", p: "x.go", want: "/w/sub/x.go"},
		{root: "/w", cwd: "/w", p: "/w/a/../b", want: "/w/b"},
		{root: "/w", cwd: "/w/sub", p: "../..", outside: true},
		{root: "/w", cwd: "/w", p: "/etc/passwd", outside: true},
		{root: "/w", cwd: "/w", p: "..x/y", want: "/w/..x/y"},
		{root: "", cwd: "/any", p: "../z", want: "/z"},
	} {
		got, err := Within(tt.root, tt.cwd, tt.p)
		if tt.outside {
			if !errors.Is(err, ErrOutside) {
				t.Errorf("Within(%q, %q, %q) = %q, %v; want ErrOutside", tt.root, tt.cwd, tt.p, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Within(%q, %q, %q) = %q, %v; want %q", tt.root, tt.cwd, tt.p, got, err, tt.want)
		}
	}
}

func TestRelTo(t *testing.T) {
	for _, tt := range []struct{ base, abs, want string }{
		{"/w", "/w/a/b.go", "a/b.go"},
		{"/w", "/w", "."},
		{"/w", "/x/y", "/x/y"},
		{"/w", "/w/..x", "..x"},
	} {
		if got := RelTo(tt.base, tt.abs); got != tt.want {
			t.Errorf("RelTo(%q, %q) = %q, want %q", tt.base, tt.abs, got, tt.want)
		}
	}
}

func TestCanonical(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(real, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(real, "link")
	if err := os.Symlink(filepath.Join(real, "a"), link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(real)
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"a", filepath.Join(real, "a")},  // relative: made absolute
		{link, filepath.Join(real, "a")}, // a symlink: its target
		{filepath.Join(link, "..", "a"), filepath.Join(real, "a")},
		{"missing/../b/", filepath.Join(real, "b")}, // not there: absolute and clean
		{filepath.Join(dir, "a") + "/", filepath.Join(real, "a")},
	} {
		if got := Canonical(tt.in); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
