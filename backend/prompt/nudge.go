package prompt

import (
	"strings"

	"github.com/visdesktop/vis/backend/chat"
)

// ReasoningViaComments is the body of the REASONING-VIA-COMMENTS message: a
// scratchpad in code comments for models without a native thinking channel,
// plus the operating rules weaker models most often break, restated short and
// imperative (spec §2.8, adapted to our functions: `cat` numbers lines and
// `patch` takes a unique snippet or a line range, so there are no anchors).
const ReasoningViaComments = `You have no separate reasoning channel, so reason in the code: begin every python_execution program with # comment lines that state the goal, the approach and the edge cases, then write the code that does it.

Operating rules:
1. Reply in one of two shapes: a python_execution call to act, or plain text with no tool call to finish. The final answer is a short summary; never paste raw tool output into it.
2. Search the whole repository first (grep from the root), then narrow to the files that matter.
3. Only the functions listed in the system prompt exist. Never invent a function, and never claim an action you did not run.
4. Edit with patch(path, old=..., new=...) where old occurs exactly once in the file, or with patch(path, start=..., end=..., new=...) using line numbers from a fresh cat. After any write to a file, cat it again before the next line-range patch.
5. Look at session and at real output before guessing. Read an error to its end. After two failures, change the approach.
6. When the functions cannot do what is asked, say so plainly.
7. Nothing is echoed for you: print() what you need to see, and keep it small. Empty output means you forgot to print.
8. Do not overthink. Act as soon as a read answers the question, and run code or tests rather than reasoning about what they would do.
9. Drive the work to the end yourself; propose a plan first only when the work is big, risky or ambiguous.`

// NeedsReasoningNudge reports whether the REASONING-VIA-COMMENTS message
// belongs in the request: a reasoning level was requested (level is not
// empty, "none" or "off") and the model has no native reasoning.
func NeedsReasoningNudge(level string, modelReasons bool) bool {
	switch strings.ToLower(strings.TrimSpace(level)) {
	case "", "none", "off":
		return false
	}
	return !modelReasons
}

// WithReasoningNudge returns a copy of msgs with one system message tagged
// REASONING-VIA-COMMENTS inserted after the leading run of system messages,
// before the conversation (first when msgs does not start with a system
// message). msgs itself is not modified.
func WithReasoningNudge(msgs []chat.Message) []chat.Message {
	at := 0
	for at < len(msgs) && msgs[at].Role == chat.RoleSystem {
		at++
	}
	out := make([]chat.Message, 0, len(msgs)+1)
	out = append(out, msgs[:at]...)
	out = append(out, chat.System(Block("reasoning-via-comments", ReasoningViaComments)))
	return append(out, msgs[at:]...)
}
