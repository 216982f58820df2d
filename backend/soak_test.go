package backend

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// TestSoak is the reliability soak (make soak; docs/RELIABILITY.md): 500
// turns (VIS_SOAK_TURNS) of issue 16's hostile programs and provider faults
// mixed with ordinary turns, in one engine, one SQLite file, one process,
// against the scripted fake LLM, four sessions in two workspaces (a 2 s
// wall limit for the time-limit faults, 60 s for the others; a 64 MB
// memory limit and a 1 s provider idle timeout for all). Each turn must
// end as its fault says
// (runFault), the database must pass SQLite's integrity check, and at the
// end nothing may have leaked: goroutines and open descriptors back to
// where they were after the warm-up (a slack of soakSlack for the idle
// connections and timers of the moment, far below one per turn), no child
// process of the app nor any process carrying one of its reaping-ledger
// tokens, and after Close the goroutines back to before the engine opened.
// It reports peak RSS, the counts before and after and the turns by
// outcome; VIS_SOAK_REPORT names a file to write the report to as well.
func TestSoak(t *testing.T) {
	if os.Getenv("VIS_SOAK") == "" {
		t.Skip("the soak run takes minutes: VIS_SOAK=1 go test -run TestSoak ./backend -timeout 60m (make soak)")
	}
	turns := 500
	if n, err := strconv.Atoi(os.Getenv("VIS_SOAK_TURNS")); err == nil && n > 0 {
		turns = n
	}
	start := time.Now()
	g0 := runtime.NumGoroutine()
	llm := providertest.New()
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yml"), []byte(faultHomeConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "vis.yml"), []byte("sandbox: {wall_limit_seconds: 2, memory_limit_mb: 64}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The time-limit faults run in sessions of ws (a 2 s wall limit); the
	// others in sessions of roomy (60 s): the soak's sessions keep hundreds
	// of MB alive (what stopped bombs and deep lists assigned stays in their
	// variables), and on a loaded machine building a million-deep list or a
	// GC of that heap can take longer than 2 s.
	roomy := t.TempDir()
	if err := os.WriteFile(filepath.Join(roomy, "vis.yml"), []byte("sandbox: {wall_limit_seconds: 60, memory_limit_mb: 64}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	timed := func(f fault) bool { return slices.Contains(f.says, "wall limit of 2s") }
	e := openEngine(t, llm, home)
	ctx := context.Background()
	faults := hostileFaults()
	for i := range faults {
		for k, s := range faults[i].says {
			if s == faultWall {
				faults[i].says[k] = "wall limit of 2s" // ws's own limit
			}
		}
	}
	good := []fault{
		{name: "an ordinary program", replies: []providertest.Reply{{Code: "xs = [i * i for i in range(1000)]\nprint(sum(xs))"}, ok}, status: "done", says: []string{"332833500"}},
		{name: "files and shell", replies: []providertest.Reply{{Code: "write('n.txt', 'hello')\nprint(cat('n.txt'))\nprint(shell('echo hi')['output'])"}, ok}, status: "done", says: []string{"hi"}},
		{name: "an answer", replies: []providertest.Reply{{Content: []string{"just ", "words"}}}, status: "done"},
	}

	// Warm-up: four sessions, each fault once, so pools, caches and lazy
	// goroutines exist before the baseline.
	var fast, slow []string // sessions in ws and in roomy
	for range 2 {
		id, _ := runFault(t, e, llm, ws, "", good[0])
		fast = append(fast, id)
		id, _ = runFault(t, e, llm, roomy, "", good[0])
		slow = append(slow, id)
	}
	sessionFor := func(f fault, i int) string {
		if timed(f) {
			return fast[i%len(fast)]
		}
		return slow[i%len(slow)]
	}
	for i, f := range faults {
		runFault(t, e, llm, ws, sessionFor(f, i), f)
	}
	base := settle(t, e, measure(e), measure(e), 0)

	rng := rand.New(rand.NewPCG(16, 500))
	outcomes := map[string]int{}
	byFault := map[string]int{}
	took := map[string]time.Duration{}
	hwmBy := map[string]int64{} // how much each fault raised the process's high-water mark
	var peakRSS int64
	for i := range turns {
		var f fault
		if rng.IntN(3) == 0 {
			f = good[rng.IntN(len(good))]
		} else {
			f = faults[rng.IntN(len(faults))]
		}
		hwm, t0 := procStatus("VmHWM"), time.Now()
		_, res := runFault(t, e, llm, ws, sessionFor(f, rng.IntN(2)), f)
		took[f.name] += time.Since(t0)
		hwmBy[f.name] += procStatus("VmHWM") - hwm
		outcomes[res.Status]++
		byFault[f.name]++

		peakRSS = max(peakRSS, procStatus("VmRSS"))
		if (i+1)%50 == 0 {
			if err := e.store.IntegrityCheck(ctx); err != nil {
				t.Fatalf("after %d turns: %v", i+1, err)
			}
			m := measure(e)
			t.Logf("soak: %d/%d turns, %s, RSS %d MiB, %d goroutines, %d fds, %d children", i+1, turns, time.Since(start).Round(time.Second), m.rss>>10, m.goroutines, m.fds, len(m.children))
		}
	}
	intact := e.store.IntegrityCheck(ctx)
	after := settle(t, e, base, measure(e), 60*time.Second)
	e.Close()
	llm.Close()
	gEnd := settleGoroutines(g0, 30*time.Second)

	var rep strings.Builder
	fmt.Fprintf(&rep, "soak: %d turns in %s (one process, one SQLite file, the fake LLM)\n", turns, time.Since(start).Round(time.Second))
	fmt.Fprintf(&rep, "peak RSS: %d MiB during the turns (VmRSS sampled after each turn); VmHWM %d MiB over the whole test process\n", peakRSS>>10, procStatus("VmHWM")>>10)
	fmt.Fprintf(&rep, "goroutines: %d after warm-up, %d after the turns; %d before Open, %d after Close\n", base.goroutines, after.goroutines, g0, gEnd)
	fmt.Fprintf(&rep, "open fds: %d after warm-up, %d after the turns\n", base.fds, after.fds)
	fmt.Fprintf(&rep, "child processes: %d after warm-up, %d after the turns; ledger-token carriers alive: %d; ledger entries on disk: %d\n",
		len(base.children), len(after.children), len(after.carriers), after.ledger)
	fmt.Fprintf(&rep, "integrity_check: %v\n", okOr(intact))
	fmt.Fprintf(&rep, "turns by outcome: %v\n", outcomes)
	names := make([]string, 0, len(byFault))
	for n := range byFault {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&rep, "  %3d × %s (%s in all%s)\n", byFault[n], n, took[n].Round(100*time.Millisecond), hwmNote(hwmBy[n]))
	}
	t.Log("\n" + rep.String())
	if p := os.Getenv("VIS_SOAK_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(rep.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if intact != nil {
		t.Error(intact)
	}
	if after.goroutines > base.goroutines+soakSlack {
		t.Errorf("goroutines leaked: %d after the turns, %d after warm-up", after.goroutines, base.goroutines)
	}
	if after.fds > base.fds+soakSlack {
		t.Errorf("file descriptors leaked: %d after the turns, %d after warm-up", after.fds, base.fds)
	}
	if len(after.children) > 0 || len(after.carriers) > 0 {
		t.Errorf("child processes outlived their turns: children %v, ledger-token carriers %v", after.children, after.carriers)
	}
	if gEnd > g0+soakSlack {
		t.Errorf("goroutines leaked past Close: %d, %d before Open\n%s", gEnd, g0, goroutineDump())
	}
}

// soakSlack is how much above the baseline a count may end: the idle
// keep-alive connections and pending timers of the moment, not per turn.
const soakSlack = 8

type soakFigures struct {
	goroutines, fds int
	rss             int64 // KiB
	children        []int // live descendants of this process
	carriers        []int // live processes carrying one of the engine's ledger tokens
	ledger          int   // ledger entries on disk
}

func measure(e *Engine) soakFigures {
	f := soakFigures{goroutines: runtime.NumGoroutine(), rss: procStatus("VmRSS")}
	if des, err := os.ReadDir("/proc/self/fd"); err == nil {
		f.fds = len(des) - 1 // the directory's own
	}
	f.children = descendants(os.Getpid())
	tokens := map[string]bool{}
	if des, err := os.ReadDir(e.ledgerDir()); err == nil {
		f.ledger = len(des)
		for _, d := range des {
			tokens[d.Name()] = true
		}
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + p.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if tok, ok := bytes.CutPrefix(kv, []byte("VIS_REAP=")); ok && tokens[string(tok)] {
				f.carriers = append(f.carriers, pid)
			}
		}
	}
	return f
}

