package clojure

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/confine"
)

// Project is what the pack knows about a project folder from its files.
type Project struct {
	Dir                                string
	HasDeps, HasLein, HasBB, HasShadow bool
	Deps, Lein, BB, Shadow             Map   // parsed files (nil when absent)
	ReadErr                            error // a project file that did not parse
}

// LoadProject reads the project files of dir (never evaluates anything).
func LoadProject(dir string) *Project {
	p := &Project{Dir: dir}
	read := func(name string) (Map, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, false
		}
		v, err := ReadEDN(string(b))
		if err != nil {
			if p.ReadErr == nil {
				p.ReadErr = fmt.Errorf("%s: %w", name, err)
			}
			return nil, true
		}
		m, _ := v.(Map)
		return m, true
	}
	p.Deps, p.HasDeps = read("deps.edn")
	p.BB, p.HasBB = read("bb.edn")
	p.Shadow, p.HasShadow = read("shadow-cljs.edn")
	if b, err := os.ReadFile(filepath.Join(dir, "project.clj")); err == nil {
		p.HasLein = true
		forms, rerr := ReadForms(string(b), 0)
		for _, f := range forms {
			l, ok := f.(List)
			if ok && len(l) >= 3 && l[0] == Symbol("defproject") {
				m := Map{}
				for i := 3; i+1 < len(l); i += 2 {
					m = append(m, MapEntry{l[i], l[i+1]})
				}
				p.Lein = m
				break
			}
		}
		if p.Lein == nil && rerr != nil && p.ReadErr == nil {
			p.ReadErr = fmt.Errorf("project.clj: %w", rerr)
		}
	}
	return p
}

// depsAlias returns the alias map :aliases/<name> of deps.edn (nil if none).
func (pr *Project) depsAlias(name string) (Map, bool) {
	if pr.Deps == nil {
		return nil, false
	}
	as, _ := pr.Deps.Kw("aliases").(Map)
	v, ok := as.Get(Keyword(name))
	m, _ := v.(Map)
	return m, ok
}

func stringsOf(v any) []string {
	var out []string
	for _, e := range asSeq(v) {
		if s := asString(e); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// existing keeps the relative paths that are folders of the project.
func (pr *Project) existing(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range paths {
		s = filepath.Clean(s)
		if seen[s] || filepath.IsAbs(s) || strings.HasPrefix(s, "..") {
			continue
		}
		seen[s] = true
		if isDir(filepath.Join(pr.Dir, s)) {
			out = append(out, s)
		}
	}
	return out
}

// SourcePaths are the project's source and resource folders that exist.
func (pr *Project) SourcePaths() []string {
	var ps []string
	switch {
	case pr.Deps != nil:
		if v := pr.Deps.Kw("paths"); v != nil {
			ps = stringsOf(v)
		} else {
			ps = []string{"src"}
		}
		for _, a := range []string{"dev"} {
			if m, ok := pr.depsAlias(a); ok {
				ps = append(ps, stringsOf(m.Kw("extra-paths"))...)
			}
		}
	case pr.Lein != nil:
		ps = append(ps, orDefault(stringsOf(pr.Lein.Kw("source-paths")), "src")...)
		ps = append(ps, orDefault(stringsOf(pr.Lein.Kw("resource-paths")), "resources")...)
	case pr.BB != nil && pr.BB.Kw("paths") != nil:
		ps = stringsOf(pr.BB.Kw("paths"))
	default:
		ps = []string{"src", "resources"}
	}
	return pr.existing(ps)
}

// TestPaths are the project's test folders that exist.
func (pr *Project) TestPaths() []string {
	var ps []string
	switch {
	case pr.Deps != nil:
		if m, ok := pr.depsAlias("test"); ok {
			ps = stringsOf(m.Kw("extra-paths"))
		}
	case pr.Lein != nil:
		ps = stringsOf(pr.Lein.Kw("test-paths"))
	}
	if len(ps) == 0 {
		ps = []string{"test"}
	}
	return pr.existing(ps)
}

// Classpath lists the project folders a plain JVM needs (sources, tests).
func (pr *Project) Classpath() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range append(pr.SourcePaths(), pr.TestPaths()...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, filepath.Join(pr.Dir, s))
		}
	}
	return out
}

