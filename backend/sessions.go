package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/store"
	"github.com/visdesktop/vis/backend/tools"
)

// SessionExists reports whether the store holds session id (one lookup,
// not a list: the window asks it for its restored panes at start).
func (e *Engine) SessionExists(ctx context.Context, id string) (bool, error) {
	_, err := e.store.GetSession(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// RenameSession sets a session's title.
func (e *Engine) RenameSession(ctx context.Context, id, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return errors.New("the title is empty")
	}
	if err := e.store.RenameSession(ctx, id, title); err != nil {
		return err
	}
	e.publishSession(id)
	return nil
}

// DeleteSession removes a session, its turns and its saved helpers. A
// session running a turn is refused.
func (e *Engine) DeleteSession(ctx context.Context, id string) error {
	if e.Running(id) {
		return fmt.Errorf("%w: stop it first", ErrBusy)
	}
	s, _ := e.store.GetSession(ctx, id)
	turns, _ := e.store.ListTurns(ctx, id)
	if err := e.store.DeleteSession(ctx, id); err != nil {
		return err
	}
	e.dropCheckpoints(ctx, s, turns) // its turns' snapshots (checkpoints.go)
	e.resources.StopSession(ctx, id) // its REPLs die with it
	e.dropMCP(ctx, id)               // and its MCP servers (mcpservers.go)
	e.mu.Lock()
	if rt, ok := e.sessions[id]; ok {
		rt.tools.Close()
		delete(e.sessions, id)
	}
	e.mu.Unlock()
	_ = removeIfExists(e.defsPath(id))
	e.publishSession(id)
	return nil
}

// SearchHit is one session matching a search.
type SearchHit struct {
	SessionID string `json:"session_id"`
	Workspace string `json:"workspace"`
	Title     string `json:"title"`
	Turn      int    `json:"turn"`
	Snippet   string `json:"snippet"` // matches wrapped in « »
}

// Search finds turns whose request or answer match the words of query.
func (e *Engine) Search(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	hits, err := e.store.Search(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]SearchHit, 0, len(hits))
	for _, h := range hits {
		out = append(out, SearchHit{SessionID: h.SessionID, Workspace: h.Workspace, Title: h.Title, Turn: h.TurnPosition, Snippet: h.Snippet})
	}
	return out, nil
}

// ShellResult is the outcome of a `!cmd` run by the person.
type ShellResult struct {
	SessionID string `json:"session_id"`
	Turn      int    `json:"turn"`
	ExitCode  int    `json:"exit_code"`
	Output    string `json:"output"`
	TimedOut  bool   `json:"timed_out"`
}

// ShellTimeout bounds a `!cmd`.
const ShellTimeout = 10 * time.Minute

// shellRun is the outcome of a `!cmd`: what ShellResult says, the turn's
// status, and end, which publishes the turn's end (run once the session is
// free).
type shellRun struct {
	ShellResult
	status string
	end    func()
}

