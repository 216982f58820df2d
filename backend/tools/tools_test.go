package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/internal/golden"
)

// newSet makes a workspace with files (path -> content; a path ending in
// "/" is an empty directory) and opens a Set on it.
func newSet(t *testing.T, files map[string]string) (*Set, string) {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			mustDo(t, os.MkdirAll(full, 0o755))
			continue
		}
		mustDo(t, os.MkdirAll(filepath.Dir(full), 0o755))
		mustDo(t, os.WriteFile(full, []byte(content), 0o644))
	}
	s, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, root
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantKind(t *testing.T, err error, kind Kind) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", kind)
	}
	e, ok := err.(*Error)
	if !ok || e.Kind != kind {
		t.Fatalf("got error %v (%T), want kind %s", err, err, kind)
	}
	if e.Message == "" {
		t.Errorf("error of kind %s has no message", kind)
	}
	return e
}

// checkGolden compares got with testdata/name (-update rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.CheckString(t, filepath.Join("testdata", name), got)
}

func TestNewFailsOnMissingRoot(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("New on a missing directory succeeded")
	}
}

// TestJail: no tool reaches outside the workspace, by "..", by an absolute
// path, or through a symlink; absolute paths inside are accepted.
func TestJail(t *testing.T) {
	ctx := context.Background()
	outside := t.TempDir()
	mustDo(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("TOP SECRET\n"), 0o644))
	s, root := newSet(t, map[string]string{"in.txt": "hello\n", "sub/a.txt": "a\n"})
	mustDo(t, os.Symlink("/etc", filepath.Join(root, "etc")))
	mustDo(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "secret-link")))
	mustDo(t, os.Symlink(outside, filepath.Join(root, "outdir")))
	mustDo(t, os.Symlink("in.txt", filepath.Join(root, "inner-link")))

	escapes := []struct {
		name string
		call func() error
	}{
		{"cat ../x", func() error { _, err := s.Cat(ctx, "../"+filepath.Base(outside)+"/secret.txt", 1, 0); return err }},
		{"cat sub/../../x", func() error { _, err := s.Cat(ctx, "sub/../../x", 1, 0); return err }},
		{"cat /etc/passwd", func() error { _, err := s.Cat(ctx, "/etc/passwd", 1, 0); return err }},
		{"cat symlink dir to /etc", func() error { _, err := s.Cat(ctx, "etc/passwd", 1, 0); return err }},
		{"cat symlink file out", func() error { _, err := s.Cat(ctx, "secret-link", 1, 0); return err }},
		{"ls ..", func() error { _, err := s.Ls(ctx, "..", 1); return err }},
		{"ls symlink to /etc", func() error { _, err := s.Ls(ctx, "etc", 1); return err }},
		{"grep in symlink out", func() error { _, err := s.Grep(ctx, "SECRET", GrepOptions{Path: "outdir"}); return err }},
		{"grep absolute outside", func() error { _, err := s.Grep(ctx, "SECRET", GrepOptions{Path: outside}); return err }},
		{"glob ../", func() error { _, err := s.Glob(ctx, "../*"); return err }},
		{"write ../x", func() error { _, err := s.Write(ctx, "../evil.txt", "x"); return err }},
		{"write absolute outside", func() error { _, err := s.Write(ctx, filepath.Join(outside, "evil.txt"), "x"); return err }},
		{"write through symlinked dir", func() error { _, err := s.Write(ctx, "outdir/evil.txt", "x"); return err }},
		{"patch through symlink", func() error {
			old, nw := "TOP", "PWNED"
			_, err := s.Patch(ctx, "secret-link", PatchRequest{Old: &old, New: &nw})
			return err
		}},
	}
	for _, tc := range escapes {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			e := wantKind(t, err, KindOutside)
			if e.Hint == "" {
				t.Error("no hint")
			}
		})
	}
	// Nothing was written outside, and the secret is untouched.
	if _, err := os.Stat(filepath.Join(outside, "evil.txt")); err == nil {
		t.Error("a file was written outside the workspace")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "evil.txt")); err == nil {
		t.Error("a file was written next to the workspace")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(b) != "TOP SECRET\n" {
		t.Errorf("secret changed: %q", b)
	}
	// grep over the whole workspace does not follow symlinks out.
	g, err := s.Grep(ctx, "SECRET|root:", GrepOptions{})
	mustDo(t, err)
	if g.Count != 0 {
		t.Errorf("grep found text outside the workspace: %+v", g.Matches)
	}

	// Inside the workspace: absolute paths and inner symlinks work.
	r, err := s.Cat(ctx, filepath.Join(root, "sub", "a.txt"), 1, 0)
	mustDo(t, err)
	if r.Path != "sub/a.txt" {
		t.Errorf("absolute path inside: Path = %q, want sub/a.txt", r.Path)
	}
	r, err = s.Cat(ctx, "inner-link", 1, 0)
	mustDo(t, err)
	if !strings.Contains(r.Text, "hello") {
		t.Errorf("inner symlink: %q", r.Text)
	}
	w, err := s.Write(ctx, filepath.Join(root, "new", "f.txt"), "x\n")
	mustDo(t, err)
	if w.Path != "new/f.txt" {
		t.Errorf("write absolute inside: Path = %q", w.Path)
	}
}

// TestJailViaSymlinkedRoot: a workspace opened through a symlinked path
// accepts absolute paths under either spelling.
func TestJailViaSymlinkedRoot(t *testing.T) {
	real := t.TempDir()
	mustDo(t, os.WriteFile(filepath.Join(real, "f.txt"), []byte("x\n"), 0o644))
	link := filepath.Join(t.TempDir(), "ws")
	mustDo(t, os.Symlink(real, link))
	s, err := New(link)
	mustDo(t, err)
	defer s.Close()
	for _, p := range []string{filepath.Join(link, "f.txt"), filepath.Join(real, "f.txt")} {
		if _, err := s.Cat(context.Background(), p, 1, 0); err != nil {
			t.Errorf("Cat(%s): %v", p, err)
		}
	}
}
