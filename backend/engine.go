// Package backend is the transport-agnostic API both fronts (the Wails window
// in app/ and the headless CLI in app/cli/) use. An Engine owns the store, the
// event broker and one runner per session; turns of one session run one at a
// time.
package backend

import (
	"time"

	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
)

// Channels a turn can run in. The CLI channel adds the CLI-AUTONOMOUS block.
const (
	ChannelDesktop = "desktop"
	ChannelCLI     = "cli"
	// ChannelShell marks a person's `!cmd` turn (no model involved).
	ChannelShell = "shell"
)

// SessionInfo summarises one session for lists.
type SessionInfo struct {
	ID        string    `json:"id"`
	Workspace string    `json:"workspace"`
	Title     string    `json:"title"`
	Turns     int       `json:"turns"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
	// ForkOf is the session this one was forked from (Fork), with how
	// many of its turns it started with; "" for a session of its own.
	ForkOf    string `json:"fork_of,omitempty"`
	ForkTurns int    `json:"fork_turns,omitempty"`
}

// CallView is one python_execution call of an iteration: its program, what
// it printed, why it failed and the tools it called. It is the program-call
// record itself, defined once in events (the loop stores it, the
// form-result event carries it, the transcript reads it back).
type CallView = events.CallRecord

// CallError is why one program failed.
type CallError = events.CallError

// ToolView is one tool the program called (a card in the transcript).
type ToolView = events.ToolCall

// IterationView is one provider round trip and the program it ran.
type IterationView struct {
	Position   int        `json:"position"`
	Status     string     `json:"status"`
	Code       string     `json:"code,omitempty"`
	Output     string     `json:"output,omitempty"`
	Error      string     `json:"error,omitempty"`
	Prose      string     `json:"prose,omitempty"`
	Reasoning  string     `json:"reasoning,omitempty"`
	Answer     string     `json:"answer,omitempty"`
	Model      string     `json:"model,omitempty"`
	Usage      chat.Usage `json:"usage"`
	DurationMs int64      `json:"duration_ms"`
	// Calls are the iteration's programs one by one (Code and Output above
	// join them).
	Calls []CallView `json:"calls"`
	// Images its programs' tools returned (an MCP tool's screenshot),
	// fetched like the turn's (Engine.Image).
	Images []ImageRef `json:"images,omitempty"`
}

// ImageRef names an image attached to a turn; the window fetches its bytes
// by ID (Engine.Image).
type ImageRef struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	MediaType string `json:"media_type"`
	Size      int64  `json:"size"`
}

// TurnView is one user request and what came of it.
type TurnView struct {
	Position   int             `json:"position"`
	Channel    string          `json:"channel"` // desktop, cli or shell (a person's !cmd)
	Request    string          `json:"request"`
	Status     string          `json:"status"`
	Answer     string          `json:"answer,omitempty"`
	Error      string          `json:"error,omitempty"`
	Usage      chat.Usage      `json:"usage"`
	DurationMs int64           `json:"duration_ms"`
	Started    time.Time       `json:"started"`
	Iterations []IterationView `json:"iterations"`
	Images     []ImageRef      `json:"images"`
	// What the turn changed in the workspace's files (checkpoints.go);
	// absent when it ran no program.
	Changes *TurnChanges `json:"changes,omitempty"`
	// What gave way in the turn's request to fit the model's context
	// window (contextfold.go); absent when it fitted.
	ContextFold *events.ContextCompaction `json:"context_fold,omitempty"`
}

// Transcript is a session snapshot; Seq is the broker sequence number at the
// time it was read, so a client applies only events with a higher Seq.
type Transcript struct {
	Session SessionInfo `json:"session"`
	Turns   []TurnView  `json:"turns"`
	Seq     int64       `json:"seq"`
	// Questions waiting for the person now (approvals.go): a program
	// waits at a call the sandbox refused.
	Questions []events.Approval `json:"questions,omitempty"`
}

// SendRequest asks for one turn. SessionID empty starts a new session in
// Workspace. Model and BaseURL override the configured ones for this turn.
type SendRequest struct {
	SessionID string
	Workspace string
	Text      string
	Channel   string
	Model     string
	BaseURL   string
	// Images offered with the message (dropped, pasted, picked, --image);
	// image paths written in Text are attached too.
	Images []attach.Input

	wait           bool // a foreground caller (Run) waits for the turn
	queueElsewhere bool // Input.Wait: queue behind another process instead of refusing
}

// TurnResult is the outcome of one turn.
type TurnResult struct {
	SessionID  string     `json:"session_id"`
	Turn       int        `json:"turn"`
	Status     string     `json:"status"` // done, error, cancelled, halted
	Answer     string     `json:"answer"`
	Error      string     `json:"error,omitempty"`
	Iterations int        `json:"iterations"`
	Usage      chat.Usage `json:"usage"`
}