// shell runs a person's `!cmd` (req.Text) in the session's workspace
// without the model, as the session's running job: Stop ends it. It is
// recorded as a turn of its own (request `!cmd`, the output as its one
// iteration), so the transcript shows it and the next turn's recap tells
// the model what was run and what it printed.
func (e *Engine) shell(ctx context.Context, id string, rt *sessionRT, req SendRequest) (shellRun, error) {
	out := shellRun{ShellResult: ShellResult{SessionID: id}, end: func() {}}
	cmd := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(req.Text), "!"))
	bg := context.WithoutCancel(ctx)
	turn, err := e.store.StartTurn(bg, id, req.Text, ChannelShell)
	if err != nil {
		return out, err
	}
	if s, err := e.store.GetSession(bg, id); err == nil && s.Title == "" {
		_ = e.store.RenameSession(bg, id, titleFrom(req.Text))
	}
	pub := func(p events.Payload) {
		e.broker.Publish(events.Event{SessionID: id, Turn: turn.Position, Iteration: 1, Data: p})
	}
	pub(events.TurnStart{Request: req.Text, Channel: ChannelShell})
	pub(events.FormStart{Code: req.Text, Shell: true})
	cp := e.newTurnCheckpoint(id, rt.workspace) // a command changes files too
	cp.start(turn.ID)
	cp.before(ctx)
	started := time.Now()
	res, runErr := tools.Shell(ctx, rt.workspace, cmd, ShellTimeout)
	it := store.Iteration{TurnID: turn.ID, Position: 1, Code: req.Text, Output: res.Output, Started: started, Finished: time.Now(), EvalMs: time.Since(started).Milliseconds(), Status: store.IterationDone}
	status, errText := store.TurnDone, ""
	switch {
	case runErr != nil && ctx.Err() != nil:
		status, it.Status, errText = store.TurnCancelled, store.IterationCancelled, "cancelled"
		runErr = nil // stopped, as asked
	case runErr != nil:
		status, it.Status, errText = store.TurnError, store.IterationError, runErr.Error()
	case res.TimedOut:
		it.Status, errText = store.IterationError, fmt.Sprintf("timed out after %s", ShellTimeout)
		status = store.TurnError
	case res.ExitCode != 0:
		it.Error = fmt.Sprintf("exit code %d", res.ExitCode)
	}
	if errText != "" {
		it.Error = errText
	}
	answer := fmt.Sprintf("`%s` exited with code %d.", cmd, res.ExitCode)
	it.Answer = answer
	if _, err := e.store.AddIteration(bg, it); err != nil {
		return out, err
	}
	exit := res.ExitCode
	pub(events.FormResult{CallRecord: events.CallRecord{Code: req.Text, Output: res.Output, DurationMs: it.EvalMs}, ExitCode: &exit, Shell: true})
	turnMs := time.Since(started).Milliseconds()
	if err := e.store.FinishTurn(bg, turn.ID, store.TurnOutcome{Status: status, Answer: answer, Error: errText, Iterations: 1, DurationMs: turnMs}); err != nil {
		return out, err
	}
	changes := cp.finish(bg)
	out.ShellResult = ShellResult{SessionID: id, Turn: turn.Position, ExitCode: res.ExitCode, Output: res.Output, TimedOut: res.TimedOut}
	out.status = status
	out.end = func() {
		pub(events.TurnEnd{Status: status, Answer: answer, Error: errText, Iterations: 1, DurationMs: turnMs, Changes: changes})
		e.publishSession(id)
	}
	return out, runErr
}

// PromptBlock is one tagged block of a message as it was sent.
type PromptBlock struct {
	Tag    string `json:"tag"` // e.g. SYSTEM-PROMPT, SESSION, SESSION-DELTA, TOOL-RESULT, CODE
	Text   string `json:"text"`
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"` // estimated (~4 chars per token)
}

// PromptMessage is one message of a request, split into blocks.
type PromptMessage struct {
	Role   string        `json:"role"`
	Blocks []PromptBlock `json:"blocks"`
	Chars  int           `json:"chars"`
	Tokens int           `json:"tokens"`
}

// PromptView is exactly what was sent for one iteration's request.
type PromptView struct {
	Turn      int             `json:"turn"`
	Iteration int             `json:"iteration"`
	Messages  []PromptMessage `json:"messages"`
	Chars     int             `json:"chars"`
	Tokens    int             `json:"tokens"`
	// RebuiltAt is the iteration whose request the loop rebuilt to fit the
	// context window (this request descends from it), 0 when none was.
	RebuiltAt int `json:"rebuilt_at,omitempty"`
}

// Prompt returns the messages sent for iteration iter of turn turn, exactly
// as they were sent: the newest request the store recorded at or before iter
// (an iteration whose request the loop compacted to fit the context window
// records it as sent — settled outputs as stubs, the recap's oldest turns
// dropped), else the turn's initial messages (already folded when the recap
// was folded at turn start); then everything the iterations from there up to
// iter-1 appended. When a request was re-issued after a context-overflow
// refusal, it is the last attempt (the one answered, or the one that failed).
// A turn from before requests were recorded reads as its prompt plus what
// was appended.
func (e *Engine) Prompt(ctx context.Context, sessionID string, turn, iter int) (PromptView, error) {
	msgs, rebuilt, err := e.sentMessages(ctx, sessionID, turn, iter)
	if err != nil {
		return PromptView{}, err
	}
	v := PromptView{Turn: turn, Iteration: iter, RebuiltAt: rebuilt}
	for _, m := range msgs {
		pm := PromptMessage{Role: m.Role, Blocks: splitBlocks(m)}
		for _, b := range pm.Blocks {
			pm.Chars += b.Chars
			pm.Tokens += b.Tokens
		}
		v.Chars += pm.Chars
		v.Tokens += pm.Tokens
		v.Messages = append(v.Messages, pm)
	}
	return v, nil
}

