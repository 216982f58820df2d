package app

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
)

// fakeResources is the fake engine's REPL registry: a list per session and
// the calls made to it.
type fakeResources struct {
	list  []ext.ResourceInfo
	calls []string
	logs  string
}

func (f *fakeEngine) Resources(_ context.Context, sid string) []ext.ResourceInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []ext.ResourceInfo{}
	for _, r := range f.res.list {
		if r.SessionID == sid {
			out = append(out, r)
		}
	}
	return out
}

func (f *fakeEngine) find(sid, id string) (int, error) {
	for i, r := range f.res.list {
		if r.SessionID == sid && r.ID == id {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no REPL %q in this session", id)
}

func (f *fakeEngine) StopResource(_ context.Context, sid, id string) (ext.StopResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, "stop "+id)
	i, err := f.find(sid, id)
	if err != nil {
		return ext.StopResult{}, err
	}
	f.res.list = append(f.res.list[:i], f.res.list[i+1:]...)
	return ext.StopResult{Result: "stopped", ID: id, Message: "Stopped " + id + "."}, nil
}

func (f *fakeEngine) RestartResource(_ context.Context, sid, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, "restart "+id)
	_, err := f.find(sid, id)
	return err
}

func (f *fakeEngine) ResourceLogs(sid, id string, n int) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, fmt.Sprintf("logs %s %d", id, n))
	if _, err := f.find(sid, id); err != nil {
		return "", err
	}
	return f.res.logs, nil
}

func TestREPLSidebarMethods(t *testing.T) {
	eng := newFakeEngine()
	eng.res.list = []ext.ResourceInfo{
		{ID: "python-1", SessionID: "s1", Kind: "repl", Language: "python", Label: "python3", Dir: "/w", PID: 4242,
			Status: "up", Log: "/logs/python-1.log", Created: 1_700_000_000_000, Managed: true, Detail: map[string]any{"x": 1}},
		{ID: "node-1", SessionID: "s2", Kind: "repl", Language: "javascript", Status: "down"},
		{ID: "nrepl:~/w", SessionID: "s1", Kind: "nrepl", Language: "clojure", Status: "unresponsive", Port: 7000,
			Detail: map[string]any{"form": "(+ 1 1)", "hint": "repl_stop, then repl_start", "port": 7000}},
	}
	eng.res.logs = ">>> 1+1\n2\n"
	a := New(eng, Options{Home: t.TempDir()})

	got, err := a.Resources("s1")
	if err != nil {
		t.Fatal(err)
	}
	want := []Resource{{ID: "python-1", SessionID: "s1", Kind: "repl", Language: "python", Label: "python3", Dir: "/w", PID: 4242,
		Status: "up", Log: "/logs/python-1.log", Created: 1_700_000_000_000, Managed: true},
		{ID: "nrepl:~/w", SessionID: "s1", Kind: "nrepl", Language: "clojure", Status: "unresponsive", Port: 7000,
			Form: "(+ 1 1)", Hint: "repl_stop, then repl_start"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Resources (-want +got):\n%s", diff)
	}
	if none, _ := a.Resources(""); none == nil || len(none) != 0 {
		t.Fatalf("Resources without a session = %#v; want [] (never null)", none)
	}

	if s, err := a.ResourceLogs("s1", "python-1", 1_000_000); err != nil || s != ">>> 1+1\n2\n" {
		t.Fatalf("ResourceLogs = %q, %v", s, err)
	}
	if err := a.RestartResource("s1", "python-1"); err != nil {
		t.Fatal(err)
	}
	res, err := a.StopResource("s1", "python-1")
	if err != nil || res != (StopResult{Result: "stopped", ID: "python-1", Message: "Stopped python-1."}) {
		t.Fatalf("StopResource = %+v, %v", res, err)
	}
	// Another session's REPL cannot be stopped from this one.
	if _, err := a.StopResource("s1", "node-1"); err == nil {
		t.Fatal("stopping another session's REPL succeeded")
	}
	wantCalls := []string{fmt.Sprintf("logs python-1 %d", MaxLogLines), "restart python-1", "stop python-1", "stop node-1"}
	if diff := cmp.Diff(wantCalls, eng.res.calls); diff != "" {
		t.Fatalf("engine calls (-want +got):\n%s", diff)
	}
	for _, err := range []error{
		func() error { _, err := a.StopResource("", "x"); return err }(),
		a.RestartResource("s1", " "),
		func() error { _, err := a.ResourceLogs("s1", "", 10); return err }(),
	} {
		if !errors.Is(err, ErrInput) {
			t.Errorf("err = %v; want ErrInput", err)
		}
	}
}
