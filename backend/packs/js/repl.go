package js

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	child "github.com/visdesktop/vis/backend/packs/proc"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/visdesktop/vis/backend/ext"
)

//go:embed repl_server.js
var serverScript string

// REPL timings.
const (
	DefaultEvalTimeout = 30 * time.Second
	startTimeout       = 20 * time.Second
	interruptGrace     = 3 * time.Second
	stopGrace          = 2 * time.Second
)

// startMu serialises starts so two calls for one directory start one REPL.
var startMu sync.Mutex

// settings are what a REPL is started with (and restarted with).
type settings struct {
	id, dir, label, language, session, logDir string
	rt                                        Runtime
	env                                       map[string]string
}

// proc is one running server child.
type proc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *os.File      // read end of the child's stdout
	lines chan []byte   // protocol lines; closed at EOF
	done  chan struct{} // closed when the child has been waited for
	log   *os.File
}

// replProc is a managed REPL: settings plus the current child. mu
// serialises requests and restarts.
type replProc struct {
	settings
	logPath string
	created time.Time

	mu  sync.Mutex
	seq int64
	p   *proc
}

// argv is the REPL's command line.
func (s settings) argv() []string {
	return []string{s.rt.Path, "-e", serverScript}
}

// spawn starts the child and waits for its first ping.
func (r *replProc) spawn(ctx context.Context) error {
	argv := r.argv()
	c := exec.Command(argv[0], argv[1:]...)
	c.Dir = r.dir
	c.SysProcAttr = child.SysProcAttr()
	c.Env = os.Environ()
	keys := make([]string, 0, len(r.env))
	for k := range r.env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c.Env = append(c.Env, k+"="+r.env[k])
	}
	lf, err := os.OpenFile(r.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open REPL log: %w", err)
	}
	fmt.Fprintf(lf, "[vis] %s: starting %s REPL in %s\n", time.Now().Format(time.RFC3339), r.rt.Name, r.dir)
	c.Stderr = lf
	stdin, err := c.StdinPipe()
	if err != nil {
		lf.Close()
		return fmt.Errorf("REPL stdin: %w", err)
	}
	// Our own pipe, so Wait never closes the read end under the reader.
	stdout, pw, err := os.Pipe()
	if err != nil {
		lf.Close()
		return fmt.Errorf("REPL stdout: %w", err)
	}
	c.Stdout = pw
	err = c.Start()
	pw.Close()
	if err != nil {
		stdout.Close()
		lf.Close()
		return fmt.Errorf("start %s REPL: %w", r.rt.Name, err)
	}
	p := &proc{cmd: c, stdin: stdin, out: stdout, lines: make(chan []byte, 16), done: make(chan struct{}), log: lf}
	// The reader ends at EOF, which the child's exit (or kill) brings.
	go func() {
		defer close(p.lines)
		defer stdout.Close()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
		for sc.Scan() {
			line := append([]byte(nil), sc.Bytes()...)
			if len(line) == 0 || line[0] != '{' {
				fmt.Fprintf(lf, "[stdout] %s\n", line)
				continue
			}
			p.lines <- line
		}
	}()
	// The waiter owns the child: it reaps it and kills what it left.
	go func() {
		err := c.Wait()
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		fmt.Fprintf(lf, "[vis] %s: REPL exited: %v\n", time.Now().Format(time.RFC3339), err)
		close(p.done)
	}()
	r.p = p
	sctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if _, err := r.roundTrip(sctx, map[string]any{"op": "ping"}, startTimeout, false); err != nil {
		r.kill()
		return fmt.Errorf("%s REPL did not answer: %w; log:\n%s", r.rt.Name, err, tail(r.logPath, 20))
	}
	return nil
}

// kill ends the current child's group and waits for it (r.mu held or the
// REPL not yet shared).
func (r *replProc) kill() {
	p := r.p
	if p == nil {
		return
	}
	_ = p.stdin.Close()
	pid := p.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(stopGrace):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-p.done
	}
	// Let the reader finish; a process that left the group and still holds
	// the pipe must not keep us waiting, so close our end after a grace.
	grace := time.After(stopGrace)
	for open := true; open; {
		select {
		case _, ok := <-p.lines:
			open = ok
		case <-grace:
			_ = p.out.Close()
			grace = nil
		}
	}
	_ = p.log.Close()
}

// alive reports whether the child is running.
func (r *replProc) alive() bool {
	if r.p == nil {
		return false
	}
	select {
	case <-r.p.done:
		return false
	default:
		return true
	}
}

// errExited is a REPL that died while we waited for it.
var errExited = errors.New("the REPL process exited")

