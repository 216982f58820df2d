package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/visdesktop/vis/backend/mcp"
	"github.com/visdesktop/vis/backend/mcp/mcptest"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

var (
	buildOnce sync.Once
	serverBin string
	buildErr  error
)

// testServer builds mcptest/server once per test binary.
func testServer(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcptest-bin")
		if err != nil {
			buildErr = err
			return
		}
		serverBin = filepath.Join(dir, "mcptest-server")
		out, err := exec.Command("go", "build", "-o", serverBin, "github.com/visdesktop/vis/backend/mcp/mcptest/server").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("build the test MCP server: %v", buildErr)
	}
	return serverBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if serverBin != "" {
		os.RemoveAll(filepath.Dir(serverBin))
	}
	os.Exit(code)
}

type fixture struct {
	set     *mcp.Set
	interp  *sandbox.Interp
	calls   func() []string
	started []*mcp.Server
	mu      sync.Mutex
}

func (f *fixture) run(t testing.TB, code string, wall time.Duration) sandbox.Result {
	t.Helper()
	return f.interp.ExecWith(context.Background(), code, nil, sandbox.Limits{Wall: wall})
}

// newFixture starts nothing: a set with the stdio server "test-srv" and
// the same tools over Streamable HTTP as "web".
func newFixture(t testing.TB) *fixture {
	bin := testServer(t)
	logPath := filepath.Join(t.TempDir(), "calls.log")
	httpLog := &mcptest.CallLog{}
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.New(httpLog) }, nil))
	t.Cleanup(hs.Close)
	f := &fixture{}
	f.set = mcp.NewSet(mcp.SetOptions{Workspace: t.TempDir(), OnStart: func(_ string, s *mcp.Server) {
		f.mu.Lock()
		f.started = append(f.started, s)
		f.mu.Unlock()
	}})
	t.Cleanup(func() { f.set.Close(context.Background()) })
	warn := f.set.Update(context.Background(), []mcp.Config{
		{Name: "test-srv", Command: bin, Env: map[string]string{"MCPTEST_CALLLOG": logPath, "MCPTEST_MARK": "x1"}},
		{Name: "web", URL: hs.URL, Headers: map[string]string{"X-Test": "1"}},
		{Name: "broken"},
	})
	if len(warn) != 1 || !strings.Contains(warn[0], "broken") {
		t.Fatalf("warnings = %q, want one about broken", warn)
	}
	f.calls = func() []string {
		raw, _ := os.ReadFile(logPath)
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			if l != "" {
				out = append(out, l)
			}
		}
		return append(out, prefixed("web:", httpLog.Lines())...)
	}
	in, err := sandbox.New(sandbox.Options{Namespaces: []hostfn.Namespace{f.set.Namespace()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.interp = in
	return f
}

func prefixed(p string, ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = p + l
	}
	return out
}

func ok(t *testing.T, r sandbox.Result) string {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("block failed: %s: %s (hint %s)\noutput: %s", r.Err.Phase, r.Err.Message, r.Err.Hint, r.Output)
	}
	return r.Output
}

func TestCallsThroughSandbox(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	out := ok(t, f.run(t, `
print(mcp.test_srv.add(a=2, b=3))
print(mcp.test_srv.add(40, 2))
d = mcp.test_srv.describe(name="abc", color="red")
print(d["length"], d["tags"], d["ratio"], d["nested"]["ok"], d["color"], type(d["length"]))
print(mcp.test_srv.image())
print(mcp.web.add(a=1, b=1))
print(mcp.web.describe(name="zz")["length"])
`, time.Minute))
	want := fmt.Sprintf("5\n42\n3 ['a', 'b'] 0.5 True red <class 'int'>\n['one', '[image image/png, %d bytes, from mcp.test_srv.image: not shown (images are not attached here)]', 'two']\n2\n2\n", len(mcptest.PNG))
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{
		`add {"a":2,"b":3}`, `add {"a":40,"b":2}`, `describe {"color":"red","name":"abc"}`, `image {}`,
		`web:add {"a":1,"b":1}`, `web:describe {"name":"zz"}`,
	}, f.calls()); diff != "" {
		t.Errorf("call log (-want +got):\n%s", diff)
	}
	// the stdio server's stderr is its log; its env came through
	srv := f.set.Servers()["test_srv"]
	if l := srv.Logs(10); !strings.Contains(l, "mcptest ready") || !strings.Contains(l, "MCPTEST_MARK=x1") {
		t.Errorf("logs = %q", l)
	}
	if len(f.started) != 2 {
		t.Errorf("OnStart called %d times, want 2 (once per server)", len(f.started))
	}
}

