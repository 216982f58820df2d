package prompt

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CoreSystemPrompt is the built-in base of the SYSTEM-PROMPT block, written
// for our surface: one provider tool, python_execution, whose programs are
// Starlark with the sandbox functions as tools. It is the base unless a
// SYSTEM.md file or a replacing config prompt takes its place.
//
//go:embed core_system_prompt.md
var CoreSystemPrompt string

// CLIAutonomous is the body of the CLI-AUTONOMOUS block, sent only on the
// headless `vis run` channel: nobody is there to answer a question or approve
// an action, so the model assumes, finishes, and leaves anything destructive
// to a human.
const CLIAutonomous = `NON-INTERACTIVE ONE-SHOT RUN — no human is watching this run and nothing can be approved while it lasts.
- Keep going until you can give a finished prose answer. Nobody will answer a question before the run ends, so do not stop to ask one.
- When the request is ambiguous in an ordinary way, pick the most reasonable reading, state that assumption in one sentence in your answer, and complete the work.
- Never do destructive or irreversible work that would need someone's confirmation (deleting data, force pushes, publishing, messaging people). Take a safe, reversible path instead; if there is none, finish and name the exact action that is blocked and the confirmation it needs.`

// SystemOptions are the caller's and the config's contributions to the
// system prompt.
type SystemOptions struct {
	// Addendum is the caller's text appended after the base.
	Addendum string
	// ConfigText is the config's system_prompt text.
	ConfigText string
	// ConfigReplace is the config's map form with replace set: ConfigText
	// becomes the base instead of CoreSystemPrompt (unless a SYSTEM.md file
	// wins).
	ConfigReplace bool
	// ProjectUntrusted holds back <workspace>/.vis/SYSTEM.md (a cloned
	// repository replacing what the model is told) until the person trusts
	// the folder; a warning names it. APPEND_SYSTEM.md still applies.
	ProjectUntrusted bool
}

// BuildSystemPrompt assembles the SYSTEM-PROMPT body (spec §2.4). The base is
// the first of <workspace>/.vis/SYSTEM.md, $VIS_HOME/SYSTEM.md, the config
// text when ConfigReplace is set, and CoreSystemPrompt. After it come, in
// order: the caller's addendum, the config text (when it does not replace),
// $VIS_HOME/APPEND_SYSTEM.md and <workspace>/.vis/APPEND_SYSTEM.md, so the
// nearest text lands closest to the conversation. Parts are normalized and
// joined with blank lines; blank parts are dropped. A replacing config text is
// dropped when a SYSTEM.md file already replaced the base, as in Vis.
//
// Files that are absent are skipped silently; files that are blank or cannot
// be read are skipped and named in warnings. It never fails.
func BuildSystemPrompt(env Env, o SystemOptions) (prompt string, warnings []string) {
	read := func(path string) string {
		if path == "" {
			return ""
		}
		text, warn := readPromptFile(path)
		if warn != "" {
			warnings = append(warnings, warn)
		}
		return text
	}
	wsDir, homeDir := "", ""
	if env.Workspace != "" {
		wsDir = filepath.Join(env.Workspace, ".vis")
	}
	if env.VisHome != "" {
		homeDir = env.VisHome
	}
	join := func(dir, name string) string {
		if dir == "" {
			return ""
		}
		return filepath.Join(dir, name)
	}

	base := ""
	if ws := join(wsDir, "SYSTEM.md"); o.ProjectUntrusted && ws != "" {
		if text, _ := readPromptFile(ws); text != "" {
			warnings = append(warnings, fmt.Sprintf("%s would replace the system prompt: it applies after you trust this folder (the window's Trust button, trusted_projects in $VIS_HOME/config.yml, or vis run --trust-project)", ws))
		}
	} else {
		base = read(ws)
	}
	if base == "" {
		base = read(join(homeDir, "SYSTEM.md"))
	}
	fileReplaced := base != ""
	cfg := Normalize(o.ConfigText)
	cfgAppend := ""
	switch {
	case !o.ConfigReplace:
		cfgAppend = cfg
	case !fileReplaced && cfg != "":
		base = cfg
	}
	if base == "" {
		base = strings.TrimSpace(CoreSystemPrompt)
	}
	prompt = joinNonBlank("\n\n",
		base,
		Normalize(o.Addendum),
		cfgAppend,
		read(join(homeDir, "APPEND_SYSTEM.md")),
		read(join(wsDir, "APPEND_SYSTEM.md")),
	)
	return prompt, warnings
}

// readPromptFile reads and normalizes one Markdown prompt file. It returns
// ("", "") when the file does not exist and ("", warning) when it is blank,
// not a regular file or unreadable.
func readPromptFile(path string) (text, warning string) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", ""
	case err != nil:
		return "", fmt.Sprintf("prompt file %s ignored: %v", path, err)
	}
	text = Normalize(string(b))
	if text == "" {
		return "", fmt.Sprintf("prompt file %s ignored: it is blank", path)
	}
	return text, ""
}
