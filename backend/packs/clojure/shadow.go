package clojure

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/clojure/nrepl"
)

// What a shadow-cljs nREPL is like (learned from the server itself, and
// reproduced by this package's scripted test peer):
//   - describe looks like a JVM nREPL; only an eval that resolves
//     shadow.cljs.devtools.api tells it apart.
//   - a build is selected PER SESSION with (shadow.cljs.devtools.api/nrepl-select
//     :build), which answers [:selected :build]; one session serves every
//     build, so the build is selected again before each evaluation.
//   - selecting from a session already in a build is compiled as
//     ClojureScript and fails: :cljs/quit goes first (in a CLJ session it is
//     a keyword that evaluates to itself).
//   - a build without a connected JS runtime answers every eval with
//     "No available JS runtime." on err.

// NoRuntimeMarker is what shadow-cljs prints for an eval on a build whose JS
// runtime is not connected.
const NoRuntimeMarker = "No available JS runtime"

// shadowProbeForm answers, in one read-only eval, whether the server is
// shadow-cljs, which builds its config has, whether build is watched, and
// the build's :target. Every shadow var is resolved, never called by name,
// so the form is harmless on a plain JVM nREPL.
func shadowProbeForm(build string) string {
	return `(let [wr (resolve 'shadow.cljs.devtools.api/worker-running?)` +
		` gb (resolve 'shadow.cljs.devtools.api/get-build-config)` +
		` cfg (resolve 'shadow.cljs.devtools.config/load-cljs-edn)` +
		` b :` + build + `]` +
		` (pr-str {:shadow (some? wr)` +
		` :builds (when cfg (try (vec (keys (:builds (cfg)))) (catch Throwable _ nil)))` +
		` :worker (boolean (when (and wr b) (wr b)))` +
		` :target (when (and gb b) (try (:target (gb b)) (catch Throwable _ nil)))}))`
}

type shadowInfo struct {
	shadow bool
	builds []string
	worker bool
	target string
}

func parseShadowProbe(value string) (shadowInfo, error) {
	v, err := ReadEDN(value)
	if err != nil {
		return shadowInfo{}, err
	}
	if s, ok := v.(string); ok { // pr-str printed by the server: read twice
		if v, err = ReadEDN(s); err != nil {
			return shadowInfo{}, err
		}
	}
	m, ok := v.(Map)
	if !ok {
		return shadowInfo{}, fmt.Errorf("not a map: %s", value)
	}
	info := shadowInfo{shadow: m.Kw("shadow") == true, worker: m.Kw("worker") == true, target: asString(m.Kw("target"))}
	for _, b := range asSeq(m.Kw("builds")) {
		info.builds = append(info.builds, asString(b))
	}
	return info, nil
}

// runtimeHint says how to start the JS runtime a build lacks.
func runtimeHint(build, target string) string {
	how := "start this build's runtime (`node <:output-to>` for node targets, the page for browser targets)"
	switch target {
	case "node-script":
		how = "run the built script (`node <:output-to>`; a project without node_modules needs `npm install ws` first)"
	case "node-library":
		how = "load the built library in a node process"
	case "browser", "esm":
		how = "open the page this build serves in a browser"
	case "browser-test":
		how = "open the test page this build serves"
	case "react-native":
		how = "start the app in the simulator or on the device"
	}
	return fmt.Sprintf("shadow-cljs build %s has no JS runtime connected: %s, while `shadow-cljs watch %s` keeps running", build, how, build)
}

func (p *Pack) evalLock(addr string) *sync.Mutex {
	l, _ := p.evalLocks.LoadOrStore(addr, &sync.Mutex{})
	return l.(*sync.Mutex)
}

// shadowSelect selects build in the client's evaluation session.
func shadowSelect(ctx context.Context, cl *nrepl.Client, build string, timeout time.Duration) error {
	if _, err := cl.Eval(ctx, ":cljs/quit", nrepl.EvalOptions{Timeout: timeout, Plain: true}); err != nil {
		return err
	}
	res, err := cl.Eval(ctx, "(shadow.cljs.devtools.api/nrepl-select :"+build+")", nrepl.EvalOptions{Timeout: timeout, Plain: true})
	if err != nil {
		return err
	}
	if strings.Contains(res.Value, ":selected") {
		return nil
	}
	why := strings.TrimSpace(res.Err)
	if why == "" {
		why = strings.TrimSpace(res.ExMessage)
	}
	if why == "" {
		why = "shadow-cljs did not select the build (value " + res.Value + ")"
	}
	return errors.New(why)
}

// shadowEval selects r's build, then evaluates code in it. hint is set when
// the build has no JS runtime.
func (p *Pack) shadowEval(ctx context.Context, r *repl, code string, eo nrepl.EvalOptions) (nrepl.EvalResult, string, error) {
	l := p.evalLock(r.addr())
	l.Lock()
	defer l.Unlock()
	cl := p.client(r)
	if err := shadowSelect(ctx, cl, r.build, 10*time.Second); err != nil {
		if errors.Is(err, nrepl.ErrUnreachable) || errors.Is(err, nrepl.ErrConnectionLost) {
			return nrepl.EvalResult{}, "", err
		}
		return nrepl.EvalResult{}, "", fmt.Errorf("could not select shadow-cljs build %s (%v): is `shadow-cljs watch %s` still running?", r.build, err, r.build)
	}
	res, err := cl.Eval(ctx, code, eo)
	if err != nil {
		return res, "", err
	}
	if strings.Contains(res.Err, NoRuntimeMarker) {
		return res, runtimeHint(r.build, r.target), nil
	}
	return res, "", nil
}

