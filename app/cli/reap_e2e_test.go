package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// kill -9 of vis while a program's shell command runs: the command's own
// child survives the app (the parent-death signal reaches only the direct
// child), and the next start of vis kills it.
func TestKilledRunsLeftoversAreReapedAtTheNextStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Code: "shell('sleep 300; echo never', timeout=600)"}, providertest.Reply{Content: []string{"done"}})
	c := e.cmd("run", "hang on")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	// The sleep is running once a process carries a ledger token.
	ledger := filepath.Join(e.home, "desktop", "children")
	var sleeper int
	deadline := time.Now().Add(60 * time.Second)
	for sleeper == 0 && time.Now().Before(deadline) {
		sleeper = findSleeper(t, ledger)
		time.Sleep(50 * time.Millisecond)
	}
	if sleeper == 0 {
		c.Process.Kill()
		t.Fatal("no `sleep 300` carrying a ledger token appeared")
	}
	c.Process.Signal(syscall.SIGKILL)
	c.Wait()
	time.Sleep(200 * time.Millisecond) // let the parent-death signal land
	if syscall.Kill(sleeper, 0) != nil {
		t.Skip("the sleep died with the app; nothing left to reap on this system")
	}
	if r := e.run("", "sessions"); r.code != 0 {
		t.Fatalf("vis sessions: %d %s", r.code, r.stderr)
	}
	for i := 0; syscall.Kill(sleeper, 0) == nil; i++ {
		if i > 200 {
			syscall.Kill(sleeper, syscall.SIGKILL)
			t.Fatal("the next start did not reap the sleep left by the killed run")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// findSleeper is the pid of a `sleep 300` whose environment carries the
// token of an entry in the ledger, or 0.
func findSleeper(t *testing.T, ledger string) int {
	entries, _ := os.ReadDir(ledger)
	tokens := map[string]bool{}
	for _, e := range entries {
		tokens[e.Name()] = true
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + p.Name() + "/cmdline")
		if !bytes.Equal(bytes.TrimRight(cmdline, "\x00"), []byte("sleep\x00300")) {
			continue
		}
		env, _ := os.ReadFile("/proc/" + p.Name() + "/environ")
		for _, kv := range strings.Split(string(env), "\x00") {
			if tok, ok := strings.CutPrefix(kv, "VIS_REAP="); ok && tokens[tok] {
				return pid
			}
		}
	}
	return 0
}