// roundTrip sends one request and waits for its response (r.mu held). On
// the budget's end it interrupts the child when interrupt is set and
// waits interruptGrace more; it returns context.DeadlineExceeded when no
// answer came.
func (r *replProc) roundTrip(ctx context.Context, req map[string]any, budget time.Duration, interrupt bool) (map[string]any, error) {
	p := r.p
	r.seq++
	id := r.seq
	req["id"] = id
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("%w: %v", errExited, err)
	}
	timer := time.NewTimer(budget)
	defer timer.Stop()
	interrupted := false
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				<-p.done
				return nil, errExited
			}
			var resp map[string]any
			if err := json.Unmarshal(line, &resp); err != nil {
				fmt.Fprintf(p.log, "[stdout] %s\n", line)
				continue
			}
			if got, _ := resp["id"].(float64); int64(got) != id {
				continue // a late answer to an abandoned request
			}
			delete(resp, "id")
			return resp, nil
		case <-p.done:
			return nil, errExited
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			if !interrupt || interrupted {
				return nil, context.DeadlineExceeded
			}
			interrupted = true
			_ = p.cmd.Process.Signal(syscall.SIGINT)
			timer.Reset(interruptGrace)
		}
	}
}

// eval runs code with a budget. A REPL that does not answer even after the
// interrupt is killed and restarted.
func (r *replProc) eval(ctx context.Context, code string, budget time.Duration) (map[string]any, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.alive() {
		return nil, fmt.Errorf("%w: %s; log:\n%s\nstart it again with repl_start", errExited, r.id, tail(r.logPath, 20))
	}
	resp, err := r.roundTrip(ctx, map[string]any{"code": code, "timeout_ms": budget.Milliseconds()}, budget+250*time.Millisecond, true)
	if err == nil {
		return resp, nil
	}
	if errors.Is(err, errExited) {
		return map[string]any{"ok": false, "exc": "the REPL process exited during the evaluation; start it again with repl_start", "log_tail": tail(r.logPath, 20), "timed_out": false}, nil
	}
	if !errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return nil, err
	}
	// No answer after the interrupt: restart with the same settings.
	r.kill()
	if serr := r.spawn(context.WithoutCancel(ctx)); serr != nil {
		return nil, fmt.Errorf("REPL hung and could not restart: %w", serr)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("eval cancelled; the REPL was restarted: %w", ctx.Err())
	}
	return map[string]any{"ok": false, "out": "", "err": "", "value": nil, "data": nil, "type": nil, "timed_out": true, "restarted": true,
		"exc": fmt.Sprintf("timed out after %v and did not answer an interrupt; the REPL was restarted and its state is lost", budget)}, nil
}

// health pings the REPL (busy evaluating counts as up).
func (r *replProc) health(ctx context.Context) string {
	if !r.mu.TryLock() {
		return "up"
	}
	defer r.mu.Unlock()
	if !r.alive() {
		return "down"
	}
	budget := 2 * time.Second
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < budget {
		budget = time.Until(dl)
	}
	if _, err := r.roundTrip(ctx, map[string]any{"op": "ping"}, budget, false); err != nil {
		if errors.Is(err, errExited) {
			return "down"
		}
		return "unresponsive"
	}
	return "up"
}

func (r *replProc) stop(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kill()
	return nil
}

func (r *replProc) restart(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kill()
	return r.spawn(ctx)
}

func (r *replProc) pid() int {
	if r.p == nil {
		return 0
	}
	return r.p.cmd.Process.Pid
}

// resource is the registry entry for r.
func (r *replProc) resource() ext.Resource {
	return ext.Resource{
		Info: ext.ResourceInfo{
			ID: r.id, SessionID: r.session, Kind: "repl", Language: r.language,
			Label: r.rt.Name + " REPL " + filepath.Base(r.dir) + labelSuffix(r.label), Dir: r.dir,
			PID: r.pid(), Status: "up", Log: r.logPath, Created: r.created.UnixMilli(), Managed: true,
			Detail: map[string]any{"runtime": r.rt.Name, "cwd": r.dir},
		},
		StopFn:  r.stop,
		Health:  r.health,
		Logs:    func(n int) (string, error) { return tail(r.logPath, n), nil },
		Restart: r.restart,
		Handle:  r,
	}
}

func labelSuffix(label string) string {
	if label == "" {
		return ""
	}
	return " (" + label + ")"
}

// ReplID is the resource id of the REPL for dir (and label).
func ReplID(dir, label string) string {
	id := "jsrepl:" + tildePath(dir, homeDir())
	if label != "" {
		id += "#" + label
	}
	return id
}

