package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The database, its journal files and its folder are the owner's only,
// also when an older version left them 0644.
func TestStateFilesArePrivate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "desktop")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "vis.db")
	os.WriteFile(path, nil, 0o644)
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateSession(context.Background(), Session{ID: NewID(), Workspace: t.TempDir()}); err != nil { // a write: the WAL exists
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600, path + "-wal": 0o600, path + "-shm": 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: %v, want %v", filepath.Base(p), got, want)
		}
	}
}
