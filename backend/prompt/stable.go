package prompt

import (
	"errors"
	"strings"

	"github.com/visdesktop/vis/backend/chat"
)

// StableOptions are the inputs of the stable prefix besides the Env.
type StableOptions struct {
	// System feeds the SYSTEM-PROMPT block.
	System SystemOptions
	// Fragments are the active extensions' prompt texts, computed once at
	// turn start.
	Fragments []Fragment
	// Shims is the SANDBOX-SHIMS text; empty means DefaultShims.
	Shims string
	// SessionBlock is the rendered standing `session = {…}` block
	// (SessionBlock); it rides as its own untagged system message.
	SessionBlock string
}

// StableMessages assembles the stable provider prefix (spec §2.2): system
// messages in exactly this order, blank ones dropped:
//
//	SYSTEM-PROMPT         BuildSystemPrompt
//	CLI-AUTONOMOUS        only when env.Channel is ChannelCLI
//	PROJECT-INSTRUCTIONS  ProjectInstructions
//	TURN-SYSTEM-CONTEXT   TurnSystemContext(o.Fragments, o.Shims)
//	session block         o.SessionBlock, untagged
//
// The prefix depends only on its inputs and the prompt files, so it stays
// byte-identical across the turns of a session while they do not change.
// Warnings name prompt files that were skipped (blank or unreadable); they
// never stop assembly.
func StableMessages(env Env, o StableOptions) ([]chat.Message, []string) {
	system, warnings := BuildSystemPrompt(env, o.System)
	cli := ""
	if env.Channel == ChannelCLI {
		cli = Block("cli-autonomous", CLIAutonomous)
	}
	instructions, err := ProjectInstructions(env)
	if err != nil {
		warnings = append(warnings, splitErrors(err)...)
	}
	shims := o.Shims
	if strings.TrimSpace(shims) == "" {
		shims = DefaultShims
	}
	contents := []string{
		Block("system-prompt", system),
		cli,
		instructions,
		TurnSystemContext(o.Fragments, shims),
		strings.TrimSpace(o.SessionBlock),
	}
	msgs := make([]chat.Message, 0, len(contents))
	for _, c := range contents {
		if strings.TrimSpace(c) != "" {
			msgs = append(msgs, chat.System(c))
		}
	}
	return msgs, warnings
}

// splitErrors flattens a joined error into one message per cause.
func splitErrors(err error) []string {
	var j interface{ Unwrap() []error }
	if errors.As(err, &j) {
		var out []string
		for _, e := range j.Unwrap() {
			out = append(out, e.Error())
		}
		return out
	}
	return []string{err.Error()}
}
