package langtools

import (
	"context"
	"math"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// timeoutVerbs are the verbs whose timeout_ms option is the call's own
// time budget.
var timeoutVerbs = map[string]bool{ext.VerbFormat: true, ext.VerbLint: true, ext.VerbTest: true, ext.VerbEval: true}

// maxTimeoutMs bounds what is read as a budget (a Duration overflows past
// ~292 years); any ceiling caps far below it.
const maxTimeoutMs = 1e12

// WithTimeouts makes a verb's own timeout_ms (a keyword, or a key of the
// options dict) extend the running program block: the block may last until
// that budget has passed, up to the block's ceiling
// (hostfn.ExtendDeadline). A timeout_ms above what the ceiling leaves is
// cut to it before the pack sees it, and the result's timeout_note says so.
// A timeout_ms that is not a positive number is left for the pack to
// refuse. Other builtins pass through unchanged.
func WithTimeouts(bs []hostfn.Builtin) []hostfn.Builtin {
	for i := range bs {
		if !timeoutVerbs[bs[i].Name] {
			continue
		}
		fn := bs[i].Fn
		bs[i].Fn = func(ctx context.Context, args map[string]any) (any, error) {
			want := timeoutOf(args)
			pos, _ := args[hostfn.VarArgs].([]any)
			for _, p := range pos {
				if m, ok := p.(map[string]any); ok {
					want = max(want, timeoutOf(m))
				}
			}
			if want <= 0 {
				return fn(ctx, args)
			}
			g := hostfn.ExtendDeadline(ctx, want)
			if !g.Capped {
				return fn(ctx, args)
			}
			res, err := fn(ctx, capTimeout(args, g.Budget))
			if m, ok := res.(map[string]any); ok && err == nil {
				m["timeout_note"] = g.Note
			}
			return res, err
		}
	}
	return bs
}

// timeoutOf reads m's timeout_ms as a duration; 0 when absent or not a
// positive number.
func timeoutOf(m map[string]any) time.Duration {
	var ms float64
	switch n := m["timeout_ms"].(type) {
	case int64:
		ms = float64(n)
	case float64:
		ms = n
	default:
		return 0
	}
	if math.IsNaN(ms) || ms <= 0 {
		return 0
	}
	return time.Duration(min(ms, maxTimeoutMs) * float64(time.Millisecond))
}

// capTimeout returns args with every timeout_ms above budget (keyword or
// options dict) set to budget; the maps it changes are copies.
func capTimeout(args map[string]any, budget time.Duration) map[string]any {
	ms := max(budget.Milliseconds(), 1)
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	if timeoutOf(args) > budget {
		out["timeout_ms"] = ms
	}
	if pos, ok := args[hostfn.VarArgs].([]any); ok {
		np := make([]any, len(pos))
		for i, p := range pos {
			if m, ok := p.(map[string]any); ok && timeoutOf(m) > budget {
				cp := make(map[string]any, len(m))
				for k, v := range m {
					cp[k] = v
				}
				cp["timeout_ms"] = ms
				p = cp
			}
			np[i] = p
		}
		out[hostfn.VarArgs] = np
	}
	return out
}
