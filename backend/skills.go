package backend

import (
	"context"
	"strings"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/skills"
)

// The person's skills (issue 19, backend/skills): every turn's plan lists
// the skills of $VIS_HOME/skills and, once trusted, <workspace>/.vis/skills
// by name and description in TURN-SYSTEM-CONTEXT (a built-in fragment, so
// the block order of seed 000 is kept); the sandbox's `skill("name")` reads
// a skill's instructions and file list when the model asks, so a skill's
// body is never in the prompt until then. The builtin reads the folders at
// the call: a skill added or edited mid-turn is seen.

const skillDoc = `Load one of the person's skills (listed under "Skills" in your system context) before doing the task it covers.
skill("name") returns {"name", "description", "source": "home"|"project", "dir", "instructions": SKILL.md's text, "files": its other files, relative to dir}.
skill("name", file="path") returns that file's text (paths relative to the skill's folder; the file functions cannot reach a home skill's folder).
Follow the instructions; when they name a file, read it with skill(name, file=...).`

// skillsTurn is the turn's fragment listing the skills (none when there
// are none); a skipped skill is reported as a warning.
func (e *Engine) skillsTurn(sid, workspace string, trusted bool) []prompt.Fragment {
	ss, warnings := skills.Load(e.home, workspace, trusted)
	for _, w := range warnings {
		e.broker.Publish(events.Event{SessionID: sid, Data: events.Warning{Message: w}})
	}
	if text := skills.Summary(ss); text != "" {
		return []prompt.Fragment{{Name: "skills", Builtin: true, Text: text}}
	}
	return nil
}

// skillBuiltin is the sandbox's skill(name, file=None).
func (e *Engine) skillBuiltin(rt *sessionRT) hostfn.Builtin {
	return hostfn.Builtin{
		Name:   "skill",
		Doc:    skillDoc,
		Params: []hostfn.Param{{Name: "name", Required: true}, {Name: "file"}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			name, _ := args["name"].(string)
			file, _ := args["file"].(string)
			ss, _ := skills.Load(e.home, rt.workspace, e.trusted(rt.workspace))
			s, ok := skills.Find(ss, strings.TrimSpace(name))
			if !ok {
				msg := "no skill named " + strings.TrimSpace(name)
				hint := "the person has no skills"
				if len(ss) > 0 {
					hint = "skills: " + strings.Join(skills.Names(ss), ", ")
				}
				return nil, &hostfn.ToolError{Message: msg, Hint: hint}
			}
			if file != "" {
				text, err := s.ReadFile(file)
				if err != nil {
					return nil, &hostfn.ToolError{Message: err.Error()}
				}
				return text, nil
			}
			body, err := s.Instructions()
			if err != nil {
				return nil, &hostfn.ToolError{Message: err.Error()}
			}
			files, truncated, err := s.Files()
			if err != nil {
				return nil, &hostfn.ToolError{Message: err.Error()}
			}
			if files == nil {
				files = []string{}
			}
			out := map[string]any{"name": s.Name, "description": s.Description, "source": s.Source, "dir": s.Dir, "instructions": body, "files": files}
			if truncated {
				out["files_truncated"] = true
			}
			return out, nil
		},
	}
}
