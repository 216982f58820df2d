//go:build linux

package confine

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The helper records its child in the ledger and marks its environment;
// Reap kills what a dead app left (a background job that outlived its
// shell), leaves a live app's children alone, and forgets finished ones.
func TestReapKillsWhatADeadAppLeft(t *testing.T) {
	ledger := t.TempDir()
	w := newWorld(t)
	p := w.policy(Workspace)
	p.Ledger = ledger
	out, ok := run(t, p, "echo token=$VIS_REAP")
	token := strings.TrimSpace(strings.TrimPrefix(out, "token="))
	if !ok || len(token) != 24 {
		t.Fatalf("the child's token: %q", out)
	}
	var e ledgerEntry
	b, err := os.ReadFile(filepath.Join(ledger, token))
	if err != nil || json.Unmarshal(b, &e) != nil || e.Owner != os.Getpid() || e.OwnerStart != startTime(os.Getpid()) {
		t.Fatalf("ledger entry %s: %+v %v", b, e, err)
	}

	// A process left by an app that is gone: its ledger entry names a
	// finished process as its owner.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	orphan := exec.Command("sleep", "300")
	orphan.Env = append(os.Environ(), reapVar+"=deadbeefdeadbeefdeadbeef")
	orphan.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := orphan.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { orphan.Wait(); close(exited) }()
	write := func(token string, e ledgerEntry) {
		data, _ := json.Marshal(e)
		if err := os.WriteFile(filepath.Join(ledger, token), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("deadbeefdeadbeefdeadbeef", ledgerEntry{Owner: gone.Process.Pid, OwnerStart: 12345, Pgid: orphan.Process.Pid})
	// A child of this (live) process: kept.
	mine := exec.Command("sleep", "300")
	mine.Env = append(os.Environ(), reapVar+"=0123456789abcdef01234567")
	if err := mine.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { mine.Process.Kill(); mine.Wait() }()
	write("0123456789abcdef01234567", ledgerEntry{Owner: os.Getpid(), OwnerStart: startTime(os.Getpid())})

	if n := Reap(ledger); n != 1 {
		t.Errorf("Reap killed %d processes, want 1", n)
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		orphan.Process.Kill()
		t.Fatal("the orphan survived Reap")
	}
	if err := mine.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("a live app's child was killed: %v", err)
	}
	left, _ := os.ReadDir(ledger)
	var names []string
	for _, l := range left {
		names = append(names, l.Name())
	}
	// the finished echo's entry and the reaped one are gone; the live one stays
	if len(names) != 1 || names[0] != "0123456789abcdef01234567" {
		t.Errorf("ledger after Reap: %v", names)
	}
}
