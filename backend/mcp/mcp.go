// Package mcp connects Model Context Protocol servers (the official Go SDK,
// github.com/modelcontextprotocol/go-sdk; this is the only package that
// imports it) and offers their tools to the sandbox as functions:
// mcp.<server>.<tool>(**kwargs).
//
// Contract:
//   - A Server is one configured server: stdio (command, args, env, dir)
//     or Streamable HTTP (url, headers). It starts on first use (Tools,
//     Call, Describe), lists its tools once per connection (the cache is
//     dropped when the server says its list changed or the connection
//     ends) and stays up across blocks and turns until Stop, which the
//     session's resource entry, the session's end and the app's exit call.
//   - A stdio child starts through confine.CommandCtx with the ctx of the
//     call that first used it, so it runs under that turn's OS sandbox with
//     the provider keys hidden, in its own process group with the
//     parent-death signal (packs/proc.SysProcAttr); Stop closes its stdin,
//     waits up to two seconds, then kills the group. Its stderr is kept in
//     a bounded log (the last 1,000 lines, at most 64 KiB) for "Logs".
//   - Every call carries the caller's ctx (the block's deadline): a call
//     that outlives it returns the ctx's error, the SDK tells the server
//     the request was cancelled, and the connection stays usable.
//   - Arguments are checked against the tool's input schema before the
//     call (schema.go: required keys, top-level types, enum, unknown keys)
//     and refused with a *hostfn.ToolError naming the problem; a result
//     with isError comes back as a *hostfn.ToolError with the server's
//     message; structured content comes back as plain Go values, text as
//     strings (result.go); an image part goes to SetOptions.OnImage (the
//     engine attaches it to the conversation) and the value keeps a note.
//   - Server and Set are safe for concurrent use. A failed start is kept
//     as the server's status and error (shown in the sidebar) and retried
//     on the next use.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/packs/proc"
)

// Config is one server as configured.
type Config struct {
	Name    string            // the configured name (any text)
	Command string            // stdio: the program
	Args    []string          // stdio: its arguments
	Env     map[string]string // stdio: added to the inherited environment
	Dir     string            // stdio: working directory ("" = the workspace)
	URL     string            // Streamable HTTP endpoint
	Headers map[string]string // HTTP headers sent with every request
	From    string            // the file that configured it (for messages)
}

// Transport names the kind of server: "stdio" or "http".
func (c Config) Transport() string {
	if c.URL != "" {
		return "http"
	}
	return "stdio"
}

// Equal says whether two configs start the same server.
func (c Config) Equal(o Config) bool {
	return c.Name == o.Name && c.Command == o.Command && strings.Join(c.Args, "\x00") == strings.Join(o.Args, "\x00") &&
		mapsEqual(c.Env, o.Env) && c.Dir == o.Dir && c.URL == o.URL && mapsEqual(c.Headers, o.Headers)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Validate says what is wrong with a config, or nil.
func (c Config) Validate() error {
	switch {
	case c.Command == "" && c.URL == "":
		return fmt.Errorf("MCP server %q: set command (stdio) or url (Streamable HTTP)", c.Name)
	case c.Command != "" && c.URL != "":
		return fmt.Errorf("MCP server %q: set either command or url, not both", c.Name)
	}
	return nil
}

// Statuses (the resource sidebar's words).
const (
	StatusStopped  = "stopped"
	StatusStarting = "starting"
	StatusUp       = "up"
	StatusFailed   = "failed"
)

// Tool is one tool a server offers.
type Tool struct {
	Name        string         // as the server names it (sent on the wire)
	Ident       string         // the Starlark name (Ident(Name), made unique)
	Description string         //
	Schema      map[string]any // the input JSON schema (an object schema), nil when none
}

// Server is one MCP server's connection.
type Server struct {
	cfg Config
	log *ringLog

	// Workspace is the default working directory of a stdio child.
	workspace string

	mu      sync.Mutex
	status  string
	err     error // why the last start or the connection failed
	conn    *conn // nil when stopped
	gen     int   // bumps on every start
	started time.Time
}

// conn is one live connection.
type conn struct {
	sess  *sdk.ClientSession
	cmd   *exec.Cmd              // stdio only
	tools atomic.Pointer[[]Tool] // nil until listed; dropped when the list changes
	gone  chan struct{}
}

// NewServer returns a stopped server for cfg; workspace is a stdio
// child's working directory when cfg.Dir is empty (a relative Dir is
// taken from it).
func NewServer(cfg Config, workspace string) *Server {
	return &Server{cfg: cfg, workspace: workspace, log: newRingLog(1000, 64<<10), status: StatusStopped}
}

// Config returns the server's configuration.
func (s *Server) Config() Config { return s.cfg }

// Status returns the server's status and, when it failed, why.
func (s *Server) Status() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status, s.err
}

