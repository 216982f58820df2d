// Package linerepl runs a persistent REPL child that speaks JSON lines: the
// process management, framing, request/response matching and health the
// Python and JavaScript packs share. A pack supplies only its language
// specifics in a Spec (the command line with its embedded server script, a
// name, where it logs, what a hung evaluation does) and turns the typed
// answers (Result, Info) into its tool results with their Map methods.
//
// Protocol (one JSON object per line each way):
//
//	{"id": n, "op": "ping"}                         -> {"id": n, "ok": true, ...}
//	{"id": n, "code": "...", "timeout_ms": ms}      -> {"id": n, "ok", "out", "err", "value", "data", "type", "exc", "timed_out"}
//
// "value" is the printed value, "data" the value as JSON. Numbers in "data"
// keep their kind: an integer literal becomes int64 (or *big.Int beyond
// 64 bits, exactly), anything with a fraction or exponent float64. Lines
// that are not JSON objects (stray writes to the protocol stream) go to
// the log; an answer whose id is not the pending request's is dropped (the
// late answer to an abandoned request).
//
// Contract:
//   - The child runs in its own process group with the parent-death signal
//     on Linux; its stderr goes to the log file, and once it exits whatever
//     it left in its group is killed.
//   - Requests on one REPL run one at a time. An evaluation past its budget
//     is interrupted with SIGINT; an answer within the grace period is
//     returned marked timed out (the REPL keeps its state); no answer means
//     the REPL is wedged and the Spec's OnHang applies (kill it, or kill it
//     and start it again). A cancelled ctx also interrupts the evaluation
//     and returns ctx's error.
//   - A REPL that exits while or before answering gives an error matching
//     ErrExited with its exit code and the last log lines.
//   - Stop (safe to call concurrently with an evaluation, which then ends
//     with ErrExited) closes stdin, then terminates and finally kills the
//     group. A REPL is safe for concurrent use; every goroutine it starts
//     ends when its child has exited and its output is drained.
package linerepl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/packs/proc"
)

// Hang is what an evaluation that does not answer an interrupt does.
type Hang int

const (
	// KillOnHang kills the REPL; it stays dead (reported by Health) until
	// the pack starts a new one.
	KillOnHang Hang = iota
	// RestartOnHang kills the REPL and starts it again from its Spec (state lost).
	RestartOnHang
)

// Defaults for a Spec's zero durations.
const (
	DefaultStartTimeout   = 30 * time.Second
	DefaultInterruptGrace = 3 * time.Second
	// serverSlack is how long after the budget the interrupt is sent, so
	// a server that enforces timeout_ms itself answers first.
	serverSlack = 250 * time.Millisecond
	pingBudget  = 2 * time.Second
	maxLine     = 64 << 20
)

// Spec is how a REPL is started (and restarted).
type Spec struct {
	Name    string   // the runtime, for messages: "python", "node"
	Argv    []string // the full command line, the server script included
	Display string   // the command as shown in logs and answers ("" = Argv joined)
	Dir     string
	Env     []string // KEY=VALUE added to this process's environment, in order
	LogPath string   // stderr and lifecycle lines are appended here

	StartTimeout   time.Duration // the first ping (0 = DefaultStartTimeout)
	InterruptGrace time.Duration // an interrupted evaluation's time to answer (0 = DefaultInterruptGrace)
	OnHang         Hang
	// ExitedStatus is Health's answer for a REPL that exited without Stop
	// ("" = "failed": the registry keeps it listed, with its log).
	ExitedStatus string
	// KilledHint ends the message of an evaluation whose REPL was killed
	// for not answering an interrupt, e.g. `repl_start("python") starts a new one`.
	KilledHint string
}

func (s Spec) display() string {
	if s.Display != "" {
		return s.Display
	}
	return strings.Join(s.Argv, " ")
}

// ErrExited matches the error of a REPL that exited while (or before)
// answering; the error itself is an *ExitError.
var ErrExited = errors.New("the REPL process exited")

// ExitError is a REPL that is gone: its exit code and the end of its log.
type ExitError struct {
	Name    string
	Code    int
	LogTail string
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("the %s REPL exited (code %d); last log lines:\n%s", e.Name, e.Code, e.LogTail)
}

// Is makes errors.Is(err, ErrExited) true.
func (e *ExitError) Is(target error) bool { return target == ErrExited }

// errHung is a request that got no answer even after the interrupt.
var errHung = errors.New("no answer after an interrupt")

// REPL is one managed REPL: its Spec and the current child.
type REPL struct {
	spec    Spec
	created time.Time
	sem     chan struct{} // one request (or restart) at a time
	seq     atomic.Int64
	// stopping is set by Stop, so an exit reads "down", not ExitedStatus;
	// stops counts Stops, so a restart sees one that came meanwhile.
	stopping atomic.Bool
	stops    atomic.Int64

	mu sync.Mutex // guards c (swapped by a restart)
	c  *child
	// policy confines the child; the one the REPL was started under, kept
	// for restarts (whose ctx may carry none).
	policy *confine.Policy
}