// sentMessages rebuilds the messages of iteration iter's request of turn
// turn from the store (the rule is store.Iteration's); rebuiltAt is the
// iteration of the recorded request it starts from (0: the turn's prompt).
func (e *Engine) sentMessages(ctx context.Context, sessionID string, turn, iter int) (_ []chat.Message, rebuiltAt int, _ error) {
	turns, err := e.store.ListTurns(ctx, sessionID)
	if err != nil {
		return nil, 0, err
	}
	var t *store.Turn
	for i := range turns {
		if turns[i].Position == turn {
			t = &turns[i]
		}
	}
	if t == nil {
		return nil, 0, fmt.Errorf("turn %d: %w", turn, store.ErrNotFound)
	}
	its, err := e.store.ListIterations(ctx, t.ID)
	if err != nil {
		return nil, 0, err
	}
	if iter < 1 || iter > len(its) {
		return nil, 0, fmt.Errorf("turn %d has no iteration %d: %w", turn, iter, store.ErrNotFound)
	}
	from, raw, err := e.store.RecordedRequest(ctx, t.ID, iter)
	if err != nil {
		return nil, 0, err
	}
	var msgs []chat.Message
	if from > 0 {
		rebuiltAt = from
		if err := json.Unmarshal([]byte(raw), &msgs); err != nil {
			return nil, 0, fmt.Errorf("read the request of iteration %d: %w", from, err)
		}
	} else {
		full, err := e.store.GetTurn(ctx, t.ID)
		if err != nil {
			return nil, 0, err
		}
		if full.PromptJSON == "" {
			return nil, 0, fmt.Errorf("turn %d sent no prompt (a shell command or a turn from before prompts were kept)", turn)
		}
		if err := json.Unmarshal([]byte(full.PromptJSON), &msgs); err != nil {
			return nil, 0, fmt.Errorf("read the turn's prompt: %w", err)
		}
		from = 1
	}
	for _, it := range its {
		if it.Position < from || it.Position >= iter {
			continue
		}
		var more []chat.Message
		if it.AppendedJSON != "" {
			if err := json.Unmarshal([]byte(it.AppendedJSON), &more); err != nil {
				return nil, 0, fmt.Errorf("read iteration %d: %w", it.Position, err)
			}
		}
		msgs = append(msgs, more...)
	}
	return msgs, rebuiltAt, nil
}

var tagLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^;; -- ([A-Z0-9 _-]+?) --$`) })
var deltaStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(session\[|del session\[)`) })

func block(tag, text string) PromptBlock {
	return PromptBlock{Tag: tag, Text: text, Chars: len([]rune(text)), Tokens: prompt.EstimateTokens(text)}
}

// splitBlocks cuts a message at its `;; -- TAG --` headers; the session
// literal, tool results and their delta lines get tags of their own.
func splitBlocks(m chat.Message) []PromptBlock {
	var out []PromptBlock
	for _, p := range m.Parts {
		if p.Type == "image_url" {
			out = append(out, PromptBlock{Tag: "IMAGE", Text: fmt.Sprintf("(image, %d bytes as a data URL)", len(p.ImageURL)), Chars: len(p.ImageURL), Tokens: 0})
		}
	}
	text := m.Text()
	for _, tc := range m.ToolCalls {
		code, _ := codeArg(tc.Arguments)
		out = append(out, block("CODE", code))
	}
	switch {
	case m.Role == chat.RoleTool:
		if loc := deltaStart().FindStringIndex(text); loc != nil {
			out = append(out, block("TOOL-RESULT", strings.TrimRight(text[:loc[0]], "\n")), block("SESSION-DELTA", text[loc[0]:]))
		} else {
			out = append(out, block("TOOL-RESULT", text))
		}
		return out
	case strings.HasPrefix(text, "```python\n# `session`"):
		return append(out, block("SESSION", text))
	}
	locs := tagLine().FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		if text != "" {
			tag := strings.ToUpper(m.Role)
			if m.Role == chat.RoleAssistant {
				tag = "ASSISTANT-PROSE"
			}
			out = append(out, block(tag, text))
		}
		return out
	}
	if pre := strings.TrimSpace(text[:locs[0][0]]); pre != "" {
		out = append(out, block(strings.ToUpper(m.Role), pre))
	}
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		// The body starts after the header line's own newline.
		body := strings.TrimPrefix(text[l[1]:end], "\n")
		out = append(out, block(text[l[2]:l[3]], strings.TrimRight(body, "\n")))
	}
	return out
}

func codeArg(args string) (string, bool) {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return args, false
	}
	s, ok := m["code"].(string)
	return s, ok
}
