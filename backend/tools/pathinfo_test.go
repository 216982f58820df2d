package tools

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathInfoIsJailed(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "d"), 0o755)
	os.WriteFile(filepath.Join(ws, "d", "f.txt"), []byte("x"), 0o644)
	os.Symlink("/etc", filepath.Join(ws, "out"))
	s, err := New(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cases := []struct {
		path          string
		exists, isDir bool
	}{
		{"d", true, true},
		{"d/f.txt", true, false},
		{filepath.Join(ws, "d", "f.txt"), true, false},
		{"missing", false, false},
		{"../", false, false},
		{"/etc/passwd", false, false},
		{"out/passwd", false, false},
	}
	for _, c := range cases {
		e, d := s.PathInfo(c.path)
		if e != c.exists || d != c.isDir {
			t.Errorf("PathInfo(%q) = %v, %v; want %v, %v", c.path, e, d, c.exists, c.isDir)
		}
	}
}
