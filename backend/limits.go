package backend

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/tools"
)

// blockLimits are the time limits of a turn's program blocks, from the
// turn's resolved configuration (so an edited config.yml or vis.yml
// applies from the next turn): the wall limit, the ceiling a call's own
// timeout may extend a block to, where both are configured and how to
// raise them.
func blockLimits(cfg *config.Config, home string) sandbox.Limits {
	sb := cfg.Sandbox
	return sandbox.Limits{
		Wall:      sb.WallLimit(),
		Max:       sb.MaxWallLimit(),
		WallWhere: sb.Describe(config.KeyWallLimit),
		MaxWhere:  sb.Describe(config.KeyMaxWallLimit),
		Hint: fmt.Sprintf("raise %s in %s, or in the workspace's vis.yml or .vis/config.yml (a changed value applies from the next turn); "+
			"or give the slow call its own timeout (timeout_ms= on run_tests, lint_code, format_code, repl_eval; timeout= seconds on shell), "+
			"which extends this block up to %s (%s); otherwise do less per block — globals persist between blocks",
			config.KeyWallLimit, filepath.Join(home, "config.yml"), sb.MaxWallLimit(), config.KeyMaxWallLimit),
	}
}

// withShellBudget makes shell's own timeout (seconds) extend the running
// block as timeout_ms does for the language verbs: the block may last
// until the command's timeout has passed, up to the block's ceiling; a
// timeout above what the ceiling leaves is cut to it and the result's
// timeout_note says so. A timeout shell itself refuses is left for shell
// to report.
func withShellBudget(bs []sandbox.Builtin) []sandbox.Builtin {
	for i := range bs {
		if bs[i].Name != "shell" {
			continue
		}
		fn := bs[i].Fn
		bs[i].Fn = func(ctx context.Context, args map[string]any) (any, error) {
			var secs float64
			switch n := args["timeout"].(type) {
			case int64:
				secs = float64(n)
			case float64:
				secs = n
			default:
				return fn(ctx, args)
			}
			if math.IsNaN(secs) || secs <= 0 || secs > tools.MaxShellTimeout.Seconds() {
				return fn(ctx, args)
			}
			g := sandbox.ExtendDeadline(ctx, time.Duration(secs*float64(time.Second)))
			if !g.Capped {
				return fn(ctx, args)
			}
			capped := make(map[string]any, len(args))
			for k, v := range args {
				capped[k] = v
			}
			capped["timeout"] = g.Budget.Seconds()
			res, err := fn(ctx, capped)
			if m, ok := res.(map[string]any); ok && err == nil {
				m["timeout_note"] = g.Note
			}
			return res, err
		}
	}
	return bs
}
