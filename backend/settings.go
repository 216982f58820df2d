package backend

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/secrets"
)

// ProviderSettings is the window's provider choice as the window sees it:
// the key itself never leaves the engine, only whether there is one and a
// safe hint.
type ProviderSettings struct {
	Preset    string         `json:"preset"`
	BaseURL   string         `json:"base_url"`
	Model     string         `json:"model"`
	Reasoning string         `json:"reasoning"`
	Models    []config.Model `json:"models"`
	HasKey    bool           `json:"has_key"`
	KeyHint   string         `json:"key_hint"`
	KeyStore  string         `json:"key_store"` // keyring or file
}

// Effective says what a turn would use now and where it comes from.
type Effective struct {
	Source  string `json:"source"` // "settings", "env", "flag", or a config.yml provider id
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	Error   string `json:"error,omitempty"` // why nothing is usable yet
}

// SettingsView is everything the settings dialog shows.
type SettingsView struct {
	Provider   *ProviderSettings `json:"provider"`
	Presets    []config.Preset   `json:"presets"`
	Effective  Effective         `json:"effective"`
	ConfigFile string            `json:"config_file"`
	// AskOnRefusal: a command the sandbox refuses waits at its call for
	// the person's answer (permissions.ask, approvals.go); AskForced: the
	// window was started with --ask, which turns it on whatever is saved.
	AskOnRefusal bool `json:"ask_on_refusal"`
	AskForced    bool `json:"ask_forced"`
	// NotifyTurnEnd and NotifyInput: the window's desktop notifications
	// while it is not focused, when a turn ends (done, failed, halted) and
	// when a program waits for the person (SetNotifications).
	NotifyTurnEnd bool `json:"notify_turn_end"`
	NotifyInput   bool `json:"notify_input"`
}

// SaveSettingsRequest saves the window's provider. APIKey nil keeps the
// stored key; "" deletes it.
type SaveSettingsRequest struct {
	Preset    string         `json:"preset"`
	BaseURL   string         `json:"base_url"`
	Model     string         `json:"model"`
	Reasoning string         `json:"reasoning"`
	Models    []config.Model `json:"models"`
	APIKey    *string        `json:"api_key"`
}

// Settings returns the window's settings and what is in effect.
func (e *Engine) Settings(ctx context.Context) (SettingsView, error) {
	v := SettingsView{Presets: config.Presets, ConfigFile: config.Files(e.home, "")[0]}
	s, err := config.LoadSettings(e.home)
	if err != nil {
		return v, err
	}
	if p := s.Provider; p != nil {
		ps := &ProviderSettings{Preset: p.Preset, BaseURL: p.BaseURL, Model: p.Model, Reasoning: p.Reasoning, Models: p.Models}
		if key, where, err := e.secrets.Get(config.SettingsProviderID); err == nil && key != "" {
			ps.HasKey, ps.KeyHint, ps.KeyStore = true, secrets.Hint(key), where
		}
		if ps.Models == nil {
			ps.Models = []config.Model{}
		}
		v.Provider = ps
	}
	v.AskForced = e.ask
	v.NotifyTurnEnd, v.NotifyInput = s.Notifications.On("turn_end"), s.Notifications.On("input")
	if rv, err := e.resolve("", SendRequest{}); err != nil {
		v.Effective.Error = strings.TrimPrefix(err.Error(), ErrConfig.Error()+": ")
	} else {
		src := rv.res.ProviderID
		if src == config.SettingsProviderID {
			src = "settings"
		}
		v.Effective = Effective{Source: src, BaseURL: rv.res.BaseURL, Model: rv.res.Model.Name}
		v.AskOnRefusal = rv.cfg.Permissions.AskOn()
	}
	if s.AskOnRefusal != nil {
		v.AskOnRefusal = *s.AskOnRefusal
	}
	return v, nil
}

// SetNotifications saves which desktop notifications the window sends
// while it is not focused: when a turn ends, when a program waits for the
// person.
func (e *Engine) SetNotifications(turnEnd, input bool) error {
	s, err := config.LoadSettings(e.home)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	s.Notifications = &config.NotifySettings{TurnEnd: &turnEnd, Input: &input}
	if err := config.SaveSettings(e.home, s); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return nil
}

// SetAskOnRefusal saves the window's "ask me when the sandbox refuses a
// command" choice (settings.json's ask_on_refusal = permissions.ask); it
// applies from the next turn.
func (e *Engine) SetAskOnRefusal(on bool) error {
	s, err := config.LoadSettings(e.home)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	s.AskOnRefusal = &on
	if err := config.SaveSettings(e.home, s); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return nil
}

