package backend

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/visdesktop/vis/backend/mcp/mcptest"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// MCP servers through the real engine and the scripted model: a stdio
// server (the test suite's, built here and started confined on first use)
// from config.yml and an HTTP one pasted as {"mcpServers": ...} into
// $VIS_HOME/mcp.json. Programs get the tools' values; a schema violation
// is refused before the call (the server's call log shows none); a hanging
// tool ends at the configured wall limit and the same server answers the
// next block; the request keeps its one tool and carries the server names
// but no schema text; the server is a session resource, with its stderr as
// its log; after Close its process is gone.
func TestMCPServersInPrograms(t *testing.T) {
	t.Parallel()
	bin := buildMCPServer(t)
	httpLog := &mcptest.CallLog{}
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.New(httpLog) }, nil))
	defer hs.Close()

	llm := providertest.New(
		providertest.Reply{Code: "print(mcp.test_srv.add(a=2, b=3))\nd = mcp.test_srv.describe(name='abc')\nprint(d['length'], d['tags'], d['nested'])\nprint(mcp.web.add(1, 2))"},
		providertest.Reply{Content: []string{"one"}},
		providertest.Reply{Code: "print(mcp.test_srv.add(a='x', b=1))"},
		providertest.Reply{Code: "mcp.test_srv.fail()"},
		providertest.Reply{Content: []string{"two"}},
		providertest.Reply{Code: "print('before')\nmcp.test_srv.hang()\nprint('after')"},
		providertest.Reply{Code: "print(mcp.test_srv.add(a=20, b=22))\nprint(doc('mcp.test_srv'))"},
		providertest.Reply{Content: []string{"three"}},
	)
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	callLog := filepath.Join(ws, "calls.log")
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, "config.yml"), fmt.Sprintf("sandbox:\n  wall_limit_seconds: 3\nmcp_servers:\n  test-srv:\n    command: %s\n    env: {MCPTEST_CALLLOG: %s, MCPTEST_TOKEN: tok1}\n", bin, callLog))
	write(filepath.Join(home, "mcp.json"), fmt.Sprintf(`{"mcpServers": {"web": {"url": %q, "headers": {"X-Test": "1"}}}}`, hs.URL))
	e := openEngine(t, llm, home)
	closed := false
	defer func() {
		if !closed {
			e.Close()
		}
	}()
	ctx := context.Background()

	first, err := e.Run(ctx, "", Input{Workspace: ws, Text: "use the servers"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := llm.Requests()
	if out := userMessage(reqs[1]); !strings.Contains(out, "5\n3 [\"a\", \"b\"] {\"ok\": True}\n3\n") && !strings.Contains(out, "5\n3 ['a', 'b'] {'ok': True}\n3\n") {
		t.Errorf("the first block's output:\n%s", out)
	}
	// the request: one tool, the servers named, no schema text
	for i, r := range reqs[:2] {
		tools, _ := r.Body["tools"].([]any)
		if len(tools) != 1 || !strings.Contains(string(mustJSON(t, tools[0])), `"python_execution"`) {
			t.Errorf("request %d has tools %s, want python_execution alone", i, mustJSON(t, r.Body["tools"]))
		}
		raw := string(r.Raw)
		for _, banned := range []string{"the first addend", "Add two integers", "inputSchema", "Describe a thing"} {
			if strings.Contains(raw, banned) {
				t.Errorf("request %d carries MCP schema text %q", i, banned)
			}
		}
		for _, want := range []string{"mcp.test_srv", "mcp.web", "MCP servers"} {
			if !strings.Contains(raw, want) {
				t.Errorf("request %d does not name %q", i, want)
			}
		}
	}
	// a session resource, with the server's stderr as its log
	res := e.Resources(ctx, first.SessionID)
	var pid int
	ids := []string{}
	for _, r := range res {
		ids = append(ids, r.ID+"/"+r.Kind+"/"+r.Status)
		if r.ID == "mcp:test_srv" {
			pid = r.PID
		}
	}
	if !strings.Contains(strings.Join(ids, " "), "mcp:test_srv/mcp/up") || !strings.Contains(strings.Join(ids, " "), "mcp:web/mcp/up") || pid == 0 {
		t.Fatalf("resources: %q (pid %d)", ids, pid)
	}
	// started through the confinement helper: its environment carries the
	// reaping ledger's token, which only the helper sets
	if env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ"); err != nil || !strings.Contains(string(env), "VIS_REAP=") {
		t.Errorf("the stdio server did not start through confine.CommandCtx (environ has no VIS_REAP, err %v)", err)
	}
	// a variable the server's own config gives it reaches it, though the
	// model's processes never see *_TOKEN variables
	if l, err := e.ResourceLogs(first.SessionID, "mcp:test_srv", 20); err != nil || !strings.Contains(l, "mcptest ready") || !strings.Contains(l, "MCPTEST_TOKEN=tok1") {
		t.Errorf("logs = %q, %v", l, err)
	}

	// refused before the call; isError is a ToolError with the server's message
	if _, err := e.Run(ctx, first.SessionID, Input{Text: "bad args"}); err != nil {
		t.Fatal(err)
	}
	reqs = llm.Requests()
	if out := userMessage(reqs[3]); !strings.Contains(out, `mcp.test_srv.add: a must be integer, got a string`) {
		t.Errorf("the refused call's result:\n%s", out)
	}
	if out := userMessage(reqs[4]); !strings.Contains(out, "mcp.test_srv.fail: the widget is broken") {
		t.Errorf("the failing tool's result:\n%s", out)
	}
	raw, _ := os.ReadFile(callLog)
	if got := strings.TrimSpace(string(raw)); got != "add {\"a\":2,\"b\":3}\ndescribe {\"name\":\"abc\"}\nfail {}" {
		t.Errorf("the server's call log:\n%s\nwant the first turn's two calls and fail, no add with a='x'", got)
	}
	if got := httpLog.Lines(); len(got) != 1 || got[0] != `add {"a":1,"b":2}` {
		t.Errorf("the HTTP server's calls: %q", got)
	}

	// a hanging tool ends at the 3 s wall limit; the same process answers next
	if _, err := e.Run(ctx, first.SessionID, Input{Text: "hang"}); err != nil {
		t.Fatal(err)
	}
	reqs = llm.Requests()
	if out := userMessage(reqs[6]); !strings.Contains(out, "before\n") || !strings.Contains(out, "timeout error") || strings.Contains(out, "after") {
		t.Errorf("the hanging block's result:\n%s", out)
	}
	out := userMessage(reqs[7])
	if os.Getenv("MCP_DEBUG") != "" {
		t.Logf("req1:\n%s\nreq3:\n%s\nreq6:\n%s\nreq7:\n%s", userMessage(reqs[1]), userMessage(reqs[3]), userMessage(reqs[6]), out)
		for _, m := range reqs[0].Messages {
			if s := fmt.Sprint(m["content"]); strings.Contains(s, "mcp.") {
				t.Logf("system message with mcp:\n%s", s)
			}
		}
	}
	if !strings.Contains(out, "42\n") || !strings.Contains(out, "mcp.test_srv.add(a, b) — Add two integers.") {
		t.Errorf("after the hang:\n%s", out)
	}
	for _, r := range e.Resources(ctx, first.SessionID) {
		if r.ID == "mcp:test_srv" && r.PID != pid {
			t.Errorf("the server was restarted (pid %d, was %d): want the same process", r.PID, pid)
		}
	}

	// the window's Restart: a new process, shown as the same resource; the
	// old one is gone
	if err := e.RestartResource(ctx, first.SessionID, "mcp:test_srv"); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("pid %d outlived Restart", pid)
	}
	pid = 0
	for _, r := range e.Resources(ctx, first.SessionID) {
		if r.ID == "mcp:test_srv" && r.Status == "up" {
			pid = r.PID
		}
	}
	if pid == 0 || !running(pid) {
		t.Fatalf("after Restart: resources %+v", e.Resources(ctx, first.SessionID))
	}

	// the app closes: the server's process is gone
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true
	if alive(pid) {
		t.Errorf("MCP server pid %d outlived the engine", pid)
	}
}

