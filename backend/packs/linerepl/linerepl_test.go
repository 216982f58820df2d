package linerepl

import (
	"context"
	"errors"
	"math"
	"math/big"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var bigCmp = cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })

func TestNumberKeepsTheLiteralsKind(t *testing.T) {
	huge, _ := new(big.Int).SetString("-1180591620717411303424", 10)
	for _, tc := range []struct {
		lit  string
		want any
	}{
		{"42", int64(42)},
		{"-0", int64(0)},
		{"9223372036854775807", int64(math.MaxInt64)},
		{"9223372036854775808", new(big.Int).Lsh(big.NewInt(1), 63)},
		{"-1180591620717411303424", huge},
		{"1.0", 1.0},
		{"1.5", 1.5},
		{"1e+16", 1e16},
		{"2E3", 2000.0},
		{"-0.0", math.Copysign(0, -1)},
		{"1e400", math.Inf(1)},
		{"NaN", "NaN"},
	} {
		if d := cmp.Diff(tc.want, Number(tc.lit), bigCmp); d != "" {
			t.Errorf("Number(%q) (-want +got):\n%s", tc.lit, d)
		}
	}
}

func TestDataDecodesNestedNumbers(t *testing.T) {
	got, err := Data([]byte(`{"a": [1, 2.5, 123456789012345678901234567890], "b": {"c": -7}, "d": null, "e": "9"}`))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	want := map[string]any{"a": []any{int64(1), 2.5, n}, "b": map[string]any{"c": int64(-7)}, "d": nil, "e": "9"}
	if d := cmp.Diff(want, got, bigCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if v, err := Data(nil); v != nil || err != nil {
		t.Errorf("Data(nil) = %v, %v", v, err)
	}
	if _, err := Data([]byte(`[1,`)); err == nil {
		t.Error("truncated JSON decoded")
	}
}

func TestMaps(t *testing.T) {
	v, exc := "42", "boom"
	if d := cmp.Diff(map[string]any{"repl": "r", "ok": true, "out": "o", "err": "", "value": "42", "data": int64(42), "type": nil,
		"exc": nil, "timed_out": false, "ms": int64(3)},
		Result{REPL: "r", OK: true, Out: "o", Value: &v, Data: int64(42), MS: 3}.Map()); d != "" {
		t.Errorf("plain result (-want +got):\n%s", d)
	}
	got := Result{Code: "c", Exc: &exc, TimedOut: true, Restarted: true, Message: "m"}.Map()
	if got["code"] != "c" || got["exc"] != "boom" || got["restarted"] != true || got["message"] != "m" {
		t.Errorf("full result = %v", got)
	}
	code := 3
	for _, tc := range []struct {
		in   Info
		want map[string]any
	}{
		{Info{Result: "stopped", ID: "x", Message: "stopped x"}, map[string]any{"result": "stopped", "id": "x", "message": "stopped x"}},
		{Info{ID: "x", Status: "down"}, map[string]any{"id": "x", "status": "down", "running": false}},
		{Info{Result: "failed", Status: "failed", Exit: &code, LogTail: "t", Env: []string{"A"}, PID: 9},
			map[string]any{"result": "failed", "status": "failed", "running": false, "exit": 3, "log_tail": "t", "env": []string{"A"}, "pid": 9}},
		{Info{Status: "up", Running: true, REPLs: []Info{}, Extra: map[string]any{"interpreter": "py"}},
			map[string]any{"status": "up", "running": true, "repls": []any{}, "interpreter": "py"}},
	} {
		if d := cmp.Diff(tc.want, tc.in.Map()); d != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.in, d)
		}
	}
}

// fakeServer speaks the protocol; its code is a command. It ignores
// SIGINT, so "hang" never answers an interrupt.
const fakeServer = `
import json, os, signal, sys, time
signal.signal(signal.SIGINT, lambda *a: None)
for line in sys.stdin:
    req = json.loads(line)
    code = req.get("code", "")
    if code.startswith("sleep "):
        time.sleep(float(code[6:]))
    elif code == "exit":
        os._exit(7)
    elif code == "hang":
        while True:
            time.sleep(1)
    elif code == "stray":
        print("not json at all", flush=True)
    data = code[5:] if code.startswith("data:") else "null"
    sys.stdout.write('{"id": %d, "ok": true, "out": "", "err": "", "value": %s, "data": %s}\n' % (req["id"], json.dumps(code), data))
    sys.stdout.flush()
`

func startFake(t *testing.T, hang Hang) *REPL {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	log := filepath.Join(t.TempDir(), "logs", "fake.log")
	r, err := Start(context.Background(), Spec{Name: "fake", Argv: []string{py, "-u", "-c", fakeServer}, Dir: t.TempDir(),
		LogPath: log, InterruptGrace: 200 * time.Millisecond, OnHang: hang, KilledHint: "start another"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pid := r.PID()
		_ = r.Stop(context.Background())
		if syscall.Kill(-pid, 0) == nil {
			t.Errorf("the fake REPL's group %d survived Stop", pid)
		}
	})
	return r
}

func eval(t *testing.T, r *REPL, code string, budget time.Duration) Result {
	t.Helper()
	res, err := r.Eval(context.Background(), code, budget)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	return res
}

