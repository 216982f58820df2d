package clojure

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
)

// ran is the outcome of one short-lived child process.
type ran struct {
	stdout, stderr string
	exit           int
	timedOut       bool
}

// run executes argv in dir, in its own process group, and kills the whole
// group when timeout passes or ctx ends. A non-zero exit is not an error;
// failing to start is.
func run(ctx context.Context, argv []string, dir string, stdin string, timeout time.Duration, env []string) (ran, error) {
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = sysProcAttr()
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	cmd.WaitDelay = 2 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	if err := cmd.Start(); err != nil {
		return ran{}, err
	}
	err := cmd.Wait()
	_ = killGroup(cmd.Process) // grandchildren left behind die too
	r := ran{stdout: out.String(), stderr: errb.String()}
	if cctx.Err() != nil && ctx.Err() == nil {
		r.timedOut = true
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	case errors.Is(err, exec.ErrWaitDelay), cctx.Err() != nil:
		r.exit = -1
	default:
		return r, err
	}
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	return r, nil
}

// killGroup sends SIGKILL to the process group led by p.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// clip keeps the last max bytes of s, marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return "… (" + strconv.Itoa(len(s)-max) + " bytes cut)\n" + s[len(s)-max:]
}

// readTail returns the last n lines of a file.
func readTail(path string, n int) (string, error) {
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
	return tail(string(b), n), nil
}
