package app

import (
	"context"
	"testing"

	"github.com/visdesktop/vis/backend"
)

// The fake engine's Settings answers for MCP servers, prompts and skills.

func (f *fakeEngine) MCPServers(_ context.Context, ws string) (backend.MCPSettingsView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listed = append(f.listed, "mcp:"+ws)
	return backend.MCPSettingsView{File: "/h/mcp.json", Servers: []backend.MCPServerEntry{{Name: "a", Command: "srv", Editable: true}}}, f.err
}

func (f *fakeEngine) SaveMCPServer(_ context.Context, old string, s backend.MCPServerEntry, ws string) (backend.MCPSettingsView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listed = append(f.listed, "save:"+old+">"+s.Name+"@"+ws)
	return backend.MCPSettingsView{Servers: []backend.MCPServerEntry{s}}, f.err
}

func (f *fakeEngine) RemoveMCPServer(_ context.Context, name, ws string) (backend.MCPSettingsView, error) {
	return backend.MCPSettingsView{}, f.err
}

func (f *fakeEngine) TestMCPServer(_ context.Context, s backend.MCPServerEntry, ws string) backend.MCPTestResult {
	return backend.MCPTestResult{OK: true, Message: "Connected: 1 tool", Tools: []backend.MCPTool{{Name: "t"}}}
}

func (f *fakeEngine) UserFiles(ws string) backend.UserFilesView {
	return backend.UserFilesView{Prompts: []backend.UserFile{{Name: "/fix", Source: "home"}}}
}

// The bound methods pass the window's workspace and trim the old name.
func TestMCPSettingsBindings(t *testing.T) {
	f := newFakeEngine()
	a := New(f, Options{})
	a.workspace = "/w"
	if v, err := a.MCPServers(); err != nil || len(v.Servers) != 1 {
		t.Fatalf("%+v %v", v, err)
	}
	if v, err := a.SaveMCPServer(" a ", MCPServer{Name: "b", Command: "x"}); err != nil || v.Servers[0].Name != "b" {
		t.Fatalf("%+v %v", v, err)
	}
	if got := f.listed; len(got) != 2 || got[0] != "mcp:/w" || got[1] != "save:a>b@/w" {
		t.Errorf("calls: %q", got)
	}
	if r := a.TestMCPServer(MCPServer{Name: "b"}); !r.OK {
		t.Errorf("%+v", r)
	}
	if u := a.UserFiles(); len(u.Prompts) != 1 {
		t.Errorf("%+v", u)
	}
}