// settle waits up to d for the counts to come back to base (timers and
// connections of the last turn closing), then returns what it measured.
func settle(t *testing.T, e *Engine, base, now soakFigures, d time.Duration) soakFigures {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) && (now.goroutines > base.goroutines || now.fds > base.fds || len(now.children) > 0 || len(now.carriers) > 0) {
		time.Sleep(250 * time.Millisecond)
		now = measure(e)
	}
	return now
}

func settleGoroutines(want int, d time.Duration) int {
	deadline := time.Now().Add(d)
	n := runtime.NumGoroutine()
	for n > want && time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// descendants lists the live descendants of pid (from /proc's ppid links).
func descendants(pid int) []int {
	parent := map[int]int{}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		n, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + p.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		fs := strings.Fields(string(b[i+1:]))
		if len(fs) < 2 || fs[0] == "Z" {
			continue
		}
		parent[n], _ = strconv.Atoi(fs[1])
	}
	var out []int
	for n := range parent {
		for p := parent[n]; p > 1; p = parent[p] {
			if p == pid {
				out = append(out, n)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// procStatus reads a kB figure of /proc/self/status (VmRSS, VmHWM).
func procStatus(key string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

func hwmNote(kib int64) string {
	if kib < 1024 {
		return ""
	}
	return fmt.Sprintf("; raised the RSS high-water mark by %d MiB", kib>>10)
}

func okOr(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

func goroutineDump() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}
