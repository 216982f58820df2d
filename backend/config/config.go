// Package config loads Vis Desktop's configuration: YAML files deep-merged in
// the order $VIS_HOME/config.yml, <workspace>/vis.yml,
// <workspace>/.vis/config.yml, then the environment (VIS_BASE_URL, VIS_MODEL,
// VIS_API_KEY, falling back to OPENAI_BASE_URL and OPENAI_API_KEY), then the
// caller's per-run overrides.
//
// A project's files (the two under the workspace) come from a repository the
// person may have just cloned, so they may NOT set a provider's base_url,
// api_key or headers, nor default_provider/default_model: such keys are
// dropped and reported as warnings, never applied.
//
// The `permissions` section (Permissions) confines the processes the model
// causes; a project file may only tighten it.
//
// The `sandbox` section (Sandbox) bounds a program block's run time:
// wall_limit_seconds and the ceiling max_wall_limit_seconds, which a tool
// call's own timeout may extend a block to; a project file may set both.
// It also bounds a block's memory (memory_limit_mb). The `provider` section
// (ProviderTimeouts) holds a model call's idle and connect timeouts.
//
// Load is a pure function of the files and the getenv function passed in; it
// never fails on a missing file, only on an unreadable or malformed one.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Model describes what one model can do.
type Model struct {
	Name      string `yaml:"name" json:"name"`
	Tools     *bool  `yaml:"tools,omitempty" json:"tools,omitempty"`         // nil = true: tool calling supported
	Reasoning bool   `yaml:"reasoning,omitempty" json:"reasoning,omitempty"` // native thinking channel
	Vision    bool   `yaml:"vision,omitempty" json:"vision,omitempty"`
	Context   int    `yaml:"context,omitempty" json:"context,omitempty"` // input window in tokens
	// PriceIn and PriceOut are USD per million input/output tokens; 0 =
	// unknown (no cost is shown).
	PriceIn  float64 `yaml:"price_in,omitempty" json:"price_in,omitempty"`
	PriceOut float64 `yaml:"price_out,omitempty" json:"price_out,omitempty"`
}

// SupportsTools reports whether the model can call tools (default true).
func (m Model) SupportsTools() bool { return m.Tools == nil || *m.Tools }

// Provider is one OpenAI-compatible endpoint.
type Provider struct {
	ID      string            `yaml:"id" json:"id"`
	BaseURL string            `yaml:"base_url,omitempty" json:"base_url,omitempty"`
	APIKey  string            `yaml:"api_key,omitempty" json:"-"`
	Headers map[string]string `yaml:"headers,omitempty" json:"-"`
	Models  []Model           `yaml:"models,omitempty" json:"models,omitempty"`
}

// SystemPrompt is the config's system_prompt: a plain string (appended) or a
// map {text, replace}.
type SystemPrompt struct {
	Text    string
	Replace bool
}

// UnmarshalYAML accepts both forms.
func (s *SystemPrompt) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		s.Text = n.Value
		return nil
	}
	var m struct {
		Text      string `yaml:"text"`
		Replace   bool   `yaml:"replace"`
		IsReplace bool   `yaml:"is_replace"`
	}
	if err := n.Decode(&m); err != nil {
		return err
	}
	s.Text, s.Replace = m.Text, m.Replace || m.IsReplace
	return nil
}

