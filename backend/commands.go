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

// asCommandError makes a `/goal` refusal print the usage line too.
func asCommandError(err error) error {
	var ce *goals.CommandError
	var re *goals.RefusedError
	if errors.As(err, &ce) || !errors.As(err, &re) {
		return err
	}
	return &goals.CommandError{Err: err}
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