// Start launches the REPL and waits until it answers a ping. On failure
// the child is gone and the error is the reason (an *ExitError when it
// exited during the boot).
func Start(ctx context.Context, spec Spec) (*REPL, error) {
	if spec.StartTimeout <= 0 {
		spec.StartTimeout = DefaultStartTimeout
	}
	if spec.InterruptGrace <= 0 {
		spec.InterruptGrace = DefaultInterruptGrace
	}
	if spec.ExitedStatus == "" {
		spec.ExitedStatus = "failed"
	}
	r := &REPL{spec: spec, created: time.Now(), sem: make(chan struct{}, 1)}
	c, err := r.spawn(ctx)
	if err != nil {
		return nil, err
	}
	r.c = c
	return r, nil
}

// Spec returns what the REPL was started with (defaults filled in).
func (r *REPL) Spec() Spec { return r.spec }

// Created is when the REPL was first started.
func (r *REPL) Created() time.Time { return r.created }

// LogPath is the REPL's log file.
func (r *REPL) LogPath() string { return r.spec.LogPath }

// Logs returns the last n lines of the log.
func (r *REPL) Logs(n int) (string, error) { return proc.ReadTail(r.spec.LogPath, n) }

func (r *REPL) cur() *child {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.c
}

// PID is the current child's process id.
func (r *REPL) PID() int { return r.cur().cmd.Process.Pid }

// Alive reports whether the current child is running.
func (r *REPL) Alive() bool { return r.cur().alive() }

// Eval runs code with a budget. See the package comment for timeouts.
func (r *REPL) Eval(ctx context.Context, code string, budget time.Duration) (res Result, err error) {
	t0 := time.Now()
	defer func() { res.MS = time.Since(t0).Milliseconds() }()
	c := r.cur()
	if err := r.acquire(ctx, c); err != nil {
		return Result{}, err
	}
	defer r.release()
	c = r.cur()
	if !c.alive() {
		return Result{}, r.exitError(c)
	}
	req := map[string]any{"code": code, "timeout_ms": budget.Milliseconds()}
	w, interrupted, err := r.request(ctx, c, req, budget+serverSlack, true)
	switch {
	case err == nil:
		var derr error
		res, derr = w.result()
		if derr != nil {
			res.Message = fmt.Sprintf("the value's data could not be read (%v); value has it printed", derr)
		}
		if interrupted {
			res.OK, res.TimedOut = false, true
			res.Message = fmt.Sprintf("interrupted after %s (timeout_ms); the REPL is still running and keeps its state", budget)
		}
		return res, nil
	case !errors.Is(err, errHung):
		return Result{}, err
	}
	stops := r.stops.Load()
	c.kill()
	res = Result{TimedOut: true}
	if r.spec.OnHang == KillOnHang {
		res.Message = fmt.Sprintf("the evaluation ran past %s and did not answer an interrupt: the REPL was killed (its state is lost)", budget)
		if r.spec.KilledHint != "" {
			res.Message += "; " + r.spec.KilledHint
		}
		return res, nil
	}
	if err := r.respawn(context.WithoutCancel(ctx), stops); err != nil {
		return Result{}, fmt.Errorf("the REPL hung and could not restart: %w", err)
	}
	res.Restarted = true
	res.Message = fmt.Sprintf("timed out after %s and did not answer an interrupt; the REPL was restarted and its state is lost", budget)
	return res, nil
}

// Health probes the REPL: "up" when it answers a ping or is busy
// evaluating, "unresponsive" when the ping gets no answer, "down" after
// Stop, Spec.ExitedStatus when it exited on its own.
func (r *REPL) Health(ctx context.Context) string {
	c := r.cur()
	if !c.alive() {
		return r.deadStatus()
	}
	select {
	case r.sem <- struct{}{}:
	default:
		return "up" // evaluating right now
	}
	defer r.release()
	if c = r.cur(); !c.alive() {
		return r.deadStatus()
	}
	budget := pingBudget
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < budget {
		budget = time.Until(dl)
	}
	if _, _, err := r.request(ctx, c, map[string]any{"op": "ping"}, budget, false); err != nil {
		if !c.alive() {
			return r.deadStatus()
		}
		return "unresponsive"
	}
	return "up"
}

func (r *REPL) deadStatus() string {
	if r.stopping.Load() {
		return "down"
	}
	return r.spec.ExitedStatus
}