// shadowPort reads the port `shadow-cljs watch` publishes in dir.
func shadowPort(dir string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, ".shadow-cljs", "nrepl.port"))
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return n, err == nil && n > 0
}

// ---- repl_connect ----

func (p *Pack) connect(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	if env.Resources == nil {
		return nil, errors.New("clojure repl_connect: no resource registry for this session")
	}
	dir := canonicalDir(c.Cwd)
	build := strings.TrimPrefix(optString(c.Opts, "build"), ":")
	if build != "" && !buildID().MatchString(build) {
		return nil, fmt.Errorf("clojure repl_connect: build %q is not a shadow-cljs build id", build)
	}
	host := optString(c.Opts, "host")
	if host == "" {
		host = "localhost"
	}
	port, hasPort := optInt(c.Opts, "port")
	if hasPort && (port <= 0 || port > 65535) {
		return nil, fmt.Errorf("clojure repl_connect: port %d is not a TCP port", port)
	}
	if build == "" && !hasPort {
		return nil, errors.New(`clojure repl_connect: port is required (e.g. repl_connect("clojure", {"port": 7888})), unless build names a shadow-cljs build to attach to`)
	}
	if build != "" && !hasPort {
		var ok bool
		if port, ok = shadowPort(dir); !ok {
			return nil, fmt.Errorf("clojure repl_connect: no shadow-cljs watch is running in %s (no .shadow-cljs/nrepl.port): start one with `npx shadow-cljs watch %s`, then connect again", tilde(dir), build)
		}
	}
	id := ManagedID(dir) + "#external"
	if build != "" {
		id = ManagedID(dir) + "#" + build
	}
	l := p.starts.For(replKey(env.SessionID, id))
	l.Lock()
	defer l.Unlock()
	if old, ok := p.get(env.SessionID, id); ok {
		if old.port == port && old.host == host {
			out := old.summary("already-attached", "up")
			out["message"] = "already attached; repl_eval uses it"
			return out, nil
		}
		_, _ = env.Resources.Stop(ctx, env.SessionID, id) // re-pointed: detach the old one
		p.forget(old)
	}
	cl := p.pool.Client(host, port)
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	desc, err := cl.Describe(dctx)
	cancel()
	if err != nil {
		p.pool.Remove(host, port)
		return nil, fmt.Errorf("clojure repl_connect: nothing answers nREPL at %s:%d (%v): check the port (a `.nrepl-port` file in the project names it)", host, port, err)
	}
	r := &repl{id: id, sessionID: env.SessionID, dir: dir, host: host, port: port, managed: false,
		created: time.Now(), env: env, desc: &desc}
	r.listening.Store(true)
	out := map[string]any{}
	if build != "" {
		// The probe is JVM Clojure: a session another attachment left in a
		// build goes back to CLJ first (:cljs/quit is harmless in CLJ).
		lk := p.evalLock(r.addr())
		lk.Lock()
		_, err := cl.Eval(ctx, ":cljs/quit", nrepl.EvalOptions{Timeout: 10 * time.Second, Plain: true})
		var res nrepl.EvalResult
		if err == nil {
			res, err = cl.Eval(ctx, shadowProbeForm(build), nrepl.EvalOptions{Timeout: 10 * time.Second, Plain: true})
		}
		lk.Unlock()
		if err != nil {
			return nil, fmt.Errorf("clojure repl_connect: probing %s:%d for shadow-cljs: %w", host, port, err)
		}
		info, perr := parseShadowProbe(res.Value)
		switch {
		case perr != nil || !info.shadow:
			return nil, fmt.Errorf("clojure repl_connect: %s:%d is not a shadow-cljs nREPL (%v %q) (shadow.cljs.devtools.api is not loaded there); for a JVM nREPL omit build", host, port, perr, res.Value)
		case !contains(info.builds, build):
			return nil, fmt.Errorf("clojure repl_connect: shadow-cljs at %s:%d has no build %q (builds: %s)", host, port, build, strings.Join(info.builds, ", "))
		case !info.worker:
			return nil, fmt.Errorf("clojure repl_connect: shadow-cljs build %s is not being watched: run `npx shadow-cljs watch %s` (the server is up, the build is not)", build, build)
		}
		r.build, r.target, r.tool = build, info.target, "shadow-cljs"
		sres, hint, err := p.shadowEval(ctx, r, "(+ 1 1)", nrepl.EvalOptions{Timeout: 10 * time.Second})
		if err != nil {
			return nil, fmt.Errorf("clojure repl_connect: %w", err)
		}
		_ = sres
		if hint != "" {
			out["message"] = hint
			out["runtime"] = false
		} else {
			out["runtime"] = true
		}
	}
	p.put(r)
	p.mirror(r, "up")
	for k, v := range r.summary("attached", "up") {
		out[k] = v
	}
	if _, ok := out["message"]; !ok {
		out["message"] = "attached (never stopped by Vis; repl_stop only detaches); repl_eval uses it"
		if build != "" {
			out["message"] = fmt.Sprintf("attached to shadow-cljs build %s: repl_eval runs ClojureScript in its JS runtime; repl_stop only detaches", build)
		}
	}
	return out, nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
