package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// groupMembers lists the live (non-zombie) processes in process group pgid.
// Zombies are excluded: an orphan may wait for a non-reaping PID 1, but it
// no longer runs.
func groupMembers(t *testing.T, pgid int) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp ...
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			out = append(out, e.Name()+" "+s[:i+1])
		}
	}
	return out
}

// firstLinePID reads the pid printed by `echo $$` on the output's first line.
func firstLinePID(t *testing.T, out string) int {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("no pid on the first output line: %q", out)
	}
	return pid
}

// assertGroupGone waits briefly for init to finish off reparented members,
// then requires the group to be empty.
func assertGroupGone(t *testing.T, pgid int) {
	t.Helper()
	var left []string
	for range 50 {
		if left = groupMembers(t, pgid); len(left) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process group %d still alive: %v", pgid, left)
}

func TestShellExitCodesAndOutput(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	real, _ := filepath.EvalSymlinks(dir)
	cases := []struct {
		name string
		cmd  string
		code int
		out  string
	}{
		{"success", "echo hello", 0, "hello\n"},
		{"false", "false", 1, ""},
		{"exit code", "echo bye; exit 42", 42, "bye\n"},
		{"stderr interleaved", "echo out; echo err >&2; echo out2", 0, "out\nerr\nout2\n"},
		{"killed by signal", "kill -9 $$", 137, ""},
		{"stdin is /dev/null", "cat; echo done", 0, "done\n"},
		{"read gets EOF", "read x || echo eof", 0, "eof\n"},
		{"working directory", "pwd -P", 0, real + "\n"},
		{"pager disabled", "echo $PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT", 0, "cat cat 0\n"},
		{"command not found", "no-such-command-xyz 2>/dev/null", 127, ""},
		{"bash syntax", "for x in 1 2; do echo $x; done", 0, "1\n2\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Shell(ctx, dir, tc.cmd, 30*time.Second)
			mustDo(t, err)
			if r.ExitCode != tc.code || r.Output != tc.out || r.TimedOut {
				t.Errorf("got code=%d out=%q timedOut=%v; want code=%d out=%q", r.ExitCode, r.Output, r.TimedOut, tc.code, tc.out)
			}
		})
	}
}

func TestShellBadArgs(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		cmd     string
		timeout time.Duration
	}{{"", time.Second}, {"   ", time.Second}, {"true", 0}, {"true", -time.Second}, {"true", MaxShellTimeout + time.Second}} {
		_, err := Shell(ctx, t.TempDir(), tc.cmd, tc.timeout)
		wantKind(t, err, KindInvalid)
	}
	if _, err := Shell(ctx, filepath.Join(t.TempDir(), "missing"), "true", time.Second); err == nil {
		t.Error("Shell in a missing directory succeeded")
	}
}

// TestShellTimeoutKillsGroup: on timeout the command, its children and its
// orphaned grandchildren all die, even when they ignore SIGTERM.
func TestShellTimeoutKillsGroup(t *testing.T) {
	cases := []struct{ name, cmd string }{
		{"child and grandchild", "echo $$; sleep 100 & (sleep 100 &); sleep 100"},
		{"ignores SIGTERM", "echo $$; trap '' TERM; (sleep 100 &); sleep 100"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Shell(context.Background(), t.TempDir(), tc.cmd, time.Second)
			mustDo(t, err)
			if !r.TimedOut {
				t.Errorf("TimedOut = false; result %+v", r)
			}
			if !strings.Contains(r.Output, "[timed out after 1s; process group killed]") {
				t.Errorf("no timeout note in %q", r.Output)
			}
			if r.ExitCode < 128 {
				t.Errorf("exit code %d, want a signal code", r.ExitCode)
			}
			assertGroupGone(t, firstLinePID(t, r.Output))
		})
	}
}

func TestShellCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	// Cancel once the command is running: it creates a marker file first.
	marker := filepath.Join(dir, "started")
	go func() {
		for {
			if _, err := os.Stat(marker); err == nil {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	r, err := Shell(ctx, dir, "echo $$; (sleep 100 &); touch started; sleep 100", time.Minute)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if r.TimedOut {
		t.Error("cancel reported as timeout")
	}
	assertGroupGone(t, firstLinePID(t, r.Output))

	if _, err := Shell(ctx, dir, "true", time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("Shell with a done ctx: err = %v", err)
	}
}

// TestShellBackgroundChildDoesNotHang: a background job holding the output
// pipe open must not keep Shell waiting, and is killed with the group.
func TestShellBackgroundChildDoesNotHang(t *testing.T) {
	r, err := Shell(context.Background(), t.TempDir(), "echo $$; sleep 100 & echo started", time.Minute)
	mustDo(t, err)
	if r.ExitCode != 0 || r.TimedOut || !strings.HasSuffix(r.Output, "started\n") {
		t.Errorf("result %+v", r)
	}
	assertGroupGone(t, firstLinePID(t, r.Output))
}

func TestShellOutputCap(t *testing.T) {
	r, err := Shell(context.Background(), t.TempDir(), "echo START; head -c 200000 /dev/zero | tr '\\0' a; echo; echo END", time.Minute)
	mustDo(t, err)
	total := len("START\n") + 200000 + len("\nEND\n")
	omitted := total - maxShellOutput
	note := fmt.Sprintf("\n… [%d bytes omitted] …\n", omitted)
	if !strings.HasPrefix(r.Output, "START\naaa") || !strings.HasSuffix(r.Output, "aaa\nEND\n") || !strings.Contains(r.Output, note) {
		t.Errorf("capped output wrong: head %q ... tail %q", r.Output[:20], r.Output[len(r.Output)-20:])
	}
	if got := len(r.Output) - len(note); got != maxShellOutput {
		t.Errorf("kept %d bytes, want %d", got, maxShellOutput)
	}
}

func TestCapBuffer(t *testing.T) {
	cases := []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{"under limit", 10, []string{"abc", "def"}, "abcdef"},
		{"exactly limit", 6, []string{"abc", "def"}, "abcdef"},
		{"over limit", 6, []string{"abcdefgh"}, "abc\n… [2 bytes omitted] …\nfgh"},
		{"many small writes", 4, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "12\n… [5 bytes omitted] …\n89"},
		{"tail rolls over", 4, []string{"ab", "cdefghijklmnop", "qr"}, "ab\n… [14 bytes omitted] …\nqr"},
		{"multibyte kept whole when it fits", 4, []string{"é", "xxxxx", "é"}, "é\n… [5 bytes omitted] …\né"},
		{"multibyte cut becomes U+FFFD", 4, []string{"aé", "xxxxx", "éb"}, "a\uFFFD\n… [7 bytes omitted] …\n\uFFFDb"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newCapBuffer(tc.limit)
			for _, w := range tc.writes {
				b.Write([]byte(w))
			}
			if got := b.String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSetShellRunsInRoot(t *testing.T) {
	s, _ := newSet(t, map[string]string{"marker.txt": "here\n"})
	r, err := s.Shell(context.Background(), "cat marker.txt", 10*time.Second)
	mustDo(t, err)
	if r.Output != "here\n" {
		t.Errorf("output %q", r.Output)
	}
}
