package resources

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
)

type changes struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *changes) on(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[s]++
}

func (c *changes) get(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[s]
}

func res(session, id, status string, health func(context.Context) string) ext.Resource {
	return ext.Resource{
		Info:   ext.ResourceInfo{ID: id, SessionID: session, Kind: "repl", Language: "python", Label: "py " + id, Status: status, Managed: true},
		Health: health,
		StopFn: func(context.Context) error { return nil },
	}
}

func fixed(s string) func(context.Context) string { return func(context.Context) string { return s } }

func statuses(infos []ext.ResourceInfo) map[string]string {
	out := map[string]string{}
	for _, i := range infos {
		out[i.ID] = i.Status
	}
	return out
}

func TestListProbesAndPrunes(t *testing.T) {
	wedged := func(ctx context.Context) string { <-ctx.Done(); return StatusUp }
	var logged []string
	var mu sync.Mutex
	r := New(Options{ProbeTimeout: 50 * time.Millisecond, Logf: func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, f)
		mu.Unlock()
	}})
	tests := []struct {
		id     string
		start  string
		health func(context.Context) string
		want   string // "" = pruned
	}{
		{"flips-up", StatusStarting, fixed(StatusUp), StatusUp},
		{"dead", StatusUp, fixed(StatusDown), ""},
		{"failed-but-alive", StatusUp, fixed(StatusFailed), StatusFailed},
		{"wedged", StatusUp, wedged, StatusUnresponsive},
		{"throws", StatusUp, func(context.Context) string { panic("probe broke") }, StatusUnknown},
		{"empty answer", StatusUp, fixed(""), StatusUnknown},
		{"no probe", StatusStarting, nil, StatusStarting},
	}
	want := map[string]string{}
	for _, tt := range tests {
		r.Register(res("s1", tt.id, tt.start, tt.health))
		if tt.want != "" {
			want[tt.id] = tt.want
		}
	}
	r.Register(res("s2", "other-session", StatusUp, fixed(StatusDown)))
	got := statuses(r.List(context.Background(), "s1"))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	// Lookup agrees with the list; the other session was not touched.
	if _, ok := r.Lookup("s1", "dead"); ok {
		t.Error("dead entry still looked up")
	}
	if _, ok := r.Lookup("s2", "other-session"); !ok {
		t.Error("probing s1 pruned s2")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) == 0 {
		t.Error("panicking probe not logged")
	}
}

func TestSlowProbeNeverPatchesReplacement(t *testing.T) {
	r := New(Options{ProbeTimeout: 5 * time.Second})
	started := make(chan struct{})
	release := make(chan struct{})
	r.Register(res("s", "pyrepl:~/p", StatusUp, func(ctx context.Context) string {
		close(started)
		<-release
		return StatusDown // the OLD process died
	}))
	done := make(chan []ext.ResourceInfo)
	go func() { done <- r.List(context.Background(), "s") }()
	<-started
	replacement := res("s", "pyrepl:~/p", StatusStarting, nil)
	replacement.Info.PID = 42
	r.Register(replacement)
	close(release)
	infos := <-done
	if len(infos) != 1 || infos[0].PID != 42 || infos[0].Status != StatusStarting {
		t.Fatalf("replacement patched by the stale probe: %+v", infos)
	}
}

func TestStop(t *testing.T) {
	var ch changes
	r := New(Options{OnChange: ch.on})
	stopped := map[string]int{}
	mk := func(id string, managed bool, stopErr error) ext.Resource {
		x := res("s", id, StatusUp, nil)
		x.Info.Managed = managed
		x.StopFn = func(context.Context) error { stopped[id]++; return stopErr }
		return x
	}
	r.Register(mk("pyrepl:~/a", true, nil))
	r.Register(mk("nrepl:~/b#external", false, nil))
	r.Register(mk("stubborn", true, errors.New("permission denied")))
	tests := []struct {
		id         string
		wantResult string
		wantErr    bool
		wantMsg    string
		stillThere bool
	}{
		{"pyrepl:~/a", ResultStopped, false, "stopped pyrepl:~/a (py pyrepl:~/a)", false},
		{"nrepl:~/b#external", ResultDetached, false, "keeps running", false},
		{"stubborn", "failed", true, "permission denied", true},
		{"nope", ResultNotManaged, false, "live: stubborn", false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got, err := r.Stop(context.Background(), "s", tt.id)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if got.Result != tt.wantResult || got.ID != tt.id || !strings.Contains(got.Message, tt.wantMsg) {
				t.Errorf("Stop = %+v", got)
			}
			if _, ok := r.Lookup("s", tt.id); ok != tt.stillThere {
				t.Errorf("still registered = %v, want %v", ok, tt.stillThere)
			}
		})
	}
	if stopped["pyrepl:~/a"] != 1 || stopped["nrepl:~/b#external"] != 1 {
		t.Errorf("StopFn calls: %v", stopped)
	}
	if in, _ := r.Lookup("s", "stubborn"); in.Info.Status != StatusUnknown {
		t.Errorf("failed stop leaves status %q, want unknown", in.Info.Status)
	}
	if ch.get("s") < 6 {
		t.Errorf("OnChange fired %d times, want one per register and stop", ch.get("s"))
	}
}

