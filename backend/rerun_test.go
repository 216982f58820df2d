package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The mode chosen for a session applies from its next turn: read-only
// refuses a real shell write inside the workspace, full allows one outside
// it. In the default mode a write outside is refused and marked so; the
// person's one approval re-runs that program in full mode as a turn of its
// own, and the file then exists. The next turn is confined again.
func TestSessionModeAndApprovedRerun(t *testing.T) {
	t.Parallel()
	confine.SkipWithoutLandlock(t)
	ctx := context.Background()
	home, ws, outside := sandboxDirs(t)
	escape := filepath.Join(outside, "escape.txt")
	write := func(path string) string {
		return fmt.Sprintf("r = shell('echo hi > %s')\nprint('exit', r['exit_code'], session['sandbox']['mode'])", path)
	}
	llm := providertest.New(
		providertest.Reply{Code: write("inside.txt")}, providertest.Reply{Content: []string{"one"}},
		providertest.Reply{Code: write(escape)}, providertest.Reply{Content: []string{"two"}},
		providertest.Reply{Code: write(filepath.Join(outside, "full.txt"))}, providertest.Reply{Content: []string{"three"}},
		providertest.Reply{Code: write(filepath.Join(outside, "again.txt"))}, providertest.Reply{Content: []string{"four"}},
	)
	defer llm.Close()
	e := openEngine(t, llm, home)
	defer e.Close()
	info, err := e.CreateSession(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	id := info.ID
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	turn := func(text string) events.FormResult {
		t.Helper()
		if _, err := e.RunTurn(ctx, SendRequest{SessionID: id, Text: text}); err != nil {
			t.Fatal(err)
		}
		return payload[events.FormResult](t, waitFor(t, ch, events.PhaseFormResult))
	}

	if err := e.SetSessionMode(ctx, id, "yolo"); err == nil {
		t.Error("SetSessionMode(yolo) succeeded")
	}
	if err := e.SetSessionMode(ctx, id, "read-only"); err != nil {
		t.Fatal(err)
	}
	if st, err := e.Status(ctx, id, ""); err != nil || st.Sandbox != "read-only" || st.SandboxSource != ModeFromSession {
		t.Fatalf("Status after choosing read-only = %q from %q, %v", st.Sandbox, st.SandboxSource, err)
	}
	r := turn("read-only")
	if _, err := os.Stat(filepath.Join(ws, "inside.txt")); err == nil || !strings.Contains(r.Output, "exit 1 read-only") {
		t.Errorf("read-only session wrote inside the workspace: %q", r.Output)
	}
	if r.SandboxRefused == "" {
		t.Errorf("a refused write in read-only mode is not marked: %+v", r.CallRecord)
	}

	if err := e.SetSessionMode(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	r = turn("workspace")
	if _, err := os.Stat(escape); err == nil || !strings.Contains(r.Output, "exit 1 workspace") || !strings.Contains(r.SandboxRefused, "workspace mode") {
		t.Fatalf("workspace mode: escaped=%v output %q refused %q", err == nil, r.Output, r.SandboxRefused)
	}

	// Nothing refused, nothing to approve.
	if _, err := e.RerunUnconfined(ctx, id, 2, 1, 5); err == nil {
		t.Error("RerunUnconfined of a program that does not exist succeeded")
	}
	a, err := e.RerunUnconfined(ctx, id, 2, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	<-a.job.done
	if r := payload[events.FormResult](t, waitFor(t, ch, events.PhaseFormResult)); !strings.Contains(r.Output, "exit 0 full") {
		t.Errorf("the re-run's form-result = %q", r.Output)
	}
	if a.job.err != nil || a.job.res.Status != "done" || a.job.res.Turn != 3 {
		t.Fatalf("re-run = %+v, %v", a.job.res, a.job.err)
	}
	if b, err := os.ReadFile(escape); err != nil || string(b) != "hi\n" {
		t.Fatalf("after the approved re-run: %q, %v", b, err)
	}
	tr, err := e.Transcript(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Turns[len(tr.Turns)-1]
	if last.Channel != ChannelApproval || !strings.Contains(last.Request, "approved by the person") || !strings.Contains(last.Answer, "exit 0 full") ||
		len(last.Iterations) != 1 || len(last.Iterations[0].Calls) != 1 || last.Iterations[0].Calls[0].SandboxRefused != "" {
		t.Errorf("the approval's turn = %+v", last)
	}
	if _, err := e.RerunUnconfined(ctx, id, 2, 1, 0); !errors.Is(err, ErrApproved) || !strings.Contains(err.Error(), "turn 3") {
		t.Errorf("a second approval of the same program = %v; want ErrApproved naming turn 3", err)
	}
	if _, err := e.RerunUnconfined(ctx, id, 3, 1, 0); !errors.Is(err, ErrNotRefused) {
		t.Errorf("re-running a program the sandbox did not refuse = %v; want ErrNotRefused", err)
	}

	// The approval was for that program once: the session's own mode is
	// back for the next turn, and full (chosen) lets a write out.
	if err := e.SetSessionMode(ctx, id, "full"); err != nil {
		t.Fatal(err)
	}
	if r := turn("full"); !strings.Contains(r.Output, "exit 0 full") {
		t.Errorf("full session: %q", r.Output)
	}
	if err := e.SetSessionMode(ctx, id, "workspace"); err != nil {
		t.Fatal(err)
	}
	if r := turn("workspace again"); !strings.Contains(r.Output, "exit 1 workspace") {
		t.Errorf("after full, workspace again: %q", r.Output)
	}
}

// "Trust this folder": the status names the project's held settings until
// the folder is trusted through settings.json, and the next turn applies
// them (the project's replacing system prompt reaches the model).
func TestTrustWorkspaceAppliesHeldSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "vis.yml"), []byte("system_prompt: {text: PROJECT-RULES-XYZ, replace: true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	llm := providertest.New(providertest.Reply{Content: []string{"one"}}, providertest.Reply{Content: []string{"two"}})
	defer llm.Close()
	e := openEngine(t, llm, home)
	defer e.Close()
	st, err := e.Status(ctx, "", ws)
	if err != nil || len(st.ProjectHeld) != 1 || st.ProjectHeld[0] != "system_prompt (replace: true)" {
		t.Fatalf("Status before trust: held %q, %v", st.ProjectHeld, err)
	}
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.TrustWorkspace(ctx, ws); err != nil {
		t.Fatal(err)
	}
	if st, err := e.Status(ctx, res.SessionID, ""); err != nil || len(st.ProjectHeld) != 0 {
		t.Fatalf("Status after trust: held %q, %v", st.ProjectHeld, err)
	}
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: res.SessionID, Text: "second"}); err != nil {
		t.Fatal(err)
	}
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	system := func(i int) string { return string(reqs[i].Raw) }
	if strings.Contains(system(0), "PROJECT-RULES-XYZ") || !strings.Contains(system(1), "PROJECT-RULES-XYZ") {
		t.Errorf("the project's prompt before trust: %v, after: %v", strings.Contains(system(0), "PROJECT-RULES-XYZ"), strings.Contains(system(1), "PROJECT-RULES-XYZ"))
	}
}
