package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/visdesktop/vis/backend/workspace"
)

// SettingsProviderID is the provider id of the one the window configures.
const SettingsProviderID = "app"

// Settings is what the window's settings dialog saves, in
// $VIS_HOME/desktop/settings.json (app-managed; people edit config.yml).
// It is merged right after $VIS_HOME/config.yml, so a choice made in the
// window wins over the hand-written file, and the environment (VIS_*) still
// wins over both. The API key is not here: it lives in the secrets store
// under SettingsProviderID.
type Settings struct {
	Provider *SettingsProvider `json:"provider,omitempty"`
	// TrustedProjects are folders trusted with the window's "Trust this
	// folder" (trust.go); added to config.yml's trusted_projects.
	TrustedProjects []string `json:"trusted_projects,omitempty"`
	// AskOnRefusal is permissions.ask as chosen in the window's Settings
	// (nil = config.yml's).
	AskOnRefusal *bool `json:"ask_on_refusal,omitempty"`
	// Notifications: which desktop notifications the window sends while it
	// is not focused (nil = all of them).
	Notifications *NotifySettings `json:"notifications,omitempty"`
}

// NotifySettings turn each kind of desktop notification on or off (nil =
// on).
type NotifySettings struct {
	TurnEnd *bool `json:"turn_end,omitempty"` // a turn ended: done, failed, halted by its goal
	Input   *bool `json:"input,omitempty"`    // a program waits for the person (an approval)
}

// On reports whether a kind is on: nil settings or an unset kind are on.
func (n *NotifySettings) On(kind string) bool {
	if n == nil {
		return true
	}
	v := n.TurnEnd
	if kind == "input" {
		v = n.Input
	}
	return v == nil || *v
}

// SettingsProvider is the endpoint chosen in the window.
type SettingsProvider struct {
	Preset    string  `json:"preset"` // openai, openrouter, ollama, lmstudio, custom
	BaseURL   string  `json:"base_url"`
	Model     string  `json:"model"`
	Reasoning string  `json:"reasoning,omitempty"`
	Models    []Model `json:"models,omitempty"` // per-model flags (tools, vision, reasoning, context)
}

// Preset is a known provider.
type Preset struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	BaseURL   string `json:"base_url"`
	NeedsKey  bool   `json:"needs_key"`
	KeyURL    string `json:"key_url,omitempty"`
	LocalPort int    `json:"local_port,omitempty"`
}

// Presets lists the providers the settings dialog offers.
var Presets = []Preset{
	{ID: "openai", Label: "OpenAI", BaseURL: "https://api.openai.com/v1", NeedsKey: true, KeyURL: "https://platform.openai.com/api-keys"},
	{ID: "openrouter", Label: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1", NeedsKey: true, KeyURL: "https://openrouter.ai/keys"},
	{ID: "ollama", Label: "Ollama", BaseURL: "http://localhost:11434/v1", LocalPort: 11434},
	{ID: "lmstudio", Label: "LM Studio", BaseURL: "http://localhost:1234/v1", LocalPort: 1234},
	{ID: "custom", Label: "Custom (OpenAI-compatible)"},
}

// SettingsPath is where the window's settings live.
func SettingsPath(visHome string) string {
	return filepath.Join(visHome, "desktop", "settings.json")
}

// LoadSettings reads the window's settings; a missing file is empty settings.
func LoadSettings(visHome string) (Settings, error) {
	var s Settings
	raw, err := os.ReadFile(SettingsPath(visHome))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read settings: %w", err)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("settings file %s is damaged: %v", SettingsPath(visHome), err)
	}
	return s, nil
}

// SaveSettings validates and writes the window's settings atomically.
func SaveSettings(visHome string, s Settings) error {
	if p := s.Provider; p != nil {
		p.BaseURL = strings.TrimRight(strings.TrimSpace(p.BaseURL), "/")
		p.Model = strings.TrimSpace(p.Model)
		if err := validBaseURL(p.BaseURL); err != nil {
			return err
		}
		if p.Model == "" {
			return errors.New("choose a model")
		}
		switch p.Reasoning {
		case "", "low", "medium", "high":
		default:
			return fmt.Errorf("reasoning must be low, medium, high or empty, not %q", p.Reasoning)
		}
	}
	path := SettingsPath(visHome)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	raw, _ := json.MarshalIndent(s, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, raw, 0o600); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

// settingsLayer turns the window's settings into a config layer.
func settingsLayer(visHome string) (map[string]any, error) {
	s, err := LoadSettings(visHome)
	if err != nil || s.Provider == nil {
		layer := map[string]any{}
		if err == nil && len(s.TrustedProjects) > 0 {
			layer["trusted_projects"] = anyList(s.TrustedProjects)
		}
		if err == nil && s.AskOnRefusal != nil {
			layer["permissions"] = map[string]any{"ask": *s.AskOnRefusal}
		}
		return layer, err
	}
	p := s.Provider
	models := []any{}
	for _, m := range p.Models {
		mm := map[string]any{"name": m.Name, "reasoning": m.Reasoning, "vision": m.Vision}
		if m.Tools != nil {
			mm["tools"] = *m.Tools
		}
		if m.Context > 0 {
			mm["context"] = m.Context
		}
		models = append(models, mm)
	}
	layer := map[string]any{
		"providers":        []any{map[string]any{"id": SettingsProviderID, "base_url": p.BaseURL, "models": models}},
		"default_provider": SettingsProviderID,
		"default_model":    p.Model,
	}
	if p.Reasoning != "" {
		layer["reasoning"] = p.Reasoning
	}
	if len(s.TrustedProjects) > 0 {
		layer["trusted_projects"] = anyList(s.TrustedProjects)
	}
	if s.AskOnRefusal != nil {
		layer["permissions"] = map[string]any{"ask": *s.AskOnRefusal}
	}
	return layer, nil
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, x := range ss {
		out[i] = x
	}
	return out
}

// TrustFolder adds the workspace dir to settings.json's trusted_projects (the
// window's "Trust this folder"), keeping the rest of the settings; a
// folder already there is not added twice. Its project settings apply
// from the next load.
func TrustFolder(visHome, dir string) error {
	if strings.TrimSpace(dir) == "" {
		return errors.New("trust folder: no folder")
	}
	s, err := LoadSettings(visHome)
	if err != nil {
		return err
	}
	if Trusted(s.TrustedProjects, dir) {
		return nil
	}
	s.TrustedProjects = append(s.TrustedProjects, workspace.Canonical(dir))
	return SaveSettings(visHome, s)
}

func validBaseURL(s string) error {
	if s == "" {
		return errors.New("enter the endpoint's base URL, e.g. http://localhost:11434/v1")
	}
	r := Config{}
	_, err := r.Resolve(func(string) string { return "" }, Overrides{BaseURL: s, Model: "x"})
	if err != nil && strings.Contains(err.Error(), "not an http(s) URL") {
		return fmt.Errorf("base URL %q is not an http(s) URL", s)
	}
	return nil
}