// Config is the merged configuration.
type Config struct {
	Providers       []Provider   `yaml:"providers,omitempty"`
	DefaultProvider string       `yaml:"default_provider,omitempty"`
	DefaultModel    string       `yaml:"default_model,omitempty"`
	Reasoning       string       `yaml:"reasoning,omitempty"` // "", low, medium, high
	SystemPrompt    SystemPrompt `yaml:"system_prompt,omitempty"`
	Sandbox         Sandbox      `yaml:"sandbox,omitempty"`
	// Provider holds the model call's deadlines (timeouts.go), whichever
	// endpoint is used.
	Provider    ProviderTimeouts `yaml:"provider,omitempty"`
	Permissions Permissions      `yaml:"permissions,omitempty"`
	// TrustedProjects are the folders whose project settings apply whole
	// (trust.go); only the home config and settings.json set it.
	TrustedProjects []string `yaml:"trusted_projects,omitempty"`
	// MCPServers are the MCP servers by name (mcp.go).
	MCPServers map[string]MCPServer `yaml:"mcp_servers,omitempty"`
	// Updates: where the window looks for a newer release (off unless set;
	// only $VIS_HOME/config.yml is read for it).
	Updates Updates `yaml:"updates,omitempty"`

	// Warnings lists what was ignored while loading (project keys that are
	// not allowed, unset ${ENV} references).
	Warnings []string `yaml:"-"`
	// ProjectTrusted: the workspace is trusted (its held settings apply).
	ProjectTrusted bool `yaml:"-"`
	// ProjectHeld names a project's settings held back until it is trusted.
	ProjectHeld []string `yaml:"-"`
	// SecretEnv names the environment variables a provider's api_key or
	// headers read (${NAME}): kept from the model's processes.
	SecretEnv []string `yaml:"-"`
}

// Updates configures the window's quiet "a newer version is available"
// notice. CheckURL answers a GET with JSON {"version": "1.2.0", "url":
// "https://…", "notes": "…"}; empty means never check (the default).
type Updates struct {
	CheckURL string `yaml:"check_url,omitempty"`
}

// Files returns the config files read for a workspace, in merge order.
func Files(visHome, workspace string) []string {
	fs := []string{filepath.Join(visHome, "config.yml")}
	if workspace != "" {
		fs = append(fs, filepath.Join(workspace, "vis.yml"), filepath.Join(workspace, ".vis", "config.yml"))
	}
	return fs
}

// Load reads and merges the files for workspace. getenv may be nil.
func Load(visHome, workspace string, getenv func(string) string) (*Config, error) {
	return LoadTrusting(visHome, workspace, getenv, false)
}

// LoadTrusting is Load with trust given for this load (`vis run
// --trust-project`) whatever trusted_projects says.
func LoadTrusting(visHome, workspace string, getenv func(string) string, trust bool) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	merged := map[string]any{}
	var warnings []string
	var origins map[string]string     // sandbox key -> the file that set it last
	var timeoutFrom map[string]string // provider timeout key -> the file that set it last
	var held []string                 // project settings held until the folder is trusted
	trusted := trust
	for i, f := range Files(visHome, workspace) {
		raw, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			raw, err = nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read config %s: %w", f, err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("parse config %s: %w", f, err)
		}
		if m, err = prepareMCP(m, f); err != nil {
			return nil, err
		}
		if i > 0 { // project file
			warnings = append(warnings, stripProjectSecrets(m, f)...)
			warnings = append(warnings, stripProjectPermissions(m, f)...)
			if _, ok := m["trusted_projects"]; ok {
				delete(m, "trusted_projects")
				warnings = append(warnings, f+": trusted_projects is ignored in a project file (a project cannot trust itself)")
			}
			if !trusted {
				held = append(held, holdUntrusted(m)...)
			}
		}
		origins = sandboxOrigins(origins, m, f)
		timeoutFrom = timeoutOrigins(timeoutFrom, m, f)
		replaceMCP(merged, m)
		merged = merge(merged, m)
		if i == 0 {
			layer, err := settingsLayer(visHome)
			if err != nil {
				return nil, err
			}
			homeList, _ := merged["trusted_projects"].([]any)
			merged = merge(merged, layer)
			if sl, ok := layer["trusted_projects"].([]any); ok {
				// The window's trusted folders add to config.yml's.
				merged["trusted_projects"] = append(append([]any(nil), homeList...), sl...)
			}
			list, _ := merged["trusted_projects"].([]any)
			var paths []string
			for _, p := range list {
				if s, ok := p.(string); ok {
					paths = append(paths, s)
				}
			}
			trusted = trust || Trusted(paths, workspace)
		}
	}
	raw, err := yaml.Marshal(merged)
	if err != nil {
		return nil, fmt.Errorf("merge config: %w", err)
	}
	var c Config
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("decode config: %w", err)
	}
	c.Warnings = warnings
	c.ProjectTrusted, c.ProjectHeld = trusted, held
	if len(held) > 0 {
		c.Warnings = append(c.Warnings, TrustWarning(workspace, held))
	}
	c.Sandbox.from = origins
	c.Warnings = append(c.Warnings, c.Sandbox.validate()...)
	c.finishMCP(getenv)
	c.Provider.from = timeoutFrom
	c.Warnings = append(c.Warnings, c.Provider.validate()...)
	for i := range c.Providers {
		p := &c.Providers[i]
		c.SecretEnv = append(c.SecretEnv, envRefs(p.APIKey)...)
		p.APIKey = expandEnv(p.APIKey, getenv, &c.Warnings, p.ID)
		for k, v := range p.Headers {
			c.SecretEnv = append(c.SecretEnv, envRefs(v)...)
			p.Headers[k] = expandEnv(v, getenv, &c.Warnings, p.ID)
		}
	}
	return &c, nil
}