// PID is the stdio child's process id (0 when none).
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil && s.conn.cmd != nil && s.conn.cmd.Process != nil {
		return s.conn.cmd.Process.Pid
	}
	return 0
}

// Logs returns the last n lines of the server's stderr (stdio) and of
// what happened to its connection.
func (s *Server) Logs(n int) string { return s.log.last(n) }

// Health is the resource registry's probe: "up" while connected (an HTTP
// server answers a ping), "failed" when the connection ended by itself,
// "down" when stopped.
func (s *Server) Health(ctx context.Context) string {
	s.mu.Lock()
	c, status := s.conn, s.status
	s.mu.Unlock()
	if c == nil {
		if status == StatusFailed {
			return StatusFailed
		}
		return "down"
	}
	if s.cfg.URL != "" {
		if err := c.sess.Ping(ctx, nil); err != nil {
			return "unresponsive"
		}
	}
	return status
}

// ErrStart wraps a server that could not start.
var ErrStart = errors.New("MCP server did not start")

// Start connects (starting the child) unless connected; ctx bounds the
// handshake and carries the confinement of the child. started reports
// whether this call made the connection.
func (s *Server) Start(ctx context.Context) (started bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		return false, nil
	}
	s.status = StatusStarting
	c, err := s.connect(ctx)
	if err != nil {
		s.status, s.err = StatusFailed, err
		s.log.add("start failed: " + err.Error())
		return false, err
	}
	s.conn, s.status, s.err = c, StatusUp, nil
	s.gen++
	s.started = time.Now()
	gen := s.gen
	go s.watch(c, gen) // owner: the connection; ends when it does
	return true, nil
}

// watch marks the server failed when its connection ends without Stop.
func (s *Server) watch(c *conn, gen int) {
	err := c.sess.Wait()
	close(c.gone)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen || s.conn != c {
		return // stopped or restarted meanwhile
	}
	s.conn = nil
	s.status = StatusFailed
	msg := "the server's connection ended"
	if err != nil {
		msg += ": " + err.Error()
	}
	if c.cmd != nil {
		killGroup(c.cmd)
		_ = c.cmd.Wait()
		if st := c.cmd.ProcessState; st != nil {
			msg += " (" + st.String() + ")"
		}
	}
	s.err = errors.New(msg)
	s.log.add(msg)
}

func (s *Server) connect(ctx context.Context) (*conn, error) {
	if err := s.cfg.Validate(); err != nil {
		return nil, err
	}
	c := &conn{gone: make(chan struct{})}
	var t sdk.Transport
	if s.cfg.URL != "" {
		t = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: &http.Client{Transport: headerTransport{s.cfg.Headers}}, MaxRetries: 1}
	} else {
		argv, env, err := s.argv(ctx)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrStart, s.cfg.Name, err)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = s.dir()
		cmd.Env = append(os.Environ(), env...)
		cmd.Stderr = s.log
		cmd.SysProcAttr = proc.SysProcAttr()
		c.cmd = cmd
		t = &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "vis-desktop", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { c.tools.Store(nil) },
	})
	// The connection outlives the call that starts it: it gets a ctx
	// without the call's cancellation; the handshake waits for the call's.
	type res struct {
		sess *sdk.ClientSession
		err  error
	}
	ch := make(chan res, 1)
	go func() { // owner: connect; ends when Connect returns
		sess, err := client.Connect(context.WithoutCancel(ctx), t, nil)
		ch <- res{sess, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			if c.cmd != nil && c.cmd.Process != nil {
				killGroup(c.cmd)
			}
			return nil, fmt.Errorf("%w: %s: %v%s", ErrStart, s.cfg.Name, r.err, s.stderrTail())
		}
		c.sess = r.sess
		return c, nil
	case <-ctx.Done():
		go func() { // owner: connect; reaps the late connection
			if r := <-ch; r.sess != nil {
				_ = r.sess.Close()
			}
			if c.cmd != nil && c.cmd.Process != nil {
				killGroup(c.cmd)
			}
		}()
		if c.cmd != nil && c.cmd.Process != nil {
			killGroup(c.cmd)
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrStart, s.cfg.Name, context.Cause(ctx))
	}
}

