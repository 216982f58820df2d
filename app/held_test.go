package app

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// openAt opens a real engine on home against the fake LLM at url.
func openAt(t testing.TB, home, url string) *backend.Engine {
	vars := map[string]string{"VIS_BASE_URL": url, "VIS_MODEL": "fake-model"}
	eng, err := backend.Open(context.Background(), backend.Options{Home: home, Getenv: func(k string) string { return vars[k] },
		Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// A session whose turn another Vis process runs is read-only in the
// window: Status says which process holds it, Send is refused with the
// engine's sentence (and ErrHeldElsewhere), nothing is queued; once that
// process is gone the session takes input again. The other process is this
// test binary run again (APP_HELD_CHILD), holding a turn against a silent
// model.
func TestSessionRunningInAnotherProcessIsReadOnly(t *testing.T) {
	if spec := os.Getenv("APP_HELD_CHILD"); spec != "" {
		heldChild(t, spec)
		return
	}
	llm := providertest.New(providertest.Reply{Content: []string{"hello"}})
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	eng := openAt(t, home, llm.URL)
	defer eng.Close()
	a := New(eng, Options{Home: home})
	first, err := eng.Run(context.Background(), "", backend.Input{Workspace: ws, Text: "hi"})
	if err != nil || first.Status != "done" {
		t.Fatalf("first turn: %+v %v", first, err)
	}
	sid := first.SessionID

	llm.Push(providertest.Reply{Hang: true})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSessionRunningInAnotherProcessIsReadOnly$", "-test.count=1")
	child.Env = append(os.Environ(), "APP_HELD_CHILD="+home+"|"+llm.URL+"|"+sid)
	child.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	child.Cancel = func() error { return syscall.Kill(-child.Process.Pid, syscall.SIGKILL) }
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-child.Process.Pid, syscall.SIGKILL)
		child.Wait()
	}()
	sc := bufio.NewScanner(out)
	ready := false
	for !ready && sc.Scan() {
		ready = sc.Text() == "held"
	}
	if !ready {
		t.Fatalf("the other process never held the session: %v", sc.Err())
	}
	for len(llm.Requests()) < 2 { // the other process's request streams (silent)
		select {
		case <-ctx.Done():
			t.Fatal("the other process's turn never called the model")
		case <-time.After(5 * time.Millisecond):
		}
	}

	st, err := a.Status(sid, "")
	if err != nil || st.HeldBy != child.Process.Pid {
		t.Fatalf("Status = held_by %d, %v; want %d", st.HeldBy, err, child.Process.Pid)
	}
	want := fmt.Sprintf("session %s is running in another Vis (pid %d)", sid, child.Process.Pid)
	if _, err := a.Submit(sid, "", "me too"); err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, backend.ErrHeldElsewhere) {
		t.Fatalf("Submit while held = %v; want %q", err, want)
	}
	if qs, _ := eng.Queue(context.Background(), sid); len(qs) != 0 {
		t.Fatalf("the refused input was queued: %+v", qs)
	}
	// Its transcript still reads.
	if tr, err := a.OpenTranscript(sid); err != nil || len(tr.Turns) < 1 {
		t.Fatalf("OpenTranscript while held: %v", err)
	}

	syscall.Kill(-child.Process.Pid, syscall.SIGKILL)
	child.Wait()
	if st, _ := a.Status(sid, ""); st.HeldBy != 0 {
		t.Fatalf("held_by %d after the holder died", st.HeldBy)
	}
	llm.Push(providertest.Reply{Content: []string{"back"}})
	if res, err := eng.Run(context.Background(), sid, backend.Input{Text: "again"}); err != nil || res.Answer != "back" {
		t.Fatalf("after the holder died: %+v %v", res, err)
	}
}

// heldChild is the other process: it starts a turn of the session (the
// model stays silent), says "held" and waits to be killed.
func heldChild(t *testing.T, spec string) {
	parts := strings.SplitN(spec, "|", 3)
	eng := openAt(t, parts[0], parts[1])
	a, err := eng.Dispatch(context.Background(), parts[2], backend.Input{Text: "the long one"})
	if err != nil || !a.Started {
		fmt.Fprintln(os.Stderr, "held child:", a, err)
		os.Exit(3)
	}
	fmt.Println("held")
	time.Sleep(2 * time.Minute)
	os.Exit(4)
}
