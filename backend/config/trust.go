package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/workspace"
)

// Project trust. A project's vis.yml, .vis/config.yml and .vis/SYSTEM.md
// come from whoever wrote the repository. What they may change without the
// person's say is what a project normally carries (instructions, time
// limits, stricter permissions); what changes how the model's replies are
// executed or replaces what the model is told — the providers' model
// entries (tools, vision, context, ...), a replacing system_prompt, a
// SYSTEM.md, MCP servers (they start programs) — waits until the person trusts the folder once:
// `trusted_projects` in $VIS_HOME/config.yml (the window's "Trust this
// folder" writes it there too, through settings.json) or `vis run
// --trust-project`. Until then those settings are held back and named in
// one warning.

// Trusted says whether the workspace dir is in list (paths compared after ~
// expansion and symlink resolution).
func Trusted(list []string, dir string) bool {
	if dir == "" {
		return false
	}
	want := workspace.Canonical(dir)
	home := homedir.Dir()
	for _, p := range list {
		if workspace.Canonical(homedir.Expand(p, home)) == want {
			return true
		}
	}
	return false
}

// holdUntrusted removes from a project file's map what waits for trust and
// returns their names (for the one warning).
func holdUntrusted(m map[string]any) []string {
	var held []string
	if ps, ok := m["providers"].([]any); ok && len(ps) > 0 {
		for _, p := range ps {
			pm, _ := p.(map[string]any)
			id := fmt.Sprint(pm["id"])
			keys := make([]string, 0, len(pm))
			for k := range pm {
				if k != "id" {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			held = append(held, fmt.Sprintf("providers[%s].{%s}", id, strings.Join(keys, ",")))
		}
		delete(m, "providers")
	}
	held = append(held, heldMCP(m)...) // a project's MCP servers start programs
	if sp, ok := m["system_prompt"].(map[string]any); ok {
		if r, _ := sp["replace"].(bool); r {
			delete(m, "system_prompt")
			held = append(held, "system_prompt (replace: true)")
		}
	}
	return held
}

// TrustWarning is the one warning for a project's held-back settings.
func TrustWarning(workspace string, held []string) string {
	return fmt.Sprintf("This project's settings that change how the model is run are ignored until you trust the folder: %s. Trust %s in the window, add it to trusted_projects in $VIS_HOME/config.yml, or run vis run --trust-project.",
		strings.Join(held, ", "), workspace)
}
