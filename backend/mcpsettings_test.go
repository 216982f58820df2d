package backend

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// Settings' MCP servers: the window's mcp.json is written (other keys
// kept), a server another file configures is listed read-only without its
// env values, "Test connection" starts the real test server and lists its
// tools (a command that is no server says why), rename and remove; a
// session's next turn uses what was saved.
func TestMCPSettings(t *testing.T) {
	t.Parallel()
	bin := buildMCPServer(t)
	llm := providertest.New(providertest.Reply{Code: "print(mcp.mine.add(a=4, b=5))"}, providertest.Reply{Content: []string{"done"}})
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "config.yml"), "mcp_servers:\n  fromyml:\n    command: /bin/true\n    env: {SECRET_TOKEN: s3cret}\n")
	writeFile(t, filepath.Join(home, "mcp.json"), `{"other": 1, "mcpServers": {"old": {"url": "http://127.0.0.1:1/mcp"}}}`)
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()

	v, err := e.SaveMCPServer(ctx, "", MCPServerEntry{Name: "mine", Command: bin, Env: map[string]string{"MCPTEST_TOKEN": "t"}}, ws)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name, From string
		Editable   bool
		Env        map[string]string
	}
	var rows []row
	for _, s := range v.Servers {
		rows = append(rows, row{s.Name, filepath.Base(s.From), s.Editable, s.Env})
	}
	want := []row{{"fromyml", "config.yml", false, map[string]string{"SECRET_TOKEN": ""}}, {"mine", "mcp.json", true, map[string]string{"MCPTEST_TOKEN": "t"}}, {"old", "mcp.json", true, nil}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	raw, _ := os.ReadFile(filepath.Join(home, "mcp.json"))
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil || doc["other"] != float64(1) {
		t.Errorf("mcp.json lost its other key or is not JSON: %s (%v)", raw, err)
	}
	if strings.Contains(string(raw), "_from") {
		t.Errorf("mcp.json carries the loader's _from: %s", raw)
	}

	// a name taken, neither command nor url
	if _, err := e.SaveMCPServer(ctx, "", MCPServerEntry{Name: "old", URL: "http://x"}, ws); !errors.Is(err, ErrMCPInput) {
		t.Errorf("a taken name: %v", err)
	}
	if _, err := e.SaveMCPServer(ctx, "", MCPServerEntry{Name: "x"}, ws); !errors.Is(err, ErrMCPInput) {
		t.Errorf("no command or url: %v", err)
	}

	res := e.TestMCPServer(ctx, MCPServerEntry{Name: "mine", Command: bin}, ws)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if !res.OK || strings.Join(names, ",") != "add,describe,fail,hang,image" || res.Message != "Connected: 5 tools" {
		t.Errorf("test connection = %+v", res)
	}
	bad := e.TestMCPServer(ctx, MCPServerEntry{Name: "bad", Command: "/bin/echo", Args: []string{"not a server"}}, ws)
	if bad.OK || bad.Message == "" {
		t.Errorf("a command that is no MCP server: %+v", bad)
	}

	// the next turn uses the saved server
	r, err := e.Run(ctx, "", Input{Workspace: ws, Text: "add"})
	if err != nil || r.Answer != "done" {
		t.Fatalf("%+v %v", r, err)
	}
	if out := userMessage(llm.Requests()[1]); !strings.Contains(out, "\n9\n") {
		t.Errorf("the saved server's result:\n%s", out)
	}

	v, err = e.SaveMCPServer(ctx, "old", MCPServerEntry{Name: "renamed", URL: "http://127.0.0.1:2/mcp", Disabled: true}, ws)
	if err != nil {
		t.Fatal(err)
	}
	v, err = e.RemoveMCPServer(ctx, "mine", ws)
	if err != nil {
		t.Fatal(err)
	}
	names = nil
	for _, s := range v.Servers {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "fromyml,renamed" {
		t.Errorf("after rename and remove: %q", names)
	}
	if _, err := e.RemoveMCPServer(ctx, "fromyml", ws); !errors.Is(err, ErrMCPInput) {
		t.Errorf("removing a config.yml server: %v", err)
	}
}

// Settings' prompt files and skills: the home's always, the project's only
// once trusted (ProjectHeld says so), a prompt a built-in shadows marked.
func TestUserFilesView(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "prompts", "help.md"), "shadowed")
	writeFile(t, filepath.Join(home, "prompts", "fix.md"), "---\ndescription: Fix it\n---\nFix $1")
	writeFile(t, filepath.Join(ws, ".vis", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Deploy the app\n---\nsteps")
	llm := providertest.New()
	defer llm.Close()
	e := openEngine(t, llm, home)
	defer e.Close()
	v := e.UserFiles(ws)
	if len(v.Prompts) != 2 || v.Prompts[0].Name != "/fix" || v.Prompts[0].Usage != "/fix" || v.Prompts[1].Name != "/help" || !v.Prompts[1].Shadowed || len(v.Skills) != 0 || !v.ProjectHeld {
		t.Errorf("untrusted: %+v", v)
	}
	if err := e.TrustWorkspace(context.Background(), ws); err != nil {
		t.Fatal(err)
	}
	v = e.UserFiles(ws)
	if len(v.Skills) != 1 || v.Skills[0].Name != "deploy" || v.Skills[0].Source != "project" || v.ProjectHeld || len(v.SkillDirs) != 2 {
		t.Errorf("trusted: %+v", v)
	}
}
