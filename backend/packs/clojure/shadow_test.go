package clojure

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
	"github.com/visdesktop/vis/backend/resources"
)

// sessionEnv is a ToolEnv over dir with a real resource registry that stops
// everything when the test ends.
func sessionEnv(t *testing.T, dir string) (ext.ToolEnv, *resources.Registry) {
	t.Helper()
	reg := resources.New(resources.Options{})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		reg.StopAll(ctx)
	})
	return ext.ToolEnv{SessionID: "s1", Workspace: dir, LogDir: t.TempDir(), Resources: reg}, reg
}

func call(dir string, opts map[string]any) ext.Call {
	if opts == nil {
		opts = map[string]any{}
	}
	return ext.Call{Language: "clojure", Cwd: dir, Opts: opts}
}

func nreplSlice(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	env, _ := m["env"].(map[string]any)
	langs, _ := env["languages"].(map[string]any)
	clj, _ := langs["clojure"].(map[string]any)
	n, ok := clj["nrepl"].(map[string]any)
	if !ok {
		t.Fatalf("no env.languages.clojure.nrepl in %#v", m)
	}
	return n
}

func TestShadowAttach(t *testing.T) {
	t.Parallel()
	peer := newShadowPeer(t, map[string]bool{"app": true, "worker": false}, []string{"app", "worker", "idle"})
	dir := packtest.CopyFixture(t, "testdata/fixture")
	packtest.WriteFiles(t, dir, map[string]string{".shadow-cljs/nrepl.port": fmt.Sprint(peer.port())})
	p := New(Options{})
	t.Cleanup(p.Close)
	env, reg := sessionEnv(t, dir)
	ctx := context.Background()
	base := ManagedID(dir)

	out, err := p.connect(ctx, env, call(dir, map[string]any{"build": "app", "host": "127.0.0.1"}))
	if err != nil {
		t.Fatal(err)
	}
	if out["id"] != base+"#app" || out["result"] != "attached" || out["runtime"] != true || out["dialect"] != "cljs" || out["managed"] != false {
		t.Fatalf("connect app = %v", out)
	}
	out, err = p.connect(ctx, env, call(dir, map[string]any{"build": "worker", "host": "127.0.0.1"}))
	if err != nil {
		t.Fatal(err)
	}
	if msg, _ := out["message"].(string); out["runtime"] != false || !strings.Contains(msg, "no JS runtime") || !strings.Contains(msg, "shadow-cljs watch worker") {
		t.Fatalf("connect worker (no runtime) = %v", out)
	}
	// The worker selected last; an eval for app must select app again.
	res, err := p.eval(ctx, env, ext.Call{Cwd: dir, ID: base + "#app", Opts: map[string]any{"code": "(js/Date.)"}})
	if err != nil {
		t.Fatal(err)
	}
	if res["value"] != `"cljs:app:(js/Date.)"` || res["build"] != "app" || res["repl"] != base+"#app" {
		t.Fatalf("eval in app = %v", res)
	}
	res, err = p.eval(ctx, env, ext.Call{Cwd: dir, ID: base + "#worker", Opts: map[string]any{"code": "(+ 1 2)"}})
	if err != nil {
		t.Fatal(err)
	}
	if msg, _ := res["message"].(string); !strings.Contains(msg, "no JS runtime") || res["build"] != "worker" {
		t.Fatalf("eval in worker = %v", res)
	}
	for _, tt := range []struct{ build, want string }{{"idle", "not being watched"}, {"nope", `has no build "nope"`}, {"a b", "not a shadow-cljs build id"}} {
		if _, err := p.connect(ctx, env, call(dir, map[string]any{"build": tt.build, "host": "127.0.0.1"})); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("connect %q: err = %v, want %q", tt.build, err, tt.want)
		}
	}
	// An external attachment to the same server evaluates JVM Clojure.
	out, err = p.connect(ctx, env, call(dir, map[string]any{"port": int64(peer.port())}))
	if err != nil {
		t.Fatal(err)
	}
	if out["id"] != base+"#external" || out["external"] != true {
		t.Fatalf("connect external = %v", out)
	}
	res, err = p.eval(ctx, env, ext.Call{Cwd: dir, ID: base + "#external", Opts: map[string]any{"code": "(+ 1 1)"}})
	if err != nil || res["value"] != "2" {
		t.Fatalf("eval external = %v, %v", res, err)
	}

	n := nreplSlice(t, must(p.Ctx(ctx, ext.Environment{SessionID: "s1", Workspace: dir})))
	if n["default"] != nil {
		t.Errorf("default = %v with three REPLs, want nil", n["default"])
	}
	repls := n["repls"].([]any)
	var ids []string
	for _, r := range repls {
		m := r.(map[string]any)
		ids = append(ids, m["id"].(string))
		if m["managed"] != false || m["external"] != true || m["status"] != "up" {
			t.Errorf("ctx entry %v: want unmanaged, external, up", m)
		}
	}
	if d := cmp.Diff([]string{base + "#app", base + "#external", base + "#worker"}, ids); d != "" {
		t.Errorf("ctx ids (-want +got):\n%s", d)
	}
	if got := reg.Count("s1"); got != 3 {
		t.Errorf("registry holds %d resources, want 3 mirrored", got)
	}

	// repl_stop with build detaches only that attachment; the server lives.
	st, err := p.stop(ctx, env, call(dir, map[string]any{"build": "worker"}))
	if err != nil || st["result"] != "detached" {
		t.Fatalf("stop worker = %v, %v", st, err)
	}
	if _, ok := p.get("s1", base+"#worker"); ok {
		t.Error("worker still attached after repl_stop")
	}
	res, err = p.eval(ctx, env, ext.Call{Cwd: dir, ID: base + "#app", Opts: map[string]any{"code": "1"}})
	if err != nil || res["value"] != `"cljs:app:1"` {
		t.Fatalf("app after detaching worker = %v, %v", res, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestConnectRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := New(Options{})
	t.Cleanup(p.Close)
	env, _ := sessionEnv(t, dir)
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	for _, tt := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{}, "port is required"},
		{map[string]any{"port": int64(dead), "host": "127.0.0.1"}, "nothing answers nREPL"},
		{map[string]any{"build": "app"}, "no shadow-cljs watch is running"},
		{map[string]any{"port": int64(70000)}, "not a TCP port"},
	} {
		if _, err := p.connect(ctx, env, call(dir, tt.opts)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("connect %v: err = %v, want %q", tt.opts, err, tt.want)
		}
	}
	if n := len(p.sessionREPLs("s1")); n != 0 {
		t.Errorf("%d REPLs registered after refusals", n)
	}
}

