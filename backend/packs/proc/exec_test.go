package proc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestExecPassesEnvAndReportsTimeouts(t *testing.T) {
	r, err := Exec(context.Background(), []string{"sh", "-c", "printf %s \"$VIS_PROC_T\"; cat; exit 4"}, t.TempDir(), "in", time.Minute, []string{"VIS_PROC_T=set"})
	if err != nil || r.Stdout != "setin" || r.Exit != 4 || r.TimedOut {
		t.Fatalf("Exec = %+v, %v", r, err)
	}
	r, err = Exec(context.Background(), []string{"sleep", "30"}, t.TempDir(), "", 200*time.Millisecond, nil)
	if err != nil || !r.TimedOut || r.Exit != -1 {
		t.Fatalf("timeout: %+v, %v", r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Exec(ctx, []string{"sleep", "30"}, t.TempDir(), "", time.Minute, nil); err == nil {
		t.Fatal("a cancelled ctx is not an error")
	}
}

func TestTailClipReadTail(t *testing.T) {
	if got := Tail("a\nb\nc\n", 2); got != "b\nc" {
		t.Fatalf("Tail = %q", got)
	}
	if got := Clip("abcdef", 2); got != "… (4 bytes cut)\nef" {
		t.Fatalf("Clip = %q", got)
	}
	p := filepath.Join(t.TempDir(), "log")
	os.WriteFile(p, []byte(strings.Repeat("x\n", 100)+"last\n"), 0o644)
	if got, err := ReadTail(p, 2); err != nil || got != "x\nlast" {
		t.Fatalf("ReadTail = %q, %v", got, err)
	}
}

func TestClipMiddle(t *testing.T) {
	if got := ClipMiddle("short", 10); got != "short" {
		t.Errorf("ClipMiddle of a short string = %q", got)
	}
	s := strings.Repeat("é", 50) // 100 bytes, 2 per rune
	got := ClipMiddle(s, 21)
	if !utf8.ValidString(got) {
		t.Fatalf("cut inside a rune: %q", got)
	}
	if !strings.HasPrefix(got, strings.Repeat("é", 5)) || !strings.HasSuffix(got, strings.Repeat("é", 5)) || !strings.Contains(got, "[80 bytes clipped]") {
		t.Errorf("ClipMiddle = %q", got)
	}
}

// Interruptible gives a child SIGINT and its grace to report before the
// kill; one that ignores SIGINT is killed after the grace.
func TestInterruptibleLetsTheChildReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r, err := Interruptible(context.Background(), []string{"sh", "-c", `trap 'echo "report: 2 passed"; exit 3' INT; echo started; while :; do sleep 0.05; done`}, dir, "", 500*time.Millisecond, nil, time.Minute)
	if err != nil || !r.TimedOut || r.Exit != 3 || !strings.Contains(r.Stdout, "started\nreport: 2 passed") {
		t.Fatalf("reporting child: %+v, %v", r, err)
	}
	r, err = Interruptible(context.Background(), []string{"sh", "-c", `trap '' INT; echo deaf; while :; do sleep 0.05; done`}, dir, "", 300*time.Millisecond, nil, 300*time.Millisecond)
	if err != nil || !r.TimedOut || r.Exit != -1 || r.Stdout != "deaf\n" {
		t.Fatalf("deaf child: %+v, %v", r, err)
	}
}
