package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/config"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/homedir"
)

// The confinement of the processes a session's programs start (shell,
// REPLs, test runners, formatters): built from the `permissions` config
// (and a front's override, `vis run --sandbox`) at every turn's plan, put
// on each tool call's ctx by toolCtx, applied by backend/confine where the
// children are spawned. A person's own `!cmd` runs unconfined.

// alwaysHidden are the provider key variables Vis itself reads.
var alwaysHidden = []string{"VIS_API_KEY", "OPENAI_API_KEY"}

// policyFor is the turn's policy and what to warn about (a mode name the
// config got wrong). Whatever the mode, the children never see the
// provider keys (the always-hidden names, every variable a provider's
// api_key or headers read) nor the deny list's variables.
//
// sessionMode is the mode chosen for the session in the window ("" =
// none): it wins over the config's, and the front's override
// (Options.Sandbox) over both.
func (e *Engine) policyFor(id, workspace, sessionMode string, cfg *config.Config) (confine.Policy, []string) {
	perms := cfg.Permissions
	mode, _, warnings := e.modeFor(sessionMode, cfg)
	home := homedir.Dir()
	p := confine.Policy{Mode: mode, Workspace: workspace, Network: perms.NetworkOn(), Ledger: e.ledgerDir()}
	p.HideEnv = append(append(append([]string(nil), alwaysHidden...), cfg.SecretEnv...), perms.EnvDenyList()...)
	p.Protected = append(confine.DefaultProtected(home), e.home)
	for _, x := range perms.AllProtected() {
		p.Protected = append(p.Protected, homedir.Expand(x, home))
	}
	cache, err := os.UserCacheDir()
	if err == nil {
		// The session's own temp folder (/tmp is not writable) and the tool
		// caches runners write to: go's build and module caches, npm's,
		// pip's, ... (~/.cache), and GOPATH.
		p.TempDir = filepath.Join(cache, "vis", "tmp", id)
		p.Writable = append(p.Writable, cache)
	}
	if home != "" {
		p.Writable = append(p.Writable, filepath.Join(home, "go"), filepath.Join(home, ".npm"))
	}
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE", "npm_config_cache"} {
		if v := e.getenv(k); v != "" {
			p.Writable = append(p.Writable, strings.Split(v, string(os.PathListSeparator))...)
		}
	}
	for _, x := range perms.Writable {
		p.Writable = append(p.Writable, homedir.Expand(x, home))
	}
	return p, warnings
}

// Where a turn's mode comes from (StatusView.SandboxSource).
const (
	ModeFromFlag    = "flag"    // vis run --sandbox (Options.Sandbox)
	ModeFromSession = "session" // chosen for the session in the window
	ModeFromConfig  = "config"  // permissions.mode, or the default
)

// modeFor is the mode of a session's next turn, where it comes from, and
// what to warn about (a mode name the config got wrong).
func (e *Engine) modeFor(sessionMode string, cfg *config.Config) (confine.Mode, string, []string) {
	if e.modeOverride != "" {
		return e.modeOverride, ModeFromFlag, nil
	}
	if sessionMode != "" {
		if m, err := confine.ParseMode(sessionMode); err == nil {
			return m, ModeFromSession, nil
		}
	}
	var warnings []string
	mode, err := confine.ParseMode(cfg.Permissions.Mode)
	if err != nil {
		warnings = append(warnings, "permissions.mode: "+err.Error()+"; using workspace")
		mode = confine.Workspace
	}
	return mode, ModeFromConfig, warnings
}

// SetSessionMode remembers the permission mode chosen for a session in the
// window (read-only, workspace, full; "" = the config's again). The next
// turn's plan applies it; a turn running now keeps its own. `vis run
// --sandbox` (Options.Sandbox) still wins in the process that has it.
func (e *Engine) SetSessionMode(ctx context.Context, sessionID, mode string) error {
	mode = strings.TrimSpace(mode)
	if mode != "" {
		if _, err := confine.ParseMode(mode); err != nil {
			return err
		}
	}
	if err := e.store.SetSessionMode(ctx, sessionID, mode); err != nil {
		return err
	}
	e.publishSession(sessionID)
	return nil
}

// TrustWorkspace trusts a folder (the window's "Trust this folder"): it is
// added to settings.json's trusted_projects, and the project settings held
// back apply from the next turn's plan, which reloads the config.
func (e *Engine) TrustWorkspace(ctx context.Context, workspace string) error {
	ws := canonical(workspace)
	if ws == "" {
		return fmt.Errorf("%w: no folder to trust", ErrConfig)
	}
	if err := config.TrustFolder(e.home, ws); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return nil
}

// ledgerDir is the reaping ledger's folder (backend/confine): what a
// crashed or killed run left behind is killed at the next start.
func (e *Engine) ledgerDir() string { return filepath.Join(e.home, "desktop", "children") }

// sandboxView is the session dict's "sandbox": what the model's processes
// may do, so it does not retry what the sandbox refuses.
func sandboxView(p confine.Policy) map[string]any {
	st := confine.Status()
	v := map[string]any{"mode": string(p.Mode), "network": p.Network || p.Mode == confine.Full}
	switch {
	case p.Mode == confine.Full:
		v["confined"] = false
		v["note"] = "full access: nothing the programs start is confined"
	case st.ABI == 0:
		v["confined"] = false
		v["note"] = "not enforced here: " + st.Why
	default:
		v["confined"] = true
		writes := "nothing (read-only mode)"
		if p.Mode == confine.Workspace {
			writes = "the workspace, $TMPDIR and the tool caches (~/.cache, ~/go, ~/.npm); not /tmp"
		}
		v["note"] = "shell, REPLs and test runners may write " + writes + "; ~/.ssh, ~/.gnupg, cloud credentials and Vis's own state are unreadable"
		if !p.Network {
			v["note"] = v["note"].(string) + "; no TCP connections"
		}
	}
	return v
}

// hiddenEnv lists the names (never the values) of this process's
// variables the policy keeps from the children: session["env"]["hidden"].
func hiddenEnv(p confine.Policy) []any {
	env := os.Environ()
	// The view asks twice per block; matching every variable against the
	// patterns was a tenth of a long turn's CPU. The environment and the
	// patterns rarely change: the last answer is kept for them.
	hiddenMemo.Lock()
	defer hiddenMemo.Unlock()
	if hiddenMemo.out != nil && slices.Equal(env, hiddenMemo.env) && slices.Equal(p.HideEnv, hiddenMemo.patterns) {
		return hiddenMemo.out
	}
	_, hidden := confine.Hidden(env, p.HideEnv)
	out := make([]any, len(hidden))
	for i, h := range hidden {
		out[i] = h
	}
	hiddenMemo.env, hiddenMemo.patterns, hiddenMemo.out = env, slices.Clone(p.HideEnv), out
	return out
}

// hiddenMemo is hiddenEnv's last answer (its list is only read).
var hiddenMemo struct {
	sync.Mutex
	env, patterns []string
	out           []any
}

// confined is ctx carrying the session's current policy.
func (rt *sessionRT) confined(ctx context.Context) context.Context {
	if p := rt.policy.Load(); p != nil {
		return confine.With(ctx, *p)
	}
	return ctx
}
