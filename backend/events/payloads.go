package events

import (
	"encoding/json"
	"time"
)

// Payload is the data of one phase: one of the structs of this file. Phase
// names the phase it belongs to; Publish stamps it on the event.
//
// The json tags are the wire keys of the CLI's --json output and of the
// window's events, and the page's TypeScript types (frontend/src/lib/
// events.gen.ts) are generated from these structs by tools/tsgen: a key
// renamed here changes both, and the generated file's test fails until it
// is regenerated. A key without omitempty is always sent.
type Payload interface{ Phase() string }

// Payloads lists every payload, one value per phase in the order of the
// phase constants (reasoning and content share Delta). tools/tsgen
// generates the page's types from it; the tests check that it covers every
// phase once.
func Payloads() []Payload {
	return []Payload{
		TurnStart{}, ProviderCall{}, ProviderRetry{}, Delta{Reasoning: true}, Delta{},
		ToolPreview{}, AssistantProse{}, FormStart{}, ToolStart{}, ToolEnd{}, ToolOutput{}, FormResult{},
		IterationFinal{}, IterationError{}, TurnEnd{}, SessionChanged{}, Warning{}, Goal{},
		Packs{}, Resources{}, Queue{}, Approval{},
	}
}

// TurnStart: a turn began, a model's or a person's !cmd.
type TurnStart struct {
	// The person's text as typed.
	Request string `json:"request"`
	// The model's name; empty for a !cmd.
	Model string `json:"model"`
	// desktop, cli, or shell (a !cmd).
	Channel string `json:"channel"`
}

// ProviderCall: a request to the model is about to be sent; each one
// starts an iteration (a repeat after a context overflow starts it over).
type ProviderCall struct {
	Model string `json:"model"`
	// user-submit, tool-result, iteration-error, empty-reply,
	// goal-continuation or context-overflow.
	Reason string `json:"reason"`
}

// ProviderRetry: the provider failed and the request is retried after a
// wait.
type ProviderRetry struct {
	// 1 for the first retry.
	Attempt int    `json:"attempt"`
	DelayMs int64  `json:"delay_ms"`
	Error   string `json:"error"`
}

// Delta: a streamed fragment of the model's reasoning or of its reply's
// text (lossy: the cumulative text repairs a dropped one).
type Delta struct {
	// The new fragment.
	Delta string `json:"delta"`
	// Everything streamed so far of this kind in this iteration.
	Text string `json:"text"`
	// Reasoning picks the phase: reasoning, else content.
	Reasoning bool `json:"-"`
}

// ToolPreview: the arguments of the index-th program of the reply while
// they stream (lossy).
type ToolPreview struct {
	Index int `json:"index"`
	// The program's code so far.
	Code string `json:"code"`
}

// AssistantProse: the prose of a reply that also called programs, or a
// goal turn's progress note.
type AssistantProse struct {
	Text string `json:"text"`
	// A goal turn's prose that is progress, not the answer: the turn goes on.
	Progress bool `json:"progress,omitempty"`
}

// FormStart: a program starts running (shell: a person's !cmd).
type FormStart struct {
	// Empty for a !cmd.
	CallID string `json:"call_id"`
	Code   string `json:"code"`
	// Its place among the reply's programs (as in tool-preview).
	Index int  `json:"index"`
	Shell bool `json:"shell,omitempty"`
}

// CallRecord is one program an iteration ran (or refused) and what came of
// it. The loop stores an iteration's records as a JSON array
// (iterations.tool_calls_json), the transcript reads them back, and
// form-result sends one as it finishes.
type CallRecord struct {
	CallID string `json:"call_id"`
	Code   string `json:"code"`
	// What the program printed (clipped to the sandbox's output limit:
	// output_clipped).
	Output string `json:"output"`
	// Output is the head of what the program printed, cut at the model's
	// limit; the rest is kept apart (kept_bytes) for "open full output".
	OutputClipped bool `json:"output_clipped,omitempty"`
	// How many bytes the program printed in all (absent in records older
	// than this field, and when it printed nothing).
	OutputBytes int `json:"output_bytes,omitempty"`
	// How many of them are kept apart when output_clipped; below
	// output_bytes when the keep cap (sandbox.keep_output_bytes) cut them
	// too.
	KeptBytes  int   `json:"kept_bytes,omitempty"`
	DurationMs int64 `json:"duration_ms"`
	// Why it failed; absent when it did not.
	Error *CallError `json:"error,omitempty"`
	// The tools it called, in order; kept in the stored record (the
	// form-result event leaves them out: tool-start/tool-end sent them).
	Tools []ToolCall `json:"tools,omitempty"`
	// Running: a program of the running iteration that has not finished
	// (only in a transcript snapshot taken while it runs).
	Running bool `json:"running,omitempty"`
	// SandboxRefused: the OS sandbox refused something the program's
	// tools started (the first such tool's sentence); the window offers
	// to run the program again without the sandbox.
	SandboxRefused string `json:"sandbox_refused,omitempty"`
	// SandboxAsked: the person was asked at the call (the window's "ask"
	// setting) and answered "approved" (it ran again there, without the
	// sandbox), "declined" or "unanswered"; absent when nobody was asked.
	SandboxAsked string `json:"sandbox_asked,omitempty"`
}

