package js

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/packs/linerepl"
	"github.com/visdesktop/vis/backend/packs/proc"
)

//go:embed repl_server.js
var serverScript string

// REPL timings.
const (
	DefaultEvalTimeout = 30 * time.Second
	startTimeout       = 20 * time.Second
	interruptGrace     = 3 * time.Second
)

// startMu serialises starts so two calls for one directory start one REPL.
var startMu sync.Mutex

// replProc is a managed REPL: the process (linerepl) and what the pack
// knows about it.
type replProc struct {
	*linerepl.REPL
	id, dir, label, language, session string
	rt                                Runtime
	env                               map[string]string
}

// spec is how the pack runs rt's REPL server in dir: `runtime -e <server>`.
// A hung REPL is restarted (the JS server abandons slow awaits itself, so
// only a synchronous loop past SIGINT hangs it); one that died on its own
// reads "down".
func spec(rt Runtime, dir string, env map[string]string, logPath string) linerepl.Spec {
	return linerepl.Spec{
		Name: rt.Name, Argv: []string{rt.Path, "-e", serverScript}, Display: rt.Path + " -e <repl server>",
		Dir: dir, Env: linerepl.EnvList(env), LogPath: logPath,
		StartTimeout: startTimeout, InterruptGrace: interruptGrace,
		OnHang: linerepl.RestartOnHang, ExitedStatus: "down",
	}
}

// resource is the registry entry for r; a restart registers it again
// (the registry dropped it on the stop that precedes a restart).
func (r *replProc) resource(reg ext.Resources) ext.Resource {
	return ext.Resource{
		Info: ext.ResourceInfo{
			ID: r.id, SessionID: r.session, Kind: "repl", Language: r.language,
			Label: r.rt.Name + " REPL " + filepath.Base(r.dir) + labelSuffix(r.label), Dir: r.dir,
			PID: r.PID(), Status: "up", Log: r.LogPath(), Created: r.Created().UnixMilli(), Managed: true,
			Detail: map[string]any{"runtime": r.rt.Name, "cwd": r.dir},
		},
		StopFn: r.Stop,
		Health: r.Health,
		Logs:   r.Logs,
		Restart: func(ctx context.Context) error {
			if err := r.Restart(ctx); err != nil {
				return err
			}
			reg.Register(r.resource(reg))
			return nil
		},
		Handle: r,
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
	id := "jsrepl:" + homedir.Tilde(dir, homedir.Dir())
	if label != "" {
		id += "#" + label
	}
	return id
}

// Repl handles the lifecycle ops start, status, stop and connect.
func Repl(ctx context.Context, env ext.ToolEnv, op string, c ext.Call) (map[string]any, error) {
	var i linerepl.Info
	var err error
	switch op {
	case "connect":
		return nil, ErrConnect
	case "start":
		i, err = startOp(ctx, env, c)
	case "status":
		i, err = statusOp(ctx, env, c)
	case "stop":
		i, err = stopOp(ctx, env, c)
	default:
		return nil, ext.BadArgs("unknown REPL op %q (start, status, stop)", op)
	}
	if err != nil {
		return nil, err
	}
	return i.Map(), nil
}

func callID(c ext.Call) string {
	if c.ID != "" {
		return c.ID
	}
	if s := ext.StringOption(c.Opts, "id"); s != "" {
		return s
	}
	return ext.StringOption(c.Opts, "repl_id")
}

func language(c ext.Call) string {
	switch c.Language {
	case "typescript", "tsx", "ts", "mts", "cts":
		return "typescript"
	}
	return "javascript"
}

// tsLoader is how the REPL server reads a call's code: "ts" or "tsx" for
// TypeScript (the server removes the types first), "" for JavaScript.
func tsLoader(c ext.Call) string {
	switch c.Language {
	case "typescript", "ts", "mts", "cts":
		return "ts"
	case "tsx":
		return "tsx"
	}
	return ""
}

// request is the code as sent to the server: TypeScript behind the marker
// repl_server.js reads (a NUL never starts a program's own code).
func request(c ext.Call, code string) string {
	if l := tsLoader(c); l != "" {
		return "\x00vis:" + l + "\x00" + code
	}
	return code
}

func startOp(ctx context.Context, env ext.ToolEnv, c ext.Call) (linerepl.Info, error) {
	if env.Resources == nil {
		return linerepl.Info{}, errors.New("repl_start: no resource registry")
	}
	for _, k := range []string{"port", "build", "aliases"} {
		if _, ok := c.Opts[k]; ok {
			return linerepl.Info{}, ext.BadArgs("%s does not apply to a JavaScript REPL (repl_start takes cwd, id, env)", k)
		}
	}
	extra, err := optEnv(c.Opts)
	if err != nil {
		return linerepl.Info{}, err
	}
	dir := c.Dir(env)
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
		if r, ok := res.Handle.(*replProc); ok && r.Alive() {
			if d := linerepl.EnvDiff(r.env, extra); len(d) > 0 {
				return linerepl.Info{}, ext.BadArgs("%s is running with a different env (%s); repl_stop it first", id, strings.Join(d, ", "))
			}
			out := r.info("already-running")
			out.Message = "reusing the running REPL"
			return out, nil
		}
	}
	rt, err := ResolveRuntime(env.Workspace, dir, homedir.Dir(), nil)
	if err != nil {
		return linerepl.Info{}, err
	}
	logPath := linerepl.LogPath(env.LogDir, id, time.Now())
	lr, err := linerepl.Start(ctx, spec(rt, dir, extra, logPath))
	if err != nil {
		tail, _ := proc.ReadTail(logPath, 20)
		return linerepl.Info{Result: "failed", ID: id, Cwd: dir, Status: "failed", Tool: rt.Name,
			Log: logPath, LogTail: tail, Message: err.Error()}, nil
	}
	r := &replProc{REPL: lr, id: id, dir: dir, label: label, language: language(c), session: env.SessionID, rt: rt, env: extra}
	env.Resources.Register(r.resource(env.Resources))
	out := r.info("started")
	out.Message = fmt.Sprintf("%s REPL up in %s; evaluate with repl_eval(%q, {\"code\": ...})", rt.Name, dir, language(c))
	out.Note = rt.Note
	return out, nil
}