// argv is the stdio child's command line, wrapped by ctx's confinement,
// and the configured variables to add to its environment. The
// confinement hides provider keys and tokens (*_TOKEN, ...) from every
// child; a variable the server's own config sets is meant for it, so one
// the policy would hide is passed through env(1) after the helper instead.
func (s *Server) argv(ctx context.Context) (argv, env []string, err error) {
	keys := make([]string, 0, len(s.cfg.Env))
	for k := range s.cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var pairs []string
	for _, k := range keys {
		pairs = append(pairs, k+"="+s.cfg.Env[k])
	}
	inner := append([]string{s.cfg.Command}, s.cfg.Args...)
	if p, ok := confine.From(ctx); ok && len(p.HideEnv) > 0 {
		keep, hidden := confine.Hidden(pairs, p.HideEnv)
		if len(hidden) > 0 {
			envBin, err := exec.LookPath("env")
			if err != nil {
				return nil, nil, fmt.Errorf("pass %s to the server: %w", strings.Join(hidden, ", "), err)
			}
			var direct []string
			for _, k := range hidden {
				direct = append(direct, k+"="+s.cfg.Env[k])
			}
			inner = append(append([]string{envBin}, direct...), inner...)
			pairs = keep
		}
	}
	argv, err = confine.CommandCtx(ctx, inner)
	return argv, pairs, err
}

func (s *Server) stderrTail() string {
	if t := strings.TrimSpace(s.log.last(5)); t != "" {
		return "\nits stderr ends:\n" + t
	}
	return ""
}

func (s *Server) dir() string {
	d := s.cfg.Dir
	if d == "" {
		return s.workspace
	}
	if !strings.HasPrefix(d, "/") && s.workspace != "" {
		return s.workspace + "/" + d
	}
	return d
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Stop ends the connection and the child (the whole process group).
func (s *Server) Stop(ctx context.Context) error {
	s.mu.Lock()
	c := s.conn
	s.conn = nil
	s.status = StatusStopped
	s.err = nil
	s.gen++
	s.mu.Unlock()
	if c == nil {
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- c.sess.Close() }() // owner: Stop; the transport ends the child within ~4 s
	select {
	case <-done:
	case <-ctx.Done():
	}
	if c.cmd != nil {
		killGroup(c.cmd)
	}
	s.log.add("stopped")
	return nil
}

// Tools returns the server's tools, starting it and listing them when
// needed (cached per connection).
func (s *Server) Tools(ctx context.Context) ([]Tool, error) {
	if _, err := s.Start(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return nil, fmt.Errorf("MCP server %s stopped", s.cfg.Name)
	}
	if cached := c.tools.Load(); cached != nil {
		return *cached, nil
	}
	var out []Tool
	for t, err := range c.sess.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the tools of MCP server %s: %w", s.cfg.Name, err)
		}
		schema, _ := toPlain(t.InputSchema).(map[string]any)
		out = append(out, Tool{Name: t.Name, Description: t.Description, Schema: schema})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	names := make([]string, len(out))
	for i, t := range out {
		names[i] = t.Name
	}
	for i, id := range Idents(names) {
		out[i].Ident = id
	}
	if out == nil {
		out = []Tool{}
	}
	c.tools.Store(&out)
	return out, nil
}

// Call calls the tool named by the server's own name with args (already
// checked), under ctx.
func (s *Server) Call(ctx context.Context, tool string, args map[string]any) (*sdk.CallToolResult, error) {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return nil, fmt.Errorf("MCP server %s is not running", s.cfg.Name)
	}
	if args == nil {
		args = map[string]any{}
	}
	return c.sess.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
}

// headerTransport adds the configured headers to every request.
type headerTransport struct{ h map[string]string }

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.h) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.h {
			r.Header.Set(k, v)
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}