// buildMCPServer builds the test suite's stdio MCP server into a temp dir.
func buildMCPServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcptest-server")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/visdesktop/vis/backend/mcp/mcptest/server").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	return bin
}

// Deleting a session stops its MCP servers; the resource is gone.
func TestMCPServerStopsWithItsSession(t *testing.T) {
	t.Parallel()
	bin := buildMCPServer(t)
	llm := providertest.New(
		providertest.Reply{Code: "print(mcp.s.add(a=1, b=2))"},
		providertest.Reply{Content: []string{"done"}},
	)
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yml"), []byte("mcpServers:\n  s: {command: "+bin+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()
	res, err := e.Run(ctx, "", Input{Workspace: ws, Text: "add"})
	if err != nil {
		t.Fatal(err)
	}
	if out := userMessage(llm.Requests()[1]); !strings.Contains(out, "\n3\n") {
		t.Fatalf("output:\n%s", out)
	}
	var pid int
	for _, r := range e.Resources(ctx, res.SessionID) {
		if r.ID == "mcp:s" {
			pid = r.PID
		}
	}
	if pid == 0 {
		t.Fatalf("no mcp:s resource: %+v", e.Resources(ctx, res.SessionID))
	}
	if err := e.DeleteSession(ctx, res.SessionID); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("pid %d outlived its session", pid)
	}
	if rs := e.Resources(ctx, res.SessionID); len(rs) != 0 {
		t.Errorf("resources after delete: %+v", rs)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// running reports whether pid is a running (not zombie) process now.
func running(pid int) bool {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(raw))
	return len(f) > 2 && f[2] != "Z"
}

// alive reports whether pid is a running (not zombie) process, waiting a
// while for one that is being killed.
func alive(pid int) bool {
	deadline := time.Now().Add(30 * time.Second)
	for {
		raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if errors.Is(err, os.ErrNotExist) {
			return false
		}
		if f := strings.Fields(string(raw)); err == nil && len(f) > 2 && f[2] == "Z" {
			return false
		}
		if time.Now().After(deadline) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An image an MCP tool returns is attached like a dropped one: for a
// vision model it follows the program's result as an image block with the
// ATTACHED-IMAGES manifest, and the program's note says so; for a model
// without vision the note and the manifest say it is not attached and no
// image data is sent. Either way the person sees it: the transcript lists
// it with the iteration and its bytes are the tool's.
func TestMCPImagesAttached(t *testing.T) {
	bin := buildMCPServer(t)
	for _, vision := range []bool{true, false} {
		t.Run(fmt.Sprintf("vision=%v", vision), func(t *testing.T) {
			llm := providertest.New(
				providertest.Reply{Code: "r = mcp.s.image()\nprint(r[1])"},
				providertest.Reply{Content: []string{"seen"}},
			)
			defer llm.Close()
			home, ws := t.TempDir(), t.TempDir()
			cfg := fmt.Sprintf("providers:\n  - id: local\n    base_url: %s\n    models: [{name: v, vision: %v}]\nmcp_servers:\n  s:\n    command: %s\n", llm.URL, vision, bin)
			if err := os.WriteFile(filepath.Join(home, "config.yml"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := Open(context.Background(), Options{Home: home, Getenv: func(string) string { return "" }, Secrets: secrets.NewWith(filepath.Join(home, "s.json"), nil)})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			res, err := e.Run(context.Background(), "", Input{Workspace: ws, Text: "look at the picture"})
			if err != nil || res.Answer != "seen" {
				t.Fatalf("%+v %v", res, err)
			}
			second := llm.Requests()[1]
			raw := string(second.Raw)
			last := second.Messages[len(second.Messages)-1]
			tool := second.Messages[len(second.Messages)-2]
			if vision {
				if !strings.Contains(fmt.Sprint(tool["content"]), `attached to the conversation after this program's result as "image 1 of this turn, from mcp.s.image"`) {
					t.Errorf("the program's note:\n%v", tool["content"])
				}
				if last["role"] != "user" || !strings.Contains(raw, `"url":"data:image/png;base64,`) || !strings.Contains(raw, "image 1 of this turn, from mcp.s.image (image/png") {
					t.Errorf("the image does not follow the result as an image block with its manifest:\n%s", raw)
				}
			} else {
				if !strings.Contains(fmt.Sprint(tool["content"]), "not attached: the active model has no vision") {
					t.Errorf("the program's note:\n%v", tool["content"])
				}
				if strings.Contains(raw, "data:image/png") || !strings.Contains(fmt.Sprint(last["content"]), "NOT attached") {
					t.Errorf("a model without vision got image data or no manifest:\n%s", raw)
				}
			}
			if n := strings.Count(string(llm.Requests()[0].Raw), "data:image"); n != 0 {
				t.Errorf("the first request carries %d images", n)
			}
			tr, err := e.Transcript(context.Background(), res.SessionID)
			if err != nil || len(tr.Turns) != 1 || len(tr.Turns[0].Iterations) < 1 {
				t.Fatalf("transcript: %+v %v", tr, err)
			}
			imgs := tr.Turns[0].Iterations[0].Images
			if len(imgs) != 1 || imgs[0].Name != "image 1 of this turn, from mcp.s.image" || imgs[0].MediaType != "image/png" || len(tr.Turns[0].Images) != 0 {
				t.Fatalf("the iteration's images = %+v (the turn's %+v)", imgs, tr.Turns[0].Images)
			}
			b, mt, err := e.Image(context.Background(), res.SessionID, imgs[0].ID)
			if err != nil || mt != "image/png" || !bytes.HasPrefix(b, []byte("\x89PNG")) {
				t.Errorf("the image's bytes: %d bytes %q %v", len(b), mt, err)
			}
		})
	}
}