// envRefs lists the ${NAME} (and $NAME) references in s.
func envRefs(s string) []string {
	var names []string
	os.Expand(s, func(name string) string {
		names = append(names, name)
		return ""
	})
	return names
}

func expandEnv(s string, getenv func(string) string, warnings *[]string, id string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return os.Expand(s, func(name string) string {
		v := getenv(name)
		if v == "" {
			*warnings = append(*warnings, fmt.Sprintf("provider %q: environment variable %s is not set", id, name))
		}
		return v
	})
}

// stripProjectSecrets removes keys a project file may not set and returns a
// warning for each.
func stripProjectSecrets(m map[string]any, file string) []string {
	var w []string
	for _, k := range []string{"default_provider", "default_model"} {
		if _, ok := m[k]; ok {
			delete(m, k)
			w = append(w, fmt.Sprintf("%s: %s is ignored in a project file (set it in $VIS_HOME/config.yml)", file, k))
		}
	}
	ps, _ := m["providers"].([]any)
	for _, p := range ps {
		pm, ok := p.(map[string]any)
		if !ok {
			continue
		}
		for _, k := range []string{"base_url", "api_key", "headers", "api_key_command"} {
			if _, ok := pm[k]; ok {
				delete(pm, k)
				w = append(w, fmt.Sprintf("%s: provider %v: %s is ignored in a project file (a cloned repository must not redirect your key)", file, pm["id"], k))
			}
		}
	}
	return w
}

// merge deep-merges b into a: maps recursively, lists of maps with an "id"
// (or "name") merged element-wise by that key, anything else replaced.
func merge(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, bv := range b {
		av, ok := out[k]
		if !ok {
			out[k] = bv
			continue
		}
		switch bt := bv.(type) {
		case map[string]any:
			if at, ok := av.(map[string]any); ok {
				out[k] = merge(at, bt)
				continue
			}
		case []any:
			if at, ok := av.([]any); ok {
				if m, ok := mergeByKey(at, bt); ok {
					out[k] = m
					continue
				}
			}
		}
		out[k] = bv
	}
	return out
}

func mergeByKey(a, b []any) ([]any, bool) {
	key := func(v any) (string, bool) {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		for _, k := range []string{"id", "name"} {
			if s, ok := m[k].(string); ok && s != "" {
				return k + "=" + s, true
			}
		}
		return "", false
	}
	out := append([]any(nil), a...)
	idx := map[string]int{}
	for i, v := range out {
		k, ok := key(v)
		if !ok {
			return nil, false
		}
		idx[k] = i
	}
	for _, v := range b {
		k, ok := key(v)
		if !ok {
			return nil, false
		}
		if i, ok := idx[k]; ok {
			out[i] = merge(out[i].(map[string]any), v.(map[string]any))
		} else {
			idx[k] = len(out)
			out = append(out, v)
		}
	}
	return out, true
}

// Overrides are per-run choices from the CLI or the window.
type Overrides struct {
	BaseURL string
	Model   string
}

// Resolved is the provider and model one turn uses.
type Resolved struct {
	ProviderID string
	BaseURL    string
	APIKey     string
	Headers    map[string]string
	Model      Model
	Reasoning  string
}

