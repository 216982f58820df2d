package backend

import (
	"context"
	"fmt"
	"strings"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/userprompts"
)

// The person's own slash commands (issue 19): prompt files in
// $VIS_HOME/prompts and, once the folder is trusted, <workspace>/.vis/prompts
// (backend/userprompts). Dispatch classifies `/name args` as a command; a
// name that is no built-in and names a prompt file becomes a model turn
// whose request is the file's body with the arguments put in, so the
// transcript shows the expanded text as the person's message. Built-ins
// win over a file of the same name (/help says so).

// trusted says whether workspace's project files apply (config.yml's and
// settings.json's trusted_projects, or Options.TrustProject). A config
// that does not load trusts nothing.
func (e *Engine) trusted(workspace string) bool {
	if workspace == "" {
		return false
	}
	cfg, err := config.LoadTrusting(e.home, workspace, e.getenv, e.trustProject)
	return err == nil && cfg.ProjectTrusted
}

// userPrompts lists the prompt files of workspace ("" = the home's only).
func (e *Engine) userPrompts(workspace string) ([]userprompts.Prompt, []string) {
	ws := canonical(workspace)
	return userprompts.Load(e.home, ws, e.trusted(ws))
}

// isBuiltinCommand: name (with the slash) is one of the engine's commands.
func isBuiltinCommand(name string) bool {
	for _, c := range slashCommands {
		if c.Name == name {
			return true
		}
	}
	return false
}

// expandUserCommand turns `/name args` into the prompt file's text for the
// session's workspace (a new session's: workspace). ok false: no such file.
func (e *Engine) expandUserCommand(ctx context.Context, sessionID, workspace, name, text string) (string, bool, error) {
	if sessionID != "" {
		s, err := e.store.GetSession(ctx, sessionID)
		if err != nil {
			return "", false, fmt.Errorf("session %s: %w", sessionID, err)
		}
		workspace = s.Workspace
	}
	ps, warnings := e.userPrompts(workspace)
	p, ok := userprompts.Find(ps, name)
	if !ok {
		return "", false, nil
	}
	for _, w := range warnings {
		e.broker.Publish(events.Event{SessionID: sessionID, Data: events.Warning{Message: w}})
	}
	t := strings.TrimSpace(text)
	args := strings.TrimSpace(t[len(name):]) // classify matched name at the start
	out := strings.TrimSpace(p.Expand(args))
	if out == "" {
		return "", true, fmt.Errorf("the prompt file %s is empty", p.Path)
	}
	return out, true, nil
}

// SlashCommandsIn lists the commands the composer offers in workspace:
// the built-ins, then the prompt files (home, and the project's once
// trusted) not shadowed by a built-in.
func (e *Engine) SlashCommandsIn(workspace string) []SlashCommand {
	out := append([]SlashCommand(nil), slashCommands...)
	ps, _ := e.userPrompts(workspace)
	for _, p := range ps {
		if isBuiltinCommand("/" + p.Name) {
			continue
		}
		out = append(out, SlashCommand{Name: "/" + p.Name, Usage: p.Usage(), Summary: p.Description, Source: p.Source, Path: p.Path})
	}
	return out
}

// helpFor is /help's text in workspace: the built-ins, the prompt files
// (and any a built-in shadows), `!cmd`.
func (e *Engine) helpFor(workspace string) string {
	ps, warnings := e.userPrompts(workspace)
	var b strings.Builder
	b.WriteString(helpText())
	if len(ps) > 0 {
		b.WriteString("\nYour prompt files (a built-in command wins over a file of the same name):\n")
		for _, p := range ps {
			if isBuiltinCommand("/" + p.Name) {
				fmt.Fprintf(&b, "- `/%s` — not available: the built-in /%s wins over %s\n", p.Name, p.Name, p.Path)
				continue
			}
			fmt.Fprintf(&b, "- `%s` — %s (%s, %s)\n", p.Usage(), p.Description, p.Source, p.Path)
		}
	} else {
		fmt.Fprintf(&b, "\nYour own commands: Markdown files in %s (and the project's .vis/prompts once the folder is trusted); `$ARGUMENTS` and `$1`…`$9` take what follows the name.\n", userprompts.Dirs(e.home, "", false)[0])
	}
	for _, w := range warnings {
		b.WriteString("- skipped: " + w + "\n")
	}
	return b.String()
}

// helpWorkspace is the workspace /help describes: the session's, else the
// new session's.
func (e *Engine) helpWorkspace(ctx context.Context, sessionID, workspace string) string {
	if sessionID != "" {
		if s, err := e.store.GetSession(ctx, sessionID); err == nil {
			return s.Workspace
		}
	}
	return workspace
}
