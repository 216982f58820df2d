package clojure

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/visdesktop/vis/backend/workspace"
)

// ErrFormatterMissing means the project configures a formatter that is not
// installed; the error names the tool, the file that asked for it and how
// to install it. Vis never substitutes another formatter: that would
// restyle the project's code.
var ErrFormatterMissing = errors.New("the project's formatter is not installed")

// formatterInstall says how to install each formatter.
var formatterInstall = map[string]string{
	"cljfmt":       "install cljfmt (a native binary: https://github.com/weavejester/cljfmt/releases) and put it on PATH",
	"zprint":       "install zprint (a native binary: https://github.com/kkinnear/zprint/releases) and put it on PATH",
	"standard-clj": "install Standard Clojure Style (npm install -g @chrisoakman/standard-clojure-style) so standard-clj is on PATH",
}

// configFiles are the dotfiles that configure a formatter, in the order a
// directory's files are checked (today's fallback order: cljfmt, zprint,
// standard-clj).
var configFiles = []struct{ name, tool string }{
	{".cljfmt.edn", "cljfmt"},
	{".cljfmt.clj", "cljfmt"},
	{"cljfmt.edn", "cljfmt"},
	{".zprint.edn", "zprint"},
	{".zprintrc", "zprint"},
	{".standard-clj.edn", "standard-clj"},
	{".standard-clj.json", "standard-clj"},
}

// formatterChoice is the formatter a project's files name and why ("" when
// they name none).
type formatterChoice struct {
	Tool string // cljfmt, zprint or standard-clj
	File string // the file that names it, workspace-relative
	Why  string // "the project configures cljfmt (.cljfmt.edn)"
}

// detectFormatter reads the project's files from dir up to the workspace
// root (dir alone when workspace is "" or dir is outside it); the nearest
// directory that names a formatter decides.
func detectFormatter(ws, dir string) formatterChoice {
	base := ws
	if base == "" {
		base = dir
	}
	for _, d := range upDirs(ws, dir) {
		if tool, name, key := formatterIn(d); tool != "" {
			file := workspace.RelTo(base, filepath.Join(d, name))
			return formatterChoice{Tool: tool, File: file, Why: "the project configures " + tool + " (" + file + key + ")"}
		}
	}
	return formatterChoice{}
}

// upDirs is dir, its parent, ... up to ws (inclusive); only dir when dir
// is not inside ws.
func upDirs(ws, dir string) []string {
	dir = filepath.Clean(dir)
	out := []string{dir}
	if ws == "" {
		return out
	}
	ws = filepath.Clean(ws)
	if rel, err := filepath.Rel(ws, dir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return out
	}
	for d := dir; d != ws; {
		p := filepath.Dir(d)
		if p == d {
			break
		}
		d = p
		out = append(out, d)
	}
	return out
}

// formatterIn is the formatter one directory's files name, the file that
// names it, and the key inside that file ("" for a dotfile): dotfiles
// first, then project.clj (a :cljfmt/:zprint key, a plugin at the top or
// in a profile), deps.edn (an alias named for the tool or whose
// :main-opts/:exec-fn/:ns-default run it) and package.json. A dependency
// alone does not count: zprint is also a pretty-printing library.
func formatterIn(d string) (tool, file, key string) {
	for _, f := range configFiles {
		if fi, err := os.Stat(filepath.Join(d, f.name)); err == nil && !fi.IsDir() {
			return f.tool, f.name, ""
		}
	}
	pr := LoadProject(d)
	tools := []string{"cljfmt", "zprint"}
	if pr.Lein != nil {
		for _, t := range tools {
			if _, ok := pr.Lein.Get(Keyword(t)); ok {
				return t, "project.clj", " :" + t
			}
		}
		profiles, _ := pr.Lein.Kw("profiles").(Map)
		for _, t := range tools {
			if mentions(pr.Lein.Kw("plugins"), t) {
				return t, "project.clj", " :plugins"
			}
			for _, e := range profiles {
				if m, ok := e.Value.(Map); ok && mentions(m.Kw("plugins"), t) {
					return t, "project.clj", " :profiles :" + asString(e.Key) + " :plugins"
				}
			}
		}
	}
	if pr.Deps != nil {
		as, _ := pr.Deps.Kw("aliases").(Map)
		for _, t := range tools {
			for _, e := range as {
				m, _ := e.Value.(Map)
				if strings.Contains(asString(e.Key), t) || mentions(m.Kw("main-opts"), t) || mentions(m.Kw("exec-fn"), t) || mentions(m.Kw("ns-default"), t) {
					return t, "deps.edn", " :aliases :" + asString(e.Key)
				}
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil && strings.Contains(string(b), `"@chrisoakman/standard-clojure-style"`) {
		return "standard-clj", "package.json", " @chrisoakman/standard-clojure-style"
	}
	return "", "", ""
}

// mentions reports whether v holds, anywhere, a symbol, keyword or string
// naming tool (cljfmt/cljfmt, dev.weavejester/lein-cljfmt, "cljfmt.main").
func mentions(v any, tool string) bool {
	switch x := v.(type) {
	case Map:
		for _, e := range x {
			if mentions(e.Key, tool) || mentions(e.Value, tool) {
				return true
			}
		}
	case Tagged:
		return mentions(x.Value, tool)
	case ReaderCond:
		for _, f := range x.Forms {
			if mentions(f, tool) {
				return true
			}
		}
	case Symbol, Keyword, string:
		return strings.Contains(asString(x), tool)
	default:
		for _, e := range asSeq(v) {
			if mentions(e, tool) {
				return true
			}
		}
	}
	return false
}
