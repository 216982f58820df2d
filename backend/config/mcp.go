package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// MCP servers. `mcp_servers:` in a config file maps a server's name to
// {command, args, env, cwd} (stdio) or {url, headers} (Streamable HTTP).
// The shape other tools use, `{"mcpServers": {...}}`, is read too: as the
// key `mcpServers` inside a config file, and as $VIS_HOME/mcp.json (and a
// project's .vis/mcp.json) pasted from another tool. In one folder the
// config file's entries win over its mcp.json's; a later file (the
// project's) replaces a server of the same name whole, never field by
// field. A project's servers start programs, so they wait until the folder
// is trusted (trust.go). ${NAME} in env and headers is read from the
// environment when the config loads; header references are kept from the
// model's processes like provider keys.

// MCPServer is one configured MCP server.
type MCPServer struct {
	Command string            `yaml:"command,omitempty" json:"command,omitempty"`
	Args    []string          `yaml:"args,omitempty" json:"args,omitempty"`
	Env     map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
	Cwd     string            `yaml:"cwd,omitempty" json:"cwd,omitempty"`
	URL     string            `yaml:"url,omitempty" json:"url,omitempty"`
	Headers map[string]string `yaml:"headers,omitempty" json:"headers,omitempty"`
	// Type is what other tools write ("stdio", "http", "streamable-http",
	// "sse"); the fields above decide, and "sse" is refused with a warning.
	Type     string `yaml:"type,omitempty" json:"type,omitempty"`
	Disabled bool   `yaml:"disabled,omitempty" json:"disabled,omitempty"`

	// From is the file that configured it (set while loading; whatever a
	// file writes under _from is overwritten).
	From string `yaml:"_from,omitempty" json:"-"`
}

// MCPFile is the mcp.json beside a config file.
func MCPFile(configFile string) string { return filepath.Join(filepath.Dir(configFile), "mcp.json") }

// prepareMCP normalises one config file's map before it is merged: the
// `mcpServers` key becomes `mcp_servers` (entries under mcp_servers win),
// the mcp.json beside a config.yml adds its servers under the file's own
// (read for $VIS_HOME/config.yml and <workspace>/.vis/config.yml), and
// each server records the file that set it (_from).
func prepareMCP(m map[string]any, file string) (map[string]any, error) {
	servers := map[string]any{}
	if filepath.Base(file) == "config.yml" {
		js, err := readMCPJSON(MCPFile(file))
		if err != nil {
			return m, err
		}
		for k, v := range js {
			servers[k] = withFrom(v, MCPFile(file))
		}
	}
	for _, key := range []string{"mcpServers", "mcp_servers"} {
		if sm, ok := m[key].(map[string]any); ok {
			for k, v := range sm {
				servers[k] = withFrom(v, file)
			}
		}
		if m != nil {
			delete(m, key)
		}
	}
	if len(servers) == 0 {
		return m, nil
	}
	if m == nil {
		m = map[string]any{}
	}
	m["mcp_servers"] = servers
	return m, nil
}

// replaceMCP drops from merged the servers m names, so the merge replaces
// them whole instead of field by field.
func replaceMCP(merged, m map[string]any) {
	servers, _ := m["mcp_servers"].(map[string]any)
	old, ok := merged["mcp_servers"].(map[string]any)
	if !ok || len(servers) == 0 {
		return
	}
	kept := map[string]any{}
	for k, v := range old {
		if _, replaced := servers[k]; !replaced {
			kept[k] = v
		}
	}
	merged["mcp_servers"] = kept
}

func withFrom(v any, file string) any {
	if sm, ok := v.(map[string]any); ok {
		sm["_from"] = file
	}
	return v
}

// readMCPJSON reads an mcp.json's servers: the object under mcpServers
// (or mcp_servers); a missing file is none.
func readMCPJSON(path string) (map[string]any, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(raw, &m); err != nil { // JSON is YAML
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	for _, key := range []string{"mcpServers", "mcp_servers"} {
		if sm, ok := m[key].(map[string]any); ok {
			return sm, nil
		}
	}
	if len(m) > 0 {
		return nil, fmt.Errorf("%s: expected {\"mcpServers\": {\"name\": {\"command\": ...}}}", path)
	}
	return nil, nil
}

// finishMCP expands ${NAME} in env and headers, records where each server
// came from, drops disabled ones and returns warnings.
func (c *Config) finishMCP(getenv func(string) string) {
	for name, s := range c.MCPServers {
		if s.Disabled {
			delete(c.MCPServers, name)
			continue
		}
		for k, v := range s.Env {
			s.Env[k] = expandEnv(v, getenv, &c.Warnings, "mcp:"+name)
		}
		for k, v := range s.Headers {
			c.SecretEnv = append(c.SecretEnv, envRefs(v)...)
			s.Headers[k] = expandEnv(v, getenv, &c.Warnings, "mcp:"+name)
		}
		c.MCPServers[name] = s
	}
}

// heldMCP is the held-back entry naming a project's servers.
func heldMCP(m map[string]any) []string {
	sm, ok := m["mcp_servers"].(map[string]any)
	if !ok || len(sm) == 0 {
		delete(m, "mcp_servers")
		return nil
	}
	names := make([]string, 0, len(sm))
	for k := range sm {
		names = append(names, k)
	}
	slices.Sort(names)
	delete(m, "mcp_servers")
	return []string{"mcp_servers.{" + strings.Join(names, ",") + "}"}
}
