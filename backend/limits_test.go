package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The block wall limit comes from the turn's configuration, through
// Engine.Run: a bigger configured limit lets a block run past a smaller
// one, a project's vis.yml lowering it stops the same session's next block
// with an error that names the limit, the file and how to raise it, and
// shell's own timeout extends a block up to the configured ceiling (a
// timeout above it is cut, and the result says so).
func TestConfiguredWallLimitAppliesPerTurn(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Code: "time.sleep(1.5)\nprint('slept')"},
		providertest.Reply{Content: []string{"one"}},
		providertest.Reply{Code: "print('start')\ntime.sleep(5)\nprint('end')"},
		providertest.Reply{Content: []string{"two"}},
		providertest.Reply{Code: "r = shell('sleep 1.5; echo done', timeout=3)\nprint(r['output'].strip(), r.get('timeout_note'))\n" +
			"r = shell('echo quick', timeout=1000)\nprint(r['output'].strip(), r['timeout_note'])"},
		providertest.Reply{Content: []string{"three"}},
	)
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	writeFile := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	homeCfg := filepath.Join(home, "config.yml")
	writeFile(homeCfg, "sandbox:\n  wall_limit_seconds: 30\n  max_wall_limit_seconds: 60\n")
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()

	first, err := e.Run(ctx, "", Input{Workspace: ws, Text: "sleep"})
	if err != nil {
		t.Fatal(err)
	}
	if out := userMessage(llm.Requests()[1]); !strings.Contains(out, "slept") {
		t.Fatalf("under a 30 s limit the block should complete; the model got:\n%s", out)
	}

	// The project lowers the limit to one second: the same session's sandbox
	// applies it from this turn on.
	writeFile(filepath.Join(ws, "vis.yml"), "sandbox: {wall_limit_seconds: 1}\n")
	if _, err := e.Run(ctx, first.SessionID, Input{Text: "sleep longer"}); err != nil {
		t.Fatal(err)
	}
	out := userMessage(llm.Requests()[3])
	for _, want := range []string{
		"start\n✗ timeout error: the block ran longer than its wall limit of 1s (sandbox.wall_limit_seconds: 1 in " + filepath.Join(ws, "vis.yml") + ")",
		"hint: raise sandbox.wall_limit_seconds in " + homeCfg + ", or in the workspace's vis.yml or .vis/config.yml",
		"timeout_ms= on run_tests", "up to 1m0s (sandbox.max_wall_limit_seconds)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the timeout the model got lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\nend\n") {
		t.Errorf("the block went on after its limit:\n%s", out)
	}

	// shell's own timeout carries a block past the one-second limit; one
	// above the 60 s ceiling is cut and says so.
	if _, err := e.Run(ctx, first.SessionID, Input{Text: "shell"}); err != nil {
		t.Fatal(err)
	}
	out = userMessage(llm.Requests()[5])
	for _, want := range []string{
		"done None\n",
		"quick the timeout asked for (16m40s) was capped at ",
		"a program block may run at most 1m0s (sandbox.max_wall_limit_seconds: 60 in " + homeCfg + ")",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the shell block's output lacks %q:\n%s", want, out)
		}
	}
}

// provider.idle_timeout_seconds reaches the turn's model calls: a provider
// that goes silent ends the turn after the timeout and two re-issues, with
// one sentence naming the timeout, the key and the file.
func TestConfiguredIdleTimeoutEndsASilentTurn(t *testing.T) {
	t.Parallel()
	h := providertest.Reply{Hang: true}
	llm := providertest.New(h, h, h)
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	homeCfg := filepath.Join(home, "config.yml")
	if err := os.WriteFile(homeCfg, []byte("provider: {idle_timeout_seconds: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, llm, home)
	defer e.Close()
	res, err := e.Run(context.Background(), "", Input{Workspace: ws, Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "error" || !strings.Contains(res.Error, "sent nothing for 1s (provider.idle_timeout_seconds: 1 in "+homeCfg+")") ||
		!strings.Contains(res.Error, "raise provider.idle_timeout_seconds") {
		t.Errorf("result %+v", res)
	}
	if n := len(llm.Requests()); n != 3 {
		t.Errorf("the silent provider was asked %d times, want 3", n)
	}
}
