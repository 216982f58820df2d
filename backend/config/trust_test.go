package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// "Trust this folder" writes settings.json: the held settings apply from
// the next load, config.yml's own trusted folders still count, a second
// trust adds nothing, and the window's provider survives the write.
func TestTrustFolderThroughSettings(t *testing.T) {
	home, ws, other := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, "config.yml"), "trusted_projects: ["+other+"]\nproviders:\n  - id: work\n    base_url: https://api.example.com/v1\n    models: [{name: big}]\n")
	write(t, filepath.Join(ws, "vis.yml"), "providers:\n  - id: work\n    models: [{name: small, tools: false}]\n")
	if err := SaveSettings(home, Settings{Provider: &SettingsProvider{Preset: "ollama", BaseURL: "http://localhost:11434/v1", Model: "m"}}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(home, ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.ProjectTrusted || !slices.Equal(c.ProjectHeld, []string{"providers[work].{models}"}) {
		t.Fatalf("before trust: trusted=%v held=%q", c.ProjectTrusted, c.ProjectHeld)
	}
	for range 2 {
		if err := TrustFolder(home, ws); err != nil {
			t.Fatal(err)
		}
	}
	s, err := LoadSettings(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.TrustedProjects) != 1 || s.Provider == nil || s.Provider.Model != "m" {
		t.Fatalf("settings after trusting twice = %+v", s)
	}
	c, err = Load(home, ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !c.ProjectTrusted || len(c.ProjectHeld) != 0 || len(c.Providers) == 0 {
		t.Fatalf("after trust: trusted=%v held=%q", c.ProjectTrusted, c.ProjectHeld)
	}
	var work *Provider
	for i := range c.Providers {
		if c.Providers[i].ID == "work" {
			work = &c.Providers[i]
		}
	}
	if work == nil || len(work.Models) != 2 {
		t.Fatalf("the project's model entry did not apply after trust: %+v", c.Providers)
	}
	// config.yml's list still counts next to settings.json's.
	write(t, filepath.Join(other, "vis.yml"), "providers:\n  - id: work\n    models: [{name: small}]\n")
	if c, err := Load(home, other, nil); err != nil || !c.ProjectTrusted {
		t.Fatalf("config.yml's trusted folder after a window trust: %+v, %v", c, err)
	}
	// Without settings.json's provider the list alone is a layer too.
	if err := os.Remove(SettingsPath(home)); err != nil {
		t.Fatal(err)
	}
	if err := TrustFolder(home, ws); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(home, ws, nil); err != nil || !c.ProjectTrusted {
		t.Fatalf("trust with no provider saved: %+v, %v", c, err)
	}
	if err := TrustFolder(home, " "); err == nil {
		t.Error("TrustFolder of no folder succeeded")
	}
}