// Stop ends the REPL: EOF first (the server exits on its own), then
// SIGTERM, then SIGKILL to the group. It does not wait for an evaluation
// in flight (that one ends with ErrExited). A later Restart revives it.
func (r *REPL) Stop(ctx context.Context) error {
	r.mu.Lock()
	r.stopping.Store(true)
	r.stops.Add(1)
	c := r.c
	r.mu.Unlock()
	c.stop(ctx)
	return nil
}

// Restart kills the current child (if alive) and starts a new one from
// the Spec, waiting for an evaluation in flight to end first.
func (r *REPL) Restart(ctx context.Context) error {
	if err := r.acquire(ctx, nil); err != nil {
		return err
	}
	defer r.release()
	stops := r.stops.Load()
	r.cur().stop(ctx)
	return r.respawn(ctx, stops)
}

// respawn starts a new child in place of the (dead) current one (sem
// held); stops is the Stop count when the restart began: a Stop since
// then ends the new child too.
func (r *REPL) respawn(ctx context.Context, stops int64) error {
	c, err := r.spawn(ctx)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.c = c
	stopped := r.stops.Load() != stops
	if !stopped {
		r.stopping.Store(false)
	}
	r.mu.Unlock()
	if stopped {
		c.stop(ctx)
	}
	return nil
}

// acquire takes the request slot; it gives up when ctx ends or (c != nil)
// the child exits meanwhile.
func (r *REPL) acquire(ctx context.Context, c *child) error {
	var exited <-chan struct{}
	if c != nil {
		exited = c.exited
	}
	select {
	case r.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-exited:
		return r.exitError(c)
	}
}

func (r *REPL) release() { <-r.sem }

func (r *REPL) exitError(c *child) error {
	<-c.exited
	tail, _ := proc.ReadTail(r.spec.LogPath, 15)
	return &ExitError{Name: r.spec.Name, Code: int(c.code.Load()), LogTail: tail}
}

// request sends one request (sem held) and waits for its answer. After
// budget it interrupts the child when interrupt is set and waits the grace
// period more (interrupted reports that), then gives up with errHung; a
// ping just gives up with context.DeadlineExceeded. A cancelled ctx
// interrupts an evaluation and returns ctx's error.
func (r *REPL) request(ctx context.Context, c *child, req map[string]any, budget time.Duration, interrupt bool) (w wire, interrupted bool, err error) {
	id := r.seq.Add(1)
	req["id"] = id
	b, err := json.Marshal(req)
	if err != nil {
		return w, false, fmt.Errorf("encode request: %w", err)
	}
	answer := c.expect(id)
	defer c.expect(0)
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		return w, false, r.exitError(c)
	}
	timer := time.NewTimer(budget)
	defer timer.Stop()
	for {
		select {
		case w := <-answer:
			return w, interrupted, nil
		case <-c.exited:
			select { // the reader delivers everything before exited closes
			case w := <-answer:
				return w, interrupted, nil
			default:
				return w, interrupted, r.exitError(c)
			}
		case <-ctx.Done():
			if interrupt {
				c.interrupt() // the stale answer is dropped by its id
			}
			return w, interrupted, ctx.Err()
		case <-timer.C:
			if !interrupt {
				return w, false, context.DeadlineExceeded
			}
			if interrupted {
				return w, true, errHung
			}
			interrupted = true
			c.interrupt()
			timer.Reset(r.spec.InterruptGrace)
		}
	}
}

// ---- one child process ----

// child is one running server process.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *os.File // read end of the child's stdout
	log   *os.File

	mu      sync.Mutex
	waiting int64     // the id the pending request expects (0 = none)
	answer  chan wire // where its answer goes

	eof    chan struct{} // closed when the reader is done
	exited chan struct{} // closed once reaped and drained
	code   atomic.Int64  // exit code once exited
}

