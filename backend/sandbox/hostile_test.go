package sandbox

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// Values that would recurse until Go's stack overflows (a fatal error no
// recover catches, ending the whole app with every session in it) come
// back as errors the program sees.
func TestDeepAndCyclicValuesAreErrorsNotCrashes(t *testing.T) {
	echo := hostfn.Builtin{Name: "echo", Params: []hostfn.Param{{Name: "value"}}, Fn: func(ctx context.Context, a map[string]any) (any, error) { return "ok", nil }}
	in, err := New(Options{}, []hostfn.Builtin{echo})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, code, want string }{
		{"a list containing itself", "a = []\na.append(a)\necho(a)", "contains itself"},
		{"a dict containing itself", "d = {}\nd['x'] = d\necho(d)", "contains itself"},
		{"a million levels", "x = []\nfor i in range(1000000):\n    x = [x]\necho(x)", "more than 200 levels"},
		{"json three million levels", "import json\njson.loads('[' * 3000000 + ']' * 3000000)", "RecursionError"},
		{"json.dumps of a cycle", "import json\na = []\na.append(a)\njson.dumps(a)", "circular reference"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := in.Exec(context.Background(), tc.code, nil)
			if r.Err == nil || !strings.Contains(r.Err.Message, tc.want) {
				t.Fatalf("err = %+v, want one saying %q", r.Err, tc.want)
			}
		})
	}
	// Shallow data still passes, and Python's own depth limit for JSON holds.
	if r := in.Exec(context.Background(), "import json\necho(json.loads('[' * 150 + ']' * 150))\nprint(len(json.loads('[' * 999 + ']' * 999)))", nil); r.Err != nil || r.Output != "1\n" {
		t.Fatalf("shallow data: %q %+v", r.Output, r.Err)
	}
}

// The pre-pass counts against the block's wall limit and ends with Stop:
// one line holding 20,000 `**` rewrites keeps it quadratic in that line
// (minutes of work), and before, neither the limit nor Stop reached it.
func TestPrepassIsBoundedByTheWallLimitAndStop(t *testing.T) {
	in, err := New(Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := "x = [" + strings.Repeat("a ** 2, ", 20000) + "]\n"
	r := in.ExecWith(context.Background(), src, nil, Limits{Wall: 300 * time.Millisecond})
	if r.Err == nil || r.Err.Phase != PhaseTimeout {
		t.Fatalf("wall limit: %+v", r.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := in.Exec(ctx, src, nil); r.Err == nil || r.Err.Phase != PhaseCancelled {
		t.Fatalf("stop: %+v", r.Err)
	}
}

// A block that keeps allocating is stopped at its memory limit instead of
// growing the app until the machine gives out.
func TestMemoryLimitStopsAGrowingBlock(t *testing.T) {
	in, err := New(Options{MemoryLimit: 64 << 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// At most 2 GB if nothing stopped it.
	r := in.Exec(context.Background(), "a = []\nfor i in range(2000):\n    a.append('x' * 1000000)\nprint('kept', len(a))", nil)
	if r.Err == nil || r.Err.Phase != PhaseLimit || !strings.Contains(r.Err.Message, "memory limit 64 MB exceeded") {
		t.Fatalf("err = %+v, output %q", r.Err, r.Output)
	}
	// The session goes on; a small block is not affected.
	if r := in.Exec(context.Background(), "a = None\nprint(sum([i for i in range(1000)]))", nil); r.Err != nil || r.Output != "499500\n" {
		t.Fatalf("after the limit: %q %+v", r.Output, r.Err)
	}
}

// The block's own limit (the turn's sandbox.memory_limit_mb) wins over the
// interpreter's, and the error names where it was set and how to raise it.
func TestMemoryLimitPerBlock(t *testing.T) {
	in, err := New(Options{MemoryLimit: 4 << 30}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{Memory: 64 << 20, MemoryWhere: "sandbox.memory_limit_mb: 64 in /h/config.yml", MemoryHint: "or raise sandbox.memory_limit_mb"}
	r := in.ExecWith(context.Background(), "a = []\nfor i in range(2000):\n    a.append('x' * 1000000)", nil, lim)
	if r.Err == nil || r.Err.Phase != PhaseLimit ||
		!strings.HasPrefix(r.Err.Message, "memory limit 64 MB exceeded (sandbox.memory_limit_mb: 64 in /h/config.yml): the block grew the heap by ") ||
		!strings.HasSuffix(r.Err.Hint, "; or raise sandbox.memory_limit_mb") {
		t.Fatalf("err = %+v", r.Err)
	}
}

// A block's growth is measured from the live heap, not from the heap with
// the garbage an earlier block left: with 300 MB of garbage not yet
// collected when it starts, a block growing by up to 300 MB is stopped at
// its 64 MB limit (the soak saw a bomb run into its wall limit instead).
func TestMemoryLimitIgnoresEarlierGarbage(t *testing.T) {
	in, err := New(Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	old := debug.SetGCPercent(-1) // keep the garbage until the block starts
	garbage := make([][]byte, 0, 300)
	for range 300 {
		garbage = append(garbage, make([]byte, 1<<20))
	}
	garbage = nil
	debug.SetGCPercent(old)
	// 300 MB at most, slowly enough (a busy loop per MB) for the watcher's
	// polls: measured from the garbage it would never reach the limit.
	lim := Limits{Memory: 64 << 20, Wall: time.Minute}
	r := in.ExecWith(context.Background(), "a = []\nfor i in range(300):\n    a.append('x' * 1000000)\n    for j in range(20000):\n        pass\nprint('grew')", nil, lim)
	if r.Err == nil || !strings.HasPrefix(r.Err.Message, "memory limit 64 MB exceeded") {
		t.Fatalf("err = %+v, output %q", r.Err, r.Output)
	}
	_ = garbage
}

// A tool that panics (a bug in Vis) fails that call; the program sees an
// error and the process lives on.
func TestPanickingToolIsAnError(t *testing.T) {
	bad := hostfn.Builtin{Name: "bad", Fn: func(ctx context.Context, a map[string]any) (any, error) {
		var m map[string]int
		m["x"] = 1 // assignment to entry in nil map
		return nil, nil
	}}
	in, err := New(Options{}, []hostfn.Builtin{bad})
	if err != nil {
		t.Fatal(err)
	}
	r := in.Exec(context.Background(), "bad()", nil)
	if r.Err == nil || !strings.Contains(r.Err.Message, "internal error in bad") {
		t.Fatalf("err = %+v", r.Err)
	}
	if r := in.Exec(context.Background(), "print(1 + 1)", nil); r.Output != "2\n" {
		t.Fatalf("after the panic: %q %+v", r.Output, r.Err)
	}
}
