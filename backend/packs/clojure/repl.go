package clojure

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/clojure/nrepl"
)

// repl is one nREPL server of a session: one we started (managed) or one
// we attached to (external, or a shadow-cljs build).
type repl struct {
	id, sessionID, dir string
	host               string
	port               int
	managed            bool
	build, target      string // shadow-cljs attachment: build id and its :target
	tool               string // clj, lein, bb, java, shadow-cljs, or "" (external)
	aliases            []string
	vars               []string // the repl_start call's env ("NAME=value"), kept for a restart
	argv               []string
	note               string
	logPath            string
	created            time.Time
	env                ext.ToolEnv // where it is mirrored

	cmd       *exec.Cmd
	exited    chan struct{} // closed once the managed process is reaped
	exit      atomic.Int64
	listening atomic.Bool
	stopping  atomic.Bool  // a stop was asked (exit is "down", not "failed")
	used      atomic.Int64 // unix nanos of the last start, eval or test run (idle reaping)

	priorPortFile string // dir/.nrepl-port before our launch wrote its own ("" = none)

	mu       sync.Mutex
	desc     *nrepl.Description // last describe that answered
	mirrored *ext.ResourceInfo  // what the registry was last told
	health   *nrepl.Health      // last probe verdict (form, hint)
}

func (r *repl) addr() string { return net.JoinHostPort(r.host, strconv.Itoa(r.port)) }

func (r *repl) pid() int {
	if r.cmd == nil || r.cmd.Process == nil {
		return 0
	}
	return r.cmd.Process.Pid
}

// processAlive reports whether a managed REPL's process still runs
// (attachments: true until detached).
func (r *repl) processAlive() bool {
	if r.exited == nil {
		return !r.stopping.Load()
	}
	select {
	case <-r.exited:
		return false
	default:
		return true
	}
}

func (r *repl) dialect() string {
	if r.build != "" {
		return "cljs"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.desc != nil && r.desc.Dialect != "" {
		return r.desc.Dialect
	}
	return "clj"
}

func (r *repl) versions() map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.desc == nil || len(r.desc.Versions) == 0 {
		return nil
	}
	out := map[string]any{}
	for k, v := range r.desc.Versions {
		out[k] = v
	}
	return out
}

func replKey(session, id string) string { return session + "\x00" + id }

func (p *Pack) get(session, id string) (*repl, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.repls[replKey(session, id)]
	return r, ok
}

func (p *Pack) put(r *repl) {
	p.mu.Lock()
	p.repls[replKey(r.sessionID, r.id)] = r
	p.mu.Unlock()
}

// forget removes r (only r, not a replacement) and closes its client when
// no other REPL of the pack uses the same server.
func (p *Pack) forget(r *repl) {
	p.mu.Lock()
	if p.repls[replKey(r.sessionID, r.id)] == r {
		delete(p.repls, replKey(r.sessionID, r.id))
	}
	shared := false
	for _, o := range p.repls {
		if o.host == r.host && o.port == r.port {
			shared = true
		}
	}
	p.mu.Unlock()
	if !shared && r.port != 0 {
		p.pool.Remove(r.host, r.port)
	}
}

// sessionREPLs returns the session's REPLs sorted by dir, then id.
func (p *Pack) sessionREPLs(session string) []*repl {
	out := func() []*repl {
		p.mu.Lock()
		defer p.mu.Unlock()
		var out []*repl
		for _, r := range p.repls {
			if r.sessionID == session {
				out = append(out, r)
			}
		}
		return out
	}()
	sort.Slice(out, func(i, j int) bool {
		if out[i].dir != out[j].dir {
			return out[i].dir < out[j].dir
		}
		return out[i].id < out[j].id
	})
	return out
}

// client is the shared nREPL client of r's server.
func (p *Pack) client(r *repl) *nrepl.Client { return p.pool.Client(r.host, r.port) }

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

func logPathFor(env ext.ToolEnv, id string) string {
	dir := env.LogDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "vis-logs")
	}
	name := strings.Trim(unsafeName().ReplaceAllString(id, "_"), "_")
	return filepath.Join(dir, fmt.Sprintf("%s-%s.log", name, time.Now().Format("20060102-150405.000000000")))
}

// ---- managed processes ----

