package workspace

import (
	"errors"
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
