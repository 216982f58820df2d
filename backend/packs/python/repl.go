package python

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/packs/linerepl"
)

//go:embed repl_server.py
var serverScript string

// ErrREPLExited means the REPL process ended while (or before) answering.
var ErrREPLExited = linerepl.ErrExited

// repl is one of the pack's REPLs: the process (linerepl) and what the
// pack knows about it.
type repl struct {
	*linerepl.REPL
	id, sessionID, dir string
	interp             Interpreter
	env                map[string]string
	pythonpath         string // "src" when the src layout was put on PYTHONPATH
	pathNote           string // why, said in repl_start's answer
}

func (r *repl) stop(ctx context.Context) { _ = r.Stop(ctx) }

// spec is how the pack runs interp's REPL server in dir; extra (the src
// layout's PYTHONPATH) goes after the call's env, so it wins.
func (p *Pack) spec(interp Interpreter, dir string, env map[string]string, extra []string, logPath string) linerepl.Spec {
	return linerepl.Spec{
		Name:    "python",
		Argv:    append(append([]string(nil), interp.Argv...), "-u", "-c", serverScript),
		Display: strings.Join(interp.Argv, " "),
		Dir:     dir,
		Env:     append(append([]string{"PYTHONUNBUFFERED=1", "PYTHONIOENCODING=utf-8"}, linerepl.EnvList(env)...), extra...),
		LogPath: logPath, StartTimeout: p.opts.StartTimeout, InterruptGrace: p.opts.InterruptGrace,
		OnHang: linerepl.KillOnHang, KilledHint: `repl_start("python") starts a new one`,
	}
}

func replKey(session, id string) string { return session + "\x00" + id }

// DefaultID is the id of the REPL for a project directory.
func DefaultID(dir string) string { return "pyrepl:" + tilde(dir) }

