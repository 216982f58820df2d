package confine

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This test binary is also the helper: Command wraps children as
// `<test binary> __vis-confine ...`.
func TestMain(m *testing.M) {
	HelperMain()
	os.Exit(m.Run())
}

// run runs a shell line confined by p and returns its combined output and
// whether it exited 0.
func run(t *testing.T, p Policy, script string) (string, bool) {
	t.Helper()
	argv, err := p.Command([]string{"sh", "-c", script})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	return string(out), err == nil
}

type world struct {
	ws, outside, home, secret, visHome string
}

func newWorld(t *testing.T) world {
	t.Helper()
	root := t.TempDir()
	w := world{ws: filepath.Join(root, "ws"), outside: filepath.Join(root, "outside"), home: filepath.Join(root, "home")}
	w.secret = filepath.Join(w.home, ".ssh", "id_rsa")
	w.visHome = filepath.Join(w.home, ".config", "vis")
	for _, d := range []string{w.ws, w.outside, filepath.Dir(w.secret), w.visHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range map[string]string{w.secret: "PRIVATE KEY", filepath.Join(w.visHome, "vis.db"): "sessions", filepath.Join(w.home, ".bashrc"): "alias ll=ls", filepath.Join(w.ws, "main.go"): "package main"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w world) policy(m Mode) Policy {
	return Policy{Mode: m, Workspace: w.ws, Protected: []string{filepath.Join(w.home, ".ssh"), w.visHome}, Network: true}
}

func TestWorkspaceModeWritesOnlyInsideAndReadsNoSecret(t *testing.T) {
	SkipWithoutLandlock(t)
	t.Parallel()
	w := newWorld(t)
	p := w.policy(Workspace)
	if out, ok := run(t, p, "echo new > "+w.ws+"/new.txt && mkdir -p "+w.ws+"/a/b && mv "+w.ws+"/new.txt "+w.ws+"/a/b/ && cat "+w.ws+"/main.go"); !ok || out != "package main" {
		t.Fatalf("inside the workspace: %q ok=%v", out, ok)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "a/b/new.txt")); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{w.outside + "/x", w.home + "/pwned", "/tmp/vis-confine-escape-" + filepath.Base(w.ws)} {
		out, ok := run(t, p, "echo x > "+target)
		if ok || !strings.Contains(out, "Permission denied") {
			t.Errorf("wrote %s: %q ok=%v", target, out, ok)
		}
		if _, err := os.Stat(target); err == nil {
			os.Remove(target)
			t.Errorf("%s exists", target)
		}
	}
	for _, secret := range []string{w.secret, filepath.Join(w.visHome, "vis.db")} {
		if out, ok := run(t, p, "cat "+secret); ok || strings.Contains(out, "PRIVATE") || strings.Contains(out, "sessions") {
			t.Errorf("read %s: %q", secret, out)
		}
	}
	if out, ok := run(t, p, "ls "+filepath.Dir(w.secret)); ok {
		t.Errorf("listed ~/.ssh: %q", out)
	}
	// The rest of home and the system stay readable; devices writable.
	if out, ok := run(t, p, "cat "+w.home+"/.bashrc; ls /usr/bin >/dev/null && echo ok"); !ok || out != "alias ll=lsok\n" {
		t.Errorf("readable elsewhere: %q ok=%v", out, ok)
	}
}

func TestReadOnlyModeWritesNothing(t *testing.T) {
	SkipWithoutLandlock(t)
	t.Parallel()
	w := newWorld(t)
	out, ok := run(t, w.policy(ReadOnly), "cat "+w.ws+"/main.go >/dev/null && echo x > "+w.ws+"/new.txt")
	if ok || !strings.Contains(out, "Permission denied") {
		t.Fatalf("read-only wrote: %q ok=%v", out, ok)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "new.txt")); err == nil {
		t.Fatal("new.txt exists")
	}
}

func TestNetworkOffRefusesTCP(t *testing.T) {
	SkipWithoutLandlock(t)
	if !Status().Network {
		t.Skip("this kernel's Landlock cannot restrict TCP (ABI < 4)")
	}
	t.Parallel()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	w := newWorld(t)
	probe := "exec python3 -c \"import socket; socket.create_connection(('127.0.0.1', " + strconv.Itoa(port) + "), timeout=10); print('connected')\""
	p := w.policy(Workspace)
	if out, ok := run(t, p, probe); !ok || !strings.Contains(out, "connected") {
		t.Fatalf("network on: %q", out)
	}
	p.Network = false
	if out, ok := run(t, p, probe); ok || !strings.Contains(out, "PermissionError") {
		t.Fatalf("network off connected: %q", out)
	}
}

func TestFullModeAndReadRoots(t *testing.T) {
	argv, err := Policy{Mode: Full}.Command([]string{"true"})
	if err != nil || !slices.Equal(argv, []string{"true"}) {
		t.Fatalf("full: %v %v", argv, err)
	}
	w := newWorld(t)
	os.WriteFile(filepath.Join(w.home, ".config", "app.toml"), nil, 0o644)
	got := readRoots(filepath.Dir(w.home), []string{filepath.Join(w.home, ".ssh"), w.visHome})
	want := []string{filepath.Join(w.home, ".bashrc"), filepath.Join(w.home, ".config", "app.toml"), w.outside, w.ws}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("readRoots = %v\nwant %v", got, want)
	}
	if _, err := ParseMode("yolo"); err == nil {
		t.Fatal("ParseMode took yolo")
	}
}

// Provider keys and tokens never reach a child, in any mode.
func TestHiddenEnvInEveryMode(t *testing.T) {
	t.Setenv("VIS_API_KEY", "sk-secret")
	t.Setenv("GITHUB_TOKEN", "ghp-secret")
	t.Setenv("VIS_CONFINE_VISIBLE", "seen")
	w := newWorld(t)
	for _, m := range []Mode{Workspace, Full} {
		p := w.policy(m)
		p.HideEnv = []string{"VIS_API_KEY", "*_TOKEN"}
		out, ok := run(t, p, "env")
		if !ok || strings.Contains(out, "secret") || !strings.Contains(out, "VIS_CONFINE_VISIBLE=seen") {
			t.Errorf("%s: env =\n%s", m, out)
		}
	}
	keep, hidden := Hidden([]string{"A=1", "VIS_API_KEY=x", "NPM_TOKEN=y", "B=2"}, []string{"VIS_API_KEY", "*_TOKEN"})
	if !slices.Equal(keep, []string{"A=1", "B=2"}) || !slices.Equal(hidden, []string{"NPM_TOKEN", "VIS_API_KEY"}) {
		t.Fatalf("Hidden = %v, %v", keep, hidden)
	}
}
