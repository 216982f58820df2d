package python

import (
	"context"
	"time"

	"github.com/visdesktop/vis/backend/packs/proc"
)

// ran is the outcome of one short-lived child process (proc.Exec).
type ran struct {
	stdout, stderr string
	exit           int
	timedOut       bool
}

// run executes argv through proc.Exec: own process group, the whole group
// killed when timeout passes or ctx ends; a non-zero exit is not an error.
func run(ctx context.Context, argv []string, dir string, stdin string, timeout time.Duration, env []string) (ran, error) {
	r, err := proc.Exec(ctx, argv, dir, stdin, timeout, env)
	return ran{stdout: r.Stdout, stderr: r.Stderr, exit: r.Exit, timedOut: r.TimedOut}, err
}

// reportGrace is how long an interrupted test runner gets to write what it
// has (pytest's report, unittest -c's results so far) before the kill.
const reportGrace = 5 * time.Second

// runTests is run for a test runner: at the timeout (or a cancel) it is
// interrupted first, as Ctrl-C would, so the tests that finished are
// reported rather than lost.
func runTests(ctx context.Context, argv []string, dir string, timeout time.Duration, env []string) (ran, error) {
	r, err := proc.Interruptible(ctx, argv, dir, "", timeout, env, reportGrace)
	return ran{stdout: r.Stdout, stderr: r.Stderr, exit: r.Exit, timedOut: r.TimedOut}, err
}

var (
	tail     = proc.Tail
	clip     = proc.Clip
	readTail = proc.ReadTail
)
