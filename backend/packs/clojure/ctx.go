package clojure

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/clojure/nrepl"
)

type turnKey struct{}

// WithTurn marks ctx with the turn it belongs to. The ctx contribution
// probes each REPL at most once per (turn, port set): the engine calls
// WithTurn with the turn's id before it renders the turn's iterations.
// Without a mark every call probes.
func WithTurn(ctx context.Context, turn string) context.Context {
	return context.WithValue(ctx, turnKey{}, turn)
}

func turnOf(ctx context.Context) string {
	s, _ := ctx.Value(turnKey{}).(string)
	return s
}

// probeCache is the last probe of a session.
type probeCache struct {
	turn  string
	ports string
	res   map[string]probed // id -> verdict
}

type probed struct {
	status string
	health nrepl.Health
}

// Ctx is the pack's contribution to the `session` dict (seed 002):
//
//	{"env": {"languages": {"clojure": {"nrepl": {"default": <id|nil>, "repls": [...]}}}}}
//
// listing only the REPLs this session started or attached, each probed
// (describe, then (+ 1 1) in the health session; the eval verdict wins) and
// mirrored into the session's resource registry. No workspace, or any
// failure, gives an empty map; it never returns an error.
func (p *Pack) Ctx(ctx context.Context, env ext.Environment) (out map[string]any, _ error) {
	defer func() {
		if recover() != nil {
			out = map[string]any{}
		}
	}()
	if env.Workspace == "" {
		return map[string]any{}, nil
	}
	repls := p.sessionREPLs(env.SessionID)
	verdicts := p.probeAll(ctx, env.SessionID, repls)
	list := make([]any, 0, len(repls))
	for _, r := range repls {
		v := verdicts[r.id]
		list = append(list, r.ctxEntry(v))
		mirrorStatus := v.status
		if mirrorStatus == nrepl.StatusDown {
			mirrorStatus = "failed" // the registry prunes "down"; the model must still see it
		}
		p.mirror(r, mirrorStatus)
	}
	var def any
	if len(repls) == 1 {
		def = repls[0].id
	}
	return map[string]any{"env": map[string]any{"languages": map[string]any{"clojure": map[string]any{
		"nrepl": map[string]any{"default": def, "repls": list},
	}}}}, nil
}

// ctxEntry is one REPL in the contribution.
func (r *repl) ctxEntry(v probed) map[string]any {
	m := map[string]any{
		"id": r.id, "dir": tilde(r.dir), "port": r.port, "status": v.status, "managed": r.managed,
		"host": r.host, "aliases": stringList(r.aliases), "dialect": r.dialect(),
	}
	if r.aliases == nil {
		m["aliases"] = []any{}
	}
	if !r.managed {
		m["external"] = true
	}
	if r.tool != "" {
		m["tool"] = r.tool
	}
	if vs := r.versions(); vs != nil {
		m["versions"] = vs
	}
	if r.build != "" {
		m["build"] = r.build
	}
	if v.status != nrepl.StatusUp && v.health.Form != "" {
		m["form"] = v.health.Form
		m["hint"] = v.health.Hint
	}
	return m
}

// portSet renders the session's ports, sorted (the probe cache's key).
func portSet(repls []*repl) string {
	ps := make([]string, 0, len(repls))
	for _, r := range repls {
		ps = append(ps, r.id+"@"+r.host+":"+strconv.Itoa(r.port))
	}
	sort.Strings(ps)
	return strings.Join(ps, ",")
}

// probeAll probes every REPL in parallel, once per (turn, port set).
func (p *Pack) probeAll(ctx context.Context, session string, repls []*repl) map[string]probed {
	turn, ports := turnOf(ctx), portSet(repls)
	p.mu.Lock()
	if c := p.probe[session]; c != nil && turn != "" && c.turn == turn && c.ports == ports {
		p.mu.Unlock()
		return c.res
	}
	p.mu.Unlock()
	res := make(map[string]probed, len(repls))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range repls {
		wg.Add(1)
		go func() { // owner: probeAll; bounded by the describe and health deadlines
			defer wg.Done()
			v := p.probeOne(ctx, r)
			mu.Lock()
			res[r.id] = v
			mu.Unlock()
		}()
	}
	wg.Wait()
	p.mu.Lock()
	p.probe[session] = &probeCache{turn: turn, ports: ports, res: res}
	p.mu.Unlock()
	return res
}

// probeOne: describe (short deadline; refreshes versions and dialect), then
// the (+ 1 1) health check, whose verdict wins. A managed process that
// exited is down; one that does not listen yet is starting.
func (p *Pack) probeOne(ctx context.Context, r *repl) probed {
	if r.managed && !r.processAlive() {
		h := nrepl.Health{Status: nrepl.StatusDown, Form: nrepl.HealthForm,
			Hint: fmt.Sprintf("the nREPL process exited (code %d): repl_stop(%q), then repl_start(\"clojure\")", r.exit.Load(), r.id)}
		r.setHealth(h)
		return probed{status: nrepl.StatusDown, health: h}
	}
	if r.managed && !r.dialOK() {
		return probed{status: "starting"}
	}
	cl := p.client(r)
	dctx, cancel := context.WithTimeout(ctx, p.opts.DescribeTimeout)
	d, err := cl.Describe(dctx)
	cancel()
	if err == nil {
		r.mu.Lock()
		if r.desc == nil || !sameDesc(*r.desc, d) {
			r.desc = &d
		}
		r.mu.Unlock()
	}
	h := p.withHint(r, cl.Health(ctx, p.opts.HealthDeadline), p.opts.HealthDeadline)
	r.setHealth(h)
	if r.managed && h.Status == nrepl.StatusUp {
		removePortFile(r.dir, r.port, r.priorPortFile) // a launcher that was slow to boot
	}
	return probed{status: h.Status, health: h}
}

// withHint adds what to do to an unresponsive verdict (deadline: the one
// the health check ran under).
func (p *Pack) withHint(r *repl, h nrepl.Health, deadline time.Duration) nrepl.Health {
	if h.Status != nrepl.StatusUnresponsive {
		return h
	}
	h.Hint = fmt.Sprintf("%s got no answer within %s: the REPL is wedged (a long or stuck evaluation?): repl_stop(%q), then repl_start(\"clojure\"); the next turn probes again", nrepl.HealthForm, deadline.Round(time.Millisecond), r.id)
	if !r.managed {
		h.Hint = fmt.Sprintf("%s got no answer within %s: the attached REPL is wedged; Vis does not own it: fix it where it runs, or repl_stop(%q) to detach", nrepl.HealthForm, deadline.Round(time.Millisecond), r.id)
	}
	return h
}

func (r *repl) setHealth(h nrepl.Health) {
	r.mu.Lock()
	r.health = &h
	r.mu.Unlock()
}

func sameDesc(a, b nrepl.Description) bool {
	if a.Dialect != b.Dialect || len(a.Versions) != len(b.Versions) {
		return false
	}
	for k, v := range a.Versions {
		if b.Versions[k] != v {
			return false
		}
	}
	return true
}