func tilde(p string) string { return homedir.Tilde(p, homedir.Dir()) }

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
		if r.sessionID == session && r.Alive() {
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

// info is the lifecycle answer for r.
func (r *repl) info(result string) linerepl.Info {
	i := linerepl.Info{Result: result, ID: r.id, Cwd: tilde(r.dir), Status: "up", Running: r.Alive(), PID: r.PID(),
		Cmd: strings.Join(r.interp.Argv, " "), Tool: r.interp.Source, Log: r.LogPath()}
	if !i.Running {
		i.Status = "failed"
	}
	for k := range r.env {
		i.Env = append(i.Env, k)
	}
	sort.Strings(i.Env)
	if r.pythonpath != "" {
		i.Extra = map[string]any{"pythonpath": r.pythonpath}
		i.Note = r.pathNote
	}
	return i
}

func (p *Pack) start(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	i, err := p.launch(ctx, env, c)
	if err != nil {
		return nil, err
	}
	return i.Map(), nil
}

func (p *Pack) launch(ctx context.Context, env ext.ToolEnv, c ext.Call) (linerepl.Info, error) {
	if env.Resources == nil {
		return linerepl.Info{}, errors.New("python repl_start: no resource registry for this session")
	}
	dir := c.Cwd
	id := c.ID
	if id == "" {
		id = DefaultID(dir)
	}
	vars, err := replEnv(c.Opts)
	if err != nil {
		return linerepl.Info{}, err
	}
	key := replKey(env.SessionID, id)
	l := p.starts.For(key)
	l.Lock()
	defer l.Unlock()
	if r, ok := p.get(env.SessionID, id); ok && r.Alive() {
		if d := linerepl.EnvDiff(r.env, vars); len(d) > 0 && vars != nil {
			return linerepl.Info{}, fmt.Errorf("python repl_start: %s already runs with a different env (%s); repl_stop(%q) first", id, strings.Join(d, ", "), id)
		}
		out := r.info("already-running")
		out.Message = "a REPL for this project is already running; repl_eval uses it"
		return out, nil
	}
	interp, err := p.Resolve(dir)
	if err != nil {
		return linerepl.Info{Result: "no-launcher", ID: id, Cwd: tilde(dir), Status: "down", Message: err.Error()}, nil
	}
	// A src layout whose package the interpreter cannot import gets src/
	// on PYTHONPATH, as run_tests does (srcLayout), so the REPL imports
	// the project's code without an install.
	src := testCall{env: linerepl.EnvList(vars)}
	if err := p.srcLayout(ctx, interp, dir, &src); err != nil {
		return linerepl.Info{}, fmt.Errorf("python repl_start: %w", err)
	}
	var extra []string
	if src.pythonpath != "" {
		extra = src.env[len(src.env)-1:]
	}
	logPath := linerepl.LogPath(env.LogDir, id, time.Now())
	lr, err := linerepl.Start(ctx, p.spec(interp, dir, vars, extra, logPath))
	if err != nil {
		out := linerepl.Info{Result: "failed", ID: id, Cwd: tilde(dir), Status: "failed",
			Cmd: strings.Join(interp.Argv, " "), Tool: interp.Source, Log: logPath, Message: err.Error()}
		var ee *linerepl.ExitError
		if errors.As(err, &ee) {
			out.Exit = &ee.Code
			out.LogTail, _ = readTail(logPath, 20)
		}
		return out, nil
	}
	r := &repl{REPL: lr, id: id, sessionID: env.SessionID, dir: dir, interp: interp, env: vars, pythonpath: src.pythonpath,
		pathNote: strings.TrimPrefix(src.why, "; ")}
	p.mu.Lock()
	p.repls[key] = r
	p.mu.Unlock()
	p.register(env, r)
	out := r.info("started")
	out.Message = fmt.Sprintf("python REPL up (%s); evaluate with repl_eval(\"python\", {\"code\": ...})", interp)
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
			PID: r.PID(), Status: "up", Log: r.LogPath(), Created: r.Created().UnixMilli(), Managed: true,
			Detail: map[string]any{"cmd": strings.Join(r.interp.Argv, " "), "tool": r.interp.Source},
		},
		StopFn: func(ctx context.Context) error {
			p.mu.Lock()
			if p.repls[replKey(r.sessionID, r.id)] == r {
				delete(p.repls, replKey(r.sessionID, r.id))
			}
			p.mu.Unlock()
			return r.Stop(ctx)
		},
		Health: r.Health,
		Logs:   r.Logs,
		// A restart resolves the interpreter again (a venv made since counts).
		Restart: func(ctx context.Context) error {
			i, err := p.launch(ctx, env, ext.Call{Language: "python", Cwd: r.dir, ID: r.id, Opts: envOpts(r.env)})
			if err != nil {
				return err
			}
			if i.Result != "started" && i.Result != "already-running" {
				return fmt.Errorf("restart %s: %s: %s", r.id, i.Result, i.Message)
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
	out := linerepl.Info{Cwd: tilde(c.Cwd), Status: "down", REPLs: []linerepl.Info{}, Extra: map[string]any{}}
	for _, r := range p.sessionREPLs(env.SessionID) {
		if r.dir != c.Cwd {
			continue
		}
		s := r.info("")
		s.Status = r.Health(ctx)
		if s.Status == "up" {
			out.Status, out.Running = "up", true
		}
		out.REPLs = append(out.REPLs, s)
	}
	if interp, err := p.Resolve(c.Cwd); err == nil {
		out.Extra["interpreter"] = strings.Join(interp.Argv, " ")
		out.Extra["interpreter_source"] = interp.Source
	} else {
		out.Extra["interpreter_error"] = err.Error()
	}
	return out.Map(), nil
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
	return linerepl.Info{Result: res.Result, ID: res.ID, Message: res.Message}.Map(), nil
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
	res, err := r.Eval(ctx, code, optDuration(c.Opts, "timeout_ms", p.opts.EvalTimeout))
	if errors.Is(err, ErrREPLExited) {
		return nil, fmt.Errorf(`python repl_eval: %w; repl_start("python") starts a new one`, err)
	}
	if err != nil {
		return nil, fmt.Errorf("python repl_eval: %w", err)
	}
	res.REPL = r.id
	return res.Map(), nil
}