func TestRestartStopsThenStartsAgain(t *testing.T) {
	r := New(Options{})
	var order []string
	var mk func(pid int) ext.Resource
	mk = func(pid int) ext.Resource {
		x := res("s", "pyrepl:~/a", StatusUp, nil)
		x.Info.PID = pid
		x.StopFn = func(context.Context) error { order = append(order, "stop"); return nil }
		x.Restart = func(ctx context.Context) error {
			order = append(order, "start")
			r.Register(mk(pid + 1))
			return nil
		}
		return x
	}
	r.Register(mk(100))
	if err := r.Restart(context.Background(), "s", "pyrepl:~/a"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"stop", "start"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if got, _ := r.Lookup("s", "pyrepl:~/a"); got.Info.PID != 101 {
		t.Errorf("pid after restart = %d", got.Info.PID)
	}
	r.Register(res("s", "fixed", StatusUp, nil))
	if err := r.Restart(context.Background(), "s", "fixed"); !errors.Is(err, ErrCannotRestart) {
		t.Errorf("restart without Restart = %v", err)
	}
	if err := r.Restart(context.Background(), "s", "gone"); !errors.Is(err, ErrNotFound) {
		t.Errorf("restart unknown = %v", err)
	}
}

func TestLogs(t *testing.T) {
	r := New(Options{})
	x := res("s", "a", StatusUp, nil)
	x.Logs = func(n int) (string, error) { return strings.Repeat("line\n", n), nil }
	r.Register(x)
	r.Register(res("s", "b", StatusUp, nil))
	if got, err := r.Logs("s", "a", 2); err != nil || got != "line\nline\n" {
		t.Errorf("Logs = %q, %v", got, err)
	}
	if _, err := r.Logs("s", "b", 2); err == nil {
		t.Error("logs of a resource without a log: no error")
	}
	if _, err := r.Logs("s", "zzz", 2); !errors.Is(err, ErrNotFound) {
		t.Errorf("logs of unknown = %v", err)
	}
}

// A real child in its own process group, stopped by StopAll.
func startSleep(t *testing.T) (*exec.Cmd, chan struct{}) {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	})
	return cmd, done
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestStopSessionAndStopAllEndRealProcesses(t *testing.T) {
	var ch changes
	r := New(Options{OnChange: ch.on})
	procs := map[string]*exec.Cmd{}
	for _, k := range []struct{ session, id string }{{"s1", "a"}, {"s1", "b"}, {"s2", "c"}} {
		cmd, exited := startSleep(t)
		procs[k.id] = cmd
		x := res(k.session, k.id, StatusUp, nil)
		x.Info.PID = cmd.Process.Pid
		x.StopFn = func(ctx context.Context) error {
			if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
				return err
			}
			select {
			case <-exited:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		r.Register(x)
	}
	got := r.StopSession(context.Background(), "s1")
	var ids []string
	for _, g := range got {
		if g.Result != ResultStopped {
			t.Errorf("result %+v", g)
		}
		ids = append(ids, g.ID)
	}
	if diff := cmp.Diff([]string{"a", "b"}, ids); diff != "" {
		t.Errorf("stopped (-want +got):\n%s", diff)
	}
	if r.Count("s1") != 0 || r.Count("s2") != 1 {
		t.Errorf("counts after StopSession: s1=%d s2=%d", r.Count("s1"), r.Count("s2"))
	}
	all := r.StopAll(context.Background())
	if len(all) != 1 || all[0].ID != "c" || all[0].Result != ResultStopped {
		t.Errorf("StopAll = %+v", all)
	}
	for id, cmd := range procs {
		if alive(cmd.Process.Pid) {
			// reaped by Wait above, so a live pid means the kill failed
			t.Errorf("process %s (pid %d) survived", id, cmd.Process.Pid)
		}
	}
	if len(r.Sessions()) != 0 {
		t.Errorf("sessions left: %v", r.Sessions())
	}
}

func TestRunReportsADeathAtOnce(t *testing.T) {
	changed := make(chan string, 16)
	r := New(Options{OnChange: func(s string) { changed <- s }})
	var mu sync.Mutex
	status := StatusUp
	r.Register(res("s", "a", StatusUp, func(context.Context) string { mu.Lock(); defer mu.Unlock(); return status }))
	<-changed // the registration
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx, 10*time.Millisecond); close(done) }()
	mu.Lock()
	status = StatusFailed
	mu.Unlock()
	if s := <-changed; s != "s" {
		t.Errorf("changed session %q", s)
	}
	cancel()
	<-done
	if got := r.Snapshot("s"); len(got) != 1 || got[0].Status != StatusFailed {
		t.Errorf("snapshot = %+v", got)
	}
}
