// Package homedir is the person's home folder as paths spell it: "~" expanded
// in the paths people write (config lists, interpreter pins, paths named in
// a message), "~" put back in the paths Vis shows (REPL ids, the prompt's
// file names), and Vis's own home, $VIS_HOME (default ~/.vis), where its
// state lives.
//
// Every function is pure over the process environment and safe for
// concurrent use. A home folder that cannot be found is "": Expand and
// Tilde then leave paths as they are, and Vis fails with a sentence that
// says to set VIS_HOME.
package homedir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Dir is the person's home folder, "" when the system cannot say.
func Dir() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return h
}

// Expand turns a leading "~" (alone or as "~/...") into home; any other
// path, or any path when home is "", comes back unchanged. "~user" is not
// expanded.
func Expand(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// Tilde shows p with home as "~": home itself is "~", a path below it
// "~/...". When p does not start with home as given, home's
// symlink-resolved form is tried (paths from a canonical walk spell the
// home that way). Other paths, or any path when home is "", are unchanged.
func Tilde(p, home string) string {
	if home == "" || p == "" {
		return p
	}
	if s := tilde(p, home); s != p {
		return s
	}
	if r, err := filepath.EvalSymlinks(home); err == nil && r != home {
		return tilde(p, r)
	}
	return p
}

func tilde(p, home string) string {
	home = strings.TrimRight(home, string(filepath.Separator))
	if home == "" {
		return p
	}
	if p == home {
		return "~"
	}
	if strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}

// ErrNoHome means neither VIS_HOME nor the person's home folder is known.
var ErrNoHome = errors.New("cannot find the home directory; set VIS_HOME")

// Vis is Vis's home: $VIS_HOME made absolute, else ~/.vis. getenv reads
// the environment (nil: os.Getenv), so a front can pass its own.
func Vis(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if h := getenv("VIS_HOME"); h != "" {
		return filepath.Abs(h)
	}
	u := Dir()
	if u == "" {
		return "", ErrNoHome
	}
	return filepath.Join(u, ".vis"), nil
}
