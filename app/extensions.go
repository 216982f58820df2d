package app

import (
	"fmt"
	"strings"

	"github.com/visdesktop/vis/backend"
)

// Settings' MCP servers, prompt files and skills (issue 19): thin over the
// engine (backend/mcpsettings.go), in the window's current workspace. The
// window edits $VIS_HOME/mcp.json; a session picks a change up at its next
// turn.

// MCPServer is one configured MCP server as Settings shows and saves it.
type MCPServer = backend.MCPServerEntry

// MCPSettings lists the servers.
type MCPSettings = backend.MCPSettingsView

// MCPTestResult is "Test connection"'s verdict and the tools offered.
type MCPTestResult = backend.MCPTestResult

// UserFiles lists the person's prompt files and skills.
type UserFiles = backend.UserFilesView

// MCPServers lists the window's servers and those other files configure.
func (a *App) MCPServers() (MCPSettings, error) {
	ctx, _ := a.base()
	v, err := a.eng.MCPServers(ctx, a.workspace)
	if err != nil {
		return v, fmt.Errorf("MCP servers: %w", err)
	}
	return v, nil
}

// SaveMCPServer adds (oldName "") or replaces a server of the window's file.
func (a *App) SaveMCPServer(oldName string, s MCPServer) (MCPSettings, error) {
	ctx, _ := a.base()
	v, err := a.eng.SaveMCPServer(ctx, strings.TrimSpace(oldName), s, a.workspace)
	if err != nil {
		return v, fmt.Errorf("save MCP server: %w", err)
	}
	return v, nil
}

// RemoveMCPServer deletes a server from the window's file.
func (a *App) RemoveMCPServer(name string) (MCPSettings, error) {
	ctx, _ := a.base()
	v, err := a.eng.RemoveMCPServer(ctx, name, a.workspace)
	if err != nil {
		return v, fmt.Errorf("remove MCP server: %w", err)
	}
	return v, nil
}

// TestMCPServer starts s once and lists its tools (saved or not).
func (a *App) TestMCPServer(s MCPServer) MCPTestResult {
	ctx, _ := a.base()
	return a.eng.TestMCPServer(ctx, s, a.workspace)
}

// UserFiles lists the prompt files and skills of the current workspace.
func (a *App) UserFiles() UserFiles {
	return a.eng.UserFiles(a.workspace)
}
