package ext

import (
	"os"
	"path/filepath"
	"strings"
)

// Marker is one sign in a workspace that switches an extension on. A pack
// declares its markers once (Extension.Markers) and decides its activation
// from them (AnyPresent), so the messages that explain activation (the
// facade's refusal hint, "go.mod appeared after this turn started") name
// exactly what activation looks at.
//
// A marker with File and no Exts is that root-relative file; one with Exts
// and no File is a source file with one of those extensions in the bounded
// scan; one with both needs both (package.json with JS sources).
type Marker struct {
	File string   // root-relative file ("go.mod"); "" = none
	Exts []string // source extensions (".py"), looked up with Environment.HasExt
	What string   // what the sources are called in messages ("Clojure source"); "" = by extension
}

// Present reports whether the marker is in env's workspace. Without
// env.Files a File is looked up on disk under env.Workspace.
func (m Marker) Present(env Environment) bool {
	if m.File == "" && len(m.Exts) == 0 {
		return false
	}
	if m.File != "" && !hasFile(env, m.File) {
		return false
	}
	if len(m.Exts) > 0 && (env.HasExt == nil || !env.HasExt(m.Exts...)) {
		return false
	}
	return true
}

func hasFile(env Environment, rel string) bool {
	if env.Files != nil {
		return env.Files(rel)
	}
	if env.Workspace == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(env.Workspace, rel))
	return err == nil
}

// String names the marker for the model: "go.mod", "a .py file",
// "a Clojure source (.clj, .cljs)", "package.json with JavaScript/TypeScript
// sources (.ts, .js)".
func (m Marker) String() string {
	exts := strings.Join(m.Exts, ", ")
	switch {
	case len(m.Exts) == 0:
		return m.File
	case m.File == "" && m.What == "" && len(m.Exts) == 1:
		return "a " + m.Exts[0] + " file"
	case m.File == "" && m.What == "":
		return "a file ending in " + exts
	case m.File == "":
		return "a " + m.What + " (" + exts + ")"
	case m.What == "":
		return m.File + " with " + exts + " files"
	default:
		return m.File + " with " + m.What + " (" + exts + ")"
	}
}

// AnyPresent reports whether one of ms is in env's workspace: the
// activation of a pack that declares its markers.
func AnyPresent(env Environment, ms []Marker) bool {
	for _, m := range ms {
		if m.Present(env) {
			return true
		}
	}
	return false
}

// PresentMarkers returns the extension's markers that are in env's
// workspace, in declaration order.
func (e Extension) PresentMarkers(env Environment) []Marker {
	var out []Marker
	for _, m := range e.Markers {
		if m.Present(env) {
			out = append(out, m)
		}
	}
	return out
}

// DisplayName is how messages name the extension: its Title, else its name
// without the "language-" prefix.
func (e Extension) DisplayName() string {
	if e.Title != "" {
		return e.Title
	}
	return strings.TrimPrefix(e.Name, "language-")
}