// launch starts l in dir with its output in logPath.
func launch(l Launcher, dir, logPath string, vars []string) (*repl, error) {
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return nil, fmt.Errorf("nREPL log: %w", err)
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("nREPL log: %w", err)
	}
	fmt.Fprintf(logf, "[vis] %s starting in %s: %s\n", time.Now().Format(time.RFC3339), dir, strings.Join(l.Argv, " "))
	prior := portFileBefore(dir)
	cmd := exec.Command(l.Argv[0], l.Argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), vars...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(logf, "[vis] could not start: %v\n", err)
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", l.Argv[0], err)
	}
	r := &repl{dir: dir, host: "127.0.0.1", managed: true, tool: l.Tool, argv: l.Argv, note: l.Note,
		logPath: logPath, created: time.Now(), cmd: cmd, exited: make(chan struct{}), priorPortFile: prior}
	r.touch()
	go func() { // owner: the repl; ends when the process is reaped
		err := cmd.Wait()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		r.exit.Store(int64(code))
		restorePortFile(dir, prior) // nREPL deletes the file at exit, whatever it names by then
		fmt.Fprintf(logf, "[vis] %s exited (code %d)\n", time.Now().Format(time.RFC3339), code)
		logf.Close()
		close(r.exited)
	}()
	return r, nil
}

// waitPort waits until r listens. It returns "up", "failed" (the process
// exited: at once), or "starting" (the deadline passed while it lives). A
// cancelled ctx kills the process and returns ctx's error.
func (r *repl) waitPort(ctx context.Context, deadline time.Duration) (string, error) {
	t := time.NewTimer(deadline)
	defer t.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if r.dialOK() {
			return "up", nil
		}
		select {
		case <-r.exited:
			return "failed", nil
		case <-t.C:
			return "starting", nil
		case <-ctx.Done():
			r.stop(context.Background())
			return "failed", ctx.Err()
		case <-tick.C:
		}
	}
}

// dialOK reports whether the port accepts a connection (and remembers it).
func (r *repl) dialOK() bool {
	if r.listening.Load() {
		return true
	}
	nc, err := net.DialTimeout("tcp", r.addr(), 300*time.Millisecond)
	if err != nil {
		return false
	}
	nc.Close()
	r.listening.Store(true)
	return true
}

// stop ends a managed REPL's process group: SIGTERM, then SIGKILL after a
// grace; attachments are only marked detached.
func (r *repl) stop(ctx context.Context) {
	r.stopping.Store(true)
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	pgid := r.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGCONT) // a stopped JVM cannot handle SIGTERM
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	select {
	case <-r.exited:
	case <-t.C:
	case <-ctx.Done():
	}
	_ = killGroup(r.cmd.Process)
	<-r.exited
	if r.managed {
		removePortFile(r.dir, r.port, r.priorPortFile)
	}
}

// registryHealth is the Health function the resource registry calls. It
// never answers "down" for a REPL the pack still holds (the registry would
// prune it while the model still sees it): a dead one is "failed".
func (p *Pack) registryHealth(r *repl) func(ctx context.Context) string {
	return func(ctx context.Context) string {
		if r.managed && !r.processAlive() {
			if r.stopping.Load() {
				return "down"
			}
			return "failed"
		}
		if r.managed && !r.dialOK() {
			return "starting"
		}
		deadline := p.opts.HealthDeadline
		if dl, ok := ctx.Deadline(); ok {
			if left := time.Until(dl) - 200*time.Millisecond; left > 0 && left < deadline {
				deadline = left
			}
		}
		h := p.client(r).Health(ctx, deadline)
		switch h.Status {
		case nrepl.StatusUp, nrepl.StatusUnresponsive:
			// Between turns this is the only probe: keep the form and hint
			// the sidebar shows in step with the verdict (the mirror
			// re-registers only when what it shows changed).
			r.setHealth(p.withHint(r, h, deadline))
			p.mirror(r, h.Status)
			return h.Status
		case nrepl.StatusDown:
			return "failed"
		}
		return "unknown"
	}
}

