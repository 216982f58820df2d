package python

import (
	"bufio"
	"context"
	_ "embed"
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

	"github.com/visdesktop/vis/backend/ext"
)

//go:embed repl_server.py
var serverScript string

// ErrREPLExited means the REPL process ended while (or before) answering.
var ErrREPLExited = errors.New("the python REPL exited")

// repl is one persistent REPL child speaking JSON lines.
type repl struct {
	id, sessionID, dir string
	interp             Interpreter
	env                map[string]string
	logPath            string
	created            time.Time

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte   // protocol lines; closed at EOF
	exited chan struct{} // closed once the process is reaped
	exit   atomic.Int64  // exit code once exited
	sem    chan struct{} // one request at a time
	n      atomic.Int64
	// stopping is set before an intended stop, so an exit is "down", not "failed".
	stopping atomic.Bool
}

// startREPL launches the server and waits until it answers a ping.
func startREPL(ctx context.Context, interp Interpreter, dir string, env map[string]string, logPath string, bootTimeout time.Duration) (*repl, error) {
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return nil, fmt.Errorf("python REPL log: %w", err)
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("python REPL log: %w", err)
	}
	argv := append(append([]string(nil), interp.Argv...), "-u", "-c", serverScript)
	fmt.Fprintf(logf, "[vis] %s starting %s in %s\n", time.Now().Format(time.RFC3339), strings.Join(interp.Argv, " "), dir)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8")
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	cmd.SysProcAttr = sysProcAttr()
	cmd.Stderr = logf
	stdin, err := cmd.StdinPipe()
	if err != nil {
		logf.Close()
		return nil, fmt.Errorf("python REPL: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return nil, fmt.Errorf("python REPL: %w", err)
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("python REPL: start %s: %w", interp.Argv[0], err)
	}
	r := &repl{dir: dir, interp: interp, env: env, logPath: logPath, created: time.Now(), cmd: cmd, stdin: stdin,
		lines: make(chan []byte, 16), exited: make(chan struct{}), sem: make(chan struct{}, 1)}
	go func() { // owner: the repl; ends at EOF (the process exited or was killed)
		defer close(r.lines)
		br := bufio.NewReaderSize(stdout, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				r.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { // owner: the repl; ends when the process is reaped
		err := cmd.Wait()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		r.exit.Store(int64(code))
		fmt.Fprintf(logf, "[vis] %s exited (code %d)\n", time.Now().Format(time.RFC3339), code)
		logf.Close()
		close(r.exited)
	}()
	pctx, cancel := context.WithTimeout(ctx, bootTimeout)
	defer cancel()
	if _, err := r.request(pctx, map[string]any{"op": "ping"}, 0); err != nil {
		r.stop(context.Background())
		return r, err
	}
	return r, nil
}

func (r *repl) pid() int {
	if r.cmd.Process == nil {
		return 0
	}
	return r.cmd.Process.Pid
}

func (r *repl) alive() bool {
	select {
	case <-r.exited:
		return false
	default:
		return true
	}
}

// errTimeout is returned by request when the answer did not come in time
// (after an interrupt, when interrupt is set).
var errTimeout = errors.New("timed out")

// request sends one request and waits for its answer. When timeout > 0 and
// passes, the evaluation is interrupted with SIGINT and the answer to the
// interrupt is returned with errTimeout; if none comes within grace the
// process is killed. Without a timeout the ctx bounds the wait (no
// interrupt: a ping or a cancelled call just stops waiting; the stale
// answer is skipped later by its number).
func (r *repl) request(ctx context.Context, req map[string]any, timeout time.Duration, grace ...time.Duration) (map[string]any, error) {
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-r.exited:
		return nil, r.exitError()
	}
	defer func() { <-r.sem }()
	n := r.n.Add(1)
	req["n"] = n
	b, _ := json.Marshal(req)
	if _, err := r.stdin.Write(append(b, '\n')); err != nil {
		return nil, r.exitError()
	}
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	interrupted := false
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				<-r.exited
				return nil, r.exitError()
			}
			var resp map[string]any
			if err := json.Unmarshal(line, &resp); err != nil {
				continue // not ours (should not happen: fd 1 is redirected)
			}
			if got, _ := resp["n"].(float64); int64(got) != n {
				continue // a stale answer to an abandoned request
			}
			delete(resp, "n")
			if interrupted {
				return resp, errTimeout
			}
			return resp, nil
		case <-r.exited:
			// drain what was already written
			for line := range r.lines {
				var resp map[string]any
				if json.Unmarshal(line, &resp) == nil {
					if got, _ := resp["n"].(float64); int64(got) == n {
						delete(resp, "n")
						return resp, nil
					}
				}
			}
			return nil, r.exitError()
		case <-timer:
			if interrupted {
				// no answer to the interrupt: the REPL is wedged
				r.kill()
				<-r.exited
				return nil, fmt.Errorf("%w; it did not answer an interrupt and was killed", errTimeout)
			}
			interrupted = true
			_ = r.cmd.Process.Signal(syscall.SIGINT)
			g := 3 * time.Second
			if len(grace) > 0 && grace[0] > 0 {
				g = grace[0]
			}
			t := time.NewTimer(g)
			defer t.Stop()
			timer = t.C
		case <-ctx.Done():
			if timeout > 0 && !interrupted {
				// the call was cancelled: interrupt the evaluation, as a timeout would
				_ = r.cmd.Process.Signal(syscall.SIGINT)
			}
			return nil, ctx.Err()
		}
	}
}

