package config

import (
	"fmt"
	"sort"
	"strings"
)

// Permissions is the `permissions` section: how the processes the model
// causes are confined (backend/confine). A person sets it in
// $VIS_HOME/config.yml (or per run: `vis run --sandbox`, the window's
// footer); a project file may only tighten it.
//
//	permissions:
//	  mode: workspace        # read-only | workspace (default) | full
//	  network: true          # false: confined processes get no TCP
//	  protected: [~/secrets] # beside the built-in list (~/.ssh, ~/.gnupg, ~/.aws, $VIS_HOME, ...)
//	  writable: [~/.cache]   # beside the workspace, its temp folder and the tool caches
type Permissions struct {
	Mode      string   `yaml:"mode,omitempty"`
	Network   *bool    `yaml:"network,omitempty"`
	Protected []string `yaml:"protected,omitempty"`
	Writable  []string `yaml:"writable,omitempty"`
	// EnvDeny names (globs with *) the environment variables the model's
	// processes never see; nil = DefaultEnvDeny. The provider keys
	// (VIS_API_KEY, OPENAI_API_KEY, every ${VAR} a provider reads) are
	// always kept out.
	EnvDeny []string `yaml:"env_deny,omitempty"`
	// ProjectProtected is a project file's protected list, kept apart so
	// it adds to the person's list instead of replacing it.
	ProjectProtected []string `yaml:"project_protected,omitempty"`
	ProjectEnvDeny   []string `yaml:"project_env_deny,omitempty"`
	// Ask: in the window, a command the sandbox refuses waits at its call
	// for the person to run it once without the sandbox, or not (default
	// off: the card offers "Run again without the sandbox" afterwards).
	// Headless runs never ask. The window's Settings keep it in
	// settings.json (ask_on_refusal); a project file cannot set it.
	Ask *bool `yaml:"ask,omitempty"`
}

// AskOn reports whether Ask is on.
func (p Permissions) AskOn() bool { return p.Ask != nil && *p.Ask }

// AllProtected is the person's protected paths and a project's additions.
func (p Permissions) AllProtected() []string {
	return append(append([]string(nil), p.Protected...), p.ProjectProtected...)
}

// DefaultEnvDeny: secrets by their usual names.
var DefaultEnvDeny = []string{"*_API_KEY", "*_APIKEY", "*_TOKEN", "*_SECRET", "*_SECRET_KEY", "*_PASSWORD", "*_ACCESS_KEY", "*_ACCESS_KEY_ID", "*_PRIVATE_KEY"}

// EnvDenyList is EnvDeny, or the default list.
func (p Permissions) EnvDenyList() []string {
	list := p.EnvDeny
	if list == nil {
		list = DefaultEnvDeny
	}
	return append(append([]string(nil), list...), p.ProjectEnvDeny...)
}

// NetworkOn: the network is allowed unless a file said network: false.
func (p Permissions) NetworkOn() bool { return p.Network == nil || *p.Network }

// stripProjectPermissions keeps, of a project file's permissions section,
// only what tightens: mode read-only, network false, more protected paths.
// A cloned repository must not widen what the model's processes may do.
func stripProjectPermissions(m map[string]any, file string) []string {
	pm, ok := m["permissions"].(map[string]any)
	if !ok {
		if _, present := m["permissions"]; present {
			delete(m, "permissions")
			return []string{fmt.Sprintf("%s: permissions must be a map; ignored", file)}
		}
		return nil
	}
	var w []string
	keys := make([]string, 0, len(pm))
	for k := range pm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := pm[k]
		switch k {
		case "mode":
			if s, _ := v.(string); strings.TrimSpace(s) == "read-only" {
				continue
			}
		case "network":
			if b, ok := v.(bool); ok && !b {
				continue
			}
		case "env_deny":
			// a project may add names to keep out, never remove the person's
			if list, ok := v.([]any); ok {
				pm["project_env_deny"] = list
				delete(pm, k)
				continue
			}
		case "protected":
			pm["project_protected"] = v
			delete(pm, k)
			continue
		}
		delete(pm, k)
		w = append(w, fmt.Sprintf("%s: permissions.%s: %v is ignored in a project file (a project may only tighten permissions; set it in $VIS_HOME/config.yml)", file, k, v))
	}
	return w
}
