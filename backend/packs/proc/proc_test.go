package proc

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunKillsTheGroupOnTimeout(t *testing.T) {
	r, err := Run(context.Background(), t.TempDir(), 300*time.Millisecond, "", "sh", "-c", "sleep 30 & echo $!; wait")
	if err != nil || !r.TimedOut {
		t.Fatalf("Run = %+v, %v; want a timeout", r, err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(r.Stdout))
	if pid <= 0 {
		t.Fatalf("no background pid in %q", r.Stdout)
	}
	for i := 0; i < 50; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A zombie whose parent is gone may linger unreaped; it no longer runs.
	if raw, err := readState(pid); err == nil && raw != "Z" {
		t.Fatalf("the background child %d survived (state %s)", pid, raw)
	}
}

func TestRunReportsExitCodesAsData(t *testing.T) {
	r, err := Run(context.Background(), t.TempDir(), 10*time.Second, "in", "sh", "-c", "cat; echo oops >&2; exit 3")
	if err != nil || r.Exit != 3 || r.Stdout != "in" || r.Stderr != "oops\n" || r.TimedOut {
		t.Fatalf("Run = %+v, %v", r, err)
	}
	if _, err := Run(context.Background(), t.TempDir(), time.Second, "", "/no/such/program"); err == nil {
		t.Fatal("a program that cannot start is not an error")
	}
}