func (r *repl) exitError() error {
	<-r.exited
	tailText, _ := readTail(r.logPath, 15)
	return fmt.Errorf("%w (code %d); last log lines:\n%s", ErrREPLExited, r.exit.Load(), tailText)
}

func (r *repl) kill() {
	_ = killGroup(r.cmd.Process)
}

// stop ends the REPL: EOF first (it exits on its own), then the group is
// killed, so nothing it spawned survives.
func (r *repl) stop(ctx context.Context) {
	r.stopping.Store(true)
	_ = r.stdin.Close()
	t := time.NewTimer(500 * time.Millisecond)
	defer t.Stop()
	select {
	case <-r.exited:
	case <-t.C:
	case <-ctx.Done():
	}
	r.kill()
	<-r.exited
}

// health probes the REPL: failed when it exited unexpectedly, down when it
// was stopped, up when it answers a ping (or is busy evaluating),
// unresponsive when the ping times out.
func (r *repl) health(ctx context.Context) string {
	if !r.alive() {
		if r.stopping.Load() {
			return "down"
		}
		return "failed"
	}
	select {
	case r.sem <- struct{}{}:
		<-r.sem
	default:
		return "up" // evaluating right now
	}
	if _, err := r.request(ctx, map[string]any{"op": "ping"}, 0); err != nil {
		if !r.alive() {
			return "failed"
		}
		return "unresponsive"
	}
	return "up"
}

// ---- pack operations ----

func replKey(session, id string) string { return session + "\x00" + id }

// DefaultID is the id of the REPL for a project directory.
func DefaultID(dir string) string { return "pyrepl:" + tilde(dir) }

func tilde(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	if p == home {
		return "~"
	}
	if strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}

// lockFor serialises starts of one REPL id.
func (p *Pack) lockFor(key string) *sync.Mutex {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.locks[key]
	if l == nil {
		l = &sync.Mutex{}
		p.locks[key] = l
	}
	return l
}

func (p *Pack) get(session, id string) (*repl, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.repls[replKey(session, id)]
	return r, ok
}

// sessionREPLs returns the session's live REPLs sorted by dir then id.
func (p *Pack) sessionREPLs(session string) []*repl {
	p.mu.Lock()
	var out []*repl
	for _, r := range p.repls {
		if r.sessionID == session && r.alive() {
			out = append(out, r)
		}
	}
	p.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].dir != out[j].dir {
			return out[i].dir < out[j].dir
		}
		return out[i].id < out[j].id
	})
	return out
}

func replEnv(opts map[string]any) (map[string]string, error) {
	v, ok := opts["env"]
	if !ok || v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf(`python repl_start: env must be a dict of strings, e.g. {"env": {"DEBUG": "1"}}`)
	}
	out := map[string]string{}
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("python repl_start: env[%q] must be a string, got %T", k, x)
		}
		out[k] = s
	}
	return out, nil
}

