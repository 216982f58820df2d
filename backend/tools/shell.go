package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/live"
)

// Shell limits.
const (
	DefaultShellTimeout = 120 * time.Second
	MaxShellTimeout     = 1800 * time.Second
)

// ShellResult is the outcome of one shell command. A non-zero ExitCode is
// data, not an error; a command killed by a signal reports 128+signal.
type ShellResult struct {
	ExitCode int
	Output   string // stdout and stderr interleaved, capped (head and tail kept)
	TimedOut bool
	Duration time.Duration
}

// Shell runs `bash -c cmd` in dir with stdin from /dev/null, stdout and
// stderr combined, in a new process group. When the timeout passes or ctx
// ends, the group gets SIGTERM and, after a short grace, SIGKILL. When bash
// exits, whatever it left running in its group is killed too, so no
// background child outlives the call (a daemon must leave the group, e.g.
// with setsid, and redirect its output). Output beyond 64 KiB keeps the
// first and last 32 KiB with a note in between.
//
// It returns an error for a bad timeout (not in (0, MaxShellTimeout]), an
// empty cmd, a command that cannot start, and ctx cancellation (then with
// the partial result and an error wrapping ctx.Err()). It owns every
// goroutine it starts and returns only after they end.
func Shell(ctx context.Context, dir, cmd string, timeout time.Duration) (ShellResult, error) {
	if strings.TrimSpace(cmd) == "" {
		return ShellResult{}, failf(KindInvalid, `pass a bash command line, e.g. shell("go test ./...")`, "shell: empty command")
	}
	if timeout <= 0 || timeout > MaxShellTimeout {
		return ShellResult{}, failf(KindInvalid, fmt.Sprintf("use a timeout between 1 and %d seconds", int(MaxShellTimeout/time.Second)),
			"shell: timeout %v out of range", timeout)
	}
	if err := ctx.Err(); err != nil {
		return ShellResult{}, fmt.Errorf("shell: %w", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return ShellResult{}, fmt.Errorf("shell: pipe: %w", err)
	}
	argv, err := confine.CommandCtx(ctx, []string{"bash", "-c", cmd})
	if err != nil {
		pr.Close()
		pw.Close()
		return ShellResult{}, fmt.Errorf("shell: %w", err)
	}
	c := exec.Command(argv[0], argv[1:]...)
	c.Dir = dir
	c.Stdout, c.Stderr = pw, pw // same fd: true interleaving
	c.Env = shellEnv(os.Environ())
	c.SysProcAttr = shellProcAttr()
	began := time.Now()
	if err := c.Start(); err != nil {
		pr.Close()
		pw.Close()
		return ShellResult{}, fmt.Errorf("shell: start bash: %w", err)
	}
	pw.Close() // the children hold the write end now
	pgid := c.Process.Pid

	out := newCapBuffer(maxShellOutput)
	sink, lastLine := live.Tee(ctx, out) // the transcript's live tail
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer lastLine()
		_, _ = io.Copy(sink, pr)
	}()
	waitDone := make(chan error, 1)
	go func() { waitDone <- c.Wait() }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var timedOut, canceled bool
	select {
	case <-waitDone:
	case <-timer.C:
		timedOut = true
		terminate(pgid, waitDone)
	case <-ctx.Done():
		canceled = true
		terminate(pgid, waitDone)
	}
	// The leader is gone; nothing else of the group may outlive the call.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-readDone:
	case <-time.After(shellGrace):
		// Something outside the group (setsid) still holds the pipe.
		pr.Close()
		<-readDone
	}
	pr.Close()

	res := ShellResult{Output: out.String(), TimedOut: timedOut, Duration: time.Since(began), ExitCode: -1}
	if ps := c.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		} else {
			res.ExitCode = ps.ExitCode()
		}
	}
	if timedOut {
		res.Output += fmt.Sprintf("\n[timed out after %v; process group killed]", timeout)
	}
	if canceled {
		return res, fmt.Errorf("shell: %w", context.Cause(ctx))
	}
	return res, nil
}

// terminate sends SIGTERM to the group, then SIGKILL after the grace
// period, and waits for the leader.
func terminate(pgid int, waitDone <-chan error) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	grace := time.NewTimer(shellGrace)
	defer grace.Stop()
	select {
	case <-waitDone:
	case <-grace.C:
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-waitDone
	}
}