// resourceInfo is r as the registry shows it.
func (r *repl) resourceInfo(status string) ext.ResourceInfo {
	label := "nREPL " + filepath.Base(r.dir)
	switch {
	case r.build != "":
		label += " (shadow-cljs " + r.build + ")"
	case !r.managed:
		label += " (external)"
	}
	for _, a := range r.aliases {
		label += " :" + a
	}
	detail := map[string]any{"dir": tilde(r.dir), "cwd": tilde(r.dir), "port": r.port, "managed": r.managed,
		"dialect": r.dialect()}
	if !r.managed {
		detail["external"] = true
		detail["host"] = r.host
	}
	if r.tool != "" {
		detail["tool"] = r.tool
	}
	if len(r.aliases) > 0 {
		detail["aliases"] = stringList(r.aliases)
	}
	if r.logPath != "" {
		detail["log"] = r.logPath
	}
	if v := r.versions(); v != nil {
		detail["versions"] = v
	}
	if r.build != "" {
		detail["build"] = r.build
	}
	r.mu.Lock()
	if h := r.health; h != nil && h.Status != nrepl.StatusUp {
		detail["form"] = h.Form
		detail["hint"] = h.Hint
	}
	r.mu.Unlock()
	return ext.ResourceInfo{
		ID: r.id, SessionID: r.sessionID, Kind: "nrepl", Language: "clojure", Label: label, Dir: r.dir,
		PID: r.pid(), Port: r.port, Status: status, Log: r.logPath, Created: r.created.UnixMilli(),
		Managed: r.managed, Detail: detail,
	}
}

func stringList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// mirror registers r in its session's registry when what the registry shows
// would change (or it was never registered). A REPL that was stopped or
// replaced meanwhile is not re-registered.
func (p *Pack) mirror(r *repl, status string) {
	if r.env.Resources == nil {
		return
	}
	p.mu.Lock()
	current := p.repls[replKey(r.sessionID, r.id)] == r
	p.mu.Unlock()
	if !current || (r.stopping.Load() && r.managed) {
		return
	}
	info := r.resourceInfo(status)
	r.mu.Lock()
	same := r.mirrored != nil && reflect.DeepEqual(*r.mirrored, info)
	if !same {
		r.mirrored = &info
	}
	r.mu.Unlock()
	if same {
		return
	}
	res := ext.Resource{
		Info:   info,
		Health: p.registryHealth(r),
		Handle: r,
		StopFn: func(ctx context.Context) error {
			p.forget(r)
			r.stop(ctx)
			return nil
		},
	}
	if r.logPath != "" {
		res.Logs = func(n int) (string, error) { return readTail(r.logPath, n) }
	}
	if r.managed {
		env, dir, aliases, vars := r.env, r.dir, r.aliases, r.vars
		res.Restart = func(ctx context.Context) error {
			opts := map[string]any{"aliases": stringList(aliases)}
			if len(vars) > 0 {
				m := map[string]any{}
				for _, kv := range vars {
					k, v, _ := strings.Cut(kv, "=")
					m[k] = v
				}
				opts["env"] = m
			}
			out, err := p.start(ctx, env, ext.Call{Language: "clojure", Cwd: dir, Opts: opts})
			if err != nil {
				return err
			}
			if out["result"] != "started" && out["result"] != "already-running" && out["result"] != "starting" {
				return fmt.Errorf("restart %s: %v: %v", r.id, out["result"], out["message"])
			}
			return nil
		}
	}
	r.env.Resources.Register(res)
}

// summary is r in repl_start / repl_status answers.
func (r *repl) summary(result, status string) map[string]any {
	out := map[string]any{
		"id": r.id, "cwd": tilde(r.dir), "status": status, "running": r.processAlive(), "port": r.port,
		"managed": r.managed, "dialect": r.dialect(), "aliases": stringList(r.aliases),
	}
	if result != "" {
		out["result"] = result
	}
	if r.tool != "" {
		out["tool"] = r.tool
	}
	if r.managed {
		out["pid"] = r.pid()
		out["cmd"] = strings.Join(r.argv, " ")
		out["log"] = r.logPath
	} else {
		out["external"] = true
		out["host"] = r.host
	}
	if r.build != "" {
		out["build"] = r.build
	}
	if v := r.versions(); v != nil {
		out["versions"] = v
	}
	if r.note != "" {
		out["note"] = r.note
	}
	return out
}

// ---- repl_start ----

