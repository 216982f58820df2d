package backend

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/store"
)

// SlashCommand describes one `/command` a person can type.
type SlashCommand struct {
	Name    string `json:"name"`
	Usage   string `json:"usage"`
	Summary string `json:"summary"`
	// Source and Path: a person's prompt file (home or project) and where
	// it is; empty for the built-ins.
	Source string `json:"source,omitempty"`
	Path   string `json:"path,omitempty"`
}

// SlashCommands lists the engine's built-in commands (SlashCommandsIn adds
// a workspace's prompt files).
func (e *Engine) SlashCommands() []SlashCommand {
	return slashCommands
}

var slashCommands = []SlashCommand{
	{Name: "/goal", Usage: goals.Usage, Summary: "Set, show, pause, resume, cancel or clear the session's goal (an objective worked on across iterations, with an optional iteration budget)."},
	{Name: "/help", Usage: "/help", Summary: "List the commands, and `!cmd` to run a shell command in the workspace without the model."},
}

// ErrUnknownCommand is returned for a `/word` that is no command.
var ErrUnknownCommand = errors.New("unknown command")

var slashRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/([A-Za-z][A-Za-z0-9_-]*)(\s|$)`) })

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
	if m := slashRe().FindStringSubmatch(t); m != nil {
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
	Provider string `json:"provider"` // the provider's id: "app" (the window's settings), "env", "flag" or a config.yml id
	// ProviderName is how a person knows it: the settings' preset
	// ("OpenAI", "Ollama"), else the base URL's host, else the id.
	ProviderName string      `json:"provider_name"`
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
	// Sandbox is the permission mode the session's next turn runs in
	// (read-only, workspace, full); SandboxSource says who chose it: flag
	// (vis run --sandbox), session (the window's choice), config.
	Sandbox       string `json:"sandbox"`
	SandboxSource string `json:"sandbox_source"`
	// ProjectHeld names the workspace's project settings held back until
	// the folder is trusted (the window's "Trust this folder" banner).
	ProjectHeld []string `json:"project_held,omitempty"`
	// HeldBy is the pid of another live Vis process that runs the
	// session's turns now (it holds the session's claim): here the
	// session is read-only, an input is refused with a
	// *HeldElsewhereError. 0 = none.
	HeldBy int `json:"held_by,omitempty"`
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
		v.ProviderName = e.providerName(rv.res.ProviderID, rv.res.BaseURL)
		if rv.res.Model.Context > 0 {
			v.ContextLimit = rv.res.Model.Context
		}
	}
	v.Packs = e.Packs(ctx, workspace)
	if sessionID != "" {
		if other, err := e.store.ClaimedElsewhere(ctx, sessionID); err == nil {
			v.HeldBy = store.ClaimPID(other)
		}
	}
	chosen := ""
	if sessionID != "" {
		if s, err := e.store.GetSession(ctx, sessionID); err == nil {
			chosen = s.Mode
		}
	}
	if cfg, err := config.LoadTrusting(e.home, canonical(workspace), e.getenv, e.trustProject); err == nil {
		mode, src, _ := e.modeFor(chosen, cfg)
		v.Sandbox, v.SandboxSource = string(mode), src
		v.ProjectHeld = cfg.ProjectHeld
	} else {
		mode, src, _ := e.modeFor(chosen, &config.Config{})
		v.Sandbox, v.SandboxSource = string(mode), src
	}
	if sessionID == "" {
		return v, nil
	}
	v.REPLs = e.resources.Count(sessionID)
	turns, err := e.store.ListTurns(ctx, sessionID)
	if err != nil {
		return v, err
	}
	// A running turn's row has no usage until it ends: count it live, from
	// the responses that arrived so far (the loop's OnUsage), else from its
	// saved iterations.
	var live *liveUsage
	if rt := e.lookup(sessionID); rt != nil {
		live = rt.usage.Load()
	}
	for i, t := range turns {
		if t.Status != store.TurnRunning {
			v.Usage = v.Usage.Add(t.Usage)
			continue
		}
		if live != nil && live.turn == t.Position {
			v.Usage = v.Usage.Add(live.soFar)
			if i == len(turns)-1 && live.last.InputTokens > 0 {
				v.ContextUsed = live.last.InputTokens
			}
			continue
		}
		its, err := e.store.ListIterations(ctx, t.ID)
		if err != nil {
			return v, err
		}
		for _, it := range its {
			v.Usage = v.Usage.Add(it.Usage)
		}
	}
	if len(turns) > 0 && v.ContextUsed == 0 {
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

// liveUsage is a running turn's tokens as its responses arrive.
type liveUsage struct {
	turn        int // the turn's position
	soFar, last chat.Usage
}

// providerName is how the footer names a provider: the window's settings
// by their preset ("OpenAI", "LM Studio"), a custom endpoint, the
// environment or the command line by the base URL's host, a config.yml
// provider by its id.
func (e *Engine) providerName(id, baseURL string) string {
	host := baseURL
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		host = u.Host
	}
	switch id {
	case config.SettingsProviderID:
		if s, err := config.LoadSettings(e.home); err == nil && s.Provider != nil {
			for _, p := range config.Presets {
				if p.ID == s.Provider.Preset && p.ID != "custom" {
					return p.Label
				}
			}
		}
		return host
	case "env", "flag", "":
		return host
	}
	return id
}
