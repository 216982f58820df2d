// Package confine runs the processes the model causes (shell commands,
// REPLs, test runners, formatters) under an OS sandbox, so a hostile
// program or a hostile repository cannot write outside the workspace or
// read the user's secrets. The app process itself is never restricted.
//
// Mechanism (Linux): Landlock, applied in a helper mode of the same binary.
// Command wraps argv as `<vis> __vis-confine <policy> -- argv...`; the
// helper (HelperMain, which every main and TestMain of a package that
// starts confined children calls first) restricts its own thread with
// no_new_privs and a Landlock ruleset and execs argv, which inherits the
// domain with everything it starts. The helper speaks the Landlock system
// calls through x/sys/unix, one thread, then exec: the library route
// (go-landlock) restricts every thread through libpsx, whose cgo build
// wraps pthread_create and installs a signal handler in the window's
// WebKitGTK process for a restriction that process never needs.
//
// What a policy grants (docs/SECURITY.md says what holds):
//   - read and execute everywhere except Protected (~/.ssh, ~/.gnupg,
//     $VIS_HOME, ...): Landlock only allows, so the readable set is "/"
//     with each protected path's ancestors expanded into their other
//     entries;
//   - write only in the workspace, Writable (the session's temp dir, tool
//     caches) and a few device files (/dev/null, /dev/tty, ...); none at
//     all in read-only mode;
//   - TCP connect and bind refused when Network is false (Landlock ABI 4).
//
// Landlock cannot make a read-only hole inside a writable folder, so
// .git/hooks inside the workspace stays writable. Best effort: on a kernel
// without Landlock (or another OS) Command still runs argv, confined by
// nothing, and Status says so; the engine reports it to the model and the
// window.
package confine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// Mode is a permission mode.
type Mode string

const (
	// ReadOnly: no writes anywhere (the device files aside).
	ReadOnly Mode = "read-only"
	// Workspace: writes in the workspace and the writable list only (the default).
	Workspace Mode = "workspace"
	// Full: no confinement.
	Full Mode = "full"
)

// ParseMode reads a mode name; "" is Workspace.
func ParseMode(s string) (Mode, error) {
	switch Mode(strings.TrimSpace(s)) {
	case "", Workspace:
		return Workspace, nil
	case ReadOnly:
		return ReadOnly, nil
	case Full:
		return Full, nil
	}
	return "", fmt.Errorf("unknown sandbox mode %q (read-only, workspace or full)", s)
}

// Policy is what a confined process may touch.
type Policy struct {
	Mode      Mode     `json:"mode"`
	Workspace string   `json:"workspace"`
	Writable  []string `json:"writable,omitempty"`  // beside the workspace (Workspace mode only)
	Protected []string `json:"protected,omitempty"` // neither read nor written
	Network   bool     `json:"network"`             // TCP allowed
	// TempDir, when set, is created and becomes the child's TMPDIR (and is
	// writable in Workspace mode): the session's own temp folder, since
	// /tmp is not writable.
	TempDir string `json:"temp_dir,omitempty"`
	// HideEnv names (globs with *) the environment variables the child
	// must not see (provider keys, tokens); applied in every mode, Full
	// and a system without Landlock included.
	HideEnv []string `json:"hide_env,omitempty"`
	// Ledger, when set, is the folder of the reaping ledger (reap_linux.go):
	// the child is recorded there so a later start of the app kills what
	// it left behind if the app dies without stopping it.
	Ledger string `json:"ledger,omitempty"`
}

// Hidden splits environ ("NAME=value") into what a child keeps and the
// names it hides (sorted).
func Hidden(environ, hide []string) (keep, hidden []string) {
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if matchAny(name, hide) {
			hidden = append(hidden, name)
			continue
		}
		keep = append(keep, kv)
	}
	slices.Sort(hidden)
	return keep, slices.Compact(hidden)
}

func matchAny(name string, globs []string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// helperArg marks the helper mode on the command line.
const helperArg = "__vis-confine"

// ErrUnavailable: the OS offers no confinement here.
var ErrUnavailable = errors.New("no OS confinement on this system")

// helperInstalled: HelperMain ran in this process, so Command can wrap.
var helperInstalled atomic.Bool

// self is the binary that runs the helper mode: this executable.
var self = os.Executable

// Command returns argv wrapped so it runs confined by p, or argv itself
// in Full mode and where confinement is unavailable (Status tells which).
// The policy's paths are made absolute and clean.
func (p Policy) Command(argv []string) ([]string, error) {
	if len(argv) == 0 {
		return nil, errors.New("confine: empty command")
	}
	if p.Mode != ReadOnly && p.Mode != Workspace && p.Mode != Full {
		return nil, fmt.Errorf("confine: unknown mode %q", p.Mode)
	}
	if !helperInstalled.Load() {
		return argv, nil // Status says why: nothing to wrap with
	}
	if (p.Mode == Full || Status().ABI == 0) && len(p.HideEnv) == 0 && p.Ledger == "" {
		return argv, nil
	}
	bin, err := self()
	if err != nil {
		return nil, fmt.Errorf("confine: find this executable: %w", err)
	}
	p = p.clean()
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	return append([]string{bin, helperArg, string(b), "--"}, argv...), nil
}

func (p Policy) clean() Policy {
	abs := func(ps []string) []string {
		var out []string
		for _, x := range ps {
			if x == "" {
				continue
			}
			if a, err := filepath.Abs(x); err == nil {
				out = append(out, filepath.Clean(a))
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	if p.Workspace != "" {
		if a, err := filepath.Abs(p.Workspace); err == nil {
			p.Workspace = filepath.Clean(a)
		}
	}
	p.Writable, p.Protected = abs(p.Writable), abs(p.Protected)
	if p.TempDir != "" {
		p.TempDir = filepath.Clean(p.TempDir)
	}
	return p
}

// Info is what confinement this system gives.
type Info struct {
	// ABI is the Landlock ABI version; 0 when there is none.
	ABI int `json:"abi"`
	// Network: TCP can be refused (ABI 4 and later).
	Network bool `json:"network"`
	// Why, when ABI is 0.
	Why string `json:"why,omitempty"`
}

// DefaultProtected lists the paths under home that hold credentials.
func DefaultProtected(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, rel := range []string{".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".netrc", ".pgpass", ".git-credentials", ".pypirc", ".config/gh", ".config/gcloud", ".password-store", ".local/share/keyrings"} {
		out = append(out, filepath.Join(home, rel))
	}
	return out
}