// extraDeps reports whether deps.edn or project.clj declares libraries a
// plain clojure.jar classpath lacks.
func (pr *Project) extraDeps() []string {
	var out []string
	if pr.Deps != nil {
		if m, ok := pr.Deps.Kw("deps").(Map); ok {
			for _, e := range m {
				if n := asString(e.Key); n != "" && n != "org.clojure/clojure" {
					out = append(out, n)
				}
			}
		}
	}
	if pr.Lein != nil {
		for _, d := range asSeq(pr.Lein.Kw("dependencies")) {
			if v := asSeq(d); len(v) > 0 {
				if n := asString(v[0]); n != "" && n != "org.clojure/clojure" {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

func orDefault(v []string, d string) []string {
	if len(v) == 0 {
		return []string{d}
	}
	return v
}

// ---- launchers ----

// Launcher is how a REPL (or a test run) is started for a project.
type Launcher struct {
	Tool string   // clj (official CLI), lein, bb, java (Debian's plain jars)
	Argv []string // exact argv; argv[0] is the resolved program
	Note string   // what the caller should know (unresolved deps, ignored aliases)
}

// ErrNoLauncher means nothing installed can start a REPL or run tests.
var ErrNoLauncher = errors.New("no Clojure launcher installed")

// debianJars are the jars of Debian's clojure and libnrepl-clojure.
var debianJars = []string{"clojure.jar", "spec.alpha.jar", "core.specs.alpha.jar", "nrepl.jar"}

// jars returns the Debian jar paths when all exist.
func (p *Pack) jars(withNREPL bool) ([]string, bool) {
	var out []string
	for _, j := range debianJars {
		if j == "nrepl.jar" && !withNREPL {
			continue
		}
		full := filepath.Join(p.opts.JarDir, j)
		if _, err := os.Stat(full); err != nil {
			return nil, false
		}
		out = append(out, full)
	}
	return out, true
}

// officialCLI reports whether `clojure` is the official Clojure CLI.
func (p *Pack) officialCLI(ctx context.Context) (string, bool) {
	bin, err := p.opts.LookPath("clojure")
	if err != nil {
		return "", false
	}
	if p.opts.OfficialCLI != nil {
		return bin, p.opts.OfficialCLI(ctx)
	}
	p.cliOnce.Do(func() {
		dir, err := os.MkdirTemp(confine.TempDir(ctx), "vis-clj-detect-")
		if err != nil {
			return
		}
		defer os.RemoveAll(dir)
		r, err := run(ctx, []string{bin, "-Sdescribe"}, dir, "", 20*time.Second, nil)
		p.cliOK = err == nil && r.exit == 0 && strings.HasPrefix(strings.TrimSpace(r.stdout), "{")
	})
	return bin, p.cliOK
}

// DepsNREPLArgv is the official CLI's nREPL launch for deps.edn: nREPL added
// through a synthetic alias that goes last so its main wins.
func DepsNREPLArgv(clojure string, aliases []string, port int) []string {
	sdeps := fmt.Sprintf(`{:aliases {:vis/nrepl-launch {:extra-deps {nrepl/nrepl {:mvn/version %q}} :main-opts ["-m" "nrepl.cmdline" "--port" "%d" "--bind" "127.0.0.1"]}}}`, NREPLVersion, port)
	m := "-M:dev:test"
	for _, a := range aliases {
		if a != "dev" && a != "test" {
			m += ":" + a
		}
	}
	return []string{clojure, "-Sdeps", sdeps, m + ":vis/nrepl-launch"}
}

// LeinNREPLArgv is Leiningen's headless REPL on port, with profiles.
func LeinNREPLArgv(lein string, aliases []string, port int) []string {
	argv := []string{lein}
	if len(aliases) > 0 {
		ps := make([]string, len(aliases))
		for i, a := range aliases {
			ps[i] = "+" + a
		}
		argv = append(argv, "with-profile", strings.Join(ps, ","))
	}
	return append(argv, "repl", ":headless", ":port", strconv.Itoa(port))
}

// BBNREPLArgv is babashka's nREPL server on port.
func BBNREPLArgv(bb string, port int) []string {
	return []string{bb, "nrepl-server", strconv.Itoa(port)}
}

// JavaNREPLArgv runs nrepl.cmdline on plain jars plus the project folders.
func JavaNREPLArgv(java string, classpath []string, port int) []string {
	return []string{java, "-cp", strings.Join(classpath, string(os.PathListSeparator)),
		"clojure.main", "-m", "nrepl.cmdline", "--port", strconv.Itoa(port), "--bind", "127.0.0.1"}
}

// REPLLauncher chooses how to start an nREPL server for proj on port:
// deps.edn with the official CLI, project.clj with lein, bb.edn with bb, in
// that order of precedence among the tools installed; else Debian's plain
// jars; else an error wrapping ErrNoLauncher that says what to install.
func (p *Pack) REPLLauncher(ctx context.Context, proj *Project, aliases []string, port int) (Launcher, error) {
	if proj.HasDeps {
		if bin, ok := p.officialCLI(ctx); ok {
			return Launcher{Tool: "clj", Argv: DepsNREPLArgv(bin, aliases, port)}, nil
		}
	}
	if proj.HasLein {
		if bin, err := p.opts.LookPath("lein"); err == nil {
			return Launcher{Tool: "lein", Argv: LeinNREPLArgv(bin, aliases, port)}, nil
		}
	}
	if proj.HasBB {
		if bin, err := p.opts.LookPath("bb"); err == nil {
			l := Launcher{Tool: "bb", Argv: BBNREPLArgv(bin, port)}
			if len(aliases) > 0 {
				l.Note = "babashka has no aliases: " + strings.Join(aliases, ", ") + " ignored"
			}
			return l, nil
		}
	}
	java, jerr := p.opts.LookPath("java")
	jars, jok := p.jars(true)
	if jerr == nil && jok {
		cp := append(jars, proj.Classpath()...)
		l := Launcher{Tool: "java", Argv: JavaNREPLArgv(java, cp, port)}
		var notes []string
		if proj.HasDeps || proj.HasLein || proj.HasBB {
			notes = append(notes, fmt.Sprintf("%s is not installed: started on Debian's plain clojure.jar + nrepl.jar with the project's folders on the classpath", p.missingTool(proj)))
		}
		if extra := proj.extraDeps(); len(extra) > 0 {
			notes = append(notes, "dependencies are NOT resolved ("+strings.Join(extra, ", ")+")")
		}
		if len(aliases) > 0 {
			notes = append(notes, "aliases need the official Clojure CLI: "+strings.Join(aliases, ", ")+" ignored")
		}
		l.Note = strings.Join(notes, "; ")
		return l, nil
	}
	return Launcher{}, fmt.Errorf("%w: %s", ErrNoLauncher, p.installHint(proj))
}

// missingTool names the build tool the project wants.
func (p *Pack) missingTool(proj *Project) string {
	switch {
	case proj.HasDeps:
		return "the official Clojure CLI (clojure -Sdescribe)"
	case proj.HasLein:
		return "Leiningen (lein)"
	case proj.HasBB:
		return "babashka (bb)"
	}
	return "a Clojure build tool"
}

func (p *Pack) installHint(proj *Project) string {
	var want string
	switch {
	case proj.HasDeps:
		want = "install the official Clojure CLI (https://clojure.org/guides/install_clojure)"
	case proj.HasLein:
		want = "install Leiningen (https://leiningen.org)"
	case proj.HasBB:
		want = "install babashka (https://babashka.org)"
	default:
		want = "install the official Clojure CLI (https://clojure.org/guides/install_clojure)"
	}
	return want + ", or on Debian/Ubuntu `apt-get install clojure libnrepl-clojure` (a JRE + plain clojure.jar and nrepl.jar, enough for projects without dependencies)"
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
