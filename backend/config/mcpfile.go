package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The window's MCP servers: Settings edits $VIS_HOME/mcp.json (the shape
// other tools use, so a pasted file and the window's edits are one file).
// ReadMCPServers reads it as written (no ${NAME} expanded, disabled
// servers kept); WriteMCPServers replaces its servers and keeps any other
// key the file has. The file is written whole to a temporary file and
// renamed over (0600: headers may carry tokens).

// ReadMCPServers returns the servers of an mcp.json as written; a missing
// file has none.
func ReadMCPServers(path string) (map[string]MCPServer, error) {
	raw, err := readMCPJSON(path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]MCPServer, len(raw))
	for name, v := range raw {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: server %q: %w", path, name, err)
		}
		var s MCPServer
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("%s: server %q: %w", path, name, err)
		}
		out[name] = s
	}
	return out, nil
}

// WriteMCPServers makes servers the mcp.json's servers.
func WriteMCPServers(path string, servers map[string]MCPServer) error {
	doc := map[string]any{}
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read %s: %w", path, err)
	case len(strings.TrimSpace(string(raw))) > 0:
		if err := json.Unmarshal(raw, &doc); err != nil {
			return fmt.Errorf("%s is not JSON (%v): fix or move it, then save again", path, err)
		}
	}
	key := "mcpServers"
	if _, ok := doc["mcp_servers"]; ok {
		if _, both := doc["mcpServers"]; !both {
			key = "mcp_servers"
		}
	}
	if servers == nil {
		servers = map[string]MCPServer{}
	}
	doc[key] = servers
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".mcp-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(out, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ExpandMCP is s with ${NAME} in its env and headers read from getenv, as
// loading a config does; warnings name unset variables.
func ExpandMCP(name string, s MCPServer, getenv func(string) string) (MCPServer, []string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var warnings []string
	expand := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = expandEnv(v, getenv, &warnings, "mcp:"+name)
		}
		return out
	}
	s.Env, s.Headers = expand(s.Env), expand(s.Headers)
	return s, warnings
}
