// Package proc runs the packs' short-lived children (formatters, linters,
// test runners): each in its own process group with the parent-death signal
// on Linux, under a timeout, and the whole group is killed when the timeout
// passes, the ctx ends, or the leader exits leaving strays behind. A child's
// output also goes, line by line, to the live sink on the ctx (package
// live), so a long test run is seen while it runs.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/live"
)

// Result is one finished child process.
type Result struct {
	Argv     []string
	Stdout   string
	Stderr   string
	Exit     int  // -1 when it did not exit normally
	TimedOut bool // the deadline (not a caller cancel) ended it
}

// Run runs argv in dir with stdin, in its own process group (and, on
// Linux, with the parent-death signal), under timeout. When the timeout
// passes or ctx ends the whole group is killed; after the leader exits,
// whatever it left in its group is killed too, so nothing outlives the
// call. A non-zero exit is data, not an error; the error reports a child
// that could not start or a cancelled ctx.
func Run(ctx context.Context, dir string, timeout time.Duration, stdin string, argv ...string) (Result, error) {
	return RunEnv(ctx, dir, timeout, stdin, nil, argv...)
}

// RunEnv is Run with env ("NAME=value" entries) added to the inherited
// environment; an entry wins over an inherited variable of the same name.
func RunEnv(ctx context.Context, dir string, timeout time.Duration, stdin string, env []string, argv ...string) (Result, error) {
	res := Result{Argv: argv, Exit: -1}
	if len(argv) == 0 {
		return res, errors.New("run: empty command")
	}
	run, err := confine.CommandCtx(ctx, argv)
	if err != nil {
		return res, err
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := exec.CommandContext(rctx, run[0], run[1:]...)
	c.Dir = dir
	if len(env) > 0 {
		c.Env = append(os.Environ(), env...)
	}
	c.SysProcAttr = SysProcAttr()
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 2 * time.Second
	if stdin != "" {
		c.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	var doneOut, doneErr func()
	c.Stdout, doneOut = live.Tee(ctx, &out)
	c.Stderr, doneErr = live.Tee(ctx, &errb)
	if err := c.Start(); err != nil {
		return res, fmt.Errorf("start %s: %w", argv[0], err)
	}
	werr := c.Wait()
	doneOut()
	doneErr()
	_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL) // strays of the group
	res.Stdout, res.Stderr = out.String(), errb.String()
	if c.ProcessState != nil {
		res.Exit = c.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("%s: %w", argv[0], context.Cause(ctx))
	}
	if rctx.Err() != nil {
		res.TimedOut = true
		return res, nil
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) && !errors.Is(werr, exec.ErrWaitDelay) {
		return res, fmt.Errorf("%s: %w", argv[0], werr)
	}
	return res, nil
}