// shellEnv returns env with settings that keep tools non-interactive.
func shellEnv(env []string) []string {
	set := map[string]string{
		"PAGER":               "cat",
		"GIT_PAGER":           "cat",
		"GIT_TERMINAL_PROMPT": "0",
		"TERM":                "dumb",
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; ok && k != "TERM" {
			continue
		}
		if k == "TERM" {
			delete(set, "TERM") // keep the user's TERM when there is one
		}
		out = append(out, kv)
	}
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	return out
}

// capBuffer keeps the first and last half of a byte budget and counts the
// rest. Its mutex makes Write and String safe to call concurrently.
type capBuffer struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte
	total int64
}

func newCapBuffer(limit int) *capBuffer { return &capBuffer{limit: limit} }

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	half := b.limit / 2
	if room := half - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		b.tail = append(b.tail, p...)
		if len(b.tail) > 2*(b.limit-half) {
			b.tail = append([]byte(nil), b.tail[len(b.tail)-(b.limit-half):]...)
		}
	}
	return n, nil
}

func (b *capBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.total <= int64(b.limit) {
		return strings.ToValidUTF8(string(b.head)+string(b.tail), "\uFFFD")
	}
	keep := b.limit - len(b.head)
	tail := b.tail
	if len(tail) > keep {
		tail = tail[len(tail)-keep:]
	}
	omitted := b.total - int64(len(b.head)) - int64(len(tail))
	return strings.ToValidUTF8(string(b.head), "\uFFFD") +
		fmt.Sprintf("\n… [%d bytes omitted] …\n", omitted) +
		strings.ToValidUTF8(string(tail), "\uFFFD")
}

// Shell runs cmd in the workspace root; see the package-level Shell.
func (s *Set) Shell(ctx context.Context, cmd string, timeout time.Duration) (ShellResult, error) {
	return Shell(ctx, s.abs, cmd, timeout)
}

// refusalWords are what a process prints when Landlock refuses it a file
// (EACCES, EPERM, EROFS as strerror words them).
var refusalWords = []string{"Permission denied", "Operation not permitted", "Read-only file system"}

// sandboxRefusal says why a confined command's failure looks like the
// sandbox's doing ("workspace mode: <the refused line>"), or "" when it
// does not: it failed, ctx
// confines it (not full mode, Landlock enforced), and either the helper
// itself refused to start it (exit 126, "vis sandbox:") or a line of its
// output reports a refused file that is not inside the workspace (in
// read-only mode, any refused file). A guess on the output's words, said
// as one: a command may print "Permission denied" for its own reasons.
func sandboxRefusal(ctx context.Context, workspace string, r ShellResult) string {
	p, ok := confine.From(ctx)
	if !ok || p.Mode == confine.Full || r.ExitCode == 0 || r.TimedOut {
		return ""
	}
	if r.ExitCode == 126 && strings.Contains(r.Output, "vis sandbox:") {
		return string(p.Mode) + " mode: the sandbox could not start the command"
	}
	if confine.Status().ABI == 0 {
		return "" // nothing was enforced
	}
	for _, line := range strings.Split(r.Output, "\n") {
		word := ""
		for _, w := range refusalWords {
			if strings.Contains(line, w) {
				word = w
			}
		}
		if word == "" {
			continue
		}
		if p.Mode == confine.Workspace && mentionsInside(line, workspace) {
			continue // a refusal inside the workspace is not the sandbox's
		}
		line = strings.TrimSpace(line)
		if len(line) > 200 {
			line = line[:200] + "…"
		}
		return fmt.Sprintf("%s mode: %s", p.Mode, line)
	}
	return ""
}

// mentionsInside reports whether line names a path inside workspace (an
// absolute one under it, or a relative one: the shell runs in it).
func mentionsInside(line, workspace string) bool {
	for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\'' || r == '"' || r == '`' || r == '‘' || r == '’' }) {
		f = strings.TrimSuffix(f, ":")
		if strings.HasPrefix(f, "/") {
			if workspace != "" && (f == workspace || strings.HasPrefix(f, workspace+"/")) {
				return true
			}
		}
	}
	return false
}