func envDiff(a, b map[string]string) []string {
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

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func (p *Pack) logPath(env ext.ToolEnv, id string) string {
	dir := env.LogDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "vis-logs")
	}
	name := strings.Trim(unsafeName.ReplaceAllString(id, "_"), "_")
	return filepath.Join(dir, fmt.Sprintf("%s-%s.log", name, time.Now().Format("20060102-150405.000000000")))
}

func (r *repl) summary(result string) map[string]any {
	out := map[string]any{
		"result": result, "id": r.id, "cwd": tilde(r.dir), "status": "up", "running": r.alive(),
		"pid": r.pid(), "cmd": strings.Join(r.interp.Argv, " "), "tool": r.interp.Source, "log": r.logPath,
	}
	if !r.alive() {
		out["status"] = "failed"
	}
	if len(r.env) > 0 {
		keys := make([]any, 0, len(r.env))
		for k := range r.env {
			keys = append(keys, k)
		}
		out["env"] = keys
	}
	return out
}

func (p *Pack) start(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	if env.Resources == nil {
		return nil, errors.New("python repl_start: no resource registry for this session")
	}
	dir := c.Cwd
	id := c.ID
	if id == "" {
		id = DefaultID(dir)
	}
	vars, err := replEnv(c.Opts)
	if err != nil {
		return nil, err
	}
	key := replKey(env.SessionID, id)
	l := p.lockFor(key)
	l.Lock()
	defer l.Unlock()
	if r, ok := p.get(env.SessionID, id); ok && r.alive() {
		if d := envDiff(r.env, vars); len(d) > 0 && vars != nil {
			return nil, fmt.Errorf("python repl_start: %s already runs with a different env (%s); repl_stop(%q) first", id, strings.Join(d, ", "), id)
		}
		out := r.summary("already-running")
		out["message"] = "a REPL for this project is already running; repl_eval uses it"
		return out, nil
	}
	interp, err := p.Resolve(dir)
	if err != nil {
		return map[string]any{"result": "no-launcher", "id": id, "cwd": tilde(dir), "status": "down", "running": false,
			"message": err.Error()}, nil
	}
	logPath := p.logPath(env, id)
	r, err := startREPL(ctx, interp, dir, vars, logPath, p.opts.StartTimeout)
	if err != nil {
		out := map[string]any{"result": "failed", "id": id, "cwd": tilde(dir), "status": "failed", "running": false,
			"cmd": strings.Join(interp.Argv, " "), "tool": interp.Source, "log": logPath, "message": err.Error()}
		if r != nil {
			out["exit"] = int(r.exit.Load())
			out["log_tail"], _ = readTail(logPath, 20)
		}
		return out, nil
	}
	r.id, r.sessionID = id, env.SessionID
	p.mu.Lock()
	p.repls[key] = r
	p.mu.Unlock()
	p.register(env, r)
	out := r.summary("started")
	out["message"] = fmt.Sprintf("python REPL up (%s); evaluate with repl_eval(\"python\", {\"code\": ...})", interp)
	return out, nil
}

// register mirrors a REPL into the session's resource registry.
func (p *Pack) register(env ext.ToolEnv, r *repl) {
	label := "python " + filepath.Base(r.dir)
	if r.id != DefaultID(r.dir) {
		label += " (" + r.id + ")"
	}
	env.Resources.Register(ext.Resource{
		Info: ext.ResourceInfo{
			ID: r.id, SessionID: r.sessionID, Kind: "repl", Language: "python", Label: label, Dir: r.dir,
			PID: r.pid(), Status: "up", Log: r.logPath, Created: r.created.UnixMilli(), Managed: true,
			Detail: map[string]any{"cmd": strings.Join(r.interp.Argv, " "), "tool": r.interp.Source},
		},
		StopFn: func(ctx context.Context) error {
			p.mu.Lock()
			if p.repls[replKey(r.sessionID, r.id)] == r {
				delete(p.repls, replKey(r.sessionID, r.id))
			}
			p.mu.Unlock()
			r.stop(ctx)
			return nil
		},
		Health: r.health,
		Logs:   func(n int) (string, error) { return readTail(r.logPath, n) },
		Restart: func(ctx context.Context) error {
			res, err := p.start(ctx, env, ext.Call{Language: "python", Cwd: r.dir, ID: r.id, Opts: envOpts(r.env)})
			if err != nil {
				return err
			}
			if res["result"] != "started" && res["result"] != "already-running" {
				return fmt.Errorf("restart %s: %v: %v", r.id, res["result"], res["message"])
			}
			return nil
		},
		Handle: r,
	})
}

