package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProjectInstructionsChain(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/.vis/AGENTS.md", "Global: answer in English.\n")
	tr.write(t, "AGENTS.md", "Ancestor: monorepo rules.\n")
	tr.write(t, "home/ada/src/CLAUDE.md", "Ancestor fallback: use make.\n")
	tr.write(t, "home/ada/src/shop/AGENTS.md", "\n\nWorkspace: run go test.\n\n")
	tr.write(t, "home/ada/src/shop/CLAUDE.md", "SHADOWED: must not appear.\n")

	got, err := ProjectInstructions(tr.env(ChannelDesktop))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "project_instructions_chain", got, tr)

	order := []string{"Global:", "Ancestor: monorepo", "Ancestor fallback", "Workspace:"}
	last := -1
	for _, s := range order {
		i := strings.Index(got, s)
		if i < 0 || i < last {
			t.Fatalf("%q missing or out of order (broader first) in:\n%s", s, got)
		}
		last = i
	}
	for _, want := range []string{
		"### AGENTS.md (user-global) — ~/.vis/AGENTS.md",
		"### CLAUDE.md (ancestor directory) — ~/src/CLAUDE.md",
		"### AGENTS.md (workspace root) — ~/src/shop/AGENTS.md",
		"### AGENTS.md (ancestor directory) — " + filepath.Join(tr.root, "AGENTS.md"),
		"CORE wins on conflict",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
	if strings.Contains(got, "SHADOWED") {
		t.Error("CLAUDE.md was read although AGENTS.md exists in the same directory")
	}
}

func TestProjectInstructionsNone(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/src/shop/AGENTS.md", "  \n\n")
	got, err := ProjectInstructions(tr.env(ChannelDesktop))
	if got != "" || err != nil {
		t.Errorf("no guidance gave %q, %v; want no block", got, err)
	}
}

func TestProjectInstructionsNothingTruncated(t *testing.T) {
	tr := newTree(t)
	big := strings.Repeat("rule line that goes on and on\n", 20000) + "LAST LINE"
	tr.write(t, "home/ada/src/shop/AGENTS.md", big)
	got, _ := ProjectInstructions(tr.env(ChannelDesktop))
	if !strings.Contains(got, "LAST LINE") || len(got) < len(big) {
		t.Errorf("a %d-byte AGENTS.md came out as %d bytes", len(big), len(got))
	}
}

func TestProjectInstructionsUnreadableFileKeepsTheRest(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/.vis/AGENTS.md", "Global rules.")
	// AGENTS.md is a directory: present but unreadable. It still shadows CLAUDE.md.
	if err := os.MkdirAll(filepath.Join(tr.ws, "AGENTS.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	tr.write(t, "home/ada/src/shop/CLAUDE.md", "SHADOWED")
	got, err := ProjectInstructions(tr.env(ChannelDesktop))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(tr.ws, "AGENTS.md")) {
		t.Errorf("error %v does not name the unreadable file", err)
	}
	if !strings.Contains(got, "Global rules.") || strings.Contains(got, "SHADOWED") {
		t.Errorf("readable guidance lost or shadowed file read:\n%s", got)
	}
}

func TestProjectInstructionsSymlinkedWorkspace(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/src/shop/AGENTS.md", "Workspace rules.")
	link := filepath.Join(tr.home, "shop-link")
	if err := os.Symlink(tr.ws, link); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	env := tr.env(ChannelDesktop)
	env.Workspace = link
	got, _ := ProjectInstructions(env)
	if !strings.Contains(got, "### AGENTS.md (workspace root) — ~/src/shop/AGENTS.md") {
		t.Errorf("symlinked workspace not resolved to its real chain:\n%s", got)
	}
}
