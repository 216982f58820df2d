package langtools

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/sandbox"
)

// A verb's own timeout_ms extends the running block up to its ceiling: the
// block runs past its base limit, a timeout_ms above the ceiling reaches the
// pack cut down (keyword or options dict) and the result says so, and one
// that is not a number is left for the pack.
func TestTimeoutMsExtendsTheBlock(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, python)
	var s Surface
	s.Set(fx.facade(ext.LanguageCount{Language: "python", Files: 1}))
	in, err := sandbox.New(sandbox.Options{}, WithTimeouts(s.Builtins()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	roomy := sandbox.Limits{Wall: 200 * time.Millisecond, Max: time.Minute}

	// Without timeout_ms the base limit stops the block (the control).
	r := in.ExecWith(ctx, "r = run_tests('python')\ntime.sleep(0.6)\nprint('end')", nil, roomy)
	if r.Err == nil || r.Err.Phase != sandbox.PhaseTimeout {
		t.Fatalf("without timeout_ms: want a timeout, got %s", r.Wire())
	}
	// With it the same block completes, and nothing was capped.
	r = in.ExecWith(ctx, "r = run_tests('python', {'timeout_ms': 1500})\ntime.sleep(0.6)\nprint(r.get('timeout_note'), 'end')", nil, roomy)
	if r.Err != nil || r.Output != "None end\n" {
		t.Fatalf("with timeout_ms: %s", r.Wire())
	}
	if got, _ := fx.rec.last(); got.Opts["timeout_ms"] != int64(1500) {
		t.Errorf("the pack saw timeout_ms %v, want 1500 as given", got.Opts["timeout_ms"])
	}

	tight := sandbox.Limits{Wall: 200 * time.Millisecond, Max: 500 * time.Millisecond, MaxWhere: "sandbox.max_wall_limit_seconds: 0.5 in test"}
	for _, code := range []string{
		"r = run_tests(paths=['tests/test_a.py'], timeout_ms=3600000)\nprint(r['timeout_note'])",
		"r = repl_eval('python', {'code': '1', 'timeout_ms': 3600000})\nprint(r['timeout_note'])",
		"r = lint_code('python', {'timeout_ms': 3600000}, timeout_ms=3600000)\nprint(r['timeout_note'])",
	} {
		r = in.ExecWith(ctx, code, nil, tight)
		if r.Err != nil {
			t.Fatalf("%s: %s", code, r.Wire())
		}
		for _, want := range []string{"the timeout asked for (1h0m0s) was capped at ", "a program block may run at most 500ms (sandbox.max_wall_limit_seconds: 0.5 in test)"} {
			if !strings.Contains(r.Output, want) {
				t.Errorf("%s: the result's note lacks %q:\n%s", code, want, r.Output)
			}
		}
		got, _ := fx.rec.last()
		if ms, ok := got.Opts["timeout_ms"].(int64); !ok || ms <= 0 || ms >= 500 {
			t.Errorf("%s: the pack saw timeout_ms %v, want it cut below the 500 ms ceiling", code, got.Opts["timeout_ms"])
		}
	}

	r = in.ExecWith(ctx, "r = run_tests('python', {'timeout_ms': 'soon'})\nprint(r.get('timeout_note'))", nil, tight)
	if r.Err != nil || r.Output != "None\n" {
		t.Fatalf("a non-number timeout_ms: %s", r.Wire())
	}
	if got, _ := fx.rec.last(); got.Opts["timeout_ms"] != "soon" {
		t.Errorf("the pack saw timeout_ms %v, want it untouched", got.Opts["timeout_ms"])
	}
}
