package clojure

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

func TestIdleTimeoutOption(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opt  time.Duration
		env  string
		want time.Duration
	}{
		{name: "default", want: DefaultIdleTimeout},
		{name: "from the environment", env: "1500", want: 1500 * time.Millisecond},
		{name: "0 disables", env: "0", want: -1},
		{name: "garbage keeps the default", env: "soon", want: DefaultIdleTimeout},
		{name: "negative keeps the default", env: "-5", want: DefaultIdleTimeout},
		{name: "an option wins over the environment", opt: time.Minute, env: "1500", want: time.Minute},
		{name: "a negative option disables", opt: -1, env: "1500", want: -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := idleTimeout(Options{IdleTimeout: tt.opt, Getenv: func(k string) string {
				if k == IdleEnv {
					return tt.env
				}
				return ""
			}})
			if got != tt.want {
				t.Errorf("idleTimeout = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestPortFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".nrepl-port")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		b, err := os.ReadFile(path)
		if err != nil {
			return "<absent>"
		}
		return string(b)
	}
	if removePortFile(dir, 4000, "") {
		t.Error("removed a file that does not exist")
	}
	write("5000")
	if removePortFile(dir, 4000, "") || read() != "5000" {
		t.Errorf("a file naming another server's port was touched: %q", read())
	}
	write("4000\n")
	if !removePortFile(dir, 4000, "") || read() != "<absent>" {
		t.Errorf("our port file stays: %q", read())
	}
	write("4000")
	if !removePortFile(dir, 4000, "5000") || read() != "5000" {
		t.Errorf("the file that was there before our launch is not back: %q", read())
	}
}

// TestIdleReaperRealREPL: a managed nREPL (Debian's jars) nobody uses is
// stopped like repl_stop stops it — process group gone, registry and the
// `session` slice empty, the reason in its log — while one in use is kept.
// The launcher's .nrepl-port is gone after boot and the one that was there
// before comes back.
func TestIdleReaperRealREPL(t *testing.T) {
	t.Parallel()
	needJVM(t)
	dir := packtest.CopyFixture(t, "testdata/fixture")
	if err := os.WriteFile(filepath.Join(dir, ".nrepl-port"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := New(Options{OfficialCLI: func(context.Context) bool { return false }, StartTimeout: 90 * time.Second, IdleTimeout: -1})
	t.Cleanup(p.Close)
	env, reg := sessionEnv(t, dir)
	f := newFacade(t, p, dir, env)
	id := ManagedID(dir)
	out := f.call("repl_start", "clojure")
	if out["result"] != "started" {
		t.Fatalf("repl_start = %v", out)
	}
	pid := out["pid"].(int)

	deadline := time.Now().Add(20 * time.Second)
	for portFileBefore(dir) != "1" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := portFileBefore(dir); got != "1" {
		t.Errorf(".nrepl-port after boot = %q, want the prior file's \"1\" back", got)
	}

	const idle = time.Hour
	r, _ := p.get("s1", id)
	if got := p.reapIdle(time.Now().Add(idle/2), idle); len(got) != 0 {
		t.Fatalf("reaped %v half an idle period after start", got)
	}
	// A use an hour later keeps it another hour.
	f.call("repl_eval", "clojure", map[string]any{"code": "(+ 1 2)"})
	if got := p.reapIdle(time.Now().Add(idle/2), idle); len(got) != 0 {
		t.Fatalf("reaped %v right after an eval", got)
	}
	if got := p.reapIdle(time.Now().Add(idle+time.Minute), idle); len(got) != 1 || got[0] != id {
		t.Fatalf("reapIdle past the idle period = %v, want [%s]", got, id)
	}
	if packtest.GroupAlive(pid) {
		t.Errorf("the reaped REPL's process group %d lives", pid)
	}
	if reg.Count("s1") != 0 {
		t.Errorf("the registry still lists %+v", reg.Snapshot("s1"))
	}
	n := nreplSlice(t, must(p.Ctx(context.Background(), ext.Environment{SessionID: "s1", Workspace: dir})))
	if len(n["repls"].([]any)) != 0 {
		t.Errorf("the session slice still has %v", n)
	}
	logText, _ := readTail(r.logPath, 5)
	if !strings.Contains(logText, "unused for 1h0m0s") || !strings.Contains(logText, IdleEnv) {
		t.Errorf("the log does not say why it stopped:\n%s", logText)
	}
	if got := portFileBefore(dir); got != "1" {
		t.Errorf(".nrepl-port after the stop = %q, want \"1\"", got)
	}
	f.fails("repl_eval", "repl_start", "clojure", map[string]any{"code": "(+ 1 2)"})
}

// TestIdleReaperGoroutine: with a short idle timeout the pack's own reaper
// stops an unused REPL by itself.
func TestIdleReaperGoroutine(t *testing.T) {
	t.Parallel()
	needJVM(t)
	dir := packtest.CopyFixture(t, "testdata/fixture")
	p := New(Options{OfficialCLI: func(context.Context) bool { return false }, StartTimeout: 90 * time.Second, IdleTimeout: 300 * time.Millisecond})
	t.Cleanup(p.Close)
	env, reg := sessionEnv(t, dir)
	f := newFacade(t, p, dir, env)
	out := f.call("repl_start", "clojure")
	if out["result"] != "started" {
		t.Fatalf("repl_start = %v", out)
	}
	pid := out["pid"].(int)
	deadline := time.Now().Add(60 * time.Second)
	for (reg.Count("s1") != 0 || packtest.GroupAlive(pid)) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if reg.Count("s1") != 0 || packtest.GroupAlive(pid) {
		t.Fatalf("an unused REPL survived its idle timeout: registry %+v, group alive %v", reg.Snapshot("s1"), packtest.GroupAlive(pid))
	}
	if _, err := os.Stat(filepath.Join(dir, ".nrepl-port")); err == nil {
		t.Errorf("the launcher's .nrepl-port is left behind")
	}
}
