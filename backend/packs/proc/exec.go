package proc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/live"
)

// Ran is the outcome of one short-lived child process run by Exec.
type Ran struct {
	Stdout, Stderr string
	Exit           int
	TimedOut       bool
}

// Exec executes argv in dir with stdin and env added to the process's
// environment, in its own process group, and kills the whole group when
// timeout (0 = 10 minutes) passes or ctx ends. A non-zero exit is not an
// error; failing to start is, and so is ctx ending (ctx.Err()). Unlike Run,
// Exit is -1 for a child the timeout or the wait delay ended.
func Exec(ctx context.Context, argv []string, dir string, stdin string, timeout time.Duration, env []string) (Ran, error) {
	return execGroup(ctx, argv, dir, stdin, timeout, env, 0)
}

// Interruptible is Exec for a child that reports what it has done when
// interrupted, as a person's Ctrl-C would (pytest writes its report,
// unittest -c prints the results so far): when the timeout passes or ctx
// ends, the group first gets SIGINT and up to grace to finish, then
// SIGKILL. The output it printed meanwhile is in the result.
func Interruptible(ctx context.Context, argv []string, dir string, stdin string, timeout time.Duration, env []string, grace time.Duration) (Ran, error) {
	return execGroup(ctx, argv, dir, stdin, timeout, env, grace)
}

func execGroup(ctx context.Context, argv []string, dir string, stdin string, timeout time.Duration, env []string, grace time.Duration) (Ran, error) {
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	run, err := confine.CommandCtx(ctx, argv)
	if err != nil {
		return Ran{}, err
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, run[0], run[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = SysProcAttr()
	cmd.Cancel = func() error { return KillGroup(cmd.Process) }
	cmd.WaitDelay = 2 * time.Second
	if grace > 0 {
		// Go kills the leader once WaitDelay has passed after Cancel; the
		// group's strays are killed after Wait below.
		cmd.Cancel = func() error { return signalGroup(cmd.Process, syscall.SIGINT) }
		cmd.WaitDelay = grace
	}
	var out, errb bytes.Buffer
	var doneOut, doneErr func()
	cmd.Stdout, doneOut = live.Tee(ctx, &out)
	cmd.Stderr, doneErr = live.Tee(ctx, &errb)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	err = cmd.Start()
	if err != nil {
		return Ran{}, err
	}
	err = cmd.Wait()
	doneOut()
	doneErr()
	_ = KillGroup(cmd.Process) // grandchildren left behind die too
	r := Ran{Stdout: out.String(), Stderr: errb.String()}
	if cctx.Err() != nil && ctx.Err() == nil {
		r.TimedOut = true
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.Exit = ee.ExitCode()
	case errors.Is(err, exec.ErrWaitDelay), cctx.Err() != nil:
		r.Exit = -1
	default:
		return r, err
	}
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	return r, nil
}

// KillGroup sends SIGKILL to the process group led by p.
func KillGroup(p *os.Process) error {
	return signalGroup(p, syscall.SIGKILL)
}

func signalGroup(p *os.Process, sig syscall.Signal) error {
	if p == nil {
		return nil
	}
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// Tail returns the last n lines of s.
func Tail(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Clip keeps the last max bytes of s, marking the cut.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return "… (" + strconv.Itoa(len(s)-max) + " bytes cut)\n" + s[len(s)-max:]
}

// ClipMiddle keeps the head and the tail of s within about max bytes,
// cutting on rune boundaries and marking the cut (a test run's first lines
// say what ran, its last ones how it ended).
func ClipMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := max/2, len(s)-max/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "\n… [" + strconv.Itoa(tail-head) + " bytes clipped] …\n" + s[tail:]
}

// ReadTail returns the last n lines of a file.
func ReadTail(path string, n int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	const window = 64 << 10
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	off := fi.Size() - window
	if off < 0 {
		off = 0
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return "", err
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return "", err
	}
	return Tail(string(b), n), nil
}