// spawn starts a child and waits for its first ping.
func (r *REPL) spawn(ctx context.Context) (*child, error) {
	s := r.spec
	if err := os.MkdirAll(filepath.Dir(s.LogPath), 0o700); err != nil {
		return nil, fmt.Errorf("%s REPL log: %w", s.Name, err)
	}
	lf, err := os.OpenFile(s.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s REPL log: %w", s.Name, err)
	}
	fmt.Fprintf(lf, "[vis] %s: starting %s in %s\n", time.Now().Format(time.RFC3339), s.display(), s.Dir)
	r.mu.Lock()
	if p, ok := confine.From(ctx); ok && r.policy == nil {
		r.policy = &p
	}
	argv := s.Argv
	if r.policy != nil {
		argv, err = r.policy.Command(argv)
	}
	r.mu.Unlock()
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("%s REPL: %w", s.Name, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.SysProcAttr = proc.SysProcAttr()
	cmd.Stderr = lf
	stdin, err := cmd.StdinPipe()
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("%s REPL stdin: %w", s.Name, err)
	}
	// Our own pipe, so Wait never closes the read end under the reader.
	out, pw, err := os.Pipe()
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("%s REPL stdout: %w", s.Name, err)
	}
	cmd.Stdout = pw
	err = cmd.Start()
	pw.Close()
	if err != nil {
		out.Close()
		lf.Close()
		return nil, fmt.Errorf("start the %s REPL (%s): %w", s.Name, s.Argv[0], err)
	}
	c := &child{cmd: cmd, stdin: stdin, out: out, log: lf, eof: make(chan struct{}), exited: make(chan struct{})}
	go c.read() // ends at EOF: the child's exit (or kill) brings it
	go c.reap() // ends when the child is reaped and its output drained
	pctx, cancel := context.WithTimeout(ctx, s.StartTimeout)
	defer cancel()
	if _, _, err := r.request(pctx, c, map[string]any{"op": "ping"}, s.StartTimeout, false); err != nil {
		c.kill()
		if errors.Is(err, ErrExited) {
			return nil, err
		}
		tail, _ := proc.ReadTail(s.LogPath, 20)
		return nil, fmt.Errorf("the %s REPL did not answer: %w; last log lines:\n%s", s.Name, err, tail)
	}
	return c, nil
}

// read delivers answers to the pending request and logs everything else.
func (c *child) read() {
	defer close(c.eof)
	sc := bufio.NewScanner(c.out)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		line := sc.Bytes()
		var w wire
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &w) != nil {
			fmt.Fprintf(c.log, "[stdout] %s\n", line)
			continue
		}
		c.mu.Lock()
		if w.ID == c.waiting && w.ID != 0 {
			c.answer <- w // buffered; one answer per id
			c.waiting = 0
		}
		c.mu.Unlock()
	}
	if err := sc.Err(); err != nil && !errors.Is(err, os.ErrClosed) {
		fmt.Fprintf(c.log, "[vis] %s: protocol stream unreadable (%v); killing the REPL\n", time.Now().Format(time.RFC3339), err)
	}
	_ = proc.KillGroup(c.cmd.Process) // a server without its protocol stream is useless
}

// reap waits for the child, kills what it left in its group, waits for the
// reader (closing the pipe if an escaped process still holds it), and
// closes exited.
func (c *child) reap() {
	err := c.cmd.Wait()
	_ = proc.KillGroup(c.cmd.Process)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	c.code.Store(int64(code))
	select {
	case <-c.eof:
	case <-time.After(2 * time.Second):
		_ = c.out.Close()
		<-c.eof
	}
	_ = c.out.Close()
	fmt.Fprintf(c.log, "[vis] %s: REPL exited (code %d)\n", time.Now().Format(time.RFC3339), code)
	_ = c.log.Close()
	close(c.exited)
}

// expect makes id the pending request and returns where its answer comes
// (0 clears it).
func (c *child) expect(id int64) <-chan wire {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting, c.answer = id, nil
	if id != 0 {
		c.answer = make(chan wire, 1)
	}
	return c.answer
}

func (c *child) alive() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

func (c *child) interrupt() { _ = c.cmd.Process.Signal(syscall.SIGINT) }

// kill ends the group at once and waits until the child is reaped.
func (c *child) kill() {
	_ = proc.KillGroup(c.cmd.Process)
	<-c.exited
}

// stop: EOF, then SIGTERM, then SIGKILL to the group; waits for the reap.
func (c *child) stop(ctx context.Context) {
	_ = c.stdin.Close()
	for _, step := range []struct {
		wait time.Duration
		sig  syscall.Signal
	}{{500 * time.Millisecond, syscall.SIGTERM}, {1500 * time.Millisecond, syscall.SIGKILL}} {
		t := time.NewTimer(step.wait)
		select {
		case <-c.exited:
			t.Stop()
			return
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
		_ = syscall.Kill(-c.cmd.Process.Pid, step.sig)
		if ctx.Err() != nil {
			_ = proc.KillGroup(c.cmd.Process)
		}
	}
	<-c.exited
}

// ---- helpers the packs share ----

// EnvDiff names the variables that differ between two envs, sorted.
func EnvDiff(a, b map[string]string) []string {
	var keys []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// EnvList turns env into KEY=VALUE entries sorted by key.
func EnvList(env map[string]string) []string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + env[k]
	}
	return out
}

var unsafeChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

// LogPath is a fresh log file in dir (os.TempDir()/vis-logs when "") named
// after id and the time.
func LogPath(dir, id string, now time.Time) string {
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "vis-logs")
	}
	name := strings.Trim(unsafeChars().ReplaceAllString(id, "_"), "_")
	if len(name) > 80 {
		name = name[len(name)-80:]
	}
	return filepath.Join(dir, name+"-"+now.Format("20060102-150405.000000000")+".log")
}
