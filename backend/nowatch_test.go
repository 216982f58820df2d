package backend

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// A headless engine (Options.NoWatch, the CLI) never watches a workspace,
// and its packs follow the files anyway: each question scans them.
func TestNoWatchEngineNeverWatches(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"hello"}})
	defer llm.Close()
	home := t.TempDir()
	vars := map[string]string{"VIS_BASE_URL": llm.URL, "VIS_MODEL": "m"}
	e, err := Open(context.Background(), Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil), NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	if _, err := e.Run(ctx, "", Input{Workspace: ws, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if got := e.Packs(ctx, ws); len(got) != 0 {
		t.Fatalf("packs before go.mod = %v", got)
	}
	root := canonical(ws)
	e.watch(root) // what the session's runtime and Packs start in the background
	e.mu.Lock()
	n := len(e.watchers)
	e.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d watchers in a NoWatch engine", n)
	}
	if err := os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := e.Packs(ctx, ws); !slices.Equal(got, []string{"go"}) {
		t.Fatalf("packs after go.mod = %v, want [go] at once", got)
	}
}