func (p *Pack) start(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	if env.Resources == nil {
		return nil, errors.New("clojure repl_start: no resource registry for this session")
	}
	for _, k := range []string{"port", "build", "host"} {
		if v, ok := c.Opts[k]; ok && v != nil && v != "" {
			return nil, fmt.Errorf(`clojure repl_start: %s starts nothing here: to use a server that is already running, call repl_connect("clojure", {"%s": ...})`, k, k)
		}
	}
	aliases, err := aliasNames(c.Opts)
	if err != nil {
		return nil, err
	}
	vars, err := ext.EnvOf(c.Opts)
	if err != nil {
		return nil, fmt.Errorf("clojure repl_start: %w", err)
	}
	dir := canonicalDir(c.Cwd)
	id := ManagedID(dir)
	if c.ID != "" && c.ID != id {
		return nil, fmt.Errorf("clojure repl_start: a Clojure REPL's id comes from its folder (%s); pass cwd to start one elsewhere", id)
	}
	l := p.starts.For(replKey(env.SessionID, id))
	l.Lock()
	defer l.Unlock()
	if r, ok := p.get(env.SessionID, id); ok && r.processAlive() {
		r.touch()
		status := "up"
		if !r.dialOK() {
			status = "starting"
		}
		out := r.summary("already-running", status)
		out["message"] = "a REPL for this folder is already running; repl_eval uses it"
		if d := diffStrings(aliases, r.aliases); len(d) > 0 {
			out["message"] = fmt.Sprintf("a REPL for this folder is already running with aliases %v; it cannot apply %v — repl_stop(%q), then repl_start with the aliases you want", r.aliases, aliases, id)
		}
		return out, nil
	}
	proj := LoadProject(dir)
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("clojure repl_start: %w", err)
	}
	lnch, err := p.REPLLauncher(ctx, proj, aliases, port)
	if err != nil {
		return map[string]any{"result": "no-launcher", "id": id, "cwd": tilde(dir), "status": "down", "running": false,
			"message": "cannot start an nREPL: " + err.Error()}, nil
	}
	logPath := logPathFor(env, id)
	if lnch.Argv, err = confine.CommandCtx(ctx, lnch.Argv); err != nil {
		return nil, fmt.Errorf("clojure repl_start: %w", err)
	}
	r, err := launch(lnch, dir, logPath, vars)
	if err != nil {
		return map[string]any{"result": "failed", "id": id, "cwd": tilde(dir), "status": "failed", "running": false,
			"cmd": strings.Join(lnch.Argv, " "), "tool": lnch.Tool, "log": logPath, "message": err.Error()}, nil
	}
	r.id, r.sessionID, r.port, r.aliases, r.env, r.vars = id, env.SessionID, port, aliases, env, vars
	status, err := r.waitPort(ctx, p.opts.StartTimeout)
	if err != nil {
		return nil, fmt.Errorf("clojure repl_start: %w", err)
	}
	if status == "failed" {
		<-r.exited
		tailText, _ := readTail(logPath, 20)
		out := r.summary("failed", "failed")
		out["running"] = false
		out["exit"] = int(r.exit.Load())
		out["log_tail"] = tailText
		out["message"] = fmt.Sprintf("the nREPL launcher exited with code %d before listening on %d; see log_tail", r.exit.Load(), port)
		return out, nil
	}
	if old, ok := p.get(env.SessionID, id); ok {
		p.forget(old) // a dead one: replaced
	}
	r.touch()
	p.put(r)
	p.startReaper()
	if status == "up" {
		p.portFileAfterBoot(r)
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if d, err := p.client(r).Describe(dctx); err == nil {
			r.mu.Lock()
			r.desc = &d
			r.mu.Unlock()
		}
		cancel()
	}
	p.mirror(r, status)
	if status == "starting" {
		out := r.summary("starting", "starting")
		out["message"] = fmt.Sprintf("the nREPL process runs but does not listen on %d yet (after %s); repl_status shows when it is up", port, p.opts.StartTimeout)
		return out, nil
	}
	out := r.summary("started", "up")
	out["message"] = fmt.Sprintf(`nREPL up on 127.0.0.1:%d (%s); evaluate with repl_eval("clojure", {"code": ...})`, port, lnch.Tool)
	if lnch.Note != "" {
		out["message"] = out["message"].(string) + "; " + lnch.Note
	}
	return out, nil
}