// CallError is why a program failed.
type CallError struct {
	// syntax, runtime, tool, timeout, cancelled, limit, unsupported, or
	// preflight (refused before it ran).
	Phase   string `json:"phase"`
	Message string `json:"message"`
	// 1-based line in the program; 0 when unknown.
	Line int    `json:"line"`
	Hint string `json:"hint"`
}

// UnmarshalJSON also reads the records of older versions, whose error was
// a plain string: it becomes Message, with Phase "error".
func (c *CallError) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var msg string
		if err := json.Unmarshal(b, &msg); err != nil {
			return err
		}
		*c = CallError{Phase: "error", Message: msg}
		return nil
	}
	type plain CallError // without this method
	return json.Unmarshal(b, (*plain)(c))
}

// ToolCall is one tool a program called.
type ToolCall struct {
	Name string `json:"name"`
	// The arguments as one short Python-like line.
	Args       string `json:"args"`
	DurationMs int64  `json:"duration_ms"`
	Error      string `json:"error,omitempty"`
	// Why the OS sandbox refused what the call started (a confined
	// shell command's "Permission denied" outside the workspace).
	SandboxRefused string `json:"sandbox_refused,omitempty"`
	// SandboxAsked: the person's answer when the call asked to run the
	// refused command without the sandbox (approved, declined, unanswered).
	SandboxAsked string `json:"sandbox_asked,omitempty"`
}

// ToolStart: a program called a tool.
type ToolStart struct {
	Name string `json:"name"`
	// The arguments as one short Python-like line.
	Args string `json:"args"`
}

// ToolEnd: the tool returned.
type ToolEnd struct {
	Name       string `json:"name"`
	DurationMs int64  `json:"duration_ms"`
	Error      string `json:"error,omitempty"`
}

// ToolOutput: lines the children of a running tool printed (a test run's
// progress, a shell command's output), batched a few times a second. Lossy:
// Tail, the newest lines so far, repairs a dropped event. Only the live
// view: what the tool returns to the program is in its result.
type ToolOutput struct {
	Name string `json:"name"`
	// The lines since the previous tool-output event (the newest of them
	// when there were too many).
	Lines []string `json:"lines"`
	// The newest lines so far, oldest first.
	Tail []string `json:"tail"`
	// How many lines the tool's children have printed so far.
	Count int `json:"count"`
}

// FormResult: a program finished, or was refused before it ran (error
// phase preflight), or a person's !cmd finished (shell, with exit_code).
type FormResult struct {
	CallRecord
	// The output was cut to the sandbox's limit.
	Clipped bool `json:"clipped"`
	// A !cmd's exit code.
	ExitCode *int `json:"exit_code,omitempty"`
	Shell    bool `json:"shell,omitempty"`
}

// IterationFinal: an iteration ended without an error.
type IterationFinal struct {
	// The turn ends here: final is its answer.
	Done  bool   `json:"done"`
	Final string `json:"final,omitempty"`
	// A session goal stopped the turn; final says why.
	Halted bool `json:"halted,omitempty"`
	// The iteration was a goal turn's progress note.
	Progress bool `json:"progress,omitempty"`
}