// TestCtxProbeCache: one probe per (turn, port set); a new turn or a
// changed port set probes again; no turn mark probes every time.
func TestCtxProbeCache(t *testing.T) {
	t.Parallel()
	peer := newShadowPeer(t, map[string]bool{}, nil)
	dir := t.TempDir()
	p := New(Options{})
	t.Cleanup(p.Close)
	env, _ := sessionEnv(t, dir)
	ctx := context.Background()
	if _, err := p.connect(ctx, env, call(dir, map[string]any{"port": int64(peer.port()), "host": "127.0.0.1"})); err != nil {
		t.Fatal(err)
	}
	wenv := ext.Environment{SessionID: "s1", Workspace: dir}
	_, h0 := peer.counts()
	t1 := WithTurn(ctx, "turn-1")
	first := must(p.Ctx(t1, wenv))
	second := must(p.Ctx(t1, wenv))
	if d := cmp.Diff(first, second); d != "" {
		t.Errorf("same turn, different contributions:\n%s", d)
	}
	_, h1 := peer.counts()
	if h1-h0 != 1 {
		t.Errorf("two renders in one turn probed %d times, want 1", h1-h0)
	}
	_ = must(p.Ctx(WithTurn(ctx, "turn-2"), wenv))
	_, h2 := peer.counts()
	if h2-h1 != 1 {
		t.Errorf("a new turn probed %d times, want 1", h2-h1)
	}
	// A second server in the same turn changes the port set: probe again.
	peer2 := newShadowPeer(t, map[string]bool{}, nil)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := p.connect(ctx, env, call(sub, map[string]any{"port": int64(peer2.port()), "host": "127.0.0.1"})); err != nil {
		t.Fatal(err)
	}
	n := nreplSlice(t, must(p.Ctx(WithTurn(ctx, "turn-2"), wenv)))
	_, h3 := peer.counts()
	if h3-h2 != 1 || len(n["repls"].([]any)) != 2 {
		t.Errorf("new port set: probes %d, repls %v", h3-h2, n["repls"])
	}
	_ = must(p.Ctx(ctx, wenv))
	_ = must(p.Ctx(ctx, wenv))
	_, h4 := peer.counts()
	if h4-h3 != 2 {
		t.Errorf("without a turn mark two renders probed %d times, want 2", h4-h3)
	}
}

func TestCtxEmpty(t *testing.T) {
	t.Parallel()
	p := New(Options{})
	t.Cleanup(p.Close)
	got := must(p.Ctx(context.Background(), ext.Environment{SessionID: "s1"}))
	if len(got) != 0 {
		t.Errorf("no workspace: %v, want {}", got)
	}
	got = must(p.Ctx(context.Background(), ext.Environment{SessionID: "s1", Workspace: t.TempDir()}))
	want := map[string]any{"env": map[string]any{"languages": map[string]any{"clojure": map[string]any{
		"nrepl": map[string]any{"default": nil, "repls": []any{}}}}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("no REPLs (-want +got):\n%s", d)
	}
	// Any failure degrades to {}: here listing the session's REPLs panics.
	p.mu.Lock()
	p.repls[replKey("s1", "nrepl:/a")] = &repl{id: "nrepl:/a", sessionID: "s1", dir: "/a"}
	p.repls[replKey("s1", "nrepl:/broken")] = nil
	p.mu.Unlock()
	got = must(p.Ctx(context.Background(), ext.Environment{SessionID: "s1", Workspace: "/w"}))
	if len(got) != 0 {
		t.Errorf("failing probe: %v, want {}", got)
	}
	p.mu.Lock()
	p.repls = map[string]*repl{}
	p.mu.Unlock()
}
