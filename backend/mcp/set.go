package mcp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// Set is one session's MCP servers, keyed by their identifiers (Ident of
// the configured name). Update replaces the configuration at every turn:
// a server whose configuration changed is stopped (it starts again with
// the new one on next use), one no longer configured is stopped and
// dropped.
type Set struct {
	workspace string
	// Confine gives the ctx a server's child starts with (the turn's OS
	// sandbox); nil = the caller's ctx as it is.
	confine func(context.Context) context.Context
	// onStart is called after a server started or failed to start (the
	// engine registers it as a session resource), with its identifier.
	onStart func(ident string, srv *Server)
	// onStop is called after Update stopped a server.
	onStop func(ident string, srv *Server)
	// onImage: SetOptions.OnImage.
	onImage func(ctx context.Context, img Image) string

	mu      sync.Mutex
	servers map[string]*Server // by ident
}

// SetOptions configure a Set.
type SetOptions struct {
	Workspace string
	Confine   func(context.Context) context.Context
	OnStart   func(ident string, srv *Server)
	OnStop    func(ident string, srv *Server)
	// OnImage receives each image a tool returns (ctx is the call's) and
	// says what became of it, for the program's note; nil: not shown.
	OnImage func(ctx context.Context, img Image) string
}

// NewSet returns a session's empty set.
func NewSet(o SetOptions) *Set {
	return &Set{workspace: o.Workspace, confine: o.Confine, onStart: o.OnStart, onStop: o.OnStop, onImage: o.OnImage, servers: map[string]*Server{}}
}

// Update sets the configured servers. It returns one warning per config
// that cannot be used.
func (s *Set) Update(ctx context.Context, cfgs []Config) []string {
	sort.Slice(cfgs, func(i, j int) bool { return cfgs[i].Name < cfgs[j].Name })
	var warnings []string
	var valid []Config
	for _, c := range cfgs {
		if err := c.Validate(); err != nil {
			warnings = append(warnings, err.Error()+" ("+c.From+")")
			continue
		}
		valid = append(valid, c)
	}
	names := make([]string, len(valid))
	for i, c := range valid {
		names[i] = c.Name
	}
	ids := Idents(names)
	stop := map[string]*Server{}
	s.mu.Lock()
	next := map[string]*Server{}
	for i, c := range valid {
		if old, ok := s.servers[ids[i]]; ok && old.cfg.Equal(c) {
			next[ids[i]] = old
			continue
		} else if ok {
			stop[ids[i]] = old
		}
		next[ids[i]] = NewServer(c, s.workspace)
	}
	for id, old := range s.servers {
		if _, kept := next[id]; !kept {
			stop[id] = old
		}
	}
	s.servers = next
	s.mu.Unlock()
	for id, old := range stop {
		_ = old.Stop(ctx)
		if s.onStop != nil {
			s.onStop(id, old)
		}
	}
	return warnings
}

// Servers returns the servers by identifier.
func (s *Set) Servers() map[string]*Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]*Server, len(s.servers))
	for k, v := range s.servers {
		out[k] = v
	}
	return out
}

func (s *Set) server(id string) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.servers[id]
}

// Idents returns the servers' identifiers, sorted.
func (s *Set) Idents() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.servers))
	for id := range s.servers {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Close stops every server.
func (s *Set) Close(ctx context.Context) {
	for _, srv := range s.Servers() {
		_ = srv.Stop(ctx)
	}
}

// start starts srv for a call and tells onStart when this call did.
func (s *Set) start(ctx context.Context, srv *Server) error {
	if s.confine != nil {
		ctx = s.confine(ctx)
	}
	started, err := srv.Start(ctx)
	// A server that failed to start is shown too (status failed, its log
	// saying why), unless the caller gave up first.
	if (started || err != nil && ctx.Err() == nil) && s.onStart != nil {
		s.onStart(s.identOf(srv), srv)
	}
	return err
}

func (s *Set) identOf(srv *Server) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, x := range s.servers {
		if x == srv {
			return id
		}
	}
	return Ident(srv.cfg.Name)
}

