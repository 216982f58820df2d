package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A project file may tighten permissions, never widen them.
func TestProjectPermissionsOnlyTighten(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.yml"), []byte("permissions:\n  mode: workspace\n  protected: [/srv/keys]\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "vis.yml"), []byte("permissions:\n  mode: full\n  network: true\n  writable: [/]\n  protected: [/srv/more]\n"), 0o644)
	c, err := Load(home, ws, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if c.Permissions.Mode != "workspace" || len(c.Permissions.Writable) != 0 || !c.Permissions.NetworkOn() {
		t.Fatalf("widened: %+v", c.Permissions)
	}
	if all := c.Permissions.AllProtected(); !slices.Contains(all, "/srv/more") || !slices.Contains(all, "/srv/keys") {
		t.Errorf("protected = %v; want the person's and the project's", all)
	}
	var said []string
	for _, w := range c.Warnings {
		if strings.Contains(w, "permissions.") {
			said = append(said, w)
		}
	}
	if len(said) != 3 {
		t.Errorf("warnings = %q", said)
	}
	os.WriteFile(filepath.Join(ws, "vis.yml"), []byte("permissions:\n  mode: read-only\n  network: false\n"), 0o644)
	if c, err = Load(home, ws, func(string) string { return "" }); err != nil || c.Permissions.Mode != "read-only" || c.Permissions.NetworkOn() {
		t.Fatalf("tightening ignored: %+v %v", c.Permissions, err)
	}
}
