package clojure

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
	"github.com/visdesktop/vis/backend/resources"
)

// BenchmarkCtxProbe: the per-turn cost of the seed-002 contribution with one
// live nREPL (Debian's jars): describe, then (+ 1 1) in the health session,
// then the registry mirror. Every iteration is a new turn, so nothing comes
// from the probe cache.
func BenchmarkCtxProbe(b *testing.B) {
	if _, err := os.Stat(filepath.Join(DefaultJarDir, "nrepl.jar")); err != nil {
		b.Skip("Debian's clojure and libnrepl-clojure are not installed")
	}
	dir := b.TempDir()
	packtest.WriteFiles(b, dir, map[string]string{"deps.edn": `{:paths ["src"]}`, "src/a/core.clj": "(ns a.core)\n"})
	p := New(Options{OfficialCLI: func(context.Context) bool { return false }, StartTimeout: 90 * time.Second, IdleTimeout: -1})
	defer p.Close()
	reg := resources.New(resources.Options{})
	defer reg.StopAll(context.Background())
	env := ext.ToolEnv{SessionID: "s1", Workspace: dir, LogDir: b.TempDir(), Resources: reg}
	out, err := p.start(context.Background(), env, ext.Call{Language: "clojure", Cwd: dir, Opts: map[string]any{}})
	if err != nil || out["result"] != "started" {
		b.Fatalf("start: %v %v", out, err)
	}
	wenv := ext.Environment{SessionID: "s1", Workspace: dir}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, _ := p.Ctx(WithTurn(context.Background(), fmt.Sprintf("t%d", i)), wenv)
		if len(m) == 0 {
			b.Fatal("empty contribution")
		}
	}
}
