package backend

import (
	"context"
	"sort"
	"sync"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/mcp"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// MCP servers in a session (issue 19). Each session has one mcp.Set: its
// `mcp` namespace is bound into the session's sandbox when the sandbox is
// made, and every turn's plan re-points it at the turn's configuration
// (mcp_servers in config.yml / mcp.json; a project's once trusted). A
// server starts on first use, under the turn's confinement, and is then a
// session resource (kind "mcp"): the window's resource panel shows it with
// Stop, Restart and Logs (its stderr), `session["resources"]` lists it,
// and it stops with the session and the app like a REPL. The system
// prompt lists the servers only (a fragment of TURN-SYSTEM-CONTEXT);
// their tools and schemas are read by the program through doc().

// mcpSessions holds the sessions' sets.
type mcpSessions struct {
	mu   sync.Mutex
	sets map[string]*mcp.Set // by session id
}

// mcpSet returns the session's set, made on first ask.
func (e *Engine) mcpSet(sid string, rt *sessionRT) *mcp.Set {
	e.mcp.mu.Lock()
	defer e.mcp.mu.Unlock()
	if s, ok := e.mcp.sets[sid]; ok {
		return s
	}
	if e.mcp.sets == nil {
		e.mcp.sets = map[string]*mcp.Set{}
	}
	var set *mcp.Set
	set = mcp.NewSet(mcp.SetOptions{
		Workspace: rt.workspace,
		Confine:   rt.confined,
		OnStart:   func(id string, srv *mcp.Server) { e.registerMCP(sid, rt, set, id, srv) },
		OnStop: func(id string, _ *mcp.Server) {
			_, _ = e.resources.Stop(context.Background(), sid, mcpResourceID(id))
		},
	})
	e.mcp.sets[sid] = set
	return set
}

// mcpNamespaces is the sandbox's `mcp` global for a new session runtime.
func (e *Engine) mcpNamespaces(sid string, rt *sessionRT) []hostfn.Namespace {
	return []hostfn.Namespace{e.mcpSet(sid, rt).Namespace()}
}

func mcpResourceID(ident string) string { return "mcp:" + ident }

// registerMCP shows a started server as a session resource.
func (e *Engine) registerMCP(sid string, rt *sessionRT, set *mcp.Set, id string, srv *mcp.Server) {
	c := srv.Config()
	detail := map[string]any{"transport": c.Transport(), "server": c.Name}
	if c.URL != "" {
		detail["url"] = c.URL
	} else {
		detail["command"] = c.Command
	}
	if c.From != "" {
		detail["from"] = c.From
	}
	status, err := srv.Status()
	if err != nil {
		detail["hint"] = err.Error()
	}
	dir := c.Dir
	if dir == "" {
		dir = rt.workspace
	}
	e.resources.Register(ext.Resource{
		Info: ext.ResourceInfo{ID: mcpResourceID(id), SessionID: sid, Kind: "mcp", Language: "mcp", Label: c.Name,
			Dir: dir, PID: srv.PID(), Status: status, Managed: true, Detail: detail},
		StopFn:  srv.Stop,
		Health:  srv.Health,
		Logs:    func(n int) (string, error) { return srv.Logs(n), nil },
		Restart: func(ctx context.Context) error { return set.Restart(ctx, srv) },
		Handle:  srv,
	})
}

// mcpTurn points the session's set at the turn's configuration, reports
// what cannot be used, and returns the prompt's fragment listing the
// servers (none when there are none).
func (e *Engine) mcpTurn(ctx context.Context, sid string, rt *sessionRT, cfg *config.Config) []prompt.Fragment {
	set := e.mcpSet(sid, rt)
	names := make([]string, 0, len(cfg.MCPServers))
	for n := range cfg.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	var cfgs []mcp.Config
	var warnings []string
	for _, n := range names {
		s := cfg.MCPServers[n]
		if s.Type == "sse" {
			warnings = append(warnings, "MCP server "+n+" ("+s.From+"): the SSE transport is not supported; use its Streamable HTTP endpoint")
			continue
		}
		cfgs = append(cfgs, mcp.Config{Name: n, Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Cwd, URL: s.URL, Headers: s.Headers, From: s.From})
	}
	warnings = append(warnings, set.Update(context.WithoutCancel(ctx), cfgs)...)
	for _, w := range warnings {
		e.broker.Publish(events.Event{SessionID: sid, Data: events.Warning{Message: w}})
	}
	if text := set.Summary(); text != "" {
		return []prompt.Fragment{{Name: "mcp", Builtin: true, Text: text}}
	}
	return nil
}

// dropMCP stops a deleted session's servers and forgets its set.
func (e *Engine) dropMCP(ctx context.Context, sid string) {
	e.mcp.mu.Lock()
	set := e.mcp.sets[sid]
	delete(e.mcp.sets, sid)
	e.mcp.mu.Unlock()
	if set != nil {
		set.Close(ctx)
	}
}