func diffStrings(want, have []string) []string {
	set := map[string]bool{}
	for _, h := range have {
		set[h] = true
	}
	var out []string
	for _, w := range want {
		if !set[w] {
			out = append(out, w)
		}
	}
	return out
}

// ---- repl_status / repl_stop ----

func (p *Pack) status(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	dir := canonicalDir(c.Cwd)
	repls := []any{}
	running := false
	for _, r := range p.sessionREPLs(env.SessionID) {
		if r.dir != dir {
			continue
		}
		st := p.registryHealth(r)(ctx)
		running = running || st == "up"
		repls = append(repls, r.summary("", st))
	}
	out := map[string]any{"cwd": tilde(dir), "id": ManagedID(dir), "running": running, "repls": repls}
	proj := LoadProject(dir)
	if l, err := p.REPLLauncher(ctx, proj, nil, 0); err == nil {
		out["launcher"] = l.Tool
	} else {
		out["launcher"] = nil
		out["message"] = err.Error()
	}
	return out, nil
}

func (p *Pack) stop(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	if env.Resources == nil {
		return nil, errors.New("clojure repl_stop: no resource registry for this session")
	}
	dir := canonicalDir(c.Cwd)
	id := ManagedID(dir)
	if b := optString(c.Opts, "build"); b != "" {
		id += "#" + strings.TrimPrefix(b, ":")
	} else if _, ok := p.get(env.SessionID, id); !ok {
		if _, ok := p.get(env.SessionID, id+"#external"); ok {
			id += "#external"
		}
	}
	res, err := env.Resources.Stop(ctx, env.SessionID, id)
	if err != nil {
		return nil, err
	}
	if r, ok := p.get(env.SessionID, id); ok { // not in the registry (pruned): ours to end
		p.forget(r)
		r.stop(ctx)
		res.Result = "stopped"
		if !r.managed {
			res.Result = "detached"
		}
		res.Message = res.Result + " " + id
	}
	return map[string]any{"result": res.Result, "id": res.ID, "message": res.Message}, nil
}

// ---- evaluation ----

// ErrNoREPL means the session has no Clojure REPL to evaluate in.
var ErrNoREPL = errors.New(`no Clojure REPL is running in this session; start one with repl_start("clojure")`)

// resolveTarget picks the REPL an evaluation runs in (spec §4.5): an
// explicit id; else the only REPL; else the one rooted at cwd (its managed
// REPL before its attachments); else the first by folder. An id no live
// REPL has is an error, except when the call also named its directory
// (cwdSet): then the id is stale (the REPL was stopped or restarted) and
// the directory decides, with a note saying so. live must be sorted by
// dir, then id.
func resolveTarget(live []*repl, id, cwd string, cwdSet bool) (r *repl, note string, err error) {
	if id == "default" {
		id = ""
	}
	if id != "" {
		for _, r := range live {
			if r.id == id {
				return r, "", nil
			}
		}
		var ids []string
		for _, r := range live {
			ids = append(ids, r.id)
		}
		switch {
		case len(ids) == 0:
			return nil, "", fmt.Errorf("no Clojure REPL with id %q: %w", id, ErrNoREPL)
		case !cwdSet:
			return nil, "", fmt.Errorf("no Clojure REPL with id %q in this session (live: %s)", id, strings.Join(ids, ", "))
		}
		note = fmt.Sprintf("no live REPL has id %q; ran in the REPL for cwd instead", id)
	}
	switch len(live) {
	case 0:
		return nil, "", ErrNoREPL
	case 1:
		return live[0], note, nil
	}
	for _, r := range live {
		if r.dir == cwd {
			return r, note, nil
		}
	}
	return live[0], note, nil
}

