package homedir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExpand(t *testing.T) {
	tests := []struct{ p, home, want string }{
		{"~", "/home/ada", "/home/ada"},
		{"~/x/y", "/home/ada", "/home/ada/x/y"},
		{"~x", "/home/ada", "~x"},       // another user's home is not ours to guess
		{"a/~/b", "/home/ada", "a/~/b"}, // only a leading ~
		{"/abs", "/home/ada", "/abs"},
		{"~/x", "", "~/x"}, // no home known: unchanged
	}
	for _, tc := range tests {
		if got := Expand(tc.p, tc.home); got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", tc.p, tc.home, got, tc.want)
		}
	}
}

func TestTilde(t *testing.T) {
	tests := []struct{ p, home, want string }{
		{"/home/ada/x/AGENTS.md", "/home/ada", "~/x/AGENTS.md"},
		{"/home/ada/x", "/home/ada/", "~/x"},
		{"/home/ada", "/home/ada", "~"},
		{"/home/adam/x", "/home/ada", "/home/adam/x"},
		{"/home/ada/x", "", "/home/ada/x"},
		{"/etc/x", "/", "/etc/x"},
		{"", "/home/ada", ""},
	}
	for _, tc := range tests {
		if got := Tilde(tc.p, tc.home); got != tc.want {
			t.Errorf("Tilde(%q, %q) = %q, want %q", tc.p, tc.home, got, tc.want)
		}
	}
}

// A home reached through a symlink is abbreviated in the resolved spelling
// too (the prompt's AGENTS.md chain and REPL ids walk resolved paths).
func TestTildeSymlinkedHome(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "home")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(link, "p"), filepath.Join(resolved, "p")} {
		if got := Tilde(p, link); got != "~/p" {
			t.Errorf("Tilde(%q, %q) = %q, want ~/p", p, link, got)
		}
	}
}

func TestVis(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	dir := t.TempDir()
	got, err := Vis(env(map[string]string{"VIS_HOME": dir}))
	if err != nil || got != dir {
		t.Errorf("Vis(VIS_HOME=%s) = %q, %v", dir, got, err)
	}
	t.Chdir(dir)
	got, err = Vis(env(map[string]string{"VIS_HOME": "rel"}))
	if want := filepath.Join(dir, "rel"); err != nil || got != want {
		t.Errorf("Vis(VIS_HOME=rel) = %q, %v; want %q (made absolute)", got, err, want)
	}
	t.Setenv("HOME", dir)
	got, err = Vis(env(nil))
	if want := filepath.Join(dir, ".vis"); err != nil || got != want {
		t.Errorf("Vis() = %q, %v; want %q", got, err, want)
	}
	t.Setenv("HOME", "")
	if _, err := Vis(env(nil)); err != ErrNoHome {
		t.Errorf("Vis() without HOME: err = %v, want ErrNoHome", err)
	}
}