// Repl handles the lifecycle ops start, status, stop and connect.
func Repl(ctx context.Context, env ext.ToolEnv, op string, c ext.Call) (map[string]any, error) {
	switch op {
	case "connect":
		return nil, ErrConnect
	case "start":
		return startOp(ctx, env, c)
	case "status":
		return statusOp(ctx, env, c)
	case "stop":
		return stopOp(ctx, env, c)
	default:
		return nil, badArgs("unknown REPL op %q (start, status, stop)", op)
	}
}

func callID(c ext.Call) string {
	if c.ID != "" {
		return c.ID
	}
	if s := optString(c.Opts, "id"); s != "" {
		return s
	}
	return optString(c.Opts, "repl_id")
}

func language(c ext.Call) string {
	switch c.Language {
	case "typescript", "tsx", "ts", "mts", "cts":
		return "typescript"
	}
	return "javascript"
}

func startOp(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	if env.Resources == nil {
		return nil, errors.New("repl_start: no resource registry")
	}
	for _, k := range []string{"port", "build", "aliases"} {
		if _, ok := c.Opts[k]; ok {
			return nil, badArgs("%s does not apply to a JavaScript REPL (repl_start takes cwd, id, env)", k)
		}
	}
	extra, err := optEnv(c.Opts)
	if err != nil {
		return nil, err
	}
	dir := cwdOf(env, c)
	label := callID(c)
	id := ReplID(dir, label)
	if strings.HasPrefix(label, "jsrepl:") {
		id, label = label, strings.TrimPrefix(label[strings.LastIndex(label, "#")+1:], "jsrepl:")
		if !strings.Contains(id, "#") {
			label = ""
		}
	}
	startMu.Lock()
	defer startMu.Unlock()
	if res, ok := env.Resources.Lookup(env.SessionID, id); ok {
		if r, ok := res.Handle.(*replProc); ok && r.alive() {
			if !sameEnv(r.env, extra) {
				return nil, badArgs("%s is running with a different env (%s); repl_stop it first", id, strings.Join(envDiff(r.env, extra), ", "))
			}
			out := r.info("already-running")
			out["message"] = "reusing the running REPL"
			return out, nil
		}
	}
	rt, err := ResolveRuntime(env.Workspace, dir, homeDir(), nil)
	if err != nil {
		return nil, err
	}
	logDir := env.LogDir
	if logDir == "" {
		logDir = os.TempDir()
	}
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return nil, fmt.Errorf("repl_start: %w", err)
	}
	r := &replProc{settings: settings{id: id, dir: dir, label: label, language: language(c), session: env.SessionID, logDir: logDir, rt: rt, env: extra}, created: time.Now()}
	r.logPath = filepath.Join(logDir, "jsrepl-"+sanitize(strings.TrimPrefix(id, "jsrepl:"))+"-"+r.created.Format("20060102-150405.000")+".log")
	if err := r.spawn(ctx); err != nil {
		return map[string]any{"result": "failed", "id": id, "cwd": dir, "status": "failed", "running": false, "tool": rt.Name,
			"log": r.logPath, "log_tail": tail(r.logPath, 20), "message": err.Error()}, nil
	}
	env.Resources.Register(r.resource())
	out := r.info("started")
	out["message"] = fmt.Sprintf("%s REPL up in %s; evaluate with repl_eval(%q, {\"code\": ...})", rt.Name, dir, language(c))
	if rt.Note != "" {
		out["note"] = rt.Note
	}
	return out, nil
}

// info is the shared lifecycle answer.
func (r *replProc) info(result string) map[string]any {
	return map[string]any{"result": result, "id": r.id, "cwd": r.dir, "status": "up", "running": true, "pid": r.pid(),
		"cmd": []string{r.rt.Path, "-e", "<repl server>"}, "tool": r.rt.Name, "log": r.logPath}
}