// tools starts srv when needed and lists its tools.
func (s *Set) tools(ctx context.Context, srv *Server) ([]Tool, error) {
	if err := s.start(ctx, srv); err != nil {
		return nil, err
	}
	return srv.Tools(ctx)
}

// Restart stops the server and starts it again.
func (s *Set) Restart(ctx context.Context, srv *Server) error {
	_ = srv.Stop(ctx)
	return s.start(ctx, srv)
}

// Summary is the prompt's one line for the configured servers: their
// identifiers and transports, never their tools.
func (s *Set) Summary() string {
	ids := s.Idents()
	if len(ids) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("MCP servers, called as functions in programs: `mcp.<server>.<tool>(**arguments)`; `doc(\"mcp.<server>\")` lists a server's tools with their parameters (it starts the server). Results are Python values; a tool's error stops the block as a ToolError.\n")
	for _, id := range ids {
		srv := s.server(id)
		if srv == nil {
			continue
		}
		c := srv.cfg
		what := c.Command
		if c.URL != "" {
			what = c.URL
		}
		fmt.Fprintf(&b, "- mcp.%s — %s server (%s)\n", id, c.Transport(), oneLine(what, 80))
	}
	return strings.TrimRight(b.String(), "\n")
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// NamespaceDoc is doc("mcp").
const NamespaceDoc = "MCP servers' tools: mcp.<server>.<tool>(**arguments). Arguments are checked against the tool's input schema before the call; positional arguments fill the required parameters in order. Structured results come back as dicts and lists, text as a string (a list when several parts); a tool's error stops the block as a ToolError with the server's message."

// Namespace is the sandbox's `mcp` global for this set.
func (s *Set) Namespace() hostfn.Namespace {
	return hostfn.Namespace{
		Name:   "mcp",
		Doc:    NamespaceDoc,
		Groups: s.Idents,
		Member: func(group, member string) (hostfn.Builtin, error) {
			srv := s.server(group)
			if srv == nil {
				return hostfn.Builtin{}, fmt.Errorf("mcp has no server %q", group)
			}
			fn := "mcp." + group + "." + member
			return hostfn.Builtin{
				Name:     fn,
				Doc:      "a tool of MCP server " + srv.cfg.Name + "; doc(\"mcp." + group + "\") lists them",
				Variadic: true,
				Fn: func(ctx context.Context, args map[string]any) (any, error) {
					return s.call(ctx, srv, group, member, args)
				},
			}, nil
		},
		Describe: s.describe,
	}
}

// call runs mcp.<group>.<member>(args...).
func (s *Set) call(ctx context.Context, srv *Server, group, member string, raw map[string]any) (any, error) {
	fn := "mcp." + group + "." + member
	tools, err := s.tools(ctx, srv)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, &hostfn.ToolError{Message: fn + ": " + err.Error(), Hint: "see the server's log in the resources panel; the server is tried again at the next call"}
	}
	var tool *Tool
	for i := range tools {
		if tools[i].Ident == member {
			tool = &tools[i]
			break
		}
	}
	if tool == nil {
		var names []string
		for _, t := range tools {
			names = append(names, t.Ident)
		}
		list := "it offers none"
		if len(names) > 0 {
			list = "its tools: " + strings.Join(names, ", ")
		}
		return nil, &hostfn.ToolError{Message: fmt.Sprintf("%s: MCP server %s has no tool %q (%s)", fn, srv.cfg.Name, member, list), Hint: fmt.Sprintf("doc(%q) lists them with their parameters", "mcp."+group)}
	}
	args, err := bindArgs(fn, group, tool, raw)
	if err != nil {
		return nil, err
	}
	if msg := Check(tool.Schema, args); msg != "" {
		return nil, &hostfn.ToolError{Message: fn + ": " + msg, Hint: fmt.Sprintf("doc(%q) shows its parameters", fn)}
	}
	res, err := srv.Call(ctx, tool.Name, args)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: %w", fn, context.Cause(ctx))
		}
		return nil, &hostfn.ToolError{Message: fn + ": " + err.Error(), Hint: "the MCP server refused the call or its connection failed; see its log in the resources panel"}
	}
	if s.onImage == nil {
		return Value(fn, res)
	}
	return ValueWith(fn, res, func(img Image) string { return s.onImage(ctx, img) })
}