// info is the shared lifecycle answer.
func (r *replProc) info(result string) linerepl.Info {
	return linerepl.Info{Result: result, ID: r.id, Cwd: r.dir, Status: "up", Running: true, PID: r.PID(),
		Cmd: r.Spec().Display, Tool: r.rt.Name, Log: r.LogPath()}
}

// target finds the REPL a call means: an explicit id (exact, or a label of
// the call's directory), else the REPL of the call's directory, else the
// session's only JS REPL.
func target(ctx context.Context, env ext.ToolEnv, c ext.Call) (*replProc, string, error) {
	if env.Resources == nil {
		return nil, "", ErrNoREPL
	}
	dir := c.Dir(env)
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

func statusOp(ctx context.Context, env ext.ToolEnv, c ext.Call) (linerepl.Info, error) {
	r, id, err := target(ctx, env, c)
	if err != nil {
		if errors.Is(err, ErrNoREPL) {
			return linerepl.Info{ID: id, Status: "down", Cwd: c.Dir(env), Message: err.Error()}, nil
		}
		return linerepl.Info{}, err
	}
	out := r.info("")
	out.Status = r.Health(ctx)
	out.Running = out.Status == "up" || out.Status == "unresponsive"
	return out, nil
}

func stopOp(ctx context.Context, env ext.ToolEnv, c ext.Call) (linerepl.Info, error) {
	_, id, err := target(ctx, env, c)
	if err != nil {
		if errors.Is(err, ErrNoREPL) {
			return linerepl.Info{Result: "not-running", ID: id, Message: err.Error()}, nil
		}
		return linerepl.Info{}, err
	}
	res, err := env.Resources.Stop(ctx, env.SessionID, id)
	if err != nil {
		return linerepl.Info{}, fmt.Errorf("repl_stop: %w", err)
	}
	return linerepl.Info{Result: res.Result, ID: res.ID, Message: res.Message}, nil
}

// Eval is repl_eval: {code, id?, cwd?, timeout_ms?} on a running REPL.
func Eval(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	code := ext.StringOption(c.Opts, "code")
	if code == "" {
		code = ext.StringOption(c.Opts, "arg")
	}
	if strings.TrimSpace(code) == "" {
		return nil, ext.BadArgs(`repl_eval needs code: repl_eval("javascript", {"code": "1 + 1"})`)
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
	res, err := r.Eval(ctx, request(c, code), budget)
	if errors.Is(err, linerepl.ErrExited) {
		return nil, fmt.Errorf("repl_eval %s: %w\nstart it again with repl_start(%q)", id, err, r.language)
	}
	if err != nil {
		return nil, fmt.Errorf("repl_eval %s: %w", id, err)
	}
	if res.Restarted {
		env.Resources.Register(r.resource(env.Resources)) // the pid changed
	}
	res.REPL, res.Code = id, code
	return res.Map(), nil
}

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

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
				return nil, ext.BadArgs("env %s must be a string (secret sources are not supported for JavaScript REPLs)", k)
			}
			out[k] = s
		}
	default:
		return nil, ext.BadArgs("env must be a dict of strings, got %T", v)
	}
	for k := range out {
		if !envName().MatchString(k) {
			return nil, ext.BadArgs("env name %q is not a variable name", k)
		}
	}
	return out, nil
}