func TestSchemaViolationsRefusedBeforeTheCall(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct{ code, want string }{
		{`mcp.test_srv.add(a=1)`, `missing required argument "b"`},
		{`mcp.test_srv.add(a="1", b=2)`, `a must be integer, got a string`},
		{`mcp.test_srv.add(a=1, b=2, c=3)`, `unknown argument "c" (known: a, b)`},
		{`mcp.test_srv.add(1, 2, 3)`, `at most 2 positional arguments`},
		{`mcp.test_srv.describe(name="x", color="blue")`, `color must be one of "red", "green", got "blue"`},
		{`mcp.test_srv.nope()`, `has no tool "nope" (its tools: add, describe, fail, hang, image)`},
		{`mcp.web.add(a=1.5, b=2)`, `a must be integer, got a float`},
	} {
		r := f.run(t, tc.code, time.Minute)
		if r.Err == nil || r.Err.Phase != "tool" || !strings.Contains(r.Err.Message, tc.want) {
			t.Errorf("%s: err = %+v, want a tool error containing %q", tc.code, r.Err, tc.want)
		}
	}
	if c := f.calls(); len(c) != 0 {
		t.Errorf("refused calls reached the server: %q", c)
	}
	r := f.run(t, `mcp.nothere.x()`, time.Minute)
	if r.Err == nil || !strings.Contains(r.Err.Message, `mcp has no "nothere" (known: test_srv, web)`) {
		t.Errorf("unknown server: %+v", r.Err)
	}
}

func TestErrorsAndHang(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	r := f.run(t, `mcp.test_srv.fail()`, time.Minute)
	if r.Err == nil || r.Err.Phase != "tool" || !strings.Contains(r.Err.Message, "mcp.test_srv.fail: the widget is broken") {
		t.Fatalf("fail: %+v", r.Err)
	}
	ok(t, f.run(t, `print(mcp.test_srv.add(a=1, b=1))`, time.Minute))
	pid := f.set.Servers()["test_srv"].PID()
	r = f.run(t, `mcp.test_srv.hang()`, 300*time.Millisecond)
	if r.Err == nil || r.Err.Phase != "timeout" {
		t.Fatalf("hang: %+v, want the block's timeout", r.Err)
	}
	// the same server answers the next call
	if out := ok(t, f.run(t, `print(mcp.test_srv.add(a=20, b=22))`, time.Minute)); out != "42\n" {
		t.Errorf("after the hang: %q", out)
	}
	if got := f.set.Servers()["test_srv"].PID(); got != pid {
		t.Errorf("pid changed from %d to %d: the server was restarted, want the same one", pid, got)
	}
	r = f.run(t, `mcp.web.hang()`, 300*time.Millisecond)
	if r.Err == nil || r.Err.Phase != "timeout" {
		t.Fatalf("web hang: %+v", r.Err)
	}
	if out := ok(t, f.run(t, `print(mcp.web.add(a=1, b=2))`, time.Minute)); out != "3\n" {
		t.Errorf("web after the hang: %q", out)
	}
}