func (p *Pack) eval(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code, _ := c.Opts["code"].(string)
	if strings.TrimSpace(code) == "" {
		return nil, errors.New("clojure repl_eval: code is required")
	}
	timeout := optDuration(c.Opts, "timeout_ms", p.opts.EvalTimeout)
	eo := nrepl.EvalOptions{Ns: optString(c.Opts, "ns"), Timeout: timeout}
	if port, ok := optInt(c.Opts, "port"); ok && port > 0 {
		host := optString(c.Opts, "host")
		if host == "" {
			host = "localhost"
		}
		cl := p.pool.Client(host, port)
		res, err := cl.Eval(ctx, code, eo)
		if err != nil {
			return nil, evalError(fmt.Sprintf("nREPL %s", cl.Addr()), "", err)
		}
		out := evalResult(res, code, port)
		out["repl"] = "nrepl://" + cl.Addr()
		return out, nil
	}
	r, note, err := resolveTarget(p.sessionREPLs(env.SessionID), c.ID, canonicalDir(c.Cwd), c.CwdSet)
	if err != nil {
		return nil, fmt.Errorf("clojure repl_eval: %w", err)
	}
	if r.managed && !r.processAlive() {
		t, _ := readTail(r.logPath, 10)
		return nil, fmt.Errorf("clojure repl_eval: %s exited (code %d): repl_stop(%q), then repl_start(\"clojure\"); last log lines:\n%s", r.id, r.exit.Load(), r.id, t)
	}
	r.touch()
	if r.managed && !r.dialOK() {
		return nil, fmt.Errorf("clojure repl_eval: %s is still starting (nothing listens on %d yet); try again shortly, repl_status shows when it is up", r.id, r.port)
	}
	var res nrepl.EvalResult
	var hint string
	switch {
	case r.build != "":
		res, hint, err = p.shadowEval(ctx, r, code, eo)
	case p.sharesShadow(r):
		// A shadow-cljs attachment selected a build in this server's
		// session: return it to CLJ first, under the same lock.
		l := p.evalLock(r.addr())
		l.Lock()
		cl := p.client(r)
		if _, err = cl.Eval(ctx, ":cljs/quit", nrepl.EvalOptions{Timeout: 10 * time.Second, Plain: true}); err == nil {
			res, err = cl.Eval(ctx, code, eo)
		}
		l.Unlock()
	default:
		res, err = p.client(r).Eval(ctx, code, eo)
	}
	if err != nil {
		return nil, evalError(r.id, r.id, err)
	}
	out := evalResult(res, code, r.port)
	out["repl"] = r.id
	if r.build != "" {
		out["build"] = r.build
	}
	if hint != "" {
		out["message"] = hint
	}
	if note != "" {
		out["note"] = note
	}
	return out, nil
}

// sharesShadow reports whether a shadow-cljs attachment uses r's server.
func (p *Pack) sharesShadow(r *repl) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, o := range p.repls {
		if o != r && o.build != "" && o.host == r.host && o.port == r.port {
			return true
		}
	}
	return false
}

func evalError(what, id string, err error) error {
	stop := ""
	if id != "" {
		stop = fmt.Sprintf("repl_stop(%q), then repl_start(\"clojure\")", id)
	}
	switch {
	case errors.Is(err, nrepl.ErrUnreachable):
		if stop == "" {
			return fmt.Errorf("clojure repl_eval: nothing answers at %s: %w", what, err)
		}
		return fmt.Errorf("clojure repl_eval: %s is down (its port does not answer): %s: %w", what, stop, err)
	case errors.Is(err, nrepl.ErrNamespaceNotFound):
		return fmt.Errorf("clojure repl_eval: %w: require it first, e.g. (require 'my.ns), or omit ns", err)
	}
	return fmt.Errorf("clojure repl_eval (%s): %w", what, err)
}

// evalResult maps an nREPL result onto repl_eval's keys.
func evalResult(res nrepl.EvalResult, code string, port int) map[string]any {
	values := stringList(res.Values)
	var value any
	if len(res.Values) > 0 {
		value = res.Value
	}
	out := map[string]any{
		"code": code, "value": value, "values": values, "out": res.Out, "err": res.Err, "ns": res.Ns,
		"status": stringList(res.Status), "ms": res.Ms, "timed_out": res.TimedOut, "port": port,
	}
	if res.ExClass != "" {
		out["ex"] = res.ExClass
		out["root_ex"] = res.RootEx
		out["error_message"] = res.ExMessage
		out["trace"] = res.Trace
	}
	if res.TimedOut {
		out["message"] = fmt.Sprintf("interrupted after %d ms (timeout_ms); the REPL keeps its state", res.Ms)
	}
	return out
}
