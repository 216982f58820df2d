package app

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/events"
)

func (f *fakeEngine) SetSessionMode(_ context.Context, sid, mode string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, fmt.Sprintf("mode %s %s", sid, mode))
	return f.err
}

func (f *fakeEngine) RerunUnconfined(_ context.Context, sid string, turn, iter, call int) (backend.Accepted, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, fmt.Sprintf("rerun %s %d %d %d", sid, turn, iter, call))
	return backend.Accepted{SessionID: sid, Kind: backend.KindTurn, Started: true}, f.err
}

func (f *fakeEngine) AnswerApproval(sid, id string, approve bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, fmt.Sprintf("answer %s %s %v", sid, id, approve))
	return f.err
}

func (f *fakeEngine) SetAskOnRefusal(on bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, fmt.Sprintf("ask %v", on))
	return f.err
}

func (f *fakeEngine) SetNotifications(turnEnd, input bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, fmt.Sprintf("notify %v %v", turnEnd, input))
	return f.err
}

func (f *fakeEngine) Fork(_ context.Context, sid string, keep int) (backend.SessionInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, fmt.Sprintf("fork %s %d", sid, keep))
	return backend.SessionInfo{ID: "forked", ForkOf: sid, ForkTurns: keep}, f.err
}

func (f *fakeEngine) TrustWorkspace(_ context.Context, ws string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res.calls = append(f.res.calls, "trust "+ws)
	return f.err
}

// The bound methods check their input before the engine hears of it and
// pass the rest through.
func TestPermissionMethods(t *testing.T) {
	eng := newFakeEngine()
	a := New(eng, Options{})
	dir := t.TempDir()
	if err := a.SetSessionMode("", "full"); err == nil {
		t.Error("SetSessionMode without a session succeeded")
	}
	if _, err := a.RerunUnconfined("s1", 0, 1, 0); err == nil {
		t.Error("RerunUnconfined of turn 0 succeeded")
	}
	if err := a.TrustWorkspace(dir + "/missing"); err == nil {
		t.Error("TrustWorkspace of a missing folder succeeded")
	}
	if err := a.AnswerApproval("s1", " ", true); err == nil {
		t.Error("AnswerApproval without a question succeeded")
	}
	if err := a.SetSessionMode("s1", "read-only"); err != nil {
		t.Fatal(err)
	}
	if r, err := a.RerunUnconfined("s1", 2, 1, 0); err != nil || !r.Started {
		t.Fatalf("RerunUnconfined = %+v, %v", r, err)
	}
	if err := a.TrustWorkspace(dir); err != nil {
		t.Fatal(err)
	}
	if err := a.AnswerApproval("s1", "q1", false); err != nil {
		t.Fatal(err)
	}
	if err := a.SetAskOnRefusal(true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ForkSession("s1", -1); err == nil {
		t.Error("ForkSession at turn -1 succeeded")
	}
	if f, err := a.ForkSession("s1", 2); err != nil || f.ID != "forked" || f.ForkOf != "s1" || f.ForkTurns != 2 {
		t.Errorf("ForkSession = %+v, %v", f, err)
	}
	real, _ := os.Readlink(dir) // not a link: keeps dir
	if real == "" {
		real = dir
	}
	want := []string{"mode s1 read-only", "rerun s1 2 1 0", "trust " + real, "answer s1 q1 false", "ask true", "fork s1 2"}
	if diff := cmp.Diff(want, eng.res.calls); diff != "" {
		t.Errorf("engine calls (-want +got):\n%s", diff)
	}
	// The status carries the mode and the held settings; [] not null.
	eng.status = backend.StatusView{Sandbox: "full", SandboxSource: backend.ModeFromSession}
	st, err := a.Status("s1", "")
	if err != nil || st.Sandbox != "full" || st.SandboxSource != "session" || st.ProjectHeld == nil {
		t.Errorf("Status = %+v, %v", st, err)
	}
}

// The snapshot's program record carries every key of the engine's
// CallRecord (the page reads both the same way): a field added to the
// engine's record and forgotten here reached the live events but vanished
// on every reload (sandbox_asked did).
func TestCallCarriesEveryCallRecordKey(t *testing.T) {
	keys := func(v any) map[string]bool {
		out := map[string]bool{}
		rt := reflect.TypeOf(v)
		for i := 0; i < rt.NumField(); i++ {
			if tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); tag != "" && tag != "-" {
				out[tag] = true
			}
		}
		return out
	}
	have := keys(Call{})
	for k := range keys(events.CallRecord{}) {
		if !have[k] {
			t.Errorf("app.Call has no %q, which events.CallRecord has", k)
		}
	}
}
