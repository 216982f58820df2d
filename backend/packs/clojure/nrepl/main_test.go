package nrepl

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The real nREPL server shared by the tests in this package (Debian's
// clojure + libnrepl-clojure; scripts/deps.sh test installs them).
var (
	serverPort    int
	serverPID     int
	serverSkip    string // why tests needing the server skip; "" = running
	serverLogPath string
)

var serverJars = []string{
	"/usr/share/java/clojure.jar",
	"/usr/share/java/spec.alpha.jar",
	"/usr/share/java/core.specs.alpha.jar",
	"/usr/share/java/nrepl.jar",
}

// TestMain stops the server (and its whole process group) after the tests.
// The server starts lazily, on the first test that needs it, so codec tests
// and fuzz workers never launch a JVM.
func TestMain(m *testing.M) {
	code := m.Run()
	serverStop()
	os.Exit(code)
}

var (
	serverOnce sync.Once
	serverErr  error
	serverStop = func() {}
)

// startServer starts the nREPL server in its own process group, or records why
// it cannot (java or the jars absent). A server that is installed but fails to
// start is an error, not a skip.
func startServer() (stop func(), err error) {
	stop = func() {}
	java, lerr := exec.LookPath("java")
	if lerr != nil {
		serverSkip = "java is not installed (scripts/deps.sh test installs clojure and libnrepl-clojure)"
		return stop, nil
	}
	for _, j := range serverJars {
		if _, err := os.Stat(j); err != nil {
			serverSkip = j + " is absent (scripts/deps.sh test installs clojure and libnrepl-clojure)"
			return stop, nil
		}
	}
	port, err := freePort()
	if err != nil {
		return stop, err
	}
	dir, err := os.MkdirTemp("", "nrepl-test-")
	if err != nil {
		return stop, err
	}
	serverLogPath = filepath.Join(dir, "server.log")
	logf, err := os.Create(serverLogPath)
	if err != nil {
		return stop, err
	}
	cmd := exec.Command(java, "-cp", strings.Join(serverJars, ":"),
		"clojure.main", "-m", "nrepl.cmdline", "--port", fmt.Sprint(port), "--bind", "127.0.0.1")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = serverProcAttr()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return stop, fmt.Errorf("start nREPL server: %w", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	stop = func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-waited
		logf.Close()
		os.RemoveAll(dir)
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		nc, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err == nil {
			nc.Close()
			break
		}
		select {
		case werr := <-waited:
			waited <- werr
			log, _ := os.ReadFile(serverLogPath)
			stop()
			return func() {}, fmt.Errorf("nREPL server exited (%v) before listening:\n%s", werr, log)
		default:
		}
		if time.Now().After(deadline) {
			stop()
			return func() {}, fmt.Errorf("nREPL server did not listen on %d within 90s", port)
		}
		time.Sleep(100 * time.Millisecond)
	}
	serverPort, serverPID = port, cmd.Process.Pid
	return stop, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// needServer skips t when the real server cannot run on this machine.
func needServer(t *testing.T) {
	t.Helper()
	serverOnce.Do(func() {
		serverStop, serverErr = startServer()
	})
	if serverErr != nil {
		t.Fatalf("real nREPL server: %v", serverErr)
	}
	if serverSkip != "" {
		t.Skip("no real nREPL server: " + serverSkip)
	}
}

// newServerClient returns a Client for the shared server, closed at cleanup.
func newServerClient(t *testing.T, opts Options) *Client {
	t.Helper()
	needServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Dial(ctx, "127.0.0.1", serverPort, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// rawExchange is a debugging aid: it sends msg on a fresh socket and returns
// the replies up to "done".
func rawExchange(t *testing.T, msg map[string]any) []map[string]any {
	t.Helper()
	nc, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", serverPort))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	if err := Encode(nc, msg); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	var out []map[string]any
	for {
		v, err := Decode(br)
		if err != nil {
			t.Fatal(err)
		}
		m := v.(map[string]any)
		out = append(out, m)
		if hasStatus(m, "done") {
			return out
		}
	}
}
