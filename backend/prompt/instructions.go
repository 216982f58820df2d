package prompt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/visdesktop/vis/backend/homedir"
	"github.com/visdesktop/vis/backend/workspace"
)

// instructionsHeader opens the PROJECT-INSTRUCTIONS body.
const instructionsHeader = "Project instructions from the AGENTS.md / CLAUDE.md guidance chain. " +
	"Broader files come first and nearer files override them. " +
	"CORE wins on conflict: the SYSTEM-PROMPT rules above take precedence over anything below."

// guidanceScope says where in the chain a guidance file was found.
type guidanceScope int

const (
	scopeGlobal guidanceScope = iota
	scopeAncestor
	scopeWorkspace
)

func (s guidanceScope) label() string {
	switch s {
	case scopeGlobal:
		return "user-global"
	case scopeAncestor:
		return "ancestor directory"
	default:
		return "workspace root"
	}
}

// ProjectInstructions renders the PROJECT-INSTRUCTIONS block (spec §2.5): the
// guidance chain $VIS_HOME, then every directory from the filesystem root
// down to the workspace's parent, then the workspace root. In each directory
// AGENTS.md wins and CLAUDE.md is read only when AGENTS.md is absent. Each file
// is shown in full under `### <NAME> (<scope>) — <path with ~>` after a header
// sentence saying broader files come first, nearer ones override and CORE wins.
// The workspace path is resolved through symlinks first; a directory reached
// twice (say $VIS_HOME lies on the chain) is read once.
//
// It returns "" when no guidance exists. Files that cannot be read are left
// out and named in the returned error, which never hides the text of the
// files that could be read: callers should use the text and log the error.
func ProjectInstructions(env Env) (string, error) {
	type dir struct {
		path  string
		scope guidanceScope
	}
	var dirs []dir
	if env.VisHome != "" {
		dirs = append(dirs, dir{workspace.Canonical(env.VisHome), scopeGlobal})
	}
	if env.Workspace != "" {
		ws := workspace.Canonical(env.Workspace)
		var chain []string
		for d := ws; ; {
			chain = append(chain, d)
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
		for i := len(chain) - 1; i >= 0; i-- {
			s := scopeAncestor
			if i == 0 {
				s = scopeWorkspace
			}
			dirs = append(dirs, dir{chain[i], s})
		}
	}

	seen := map[string]bool{}
	var sections []string
	var errs []error
	for _, d := range dirs {
		if seen[d.path] {
			continue
		}
		seen[d.path] = true
		for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
			p := filepath.Join(d.path, name)
			b, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("read guidance %s: %w", p, err))
				break // a present but unreadable AGENTS.md still shadows CLAUDE.md
			}
			body := strings.Trim(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
			if strings.TrimSpace(body) != "" {
				sections = append(sections, fmt.Sprintf("### %s (%s) — %s\n%s",
					name, d.scope.label(), homedir.Tilde(p, env.UserHome), strings.TrimRight(body, " \t\n")))
			}
			break
		}
	}
	if len(sections) == 0 {
		return "", errors.Join(errs...)
	}
	body := instructionsHeader + "\n\n" + strings.Join(sections, "\n\n")
	return Block("project-instructions", body), errors.Join(errs...)
}
