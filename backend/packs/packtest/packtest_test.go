package packtest

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/visdesktop/vis/backend/ext"
)

func TestSurvivorsFindsMarkedChildren(t *testing.T) {
	mark := "probe-" + t.Name()
	c := exec.Command("sleep", "60")
	c.Env = append(os.Environ(), MarkVar+"="+mark)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pid := c.Process.Pid
	got := Survivors(mark)
	if len(got) != 1 || got[0] != pid || !Alive(pid) || !GroupAlive(pid) {
		t.Fatalf("Survivors = %v (alive %v); want [%d]", got, Alive(pid), pid)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = c.Wait()
	if got := Survivors(mark); len(got) != 0 || Alive(pid) || GroupAlive(pid) {
		t.Fatalf("after kill: Survivors = %v, alive %v", got, Alive(pid))
	}
}

func TestResourcesStopRunsStopFn(t *testing.T) {
	r := NewResources()
	stopped := 0
	r.Register(ext.Resource{Info: ext.ResourceInfo{ID: "x", SessionID: "s", Status: "up"}, StopFn: func(context.Context) error { stopped++; return nil },
		Health: func(context.Context) string { return "unresponsive" }})
	if l := r.List(context.Background(), "s"); len(l) != 1 || l[0].Status != "unresponsive" {
		t.Fatalf("List = %+v", l)
	}
	if res, err := r.Stop(context.Background(), "s", "x"); err != nil || res.Result != "stopped" || stopped != 1 {
		t.Fatalf("Stop = %+v, %v (stopped %d)", res, err, stopped)
	}
	if _, ok := r.Lookup("s", "x"); ok {
		t.Fatal("a stopped resource is still listed")
	}
	if _, err := r.Stop(context.Background(), "s", "x"); err == nil {
		t.Fatal("stopping an unknown id succeeded")
	}
}

func TestMain(m *testing.M) { os.Exit(Main(m)) }