// IterationError: an iteration failed (the provider's error, an empty
// reply, an iteration that could not be saved).
type IterationError struct {
	Error string `json:"error"`
	// The provider error's kind, or empty, store, unknown.
	Kind string `json:"kind"`
	// What a person can act on (provider.Code*: server_down, auth,
	// model_not_found, tls, timeout, ...); empty when not the provider's.
	Code string `json:"code,omitempty"`
	// Empty replies in a row.
	Streak int `json:"streak,omitempty"`
}

// TurnEnd: a turn ended; the session is free when it arrives.
type TurnEnd struct {
	// done, error, cancelled or halted.
	Status string `json:"status"`
	Answer string `json:"answer"`
	// Why the turn failed, in one sentence that says what to do when the
	// provider failed (no Go error text).
	Error string `json:"error"`
	// The provider failure's code (as iteration-error's); empty otherwise.
	ErrorCode  string `json:"error_code,omitempty"`
	Iterations int    `json:"iterations"`
	Usage      Usage  `json:"usage"`
	DurationMs int64  `json:"duration_ms"`
	// What the turn changed in the workspace's files (its checkpoint);
	// absent when it ran no program.
	Changes *TurnChanges `json:"changes,omitempty"`
}

// TurnChanges is what a turn changed in the workspace's files, from its
// checkpoints: "N files changed +A −D".
type TurnChanges struct {
	Files   int `json:"files"`
	Added   int `json:"added"`
	Deleted int `json:"deleted"`
	// An undo turn: the turn it undid (undoing this one redoes that).
	UndoOf int `json:"undo_of,omitempty"`
	// The undo turn that undid this turn, when one did.
	UndoneBy int `json:"undone_by,omitempty"`
}

// Usage is the token count of a turn (chat.Usage's wire shape).
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CachedTokens    int `json:"cached_tokens,omitempty"`
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// SessionChanged: the session's stored state changed (a turn ended, a
// fold); reload its snapshot. It has no fields.
type SessionChanged struct{}

// Warning: something the person should see and that is not stored (a
// config file ignored, an image not sent, the context window full).
type Warning struct {
	Message string `json:"message"`
	// Something failed (else a notice).
	Error bool `json:"error,omitempty"`
	// What gave way in the turn's request to fit the context window: the
	// turn's marker in the transcript (TurnView's context_fold after a
	// reload).
	Context *ContextCompaction `json:"context,omitempty"`
	// No banner: the turn's marker only (a long session's recap folded
	// again, as the turn before it was).
	Quiet bool `json:"quiet,omitempty"`
}

// ContextCompaction is what gave way in a turn's request to fit the
// model's window, in all so far in the turn. The order it gives way in:
// this turn's older outputs, the programs of earlier turns, the middle of
// the newest outputs, earlier turns' requests and answers cut to their
// heads, and only as the last resort earlier turns whole, their answers
// with them.
type ContextCompaction struct {
	// This turn's settled outputs replaced by a stub.
	OutputsDropped int `json:"outputs_dropped"`
	// Earlier turns whose programs the recap folded (requests and answers
	// kept).
	ProgramsFolded int `json:"programs_folded"`
	// Outputs of the newest iteration clipped in the middle.
	OutputsClipped int `json:"outputs_clipped"`
	// Earlier turns whose requests and answers keep only their heads
	// (every turn and answer still there).
	AnswersShortened int `json:"answers_shortened"`
	// Earlier turns dropped from the recap whole, answers too.
	TurnsDropped int `json:"turns_dropped"`
	// The request's estimated size afterwards.
	RequestTokens int `json:"request_tokens"`
	// One sentence for people: "Earlier programs folded to fit the
	// context: 4 turns (1–4); every answer kept."
	Note string `json:"note"`
}

// Goal: a session goal was written.
type Goal struct {
	Goal GoalState `json:"goal"`
	// The goal's revision (clients keep the highest seen).
	Revision int64 `json:"revision"`
}

// GoalState is a session goal as stored (goals.Goal's wire shape).
type GoalState struct {
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	Objective string `json:"objective"`
	// active, paused, blocked, complete, cancelled, budget_limited, cleared.
	Status string `json:"status"`
	// null: no goal-specific limit.
	IterationBudget *int64 `json:"iteration_budget"`
	IterationsUsed  int64  `json:"iterations_used"`
	// Input + output tokens; statistics only.
	TokensUsed int64 `json:"tokens_used"`
	// Wall time of turns working on the active goal.
	TimeUsedMs int64 `json:"time_used_ms"`
	// +1 on every status change.
	Version int64 `json:"version"`
	// +1 on every write.
	Revision int64     `json:"revision"`
	Created  time.Time `json:"created_at"`
	Updated  time.Time `json:"updated_at"`
	// Set while the goal's clock runs.
	ActiveSince time.Time `json:"active_since,omitzero"`
}

