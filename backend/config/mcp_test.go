package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// config.yml's mcp_servers, the pasted {"mcpServers": ...} shape in
// $VIS_HOME/mcp.json and inside config.yml, whole replacement by name,
// ${NAME} expansion, disabled entries; a project's servers are held until
// the folder is trusted, then apply (its .vis/mcp.json too).
func TestMCPServers(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, "mcp.json"), `{"mcpServers": {
  "files": {"command": "npx", "args": ["-y", "files-server"], "env": {"TOKEN": "${MCP_TOKEN}"}},
  "shared": {"command": "from-json"},
  "off": {"command": "x", "disabled": true}
}}`)
	write(t, filepath.Join(home, "config.yml"), `mcp_servers:
  shared:
    url: https://mcp.example.com/mcp
    headers: {Authorization: "Bearer ${MCP_HEADER}"}
mcpServers:
  pasted:
    command: pasted-cmd
    cwd: sub
`)
	write(t, filepath.Join(ws, "vis.yml"), "mcp_servers:\n  proj: {command: ./tool, args: [serve]}\n  files: {command: project-files}\n")
	write(t, filepath.Join(ws, ".vis", "mcp.json"), `{"mcpServers": {"local": {"url": "http://localhost:9/mcp"}}}`)
	env := map[string]string{"MCP_TOKEN": "tok", "MCP_HEADER": "hdr"}
	getenv := func(k string) string { return env[k] }

	c, err := Load(home, ws, getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]MCPServer{
		"files":  {Command: "npx", Args: []string{"-y", "files-server"}, Env: map[string]string{"TOKEN": "tok"}, From: filepath.Join(home, "mcp.json")},
		"shared": {URL: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer hdr"}, From: filepath.Join(home, "config.yml")},
		"pasted": {Command: "pasted-cmd", Cwd: "sub", From: filepath.Join(home, "config.yml")},
	}
	if diff := cmp.Diff(want, c.MCPServers); diff != "" {
		t.Errorf("untrusted project: servers (-want +got):\n%s", diff)
	}
	if !slices.Equal(c.ProjectHeld, []string{"mcp_servers.{files,proj}", "mcp_servers.{local}"}) {
		t.Errorf("held = %q", c.ProjectHeld)
	}
	if w := strings.Join(c.Warnings, "\n"); !strings.Contains(w, "mcp_servers.{files,proj}") || !strings.Contains(w, "trust") {
		t.Errorf("warnings = %q", c.Warnings)
	}
	if !slices.Contains(c.SecretEnv, "MCP_HEADER") || slices.Contains(c.SecretEnv, "MCP_TOKEN") {
		t.Errorf("SecretEnv = %q: header references are hidden from the model's processes, a server's own env is not", c.SecretEnv)
	}

	c, err = LoadTrusting(home, ws, getenv, true)
	if err != nil {
		t.Fatal(err)
	}
	want["files"] = MCPServer{Command: "project-files", From: filepath.Join(ws, "vis.yml")} // replaced whole
	want["proj"] = MCPServer{Command: "./tool", Args: []string{"serve"}, From: filepath.Join(ws, "vis.yml")}
	want["local"] = MCPServer{URL: "http://localhost:9/mcp", From: filepath.Join(ws, ".vis", "mcp.json")}
	if diff := cmp.Diff(want, c.MCPServers); diff != "" {
		t.Errorf("trusted project: servers (-want +got):\n%s", diff)
	}
	if len(c.ProjectHeld) != 0 {
		t.Errorf("trusted: held %q", c.ProjectHeld)
	}

	write(t, filepath.Join(home, "mcp.json"), `{"servers": {}}`)
	if _, err := Load(home, ws, getenv); err == nil || !strings.Contains(err.Error(), "mcpServers") {
		t.Errorf("a malformed mcp.json: err = %v, want one naming the expected shape", err)
	}
}