func envOpts(env map[string]string) map[string]any {
	if env == nil {
		return map[string]any{}
	}
	m := map[string]any{}
	for k, v := range env {
		m[k] = v
	}
	return map[string]any{"env": m}
}

func (p *Pack) status(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	var repls []any
	running := false
	for _, r := range p.sessionREPLs(env.SessionID) {
		if r.dir != c.Cwd {
			continue
		}
		s := r.summary("")
		delete(s, "result")
		s["status"] = r.health(ctx)
		running = running || s["status"] == "up"
		repls = append(repls, s)
	}
	if repls == nil {
		repls = []any{}
	}
	out := map[string]any{"cwd": tilde(c.Cwd), "running": running, "repls": repls}
	if interp, err := p.Resolve(c.Cwd); err == nil {
		out["interpreter"] = strings.Join(interp.Argv, " ")
		out["interpreter_source"] = interp.Source
	} else {
		out["interpreter_error"] = err.Error()
	}
	return out, nil
}

func (p *Pack) stop(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	id := c.ID
	if id == "" {
		id = DefaultID(c.Cwd)
	}
	if env.Resources == nil {
		return nil, errors.New("python repl_stop: no resource registry for this session")
	}
	res, err := env.Resources.Stop(ctx, env.SessionID, id)
	if err != nil {
		return nil, err
	}
	return map[string]any{"result": res.Result, "id": res.ID, "message": res.Message}, nil
}

// target picks the REPL an evaluation runs in (spec §4.5 resolve-target,
// applied to Python).
func (p *Pack) target(env ext.ToolEnv, c ext.Call) (*repl, error) {
	live := p.sessionREPLs(env.SessionID)
	ids := func() string {
		var s []string
		for _, r := range live {
			s = append(s, r.id)
		}
		return strings.Join(s, ", ")
	}
	if c.ID != "" {
		for _, r := range live {
			if r.id == c.ID {
				return r, nil
			}
		}
		if len(live) == 0 {
			return nil, fmt.Errorf(`no python REPL with id %q is running; start one with repl_start("python")`, c.ID)
		}
		return nil, fmt.Errorf("no python REPL with id %q is running (live: %s)", c.ID, ids())
	}
	switch len(live) {
	case 0:
		return nil, errors.New(`no python REPL is running in this session; start one with repl_start("python")`)
	case 1:
		return live[0], nil
	}
	def := DefaultID(c.Cwd)
	for _, r := range live {
		if r.id == def {
			return r, nil
		}
	}
	for _, r := range live {
		if r.dir == c.Cwd {
			return r, nil
		}
	}
	return live[0], nil
}

func (p *Pack) eval(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code, _ := c.Opts["code"].(string)
	if strings.TrimSpace(code) == "" {
		return nil, errors.New("python repl_eval: code is required")
	}
	r, err := p.target(env, c)
	if err != nil {
		return nil, err
	}
	timeout := optDuration(c.Opts, "timeout_ms", p.opts.EvalTimeout)
	t0 := time.Now()
	resp, err := r.request(ctx, map[string]any{"code": code}, timeout, p.opts.InterruptGrace)
	ms := time.Since(t0).Milliseconds()
	if err != nil && !errors.Is(err, errTimeout) {
		if errors.Is(err, ErrREPLExited) {
			return nil, fmt.Errorf(`python repl_eval: %w; repl_start("python") starts a new one`, err)
		}
		return nil, fmt.Errorf("python repl_eval: %w", err)
	}
	out := map[string]any{"repl": r.id, "ms": ms, "timed_out": false}
	for k, v := range resp {
		out[k] = v
	}
	if errors.Is(err, errTimeout) {
		out["timed_out"] = true
		out["ok"] = false
		if resp == nil {
			out["message"] = fmt.Sprintf("the evaluation ran past %s and did not answer an interrupt: the REPL was killed (globals lost); repl_start(\"python\") starts a new one", timeout)
		} else {
			out["message"] = fmt.Sprintf("interrupted after %s (timeout_ms); the REPL is still running and keeps its globals", timeout)
		}
	}
	return out, nil
}