// Packs: a workspace's active language packs changed (no session).
type Packs struct {
	Workspace string   `json:"workspace"`
	Packs     []string `json:"packs"`
}

// Resources: a session's REPLs changed; the whole list.
type Resources struct {
	Resources []Resource `json:"resources"`
}

// Resource is one REPL of a session (ext.ResourceInfo's wire shape).
type Resource struct {
	ID        string `json:"id"`
	SessionID string `json:"session"`
	// repl, nrepl, ...
	Kind     string `json:"kind"`
	Language string `json:"language"`
	Label    string `json:"label"`
	Dir      string `json:"dir"`
	PID      int    `json:"pid,omitempty"`
	Port     int    `json:"port,omitempty"`
	// up, starting, failed, down, unresponsive, unknown.
	Status string `json:"status"`
	Log    string `json:"log,omitempty"`
	// Unix ms.
	Created int64 `json:"created_at"`
	// Started by Vis (else attached).
	Managed bool `json:"managed"`
	// The pack's own facts (e.g. form and hint of a failed health check).
	Detail map[string]any `json:"detail,omitempty"`
}

// Queue: a session's queue changed; the whole queue.
type Queue struct {
	Queue []QueuedInput `json:"queue"`
}

// QueuedInput is one input waiting in a session's queue.
type QueuedInput struct {
	ID int64 `json:"id"`
	// turn, shell, goal-set, goal-resume.
	Kind string `json:"kind"`
	Text string `json:"text"`
	// How many images go with it.
	Images int `json:"images"`
	// It waits for the person (the process that queued it is gone); Send
	// releases it.
	Held bool `json:"held"`
	// Another running Vis process sends it, or runs the session's turn
	// that it waits for.
	Elsewhere bool      `json:"elsewhere"`
	Created   time.Time `json:"created"`
}

func (TurnStart) Phase() string      { return PhaseTurnStart }
func (ProviderCall) Phase() string   { return PhaseProviderCall }
func (ProviderRetry) Phase() string  { return PhaseProviderRetry }
func (ToolPreview) Phase() string    { return PhaseToolPreview }
func (AssistantProse) Phase() string { return PhaseAssistantProse }
func (FormStart) Phase() string      { return PhaseFormStart }
func (ToolStart) Phase() string      { return PhaseToolStart }
func (ToolEnd) Phase() string        { return PhaseToolEnd }
func (ToolOutput) Phase() string     { return PhaseToolOutput }
func (FormResult) Phase() string     { return PhaseFormResult }
func (IterationFinal) Phase() string { return PhaseIterationFinal }
func (IterationError) Phase() string { return PhaseIterationError }
func (TurnEnd) Phase() string        { return PhaseTurnEnd }
func (SessionChanged) Phase() string { return PhaseSessionChanged }
func (Warning) Phase() string        { return PhaseWarning }
func (Goal) Phase() string           { return PhaseGoal }
func (Packs) Phase() string          { return PhasePacks }
func (Resources) Phase() string      { return PhaseResources }
func (Queue) Phase() string          { return PhaseQueue }
func (Approval) Phase() string       { return PhaseApproval }

func (d Delta) Phase() string {
	if d.Reasoning {
		return PhaseReasoning
	}
	return PhaseContent
}

// Approval: a running program's tool asks the person whether to run a
// command the OS sandbox refused once more without it (the window's "ask"
// setting), or the question was answered. The program waits meanwhile.
type Approval struct {
	// The question's id, for the answer (Engine.AnswerApproval).
	ID string `json:"id"`
	// asked, or answered (then Answer says how).
	State string `json:"state"`
	// The tool that asks ("shell") and its command.
	Tool    string `json:"tool"`
	Command string `json:"command"`
	// The refusal, as the call's sandbox_refused words it.
	Why string `json:"why"`
	// approved, declined or unanswered; absent while asked.
	Answer string `json:"answer,omitempty"`
	// How long the question waits for an answer before it counts as
	// unanswered (the refusal stands).
	WaitSeconds int `json:"wait_seconds"`
}
