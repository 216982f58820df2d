package backend

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/mcp"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/store"
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
// their tools and schemas are read by the program through doc(). An image
// a tool returns is prepared like a dropped one (backend/attach) for the
// turn's model and follows the iteration's results as a user message with
// the ATTACHED-IMAGES manifest (loop.Turn.AfterPrograms).

// mcpSessions holds the sessions' sets.
type mcpSessions struct {
	mu     sync.Mutex
	sets   map[string]*mcp.Set   // by session id
	images map[string]*mcpImages // by session id
}

// mcpImages are the images a session's MCP tools returned during the
// current iteration, prepared like the person's (backend/attach) for the
// turn's model, waiting to follow the iteration's results.
type mcpImages struct {
	mu      sync.Mutex
	vision  bool // the turn's model takes images
	n       int  // images of this turn, for their names
	pending []attach.Prepared
	skipped []prompt.SkippedImage
}

// mcpImagesOf returns the session's image holder, made on first ask.
func (e *Engine) mcpImagesOf(sid string) *mcpImages {
	e.mcp.mu.Lock()
	defer e.mcp.mu.Unlock()
	if e.mcp.images == nil {
		e.mcp.images = map[string]*mcpImages{}
	}
	im := e.mcp.images[sid]
	if im == nil {
		im = &mcpImages{}
		e.mcp.images[sid] = im
	}
	return im
}

// onMCPImage takes an image a tool returned: prepared like a dropped one
// (sniffed, scaled, limits) for the conversation, or named as skipped.
// The sentence is the program's note in place of the image.
func (e *Engine) onMCPImage(sid string, img mcp.Image) string {
	im := e.mcpImagesOf(sid)
	im.mu.Lock()
	defer im.mu.Unlock()
	im.n++
	name := fmt.Sprintf("image %d of this turn, from %s", im.n, img.From)
	prep, skipped := attach.Prepare([]attach.Input{{Name: name, Bytes: img.Data}}, attach.Options{Vision: im.vision})
	im.skipped = append(im.skipped, skipped...)
	// An image that passed is kept for the transcript even when the model
	// cannot see it (no vision): only those with data go to the model.
	im.pending = append(im.pending, prep...)
	if len(skipped) > 0 {
		return "not attached: " + strings.TrimSuffix(skipped[0].Reason, " — image not attached")
	}
	return fmt.Sprintf("attached to the conversation after this program's result as %q", name)
}

// mcpImagesMessage is the message that follows an iteration's results
// when its tools returned images: the images as image blocks and the
// ATTACHED-IMAGES manifest (nil when none); and the images to keep with
// the iteration for the transcript (those the model cannot see too).
func (e *Engine) mcpImagesMessage(sid string) (*chat.Message, []store.Image) {
	im := e.mcpImagesOf(sid)
	im.mu.Lock()
	pending, skipped := im.pending, im.skipped
	im.pending, im.skipped = nil, nil
	im.mu.Unlock()
	if len(pending) == 0 && len(skipped) == 0 {
		return nil, nil
	}
	var keep []store.Image
	for _, p := range pending {
		keep = append(keep, store.Image{SessionID: sid, Name: p.Image.Path, MediaType: p.OriginalMIME, SHA256: p.SHA256, Bytes: p.Original})
	}
	wired := attach.Wire(pending)
	text := "Images returned by the MCP tools of the program(s) above.\n" + prompt.ImagesManifest(wired, skipped)
	if len(wired) == 0 {
		return &chat.Message{Role: chat.RoleUser, Content: text}, keep
	}
	parts := make([]chat.Part, 0, len(wired)+1)
	for _, w := range wired {
		parts = append(parts, chat.Part{Type: "image_url", ImageURL: w.DataURL})
	}
	parts = append(parts, chat.Part{Type: "text", Text: text})
	return &chat.Message{Role: chat.RoleUser, Parts: parts}, keep
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
		OnImage:   func(_ context.Context, img mcp.Image) string { return e.onMCPImage(sid, img) },
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
func (e *Engine) mcpTurn(ctx context.Context, sid string, rt *sessionRT, cfg *config.Config, vision bool) []prompt.Fragment {
	set := e.mcpSet(sid, rt)
	im := e.mcpImagesOf(sid)
	im.mu.Lock()
	im.vision, im.n, im.pending, im.skipped = vision, 0, nil, nil
	im.mu.Unlock()
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
	delete(e.mcp.images, sid)
	e.mcp.mu.Unlock()
	if set != nil {
		set.Close(ctx)
	}
}
