package app

import (
	"time"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/chat"
)

// Session is one row of the session list. Times are RFC 3339 strings ("" when
// unknown) so that the generated TypeScript types are plain strings.
type Session struct {
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	Title     string `json:"title"`
	Turns     int    `json:"turns"`
	Created   string `json:"created"`
	Updated   string `json:"updated"`
}

// Usage counts tokens.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CachedTokens    int `json:"cached_tokens"`
	ReasoningTokens int `json:"reasoning_tokens"`
}

// CallError is why one program failed.
type CallError struct {
	Phase   string `json:"phase"`
	Message string `json:"message"`
	Line    int    `json:"line"`
	Hint    string `json:"hint"`
}

// Call is one program of an iteration and what it printed.
type Call struct {
	CallID     string     `json:"call_id"`
	Code       string     `json:"code"`
	Output     string     `json:"output"`
	Error      *CallError `json:"error"`
	DurationMs int64      `json:"duration_ms"`
}

// Iteration is one provider round trip and the program it ran.
type Iteration struct {
	Position   int    `json:"position"`
	Status     string `json:"status"`
	Code       string `json:"code"`
	Output     string `json:"output"`
	Error      string `json:"error"`
	Prose      string `json:"prose"`
	Reasoning  string `json:"reasoning"`
	Answer     string `json:"answer"`
	Model      string `json:"model"`
	Usage      Usage  `json:"usage"`
	DurationMs int64  `json:"duration_ms"`
	Calls      []Call `json:"calls"`
}

// Turn is one user request and what came of it.
type Turn struct {
	Position   int         `json:"position"`
	Channel    string      `json:"channel"` // desktop, cli, or shell (a person's !cmd)
	Request    string      `json:"request"`
	Status     string      `json:"status"`
	Answer     string      `json:"answer"`
	Error      string      `json:"error"`
	Usage      Usage       `json:"usage"`
	DurationMs int64       `json:"duration_ms"`
	Started    string      `json:"started"`
	Iterations []Iteration `json:"iterations"`
}

// Transcript is a session snapshot. The page applies only events whose seq is
// greater than Seq. Running says whether a turn is in flight right now.
type Transcript struct {
	Session Session `json:"session"`
	Turns   []Turn  `json:"turns"`
	Seq     int64   `json:"seq"`
	Running bool    `json:"running"`
}

// Startup is what the page needs to draw its first frame.
type Startup struct {
	Workspace string `json:"workspace"` // "" when none was chosen yet
	Home      string `json:"home"`
	Version   string `json:"version"`
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func toUsage(u chat.Usage) Usage {
	return Usage{
		InputTokens:     u.InputTokens,
		OutputTokens:    u.OutputTokens,
		CachedTokens:    u.CachedTokens,
		ReasoningTokens: u.ReasoningTokens,
	}
}

func toSession(s backend.SessionInfo) Session {
	return Session{
		ID:        s.ID,
		Workspace: s.Workspace,
		Title:     s.Title,
		Turns:     s.Turns,
		Created:   stamp(s.Created),
		Updated:   stamp(s.Updated),
	}
}

func toSessions(in []backend.SessionInfo) []Session {
	out := make([]Session, 0, len(in)) // never nil: the page gets [] not null
	for _, s := range in {
		out = append(out, toSession(s))
	}
	return out
}

func toCalls(in []backend.CallView) []Call {
	out := make([]Call, 0, len(in))
	for _, c := range in {
		call := Call{CallID: c.CallID, Code: c.Code, Output: c.Output, DurationMs: c.DurationMs}
		if c.Error != nil {
			call.Error = &CallError{Phase: c.Error.Phase, Message: c.Error.Message, Line: c.Error.Line, Hint: c.Error.Hint}
		}
		out = append(out, call)
	}
	return out
}

func toTranscript(t backend.Transcript, running bool) Transcript {
	turns := make([]Turn, 0, len(t.Turns))
	for _, tv := range t.Turns {
		its := make([]Iteration, 0, len(tv.Iterations))
		for _, iv := range tv.Iterations {
			its = append(its, Iteration{
				Position:   iv.Position,
				Status:     iv.Status,
				Code:       iv.Code,
				Output:     iv.Output,
				Error:      iv.Error,
				Prose:      iv.Prose,
				Reasoning:  iv.Reasoning,
				Answer:     iv.Answer,
				Model:      iv.Model,
				Usage:      toUsage(iv.Usage),
				DurationMs: iv.DurationMs,
				Calls:      toCalls(iv.Calls),
			})
		}
		turns = append(turns, Turn{
			Position:   tv.Position,
			Channel:    tv.Channel,
			Request:    tv.Request,
			Status:     tv.Status,
			Answer:     tv.Answer,
			Error:      tv.Error,
			Usage:      toUsage(tv.Usage),
			DurationMs: tv.DurationMs,
			Started:    stamp(tv.Started),
			Iterations: its,
		})
	}
	return Transcript{Session: toSession(t.Session), Turns: turns, Seq: t.Seq, Running: running}
}