// SaveSettings validates and saves the window's provider and key.
func (e *Engine) SaveSettings(ctx context.Context, req SaveSettingsRequest) (SettingsView, error) {
	p := &config.SettingsProvider{Preset: req.Preset, BaseURL: req.BaseURL, Model: req.Model, Reasoning: req.Reasoning, Models: req.Models}
	// The folders trusted in the window stay trusted (a damaged file is
	// replaced, as before).
	prev, _ := config.LoadSettings(e.home)
	if err := config.SaveSettings(e.home, config.Settings{Provider: p, TrustedProjects: prev.TrustedProjects, AskOnRefusal: prev.AskOnRefusal, Notifications: prev.Notifications}); err != nil {
		return SettingsView{}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if req.APIKey != nil {
		if _, err := e.secrets.Set(config.SettingsProviderID, strings.TrimSpace(*req.APIKey)); err != nil {
			return SettingsView{}, fmt.Errorf("save the API key: %w", err)
		}
	}
	return e.Settings(ctx)
}

// keyFor returns the key to use against baseURL: the given one, else the
// stored one.
func (e *Engine) keyFor(apiKey *string) string {
	if apiKey != nil {
		return strings.TrimSpace(*apiKey)
	}
	k, _, _ := e.secrets.Get(config.SettingsProviderID)
	return k
}

// ListModels asks an endpoint for its models (GET {base}/models).
func (e *Engine) ListModels(ctx context.Context, baseURL string, apiKey *string) ([]string, error) {
	c, err := provider.New(provider.Config{BaseURL: strings.TrimRight(baseURL, "/"), APIKey: e.keyFor(apiKey), Model: "-", MaxRetries: -1})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ms, err := c.ListModels(ctx)
	if err != nil {
		return nil, err
	}
	slices.Sort(ms)
	return ms, nil
}

// ConnectionVerdict is the answer to "test connection".
type ConnectionVerdict struct {
	OK      bool     `json:"ok"`
	Message string   `json:"message"`
	Models  []string `json:"models"`
}

// TestConnection checks that the endpoint answers, accepts the key and
// serves the model, and says so in one sentence.
func (e *Engine) TestConnection(ctx context.Context, baseURL, model string, apiKey *string) ConnectionVerdict {
	baseURL = strings.TrimRight(strings.TrimSpace(baseURL), "/")
	if !config.IsLoopback(baseURL) && e.keyFor(apiKey) == "" {
		return ConnectionVerdict{Message: "This endpoint is not on this machine, so it needs an API key: paste one in the API key field."}
	}
	ms, err := e.ListModels(ctx, baseURL, apiKey)
	if err != nil {
		// One sentence with the next step (start the server, check the
		// URL, check the key), as a failed turn says it.
		if _, said := provider.Explain(err); said != "" {
			return ConnectionVerdict{Message: said}
		}
		if errors.Is(err, ErrConfig) {
			return ConnectionVerdict{Message: "The URL is not usable: " + strings.TrimPrefix(err.Error(), ErrConfig.Error()+": provider: ")}
		}
		return ConnectionVerdict{Message: "The connection failed: " + err.Error()}
	}
	if model == "" {
		return ConnectionVerdict{OK: true, Models: ms, Message: fmt.Sprintf("Connected: %d models available. Choose one.", len(ms))}
	}
	if len(ms) > 0 && !slices.Contains(ms, model) {
		return ConnectionVerdict{Models: ms, Message: fmt.Sprintf("Connected, but the endpoint does not list the model %q: pick one of its %d models from the list.", model, len(ms))}
	}
	return ConnectionVerdict{OK: true, Models: ms, Message: fmt.Sprintf("Connected: %q is available.", model)}
}

// DetectLocal returns the local presets (Ollama, LM Studio) whose server
// answers now, each probed for at most a second.
func (e *Engine) DetectLocal(ctx context.Context) []config.Preset {
	var mu sync.Mutex
	var found []config.Preset
	var wg sync.WaitGroup
	client := &http.Client{Timeout: time.Second}
	for _, p := range config.Presets {
		if p.LocalPort == 0 {
			continue
		}
		wg.Add(1)
		go func(p config.Preset) {
			defer wg.Done()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.BaseURL+"/models", nil)
			if err != nil {
				return
			}
			resp, err := client.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				mu.Lock()
				found = append(found, p)
				mu.Unlock()
			}
		}(p)
	}
	wg.Wait()
	slices.SortFunc(found, func(a, b config.Preset) int { return strings.Compare(a.ID, b.ID) })
	return found
}

func secretsFile(home string) string { return filepath.Join(home, "desktop", "secrets.json") }
