package backend

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/mcp"
	"github.com/visdesktop/vis/backend/skills"
	"github.com/visdesktop/vis/backend/userprompts"
)

// The window's Settings for issue 19: the MCP servers (the window edits
// $VIS_HOME/mcp.json; servers other files configure are listed read-only
// with their file), "Test connection" (the server started once, its tools
// listed, then stopped), and the person's prompt files and skills
// (read-only, with their folder). Saving takes effect at each session's
// next turn, whose plan re-reads the configuration.

// MCPServerEntry is one configured server as Settings shows it.
type MCPServerEntry struct {
	Name    string            `json:"name"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Disabled servers are kept in the file and not started.
	Disabled bool `json:"disabled,omitempty"`
	// From is the file that configures it; Editable: it is the window's
	// file ($VIS_HOME/mcp.json). Elsewhere the values of env and headers
	// are not shown (they may hold secrets), only their names.
	From     string `json:"from"`
	Editable bool   `json:"editable"`
	// Shadowed: a config file's server of the same name is used instead.
	Shadowed bool `json:"shadowed,omitempty"`
}

// MCPSettingsView lists the servers a turn in a workspace would get.
type MCPSettingsView struct {
	File    string           `json:"file"` // the window's mcp.json
	Servers []MCPServerEntry `json:"servers"`
	// Error: the configuration does not load (the servers of the window's
	// file are still listed).
	Error string `json:"error,omitempty"`
}

// ErrMCPInput marks a server the window cannot save (a bad name, neither
// or both of command and url).
var ErrMCPInput = errors.New("MCP server")

func (e *Engine) mcpFile() string { return config.MCPFile(config.Files(e.home, "")[0]) }

// MCPServers lists the servers of the window's file and those other files
// configure for workspace ("" = the home's only).
func (e *Engine) MCPServers(ctx context.Context, workspace string) (MCPSettingsView, error) {
	v := MCPSettingsView{File: e.mcpFile(), Servers: []MCPServerEntry{}}
	own, err := config.ReadMCPServers(v.File)
	if err != nil {
		return v, err
	}
	ws := canonical(workspace)
	cfg, cerr := config.LoadTrusting(e.home, ws, e.getenv, e.trustProject)
	if cerr != nil {
		v.Error = cerr.Error()
	}
	for name, s := range own {
		en := entryOf(name, s, v.File, true)
		if cerr == nil {
			if l, ok := cfg.MCPServers[name]; ok && l.From != v.File {
				en.Shadowed = true
			}
		}
		v.Servers = append(v.Servers, en)
	}
	if cerr == nil {
		for name, s := range cfg.MCPServers {
			if s.From == v.File {
				continue
			}
			en := entryOf(name, s, s.From, false)
			en.Env, en.Headers = namesOnly(s.Env), namesOnly(s.Headers)
			v.Servers = append(v.Servers, en)
		}
	}
	sort.SliceStable(v.Servers, func(i, j int) bool {
		a, b := v.Servers[i], v.Servers[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Editable && !b.Editable
	})
	return v, nil
}

func entryOf(name string, s config.MCPServer, from string, editable bool) MCPServerEntry {
	return MCPServerEntry{Name: name, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers,
		Disabled: s.Disabled, From: from, Editable: editable}
}

func namesOnly(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = ""
	}
	return out
}

func (s MCPServerEntry) config() config.MCPServer {
	return config.MCPServer{Command: strings.TrimSpace(s.Command), Args: s.Args, Env: s.Env, Cwd: strings.TrimSpace(s.Cwd),
		URL: strings.TrimSpace(s.URL), Headers: s.Headers, Disabled: s.Disabled}
}

func (s MCPServerEntry) check() error {
	name := strings.TrimSpace(s.Name)
	switch {
	case name == "":
		return fmt.Errorf("%w: the name is empty", ErrMCPInput)
	case strings.ContainsAny(name, " \t\n./\\"):
		return fmt.Errorf("%w %q: a name has no spaces, dots or slashes", ErrMCPInput, name)
	case strings.TrimSpace(s.Command) == "" && strings.TrimSpace(s.URL) == "":
		return fmt.Errorf("%w %q: set a command (stdio) or a URL (Streamable HTTP)", ErrMCPInput, name)
	case strings.TrimSpace(s.Command) != "" && strings.TrimSpace(s.URL) != "":
		return fmt.Errorf("%w %q: set either a command or a URL, not both", ErrMCPInput, name)
	}
	return nil
}

// SaveMCPServer writes s into the window's mcp.json, replacing the server
// named oldName ("" = a new one; a name taken by another server is
// refused). Sessions pick it up at their next turn.
func (e *Engine) SaveMCPServer(ctx context.Context, oldName string, s MCPServerEntry, workspace string) (MCPSettingsView, error) {
	if err := s.check(); err != nil {
		return MCPSettingsView{}, err
	}
	file := e.mcpFile()
	own, err := config.ReadMCPServers(file)
	if err != nil {
		return MCPSettingsView{}, err
	}
	name := strings.TrimSpace(s.Name)
	if _, taken := own[name]; taken && name != oldName {
		return MCPSettingsView{}, fmt.Errorf("%w %q: a server of that name exists; choose another name", ErrMCPInput, name)
	}
	if oldName != "" {
		delete(own, oldName)
	}
	own[name] = s.config()
	if err := config.WriteMCPServers(file, own); err != nil {
		return MCPSettingsView{}, err
	}
	return e.MCPServers(ctx, workspace)
}

// RemoveMCPServer deletes a server from the window's mcp.json.
func (e *Engine) RemoveMCPServer(ctx context.Context, name, workspace string) (MCPSettingsView, error) {
	file := e.mcpFile()
	own, err := config.ReadMCPServers(file)
	if err != nil {
		return MCPSettingsView{}, err
	}
	if _, ok := own[name]; !ok {
		return MCPSettingsView{}, fmt.Errorf("%w %q: not in %s", ErrMCPInput, name, file)
	}
	delete(own, name)
	if err := config.WriteMCPServers(file, own); err != nil {
		return MCPSettingsView{}, err
	}
	return e.MCPServers(ctx, workspace)
}

// MCPTestTimeout bounds "Test connection": start, handshake, tool list.
const MCPTestTimeout = 30 * time.Second

// MCPTool is one tool a server offers.
type MCPTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// MCPTestResult is "Test connection"'s verdict.
type MCPTestResult struct {
	OK      bool      `json:"ok"`
	Message string    `json:"message"`
	Tools   []MCPTool `json:"tools"`
	// Log is the end of the server's stderr (a stdio server's complaint).
	Log string `json:"log,omitempty"`
}

// TestMCPServer starts s once (${NAME} read from the environment as a turn
// would), lists its tools and stops it. It starts as a turn in workspace
// would start it: under the workspace's permission mode, the provider keys
// hidden from it, in its own process group, in workspace (or s.Cwd); with
// no workspace (or a config that does not load) it starts unconfined.
func (e *Engine) TestMCPServer(ctx context.Context, s MCPServerEntry, workspace string) MCPTestResult {
	if err := s.check(); err != nil {
		return MCPTestResult{Message: err.Error(), Tools: []MCPTool{}}
	}
	name := strings.TrimSpace(s.Name)
	cs, warnings := config.ExpandMCP(name, s.config(), e.getenv)
	srv := mcp.NewServer(mcp.Config{Name: name, Command: cs.Command, Args: cs.Args, Env: cs.Env, Dir: cs.Cwd, URL: cs.URL, Headers: cs.Headers}, canonical(workspace))
	if ws := canonical(workspace); ws != "" {
		if cfg, err := config.LoadTrusting(e.home, ws, e.getenv, e.trustProject); err == nil {
			p, _ := e.policyFor("mcp-test", ws, "", cfg)
			ctx = confine.With(ctx, p)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, MCPTestTimeout)
	defer cancel()
	defer func() { _ = srv.Stop(context.WithoutCancel(ctx)) }()
	tools, err := srv.Tools(ctx)
	res := MCPTestResult{Tools: []MCPTool{}}
	if err != nil {
		res.Message = err.Error()
		if ctx.Err() != nil {
			res.Message = fmt.Sprintf("no answer within %s: %v", MCPTestTimeout, err)
		}
		res.Log = srv.Logs(20)
		if len(warnings) > 0 {
			res.Message += " (" + strings.Join(warnings, "; ") + ")"
		}
		return res
	}
	for _, t := range tools {
		res.Tools = append(res.Tools, MCPTool{Name: t.Name, Description: firstLineOf(t.Description)})
	}
	res.OK = true
	res.Message = fmt.Sprintf("Connected: %d tools", len(tools))
	if len(tools) == 1 {
		res.Message = "Connected: 1 tool"
	}
	return res
}

func firstLineOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// UserFile is one prompt file or skill as Settings lists it.
type UserFile struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Usage       string `json:"usage,omitempty"` // a prompt's "/name <hint>"
	Source      string `json:"source"`          // home or project
	Path        string `json:"path"`            // the file (a prompt) or folder (a skill)
	// Shadowed: a built-in command of the same name wins (a prompt).
	Shadowed bool `json:"shadowed,omitempty"`
}

// UserFilesView is the person's prompt files and skills for a workspace.
type UserFilesView struct {
	Prompts    []UserFile `json:"prompts"`
	Skills     []UserFile `json:"skills"`
	PromptDirs []string   `json:"prompt_dirs"` // the folders read, home first
	SkillDirs  []string   `json:"skill_dirs"`
	// ProjectHeld: the workspace's .vis/prompts and .vis/skills are not
	// read until the folder is trusted.
	ProjectHeld bool     `json:"project_held,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
}

// UserFiles lists the prompt files and skills a turn in workspace gets.
func (e *Engine) UserFiles(workspace string) UserFilesView {
	ws := canonical(workspace)
	trusted := e.trusted(ws)
	v := UserFilesView{Prompts: []UserFile{}, Skills: []UserFile{},
		PromptDirs: userprompts.Dirs(e.home, ws, true), SkillDirs: skills.Dirs(e.home, ws, true), ProjectHeld: ws != "" && !trusted}
	if ws == "" {
		v.PromptDirs, v.SkillDirs = v.PromptDirs[:1], v.SkillDirs[:1]
	}
	ps, pw := userprompts.Load(e.home, ws, trusted)
	for _, p := range ps {
		v.Prompts = append(v.Prompts, UserFile{Name: "/" + p.Name, Description: p.Description, Usage: p.Usage(), Source: p.Source, Path: p.Path,
			Shadowed: isBuiltinCommand("/" + p.Name)})
	}
	ss, sw := skills.Load(e.home, ws, trusted)
	for _, s := range ss {
		v.Skills = append(v.Skills, UserFile{Name: s.Name, Description: s.Description, Source: s.Source, Path: s.Dir})
	}
	v.Warnings = append(pw, sw...)
	return v
}
