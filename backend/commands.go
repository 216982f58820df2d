package backend

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/goals"
)

// SlashCommand describes one `/command` a person can type.
type SlashCommand struct {
	Name    string `json:"name"`
	Usage   string `json:"usage"`
	Summary string `json:"summary"`
}

// SlashCommands lists the commands the engine understands.
func (e *Engine) SlashCommands() []SlashCommand {
	return slashCommands
}

var slashCommands = []SlashCommand{
	{Name: "/goal", Usage: goals.Usage, Summary: "Set, show, pause, resume, cancel or clear the session's goal (an objective worked on across iterations, with an optional iteration budget)."},
	{Name: "/help", Usage: "/help", Summary: "List the commands, and `!cmd` to run a shell command in the workspace without the model."},
}

// ErrUnknownCommand is returned for a `/word` that is no command.
var ErrUnknownCommand = errors.New("unknown command")

var slashRe = regexp.MustCompile(`^/([A-Za-z][A-Za-z0-9_-]*)(\s|$)`)

// input kinds
const (
	inputTurn    = "turn"
	inputShell   = "shell"
	inputCommand = "command"
)

// classify tells a person's input apart: `!cmd`, `/command ...` (a path
// such as /etc/hosts is not a command), or a message for the model.
func classify(text string) (kind, name string) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "!") {
		return inputShell, ""
	}
	if m := slashRe.FindStringSubmatch(t); m != nil {
		return inputCommand, "/" + strings.ToLower(m[1])
	}
	return inputTurn, ""
}

func helpText() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range slashCommands {
		fmt.Fprintf(&b, "- `%s` — %s\n  %s\n", c.Name, c.Summary, c.Usage)
	}
	b.WriteString("- `!cmd` — run cmd in the workspace without the model; its output lands in the transcript and in the model's context.\n")
	return b.String()
}

// CommandResult is what a command-only input produced.
type CommandResult struct {
	SessionID string      `json:"session_id"`
	Text      string      `json:"text"`
	Goal      *goals.Goal `json:"goal,omitempty"`
	// run is set when the command starts a normal turn (a new goal).
	run bool
}

// command runs a slash command. A command that starts a turn (setting a
// goal) returns run=true and the request marked as a goal run; refusals
// return an error whose text says what to write instead.
func (e *Engine) command(ctx context.Context, req *SendRequest, name string) (CommandResult, error) {
	switch name {
	case "/help":
		return CommandResult{SessionID: req.SessionID, Text: helpText()}, nil
	case "/goal":
		args, _ := goals.CutCommand(strings.TrimSpace(req.Text))
		cmd, err := goals.ParseCommand(args)
		if err != nil {
			return CommandResult{SessionID: req.SessionID}, asCommandError(err)
		}
		if req.SessionID == "" {
			if cmd.Action != goals.ActionSet {
				return CommandResult{}, asCommandError(goals.ErrNoGoal)
			}
			if req.Workspace == "" {
				return CommandResult{}, errors.New("no workspace: open a project folder first")
			}
			if _, err := e.resolve(canonical(req.Workspace), *req); err != nil {
				return CommandResult{}, err
			}
			info, err := e.CreateSession(ctx, req.Workspace)
			if err != nil {
				return CommandResult{}, err
			}
			req.SessionID = info.ID
		}
		if _, err := e.store.GetSession(ctx, req.SessionID); err != nil {
			return CommandResult{}, fmt.Errorf("session %s: %w", req.SessionID, err)
		}
		res, err := e.goals.Apply(ctx, req.SessionID, cmd)
		if err != nil {
			return CommandResult{SessionID: req.SessionID}, asCommandError(err)
		}
		out := CommandResult{SessionID: req.SessionID, Text: res.Text, run: res.Run}
		if res.Goal.ID != "" && !res.Goal.Hidden() {
			g := res.Goal
			out.Goal = &g
		}
		return out, nil
	}
	return CommandResult{SessionID: req.SessionID}, fmt.Errorf("%w %s; /help lists the commands", ErrUnknownCommand, name)
}

// asCommandError makes a `/goal` refusal print the usage line too.
func asCommandError(err error) error {
	var ce *goals.CommandError
	var re *goals.RefusedError
	if errors.As(err, &ce) || !errors.As(err, &re) {
		return err
	}
	return &goals.CommandError{Err: err}
}

// SubmitResult says what the window's input started.
type SubmitResult struct {
	Kind      string `json:"kind"` // turn, shell or command
	SessionID string `json:"session_id"`
	Text      string `json:"text,omitempty"` // a command's printed result
}

