package backend

import (
	"fmt"
	"path/filepath"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/sandbox"
)

// blockLimits are the limits of a turn's program blocks, from the
// turn's resolved configuration (so an edited config.yml or vis.yml
// applies from the next turn): the wall limit, the ceiling a call's own
// timeout may extend a block to, where both are configured and how to
// raise them; how much of a block's output the transcript keeps; and how
// much the block may grow the heap, where that is set and how to raise it.
func blockLimits(cfg *config.Config, home string) sandbox.Limits {
	sb := cfg.Sandbox
	return sandbox.Limits{
		Wall:        sb.WallLimit(),
		Max:         sb.MaxWallLimit(),
		KeepOutput:  sb.KeepOutput(),
		WallWhere:   sb.Describe(config.KeyWallLimit),
		MaxWhere:    sb.Describe(config.KeyMaxWallLimit),
		Memory:      sb.MemoryLimit(),
		MemoryWhere: sb.Describe(config.KeyMemoryLimit),
		MemoryHint: fmt.Sprintf("if the work really needs more, raise %s in %s or the workspace's vis.yml (applies from the next turn)",
			config.KeyMemoryLimit, filepath.Join(home, "config.yml")),
		Hint: fmt.Sprintf("raise %s in %s, or in the workspace's vis.yml or .vis/config.yml (a changed value applies from the next turn); "+
			"or give the slow call its own timeout (timeout_ms= on run_tests, lint_code, format_code, repl_eval; timeout= seconds on shell), "+
			"which extends this block up to %s (%s); otherwise do less per block — globals persist between blocks",
			config.KeyWallLimit, filepath.Join(home, "config.yml"), sb.MaxWallLimit(), config.KeyMaxWallLimit),
	}
}
