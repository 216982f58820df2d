//go:build unix

package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCrashMidTurn kills a process in the middle of a turn and checks that
// nothing it committed is lost: the test binary re-runs itself as a child
// (STORE_CRASH_CHILD names the database) that starts a turn, adds three
// iterations, prints "ready" and waits to be killed.
func TestCrashMidTurn(t *testing.T) {
	t.Parallel()
	if path := os.Getenv("STORE_CRASH_CHILD"); path != "" {
		crashChild(path)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "vis.db")
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashMidTurn$", "-test.count=1")
	cmd.Env = append(os.Environ(), "STORE_CRASH_CHILD="+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group, killed with it
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var sessionID string
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
			sessionID = id
			break
		}
	}
	if sessionID == "" {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		t.Fatalf("child never became ready: %v", sc.Err())
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() // reaps it; the error is the kill

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen after the crash: %v", err)
	}
	defer s.Close()
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatalf("after the crash: %v", err)
	}
	turns, err := s.ListTurns(ctx, sessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 1 || turns[0].Status != TurnRunning {
		t.Fatalf("turns after the crash = %+v, want one running turn", turns)
	}
	its, err := s.ListIterations(ctx, turns[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(its) != 3 {
		t.Fatalf("%d iterations survived the crash, want 3", len(its))
	}
	for i, it := range its {
		if want := fmt.Sprintf("step(%d)", i+1); it.Code != want {
			t.Errorf("iteration %d code = %q, want %q", i+1, it.Code, want)
		}
	}
	n, err := s.InterruptRunning(ctx)
	if err != nil || n != 1 {
		t.Fatalf("InterruptRunning = %d, %v; want 1", n, err)
	}
	got, err := s.GetTurn(ctx, turns[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != TurnInterrupted || got.Error != InterruptedError || got.Iterations != 3 || got.Usage.InputTokens != 30 {
		t.Errorf("turn after InterruptRunning = %+v", got)
	}
	after, err := s.ListIterations(ctx, turns[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(its, after); diff != "" {
		t.Errorf("marking the turn interrupted changed its iterations (-before +after):\n%s", diff)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatalf("after InterruptRunning: %v", err)
	}
}

// crashChild is the child's side of TestCrashMidTurn. It never returns: it
// blocks until killed (or, as a safety net, exits after a minute).
func crashChild(path string) {
	ctx := context.Background()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	s, err := Open(ctx, path)
	if err != nil {
		fail(err)
	}
	sess := Session{ID: NewID(), Workspace: "/w", Title: "crash"}
	if err := s.CreateSession(ctx, sess); err != nil {
		fail(err)
	}
	turn, err := s.StartTurn(ctx, sess.ID, "do three things", "cli")
	if err != nil {
		fail(err)
	}
	for i := 1; i <= 3; i++ {
		it := Iteration{TurnID: turn.ID, Status: IterationDone, Code: fmt.Sprintf("step(%d)", i)}
		it.Usage.InputTokens = 10
		if _, err := s.AddIteration(ctx, it); err != nil {
			fail(err)
		}
	}
	fmt.Println("ready " + sess.ID)
	time.Sleep(time.Minute)
	os.Exit(4)
}