// Submit is the window's entry point for the composer: a message starts a
// turn in the background, `!cmd` runs a shell turn in the background, a
// `/command` runs at once (its result in Text; a refusal is the error).
func (e *Engine) Submit(req SendRequest) (SubmitResult, error) {
	kind, name := classify(req.Text)
	switch kind {
	case inputShell:
		if req.SessionID == "" {
			if req.Workspace == "" {
				return SubmitResult{}, errors.New("no workspace: open a project folder first")
			}
			info, err := e.CreateSession(e.ctx, req.Workspace)
			if err != nil {
				return SubmitResult{}, err
			}
			req.SessionID = info.ID
		}
		if e.Running(req.SessionID) {
			return SubmitResult{SessionID: req.SessionID}, ErrBusy
		}
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			if _, err := e.Shell(e.ctx, req); err != nil {
				e.broker.Publish(eventWarning(req.SessionID, "The command could not run: "+err.Error()))
			}
		}()
		return SubmitResult{Kind: inputShell, SessionID: req.SessionID}, nil
	case inputCommand:
		res, err := e.command(e.ctx, &req, name)
		if err != nil {
			return SubmitResult{Kind: inputCommand, SessionID: res.SessionID}, err
		}
		if !res.run {
			return SubmitResult{Kind: inputCommand, SessionID: res.SessionID, Text: res.Text}, nil
		}
		req.SessionID = res.SessionID
	}
	id, err := e.startTurn(req, kind == inputCommand)
	return SubmitResult{Kind: inputTurn, SessionID: id}, err
}

// StatusView is what the window's footer shows.
type StatusView struct {
	Provider     string      `json:"provider"`
	Model        string      `json:"model"`
	BaseURL      string      `json:"base_url"`
	ConfigError  string      `json:"config_error,omitempty"`
	Usage        chat.Usage  `json:"usage"`    // the session's tokens
	CostUSD      *float64    `json:"cost_usd"` // nil when the model has no price
	ContextUsed  int         `json:"context_used"`
	ContextLimit int         `json:"context_limit"`
	Packs        []string    `json:"packs"`
	REPLs        int         `json:"repls"`
	Goal         *goals.Goal `json:"goal"`
	Running      bool        `json:"running"`
}

// DefaultContextLimit is assumed for a model whose window is not configured.
const DefaultContextLimit = 200000

// Status gathers the footer's figures for a session ("" = none yet) in a
// workspace.
func (e *Engine) Status(ctx context.Context, sessionID, workspace string) (StatusView, error) {
	v := StatusView{Packs: []string{}, ContextLimit: DefaultContextLimit}
	if sessionID != "" {
		s, err := e.store.GetSession(ctx, sessionID)
		if err != nil {
			return v, err
		}
		workspace = s.Workspace
	}
	rv, err := e.resolve(canonical(workspace), SendRequest{})
	if err != nil {
		v.ConfigError = strings.TrimPrefix(err.Error(), ErrConfig.Error()+": ")
	} else {
		v.Provider, v.Model, v.BaseURL = rv.res.ProviderID, rv.res.Model.Name, rv.res.BaseURL
		if rv.res.Model.Context > 0 {
			v.ContextLimit = rv.res.Model.Context
		}
	}
	v.Packs = e.Packs(ctx, workspace)
	if sessionID == "" {
		return v, nil
	}
	v.REPLs = e.resources.Count(sessionID)
	turns, err := e.store.ListTurns(ctx, sessionID)
	if err != nil {
		return v, err
	}
	for _, t := range turns {
		v.Usage = v.Usage.Add(t.Usage)
	}
	if len(turns) > 0 {
		its, err := e.store.ListIterations(ctx, turns[len(turns)-1].ID)
		if err != nil {
			return v, err
		}
		for i := len(its) - 1; i >= 0; i-- {
			if its[i].Usage.InputTokens > 0 {
				v.ContextUsed = its[i].Usage.InputTokens
				break
			}
		}
	}
	if err == nil && rv != nil && (rv.res.Model.PriceIn > 0 || rv.res.Model.PriceOut > 0) {
		c := (float64(v.Usage.InputTokens)*rv.res.Model.PriceIn + float64(v.Usage.OutputTokens)*rv.res.Model.PriceOut) / 1e6
		v.CostUSD = &c
	}
	if g, ok, err := e.goals.Get(ctx, sessionID); err == nil && ok && !g.Hidden() {
		v.Goal = &g
	}
	v.Running = e.Running(sessionID)
	return v, nil
}

// Goal returns the session's goal (nil when none or cleared).
func (e *Engine) Goal(ctx context.Context, sessionID string) (*goals.Goal, error) {
	g, ok, err := e.goals.Get(ctx, sessionID)
	if err != nil || !ok || g.Hidden() {
		return nil, err
	}
	return &g, nil
}

// SetGoal creates or replaces the session's goal (the window's goal form).
func (e *Engine) SetGoal(ctx context.Context, sessionID, objective string, budget *int64) (goals.Goal, error) {
	return e.goals.Set(ctx, sessionID, objective, budget)
}

// GoalControl pauses, resumes, cancels or clears the session's goal.
func (e *Engine) GoalControl(ctx context.Context, sessionID, action string) (goals.Goal, error) {
	return e.goals.Control(ctx, sessionID, action)
}
