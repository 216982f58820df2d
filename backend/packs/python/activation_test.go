package python

import (
	"context"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/workspace"
)

// envFor builds a turn's environment from a fresh bounded scan, as the
// engine does at the top of a turn.
func envFor(t *testing.T, root string) ext.Environment {
	t.Helper()
	s, err := workspace.ScanDir(context.Background(), root, 0)
	if err != nil {
		t.Fatal(err)
	}
	var langs []ext.LanguageCount
	for _, l := range s.Languages {
		langs = append(langs, ext.LanguageCount{Language: l.Language, Files: l.Files})
	}
	return ext.Environment{Workspace: root, Languages: langs, Primary: s.Primary(), Files: s.Exists, HasExt: s.HasExt}
}

// A .py file created in a Go workspace activates Python for the next turn,
// never for the one already running (its activation is frozen).
func TestNewPythonFileActivatesForTheNextTurn(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "go.mod", "module x\n")
	writeFile(t, root, "main.go", "package main\n")
	reg := ext.NewRegistry()
	if err := reg.Register(Extension()); err != nil {
		t.Fatal(err)
	}
	changed := make(chan []string, 8)
	w, err := workspace.Watch(context.Background(), root, func(c []string) { changed <- c }, workspace.WatchOptions{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	running := reg.Active(envFor(t, root)) // the turn in progress
	if running.Has(Name) {
		t.Fatal("python active before any python file")
	}
	writeFile(t, root, "tool.py", "print(1)\n")
	select {
	case <-changed: // the window's badges recompute here; the next turn rescans
	case <-time.After(20 * time.Second):
		t.Fatal("the watcher did not report tool.py")
	}
	next := reg.Active(envFor(t, root))
	if !next.Has(Name) {
		t.Error("python not active for the next turn")
	}
	if running.Has(Name) || langtools.New(running, ext.ToolEnv{}, nil).Matrix() != "" {
		t.Error("the running turn's frozen activation changed")
	}
	if m := langtools.New(next, ext.ToolEnv{}, nil).Matrix(); m == "" {
		t.Error("the next turn's matrix lacks python")
	}
}