// target finds the REPL a call means: an explicit id (exact, or a label of
// the call's directory), else the REPL of the call's directory, else the
// session's only JS REPL.
func target(ctx context.Context, env ext.ToolEnv, c ext.Call) (*replProc, string, error) {
	if env.Resources == nil {
		return nil, "", ErrNoREPL
	}
	dir := cwdOf(env, c)
	var candidates []string
	if id := callID(c); id != "" && id != "default" {
		candidates = []string{id, ReplID(dir, id)}
	} else {
		candidates = []string{ReplID(dir, "")}
	}
	for _, id := range candidates {
		if res, ok := env.Resources.Lookup(env.SessionID, id); ok {
			if r, ok := res.Handle.(*replProc); ok {
				return r, id, nil
			}
		}
	}
	if callID(c) != "" && callID(c) != "default" {
		return nil, candidates[0], fmt.Errorf("%w with id %q; repl_status lists the running ones", ErrNoREPL, callID(c))
	}
	var ours []*replProc
	for _, info := range env.Resources.List(ctx, env.SessionID) {
		if res, ok := env.Resources.Lookup(env.SessionID, info.ID); ok {
			if r, ok := res.Handle.(*replProc); ok {
				ours = append(ours, r)
			}
		}
	}
	if len(ours) == 1 {
		return ours[0], ours[0].id, nil
	}
	if len(ours) > 1 {
		var ids []string
		for _, r := range ours {
			ids = append(ids, r.id)
		}
		sort.Strings(ids)
		return nil, "", fmt.Errorf("%w for %s; several are running (%s): pass one as id", ErrNoREPL, dir, strings.Join(ids, ", "))
	}
	return nil, candidates[0], fmt.Errorf(`%w for %s; start one with repl_start("javascript")`, ErrNoREPL, dir)
}

func statusOp(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	r, id, err := target(ctx, env, c)
	if err != nil {
		if errors.Is(err, ErrNoREPL) {
			return map[string]any{"id": id, "status": "down", "running": false, "cwd": cwdOf(env, c), "message": err.Error()}, nil
		}
		return nil, err
	}
	st := r.health(ctx)
	out := r.info("status")
	delete(out, "result")
	out["status"], out["running"] = st, st == "up" || st == "unresponsive"
	return out, nil
}

func stopOp(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	_, id, err := target(ctx, env, c)
	if err != nil {
		if errors.Is(err, ErrNoREPL) {
			return map[string]any{"result": "not-running", "id": id, "message": err.Error()}, nil
		}
		return nil, err
	}
	res, err := env.Resources.Stop(ctx, env.SessionID, id)
	if err != nil {
		return nil, fmt.Errorf("repl_stop: %w", err)
	}
	return map[string]any{"result": res.Result, "id": res.ID, "message": res.Message}, nil
}

// Eval is repl_eval: {code, id?, cwd?, timeout_ms?} on a running REPL.
func Eval(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code := optString(c.Opts, "code")
	if code == "" {
		code = optString(c.Opts, "arg")
	}
	if strings.TrimSpace(code) == "" {
		return nil, badArgs(`repl_eval needs code: repl_eval("javascript", {"code": "1 + 1"})`)
	}
	ms, err := optMillis(c.Opts, "timeout_ms")
	if err != nil {
		return nil, err
	}
	budget := DefaultEvalTimeout
	if ms > 0 {
		budget = time.Duration(ms) * time.Millisecond
	}
	r, id, err := target(ctx, env, c)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	resp, err := r.eval(ctx, code, budget)
	if err != nil {
		return nil, fmt.Errorf("repl_eval %s: %w", id, err)
	}
	if resp["restarted"] == true {
		env.Resources.Register(r.resource()) // the pid changed
	}
	resp["repl"] = id
	resp["code"] = code
	resp["ms"] = time.Since(began).Milliseconds()
	return resp, nil
}

// optEnv reads the REPL's env: a map of literal strings.
func optEnv(opts map[string]any) (map[string]string, error) {
	v, ok := opts["env"]
	if !ok || v == nil {
		return nil, nil
	}
	out := map[string]string{}
	switch m := v.(type) {
	case map[string]string:
		for k, s := range m {
			out[k] = s
		}
	case map[string]any:
		for k, x := range m {
			s, ok := x.(string)
			if !ok {
				return nil, badArgs("env %s must be a string (secret sources are not supported for JavaScript REPLs)", k)
			}
			out[k] = s
		}
	default:
		return nil, badArgs("env must be a dict of strings, got %T", v)
	}
	for k := range out {
		if !regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`).MatchString(k) {
			return nil, badArgs("env name %q is not a variable name", k)
		}
	}
	return out, nil
}

func sameEnv(a, b map[string]string) bool { return len(envDiff(a, b)) == 0 }

func envDiff(a, b map[string]string) []string {
	var d []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			d = append(d, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, k)
		}
	}
	sort.Strings(d)
	return d
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func sanitize(s string) string {
	s = strings.Trim(unsafeChars.ReplaceAllString(s, "_"), "_")
	if len(s) > 80 {
		s = s[len(s)-80:]
	}
	return s
}

// tail returns the last n lines of a file ("" when unreadable).
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