// bindArgs turns a call's positional and keyword arguments into the
// tool's arguments: positionals fill the required parameters in order.
func bindArgs(fn, group string, tool *Tool, raw map[string]any) (map[string]any, error) {
	args := map[string]any{}
	for k, v := range raw {
		if k != hostfn.VarArgs {
			args[k] = v
		}
	}
	pos, _ := raw[hostfn.VarArgs].([]any)
	if len(pos) == 0 {
		return args, nil
	}
	var req []string
	for _, p := range Params(tool.Schema) {
		if p.Required {
			req = append(req, p.Name)
		}
	}
	if len(pos) > len(req) {
		return nil, &hostfn.ToolError{Message: fmt.Sprintf("%s takes at most %d positional arguments (its required parameters %s), %d given; pass the others by name", fn, len(req), strings.Join(req, ", "), len(pos)),
			Hint: fmt.Sprintf("doc(%q) shows its parameters", fn)}
	}
	for i, v := range pos {
		if _, dup := args[req[i]]; dup {
			return nil, &hostfn.ToolError{Message: fmt.Sprintf("%s got multiple values for argument %q", fn, req[i])}
		}
		args[req[i]] = v
	}
	return args, nil
}

// describe answers doc("mcp.<server>") and doc("mcp.<server>.<tool>").
func (s *Set) describe(ctx context.Context, path string) (string, bool) {
	group, member, _ := strings.Cut(path, ".")
	srv := s.server(group)
	if srv == nil {
		return "", false
	}
	tools, err := s.tools(ctx, srv)
	if err != nil {
		return fmt.Sprintf("mcp.%s: MCP server %s (%s) could not be listed: %v", group, srv.cfg.Name, srv.cfg.Transport(), err), true
	}
	var b strings.Builder
	if member == "" {
		fmt.Fprintf(&b, "mcp.%s — MCP server %s (%s), %d tools:\n", group, srv.cfg.Name, srv.cfg.Transport(), len(tools))
	}
	found := false
	for _, t := range tools {
		if member != "" && t.Ident != member {
			continue
		}
		found = true
		writeTool(&b, group, t, member != "")
	}
	if member != "" && !found {
		return "", false
	}
	return strings.TrimRight(b.String(), "\n"), true
}

func writeTool(b *strings.Builder, group string, t Tool, full bool) {
	ps := Params(t.Schema)
	sig := make([]string, len(ps))
	for i, p := range ps {
		sig[i] = p.Name
		if !p.Required {
			sig[i] += "=…"
		}
	}
	fmt.Fprintf(b, "mcp.%s.%s(%s)", group, t.Ident, strings.Join(sig, ", "))
	if t.Ident != t.Name {
		fmt.Fprintf(b, " [the server's name: %s]", t.Name)
	}
	desc := strings.TrimSpace(t.Description)
	if !full {
		desc = oneLine(firstLine(desc), 160)
	}
	if desc != "" {
		b.WriteString(" — " + desc)
	}
	b.WriteString("\n")
	for _, p := range ps {
		line := "    " + p.Name
		if len(p.Types) > 0 {
			line += ": " + strings.Join(p.Types, "|")
		}
		if p.Required {
			line += " (required)"
		}
		if len(p.Enum) > 0 {
			line += " one of " + enumList(p.Enum)
		}
		if p.Description != "" {
			line += " — " + oneLine(p.Description, 160)
		}
		b.WriteString(line + "\n")
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
