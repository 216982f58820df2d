// Package prompt assembles the provider messages of one turn, as seed 000
// describes: the stable system prefix (SYSTEM-PROMPT, CLI-AUTONOMOUS,
// PROJECT-INSTRUCTIONS, TURN-SYSTEM-CONTEXT, the standing `session = {…}`
// block), the one user message of a turn (CONVERSATION-SO-FAR,
// CURRENT-USER-MESSAGE, ATTACHED-IMAGES), the optional REASONING-VIA-COMMENTS
// nudge for models without native reasoning, and the rendering of the
// model-facing `session` dict and its `session[...] = …` deltas.
//
// Contract:
//   - Every function is pure apart from reading a few prompt files
//     (SYSTEM.md, APPEND_SYSTEM.md, AGENTS.md, CLAUDE.md) named by an Env.
//     There is no package state, no network and no goroutine; all functions
//     are safe for concurrent use.
//   - Output is deterministic: the same inputs and the same files give
//     byte-identical messages, so the provider's prefix cache keeps hitting.
//   - Prompt assembly never fails a turn. A missing prompt file is simply
//     absent; an unreadable or blank one is skipped and reported as a warning
//     (BuildSystemPrompt, StableMessages) or as a joined error next to the
//     text that could be read (ProjectInstructions).
//
// Block format (spec §2.1): a header line `;; -- TAG --`, the body and a
// guaranteed trailing newline; a blank body gives no block at all.
package prompt

import (
	"strings"
	"unicode"

	"github.com/visdesktop/vis/backend/chat"
)

// Channels understood by the assembler. Only ChannelCLI changes the prompt (it
// adds the CLI-AUTONOMOUS block).
const (
	ChannelDesktop = "desktop"
	ChannelCLI     = "cli"
)

// Env names the places prompt files are read from and the front the turn
// runs in.
type Env struct {
	// Workspace is the project root; its .vis/ holds SYSTEM.md and
	// APPEND_SYSTEM.md, and it ends the AGENTS.md chain.
	Workspace string
	// VisHome is $VIS_HOME (default ~/.vis): SYSTEM.md, APPEND_SYSTEM.md and
	// the user-global AGENTS.md live here. Empty means none.
	VisHome string
	// UserHome is shown as "~" in paths the model sees. Empty means paths are
	// shown as they are.
	UserHome string
	// Channel is ChannelCLI or ChannelDesktop.
	Channel string
}

// Block renders one tagged prompt block: `;; -- TAG --`, a newline, body and a
// trailing newline. The tag is upper-cased with "_" turned into "-". A blank
// body gives "" (no block).
func Block(tag, body string) string {
	if strings.TrimSpace(body) == "" {
		return ""
	}
	t := strings.ToUpper(strings.ReplaceAll(tag, "_", "-"))
	var b strings.Builder
	b.Grow(len(t) + len(body) + 12)
	b.WriteString(";; -- ")
	b.WriteString(t)
	b.WriteString(" --\n")
	b.WriteString(body)
	if !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}

// Normalize cleans prompt text that comes from configs, files and extensions:
// line endings become "\n", trailing spaces and tabs are cut from every line,
// leading and trailing blank lines are dropped, the indentation common to all
// non-blank lines is removed (relative indentation is kept), and every run of
// blank lines becomes one blank line, so no "\n\n\n" survives. The result has
// no trailing newline; blank input gives "".
func Normalize(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	indent := -1
	for _, l := range lines {
		if l == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l == "" {
			if out[len(out)-1] != "" {
				out = append(out, "")
			}
			continue
		}
		out = append(out, l[indent:])
	}
	return strings.Join(out, "\n")
}

// StableText joins the text of messages with blank lines and normalizes the
// result. It is for token estimates and debugging only; the provider always
// receives the message list itself.
func StableText(msgs []chat.Message) string {
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if t := m.Text(); strings.TrimSpace(t) != "" {
			parts = append(parts, t)
		}
	}
	return Normalize(strings.Join(parts, "\n\n"))
}

// EstimateTokens is a cheap local token estimate: one token per four bytes of
// UTF-8, rounded up. English prose and code run at about 3.5–4.5 bytes per
// token with the common BPE vocabularies, and multi-byte scripts cost more
// bytes per token, so the figure errs on the high side. It is used to budget
// before a request; the provider's reported usage is the truth after it.
func EstimateTokens(s string) int {
	return (len(s) + 3) / 4
}

// oneLine collapses every run of whitespace to one space, trims, and caps the
// result at max runes (the last one an ellipsis when cut).
func oneLine(s string, max int) string {
	s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}

// joinNonBlank joins the non-blank parts with sep.
func joinNonBlank(sep string, parts ...string) string {
	keep := parts[:0:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
