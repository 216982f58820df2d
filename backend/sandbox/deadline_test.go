package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// extendBuiltin is a tool with its own timeout: it asks the sandbox for
// ms milliseconds and returns what it was granted.
func extendBuiltin() hostfn.Builtin {
	return hostfn.Builtin{
		Name: "slow_tool", Doc: "A tool with its own timeout.", Params: []hostfn.Param{{Name: "timeout_ms", Required: true}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			g := hostfn.ExtendDeadline(ctx, time.Duration(args["timeout_ms"].(int64))*time.Millisecond)
			return map[string]any{"budget_ms": g.Budget.Milliseconds(), "capped": g.Capped, "note": g.Note}, nil
		},
	}
}

// The limits given to ExecWith bound that block, whatever Options say: a
// block sleeping past them is stopped with phase "timeout" and an error
// naming the limit, where it is configured and how to raise it; with a
// bigger limit the same block completes, on the same interpreter.
func TestExecWithLimitsBoundTheBlock(t *testing.T) {
	t.Parallel()
	in := newInterp(t, Options{WallLimit: time.Hour})
	const code = "print('start')\ntime.sleep(2)\nprint('end')"
	lim := Limits{Wall: 200 * time.Millisecond, WallWhere: "wall_limit: 0.2 in test.yml", Hint: "raise wall_limit in test.yml"}
	r := in.ExecWith(context.Background(), code, nil, lim)
	if r.Err == nil || r.Err.Phase != PhaseTimeout {
		t.Fatalf("want a timeout under a 200 ms limit, got %s", r.Wire())
	}
	if r.Output != "start\n" {
		t.Errorf("output before the timeout = %q", r.Output)
	}
	for _, want := range []string{"the block ran longer than its wall limit of 200ms (wall_limit: 0.2 in test.yml)", "hint: raise wall_limit in test.yml"} {
		if !strings.Contains(r.Wire(), want) {
			t.Errorf("timeout error lacks %q:\n%s", want, r.Wire())
		}
	}
	r = in.ExecWith(context.Background(), "time.sleep(0.4)\nprint('end')", nil, Limits{Wall: time.Minute})
	if r.Err != nil || r.Output != "end\n" {
		t.Fatalf("with a one-minute limit the block should complete, got %s", r.Wire())
	}
	// Exec keeps the Options' limit.
	if r := in.Exec(context.Background(), "time.sleep(0.4)\nprint('end')", nil); r.Err != nil {
		t.Fatalf("Exec under the Options' hour: %s", r.Wire())
	}
}

// A builtin's ExtendDeadline lets the block run past its base limit, up to
// the ceiling and never beyond.
func TestExtendDeadlineUpToTheCeiling(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		code      string
		lim       Limits
		wantPhase string // "" = completes
		wantOut   string
		wantMsg   string
	}{
		{
			name: "without an extension the base limit stops the block",
			code: "print('start')\ntime.sleep(0.6)\nprint('end')",
			lim:  Limits{Wall: 200 * time.Millisecond, Max: time.Minute}, wantPhase: PhaseTimeout, wantOut: "start\n",
			wantMsg: "the block ran longer than its wall limit of 200ms",
		},
		{
			name: "an extension carries the block past its base limit",
			code: "g = slow_tool(1500)\nprint(g['capped'], g['budget_ms'])\ntime.sleep(0.6)\nprint('end')",
			lim:  Limits{Wall: 200 * time.Millisecond, Max: time.Minute}, wantOut: "False 1500\nend\n",
		},
		{
			name: "the ceiling caps the extension and stops the block",
			code: "g = slow_tool(60000)\nprint(g['capped'], g['budget_ms'] < 500)\nprint(g['note'])\ntime.sleep(2)\nprint('end')",
			lim:  Limits{Wall: 200 * time.Millisecond, Max: 500 * time.Millisecond, MaxWhere: "max: 0.5 in test.yml"}, wantPhase: PhaseTimeout,
			wantOut: "True True\nthe timeout asked for (1m0s) was capped at ",
			wantMsg: "extended for slow_tool's own timeout up to the ceiling of 500ms (max: 0.5 in test.yml)",
		},
		{
			name: "a ceiling below the wall limit allows no extension",
			code: "g = slow_tool(60000)\nprint(g['capped'])\ntime.sleep(2)",
			lim:  Limits{Wall: 200 * time.Millisecond, Max: 50 * time.Millisecond}, wantPhase: PhaseTimeout, wantOut: "True\n",
			wantMsg: "the block ran longer than its wall limit of 200ms",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := newInterp(t, Options{}, extendBuiltin())
			r := in.ExecWith(context.Background(), tt.code, nil, tt.lim)
			switch {
			case tt.wantPhase == "" && r.Err != nil:
				t.Fatalf("want completion, got %s", r.Wire())
			case tt.wantPhase != "" && (r.Err == nil || r.Err.Phase != tt.wantPhase):
				t.Fatalf("want phase %s, got %s", tt.wantPhase, r.Wire())
			}
			if !strings.HasPrefix(r.Output, tt.wantOut) {
				t.Errorf("output = %q, want it to start with %q", r.Output, tt.wantOut)
			}
			if tt.wantMsg != "" && !strings.Contains(r.Err.Message, tt.wantMsg) {
				t.Errorf("message = %q, want it to contain %q", r.Err.Message, tt.wantMsg)
			}
		})
	}
}

// The block's ctx reports the deadline as extended (packs fit their own
// budgets to it), an extension never moves it earlier, and outside a block
// ExtendDeadline grants the request unchanged.
func TestExtendDeadlineMovesCtxDeadlineLaterOnly(t *testing.T) {
	t.Parallel()
	var before, afterLong, afterShort time.Time
	in := newInterp(t, Options{}, hostfn.Builtin{Name: "probe", Fn: func(ctx context.Context, _ map[string]any) (any, error) {
		before, _ = ctx.Deadline()
		hostfn.ExtendDeadline(ctx, time.Hour)
		afterLong, _ = ctx.Deadline()
		hostfn.ExtendDeadline(ctx, time.Millisecond)
		afterShort, _ = ctx.Deadline()
		return nil, nil
	}})
	if r := in.ExecWith(context.Background(), "probe()", nil, Limits{Wall: time.Minute, Max: 2 * time.Hour}); r.Err != nil {
		t.Fatal(r.Wire())
	}
	if !afterLong.After(before) {
		t.Errorf("deadline %v did not move later than %v after a one-hour request", afterLong, before)
	}
	if !afterShort.Equal(afterLong) {
		t.Errorf("a shorter request moved the deadline from %v to %v", afterLong, afterShort)
	}
	if g := hostfn.ExtendDeadline(context.Background(), time.Hour); g.Budget != time.Hour || g.Capped {
		t.Errorf("outside a block: %+v", g)
	}
}

// A block stopped while a builtin runs names it, and the builtin's ctx is
// cancelled so it returns.
func TestTimeoutNamesTheRunningBuiltin(t *testing.T) {
	t.Parallel()
	in := newInterp(t, Options{}, hostfn.Builtin{Name: "wait_forever", Fn: func(ctx context.Context, _ map[string]any) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	r := in.ExecWith(context.Background(), "wait_forever()", nil, Limits{Wall: 100 * time.Millisecond})
	if r.Err == nil || r.Err.Phase != PhaseTimeout || !strings.Contains(r.Err.Message, "wait_forever was still running") {
		t.Fatalf("got %s", r.Wire())
	}
}