func TestDocAndStop(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	out := ok(t, f.run(t, `print(doc("mcp.test_srv"))
print(doc("mcp.test_srv.add"))
print(doc("mcp"))`, time.Minute))
	for _, want := range []string{
		"mcp.test_srv — MCP server test-srv (stdio), 5 tools:",
		"mcp.test_srv.add(a, b) — Add two integers.\n    a: integer (required) — the first addend",
		"mcp.test_srv.describe(name, color=…) — Describe a thing as structured content.",
		`color: string one of "red", "green"`,
		"Add two integers.\nReturns their sum as text.",
		"Groups: test_srv, web",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doc output lacks %q:\n%s", want, out)
		}
	}
	if idx := ok(t, f.run(t, `print(doc())`, time.Minute)); !strings.Contains(idx, "Namespace mcp — MCP servers' tools") || !strings.Contains(idx, "mcp.test_srv, mcp.web") {
		t.Errorf("doc() index:\n%s", idx)
	}
	srv := f.set.Servers()["test_srv"]
	pid := srv.PID()
	if pid == 0 {
		t.Fatal("no pid after doc() started the server")
	}
	if err := srv.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	if st, _ := srv.Status(); st != mcp.StatusStopped {
		t.Errorf("status %q", st)
	}
	// used again, it starts again
	if out := ok(t, f.run(t, `print(mcp.test_srv.add(a=1, b=2))`, time.Minute)); out != "3\n" {
		t.Errorf("after stop: %q", out)
	}
	if srv.PID() == pid || srv.PID() == 0 {
		t.Errorf("pid %d after restart (was %d)", srv.PID(), pid)
	}
}

func TestServerDiesShowsFailed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ok(t, f.run(t, `mcp.test_srv.add(a=1, b=2)`, time.Minute))
	srv := f.set.Servers()["test_srv"]
	pid := srv.PID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if st, _ := srv.Status(); st == mcp.StatusFailed {
			break
		}
		if i > 2000 {
			t.Fatal("status never became failed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if h := srv.Health(context.Background()); h != "failed" {
		t.Errorf("health %q", h)
	}
	if !strings.Contains(srv.Logs(5), "connection ended") {
		t.Errorf("log: %q", srv.Logs(5))
	}
	// the next call starts it again
	if out := ok(t, f.run(t, `print(mcp.test_srv.add(a=2, b=2))`, time.Minute)); out != "4\n" {
		t.Errorf("after death: %q", out)
	}
}

// A server that cannot start is a ToolError naming why, is reported to
// OnStart (the sidebar shows it failed, with its log), and is tried again
// at the next call.
func TestStartFailure(t *testing.T) {
	t.Parallel()
	var shown []string
	set := mcp.NewSet(mcp.SetOptions{Workspace: t.TempDir(), OnStart: func(id string, s *mcp.Server) {
		st, _ := s.Status()
		shown = append(shown, id+"/"+st)
	}})
	set.Update(context.Background(), []mcp.Config{{Name: "gone", Command: filepath.Join(t.TempDir(), "no-such-server")}})
	in, err := sandbox.New(sandbox.Options{Namespaces: []hostfn.Namespace{set.Namespace()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		r := in.Exec(context.Background(), `mcp.gone.x()`, nil)
		if r.Err == nil || r.Err.Phase != "tool" || !strings.Contains(r.Err.Message, "mcp.gone.x: MCP server did not start: gone:") || !strings.Contains(r.Err.Message, "no-such-server") {
			t.Fatalf("%+v", r.Err)
		}
	}
	if !slices.Equal(shown, []string{"gone/failed", "gone/failed"}) {
		t.Errorf("OnStart saw %q", shown)
	}
	srv := set.Servers()["gone"]
	if h := srv.Health(context.Background()); h != "failed" {
		t.Errorf("health %q", h)
	}
	if l := srv.Logs(5); !strings.Contains(l, "start failed") {
		t.Errorf("log %q", l)
	}
}

// waitGone waits until pid is no process (a zombie counts as gone).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for i := 0; ; i++ {
		raw, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
		if err != nil {
			return
		}
		if f := strings.Fields(string(raw)); len(f) > 2 && f[2] == "Z" {
			return
		}
		if i > 4000 {
			t.Fatalf("process %d still alive", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