// ErrNotConfigured is returned (wrapped) when no endpoint or model is known,
// or a remote endpoint has no key. Fronts map it to a configuration error.
var ErrNotConfigured = errors.New("provider not configured")

// Resolve picks the provider and model for a run: overrides, then VIS_* and
// OPENAI_* environment, then default_provider/default_model, then the first
// provider and its first model.
func (c *Config) Resolve(getenv func(string) string, o Overrides) (Resolved, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	first := func(names ...string) string {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	var r Resolved
	var p *Provider
	if id := c.DefaultProvider; id != "" {
		for i := range c.Providers {
			if c.Providers[i].ID == id {
				p = &c.Providers[i]
			}
		}
		if p == nil {
			return r, fmt.Errorf("%w: default_provider %q is not among the configured providers (%s)", ErrNotConfigured, id, c.providerIDs())
		}
	} else if len(c.Providers) > 0 {
		p = &c.Providers[0]
	}
	if p != nil {
		r.ProviderID, r.BaseURL, r.APIKey, r.Headers = p.ID, p.BaseURL, p.APIKey, p.Headers
	}
	if v := first("VIS_BASE_URL", "OPENAI_BASE_URL"); v != "" {
		r.ProviderID, r.BaseURL, r.Headers = "env", v, nil
		r.APIKey = ""
	}
	if o.BaseURL != "" {
		r.ProviderID, r.BaseURL, r.Headers = "flag", o.BaseURL, nil
		r.APIKey = ""
	}
	if v := getenv("VIS_API_KEY"); v != "" {
		r.APIKey = v
	} else if v := getenv("OPENAI_API_KEY"); v != "" && r.APIKey == "" {
		r.APIKey = v
	}
	name := o.Model
	if name == "" {
		name = getenv("VIS_MODEL")
	}
	if name == "" {
		name = c.DefaultModel
	}
	if name == "" && p != nil && len(p.Models) > 0 {
		name = p.Models[0].Name
	}
	if r.BaseURL == "" {
		return r, fmt.Errorf("%w: no endpoint; set VIS_BASE_URL (e.g. http://localhost:11434/v1 for Ollama) or add a provider to %s", ErrNotConfigured, "$VIS_HOME/config.yml")
	}
	u, err := url.Parse(r.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return r, fmt.Errorf("%w: base URL %q is not an http(s) URL", ErrNotConfigured, r.BaseURL)
	}
	if name == "" {
		return r, fmt.Errorf("%w: no model; set VIS_MODEL or pass --model", ErrNotConfigured)
	}
	if r.APIKey == "" && !IsLoopback(r.BaseURL) {
		return r, fmt.Errorf("%w: %s needs an API key; set VIS_API_KEY (or api_key in $VIS_HOME/config.yml)", ErrNotConfigured, r.BaseURL)
	}
	r.Model = Model{Name: name, Vision: LikelyVision(name)}
	for _, prov := range c.Providers {
		if p != nil && prov.ID != p.ID && r.ProviderID != "env" && r.ProviderID != "flag" {
			continue
		}
		for _, m := range prov.Models {
			if m.Name == name {
				r.Model = m
			}
		}
	}
	r.Reasoning = c.Reasoning
	return r, nil
}

func (c *Config) providerIDs() string {
	var ids []string
	for _, p := range c.Providers {
		ids = append(ids, p.ID)
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// LikelyVision guesses whether a model that has no entry in the config
// sees images, from its name (the common vision families). A config entry
// always decides (`vision: true|false`).
func LikelyVision(name string) bool {
	n := strings.ToLower(name)
	for _, k := range []string{"gpt-4o", "gpt-4.1", "gpt-5", "o3", "o4", "claude", "gemini", "vision", "-vl", "llava", "pixtral", "gemma3", "gemma-3", "llama-4", "llama4", "qwen2.5-vl", "minicpm-v", "moondream"} {
		if strings.Contains(n, k) {
			return true
		}
	}
	return false
}

// IsLoopback reports whether a base URL points at this machine.
func IsLoopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
