package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/visdesktop/vis/internal/fixture"
)

func TestPersonFiles(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	fixture.Files(t, home, map[string]string{"notes/a.txt": "home a", "notes/b.txt": "home b", "notes/bad.txt": "", "notes/skip.md": ""})
	fixture.Files(t, ws, map[string]string{".vis/notes/b.txt": "project b", ".vis/notes/c.txt": "project c"})
	read := func(path string, ent fs.DirEntry, source string) (string, string, bool, error) {
		if !strings.HasSuffix(ent.Name(), ".txt") {
			return "", "", true, nil
		}
		b, err := os.ReadFile(path)
		if len(b) == 0 {
			err = errors.New("empty")
		}
		return strings.TrimSuffix(ent.Name(), ".txt"), source + ": " + string(b), false, err
	}
	got, warnings := PersonFiles(home, ws, "notes", true, "note", "notes", read)
	if want := []string{"home: home a", "project: project b", "project: project c"}; !slices.Equal(got, want) {
		t.Errorf("trusted: %q, want %q (sorted by name, the project's over the home's)", got, want)
	}
	if want := []string{"note " + filepath.Join(home, "notes", "bad.txt") + " skipped: empty"}; !slices.Equal(warnings, want) {
		t.Errorf("warnings %q, want %q", warnings, want)
	}
	if got, _ := PersonFiles(home, ws, "notes", false, "note", "notes", read); !slices.Equal(got, []string{"home: home a", "home: home b"}) {
		t.Errorf("untrusted: %q, want the home's only", got)
	}
	if got, w := PersonFiles(home, ws, "none", true, "note", "notes", read); len(got) != 0 || len(w) != 0 {
		t.Errorf("missing folders: %q, %q; want nothing and no warning", got, w)
	}
}