func TestProtocolFramingAndStaleAnswers(t *testing.T) {
	r := startFake(t, KillOnHang)
	if res := eval(t, r, "data:[1, 1.0, 2e3, 98765432109876543210]", time.Second); !res.OK ||
		cmp.Diff([]any{int64(1), 1.0, 2000.0, mustBig("98765432109876543210")}, res.Data, bigCmp) != "" {
		t.Errorf("data = %#v", res)
	}
	if res := eval(t, r, "stray", time.Second); *res.Value != "stray" {
		t.Errorf("a non-JSON line broke the protocol: %+v", res)
	}
	// An abandoned request's late answer is not taken for the next one.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := r.Eval(ctx, "sleep 0.3", time.Second); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled eval: %v", err)
	}
	if res := eval(t, r, "data:2", time.Second); res.Data != int64(2) || *res.Value != "data:2" {
		t.Errorf("after an abandoned request = %+v", res)
	}
	if h := r.Health(context.Background()); h != "up" {
		t.Errorf("health = %s", h)
	}
	if logs, _ := r.Logs(20); !strings.Contains(logs, "[stdout] not json at all") || !strings.Contains(logs, "[vis]") {
		t.Errorf("log = %q", logs)
	}
}

func TestHungEvaluationIsKilledOrRestarted(t *testing.T) {
	r := startFake(t, KillOnHang)
	pid := r.PID()
	res := eval(t, r, "hang", 100*time.Millisecond)
	if !res.TimedOut || res.OK || res.Restarted || !strings.Contains(res.Message, "was killed") || !strings.HasSuffix(res.Message, "; start another") {
		t.Errorf("killed = %+v", res)
	}
	if r.Alive() || syscall.Kill(pid, 0) == nil || r.Health(context.Background()) != "failed" {
		t.Errorf("a killed REPL: alive %v, health %s", r.Alive(), r.Health(context.Background()))
	}
	if _, err := r.Eval(context.Background(), "data:1", time.Second); !errors.Is(err, ErrExited) {
		t.Errorf("eval on a killed REPL: %v", err)
	}

	r = startFake(t, RestartOnHang)
	pid = r.PID()
	res = eval(t, r, "hang", 100*time.Millisecond)
	if !res.TimedOut || !res.Restarted || r.PID() == pid || !r.Alive() {
		t.Errorf("restarted = %+v, pid %d → %d", res, pid, r.PID())
	}
	if res := eval(t, r, "data:3", time.Second); res.Data != int64(3) {
		t.Errorf("after the restart = %+v", res)
	}
}

func TestExitStopAndRestart(t *testing.T) {
	r := startFake(t, KillOnHang)
	_, err := r.Eval(context.Background(), "exit", time.Second)
	var ee *ExitError
	if !errors.Is(err, ErrExited) || !errors.As(err, &ee) || ee.Code != 7 || !strings.Contains(err.Error(), "the fake REPL exited (code 7)") {
		t.Fatalf("exit during eval: %v", err)
	}
	if h := r.Health(context.Background()); h != "failed" {
		t.Errorf("health after an exit = %s", h)
	}
	if err := r.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h := r.Health(context.Background()); h != "up" {
		t.Errorf("health after restart = %s", h)
	}
	_ = r.Stop(context.Background())
	if h := r.Health(context.Background()); h != "down" {
		t.Errorf("health after stop = %s", h)
	}
	if logs, _ := r.Logs(50); strings.Count(logs, "REPL exited") != 2 {
		t.Errorf("log = %q", logs)
	}
}

func TestStartFailures(t *testing.T) {
	dir := t.TempDir()
	if _, err := Start(context.Background(), Spec{Name: "x", Argv: []string{filepath.Join(dir, "missing")}, LogPath: filepath.Join(dir, "a.log")}); err == nil {
		t.Error("a missing binary started")
	}
	_, err := Start(context.Background(), Spec{Name: "sh", Argv: []string{"sh", "-c", "echo dying >&2; exit 4"}, LogPath: filepath.Join(dir, "b.log")})
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 4 || !strings.Contains(ee.LogTail, "dying") {
		t.Errorf("a server that exits at once: %v", err)
	}
	_, err = Start(context.Background(), Spec{Name: "sh", Argv: []string{"sh", "-c", "exec sleep 30"}, LogPath: filepath.Join(dir, "c.log"), StartTimeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("a silent server: %v", err)
	}
}

func TestHelpers(t *testing.T) {
	if d := EnvDiff(map[string]string{"A": "1", "B": "2"}, map[string]string{"B": "3", "C": "4"}); cmp.Diff([]string{"A", "B", "C"}, d) != "" {
		t.Errorf("EnvDiff = %v", d)
	}
	if l := EnvList(map[string]string{"B": "2", "A": "1"}); cmp.Diff([]string{"A=1", "B=2"}, l) != "" {
		t.Errorf("EnvList = %v", l)
	}
	p := LogPath("/logs", "jsrepl:~/a b#x", time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC))
	if p != "/logs/jsrepl_a_b_x-20240102-030405.000000006.log" {
		t.Errorf("LogPath = %s", p)
	}
}

func mustBig(s string) *big.Int {
	n, _ := new(big.Int).SetString(s, 10)
	return n
}
