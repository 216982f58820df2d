package clojure

// lint_code for Clojure (spec §4.3–§4.5): clj-kondo's findings (when it is
// installed) merged with the reflection, boxed-math and performance
// warnings Clojure's own compiler prints while it loads the code in a clean
// JVM. The JVM is never the user's REPL: loading there would redefine their
// vars. Both linters run concurrently; either may be skipped (not
// installed, babashka, ClojureScript) with a note, and only when neither
// can run is lint_code an error.
//
// The clean JVM loads every selected .clj/.cljc file with load-file, in
// sorted order, under *warn-on-reflection* true and *unchecked-math*
// :warn-on-boxed, with *err* captured per file. A file whose namespace an
// earlier file already required is not loaded again (its warnings were
// captured then). A file that fails to load becomes an `error` finding and
// the others are still checked. Results go to stdout as one EDN map per file
// behind a random marker, so whatever the project prints while loading
// cannot be mistaken for them; the script ends with System/exit, so threads
// a namespace starts at load cannot keep the JVM alive. The child runs in
// its own process group and is killed with it after ToolTimeout (or
// timeout_ms); a file that was loading then, or when the JVM died, becomes
// an `error` finding and the files after it are named in the note.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

// ErrNoReflection means the project runs on babashka, which has no
// compiler reflection warnings to collect.
var ErrNoReflection = errors.New("babashka has no reflection warnings")

// kondoInstall is what to do when clj-kondo is missing.
const kondoInstall = "install it (https://github.com/clj-kondo/clj-kondo/releases, a single native binary) and put it on PATH"

// lintSel is what lint_code was asked to check.
type lintSel struct {
	code      string   // a snippet ("" = files)
	lang      string   // the snippet's dialect: clj, cljc, cljs, edn
	paths     []string // explicit paths (validated); nil = the defaults
	defaulted bool
	env       []string // the call's env ("NAME=value"), for both linters
	args      []string // the call's extra clj-kondo arguments
}

// linted is one linter's outcome.
type linted struct {
	name     string
	findings []map[string]any
	skipped  string // why it did not run (then nothing else is set)
	err      error  // it was launched and failed
	notes    []string
	info     map[string]any
}

func (p *Pack) lint(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	sel, err := lintSelection(c)
	if err != nil {
		return nil, fmt.Errorf("clojure lint_code: %w", err)
	}
	proj := LoadProject(c.Cwd) // read once: both linters only read it
	var kondo, jvm linted
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); kondo = p.kondoLint(ctx, c, sel, proj) }()
	go func() { defer wg.Done(); jvm = p.jvmLint(ctx, c, sel, proj) }()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("clojure lint_code: %w", err)
	}
	return mergeLint(kondo, jvm)
}

func lintSelection(c ext.Call) (lintSel, error) {
	env, err := ext.EnvOf(c.Opts)
	if err != nil {
		return lintSel{}, err
	}
	args, err := ext.ArgsOf(c.Opts)
	if err != nil {
		return lintSel{}, err
	}
	if code, ok := c.Opts["code"].(string); ok && strings.TrimSpace(code) != "" {
		lang := "clj"
		if l := strings.TrimPrefix(optString(c.Opts, "lang"), "."); l == "cljs" || l == "cljc" || l == "edn" {
			lang = l
		}
		return lintSel{code: code, lang: lang, env: env, args: args}, nil
	}
	paths, _, err := optStrings(c.Opts, "paths")
	if err != nil {
		return lintSel{}, err
	}
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(c.Cwd, p)
		}
		if _, err := os.Stat(abs); err != nil {
			return lintSel{}, fmt.Errorf("no such file or directory: %s", p)
		}
	}
	return lintSel{paths: paths, defaulted: len(paths) == 0, env: env, args: args}, nil
}

// mergeLint merges the linters' findings (sorted by file, row, col) with
// counts by level; an error only when neither linter ran.
func mergeLint(ls ...linted) (map[string]any, error) {
	var rows []map[string]any
	linters := []any{}
	var notes, failed []string
	for _, l := range ls {
		switch {
		case l.skipped != "":
			notes = append(notes, l.skipped)
			failed = append(failed, l.skipped)
		case l.err != nil:
			msg := fmt.Sprintf("%s failed: %v", l.name, l.err)
			notes = append(notes, msg)
			failed = append(failed, msg)
		default:
			linters = append(linters, l.name)
			rows = append(rows, l.findings...)
		}
		notes = append(notes, l.notes...)
	}
	if len(linters) == 0 {
		return nil, fmt.Errorf("clojure lint_code: no linter could run: %s", strings.Join(failed, "; "))
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if fa, fb := a["file"].(string), b["file"].(string); fa != fb {
			return fa < fb
		}
		ra, _ := a["row"].(int)
		rb, _ := b["row"].(int)
		if ra != rb {
			return ra < rb
		}
		ca, _ := a["col"].(int)
		cb, _ := b["col"].(int)
		return ca < cb
	})
	findings := make([]any, len(rows))
	counts := map[string]any{"error": 0, "warning": 0, "info": 0}
	for i, f := range rows {
		findings[i] = f
		lv, _ := f["level"].(string)
		n, _ := counts[lv].(int)
		counts[lv] = n + 1
	}
	out := map[string]any{"findings": findings, "counts": counts, "total": len(findings), "linters": linters}
	for _, l := range ls {
		if l.info != nil {
			out[l.name] = l.info
		}
	}
	if len(notes) > 0 {
		out["note"] = strings.Join(notes, "; ")
	}
	return out, nil
}

// ---- clj-kondo ----

func (p *Pack) kondoLint(ctx context.Context, c ext.Call, sel lintSel, proj *Project) linted {
	l := linted{name: "clj-kondo"}
	bin, err := p.opts.LookPath("clj-kondo")
	if err != nil {
		l.skipped = "clj-kondo is not installed: " + kondoInstall + " for its findings"
		return l
	}
	argv := append([]string{bin, "--config", "{:output {:format :edn}}"}, sel.args...)
	argv = append(argv, "--lint")
	stdin := ""
	if sel.code != "" {
		argv = append(argv, "-", "--lang", sel.lang)
		stdin = sel.code
	} else {
		paths := sel.paths
		if sel.defaulted {
			paths = defaultPaths(proj)
		}
		argv = append(argv, strings.Join(paths, string(os.PathListSeparator)))
	}
	r, err := run(ctx, argv, c.Cwd, stdin, optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout), sel.env)
	if err != nil {
		l.err = err
		return l
	}
	rows, perr := parseKondo(r.stdout, c.Cwd)
	if perr != nil {
		l.err = fmt.Errorf("could not read its output (exit %d): %v: %s", r.exit, perr, strings.TrimSpace(tail(r.stderr+r.stdout, 8)))
		return l
	}
	l.findings = rows
	return l
}

// parseKondo reads clj-kondo's EDN output into findings.
func parseKondo(s, cwd string) ([]map[string]any, error) {
	v, err := ReadEDN(s)
	if err != nil {
		return nil, err
	}
	m, ok := v.(Map)
	if !ok {
		return nil, fmt.Errorf("not a map")
	}
	var rows []map[string]any
	for _, f := range asSeq(m.Kw("findings")) {
		fm, ok := f.(Map)
		if !ok {
			continue
		}
		file := asString(fm.Kw("filename"))
		if file == "<stdin>" || file == "-" {
			file = ""
		} else if filepath.IsAbs(file) {
			file = workspace.RelTo(cwd, file)
		}
		row, _ := toGo(fm.Kw("row")).(int)
		col, _ := toGo(fm.Kw("col")).(int)
		rows = append(rows, map[string]any{"file": file, "row": row, "col": col,
			"level": asString(fm.Kw("level")), "type": asString(fm.Kw("type")), "message": asString(fm.Kw("message")), "provider": "clj-kondo"})
	}
	return rows, nil
}

// ---- the clean JVM ----

// jvmExts are the files the JVM can load.
var jvmExts = map[string]bool{".clj": true, ".cljc": true}

// lintScript loads each file listed in @LIST@ and prints one EDN map per
// file behind @MARK@. It avoids every namespace but clojure.core and
// clojure.main so that it runs on any classpath (Clojure 1.7+; the error
// text is nicer from 1.10).
const lintScript = `(let [mark "@MARK@"
      out *out*
      emit (fn [& xs] (binding [*out* out] (print (apply str "\n" mark " " xs)) (newline) (flush)))
      rdr (fn [f] (java.io.BufferedReader. (java.io.InputStreamReader. (java.io.FileInputStream. (str f)) "UTF-8")))
      files (with-open [r (rdr "@LIST@")] (vec (remove #(= "" %) (line-seq r))))
      ns-of (fn [f] (try (with-open [r (java.io.PushbackReader. (rdr f))]
                           (let [x (binding [*read-eval* false] (read {:read-cond :allow :eof nil} r))]
                             (when (and (seq? x) (= 'ns (first x)) (symbol? (second x))) (second x))))
                         (catch Throwable _ nil)))
      why (fn [e] (let [tri (resolve 'clojure.main/ex-triage) s (resolve 'clojure.main/ex-str)]
                    (if (and tri s)
                      (let [t (tri (Throwable->map e))]
                        {:error (s t) :line (:clojure.error/line t) :column (:clojure.error/column t)
                         :source (some-> (:clojure.error/source t) str)})
                      {:error (str e)})))]
  (doseq [[i f] (map-indexed vector files)]
    (emit "BEGIN " i)
    (let [w (java.io.StringWriter.)
          n (ns-of f)
          r (if (and n (contains? (loaded-libs) n) (find-ns n))
              {:skipped (str n)}
              (binding [*err* (java.io.PrintWriter. w true)
                        *warn-on-reflection* true
                        *unchecked-math* :warn-on-boxed]
                (try (load-file f) {} (catch Throwable e (why e)))))]
      (emit "END " (pr-str (assoc r :index i :err (str w))))))
  (emit "DONE")
  (shutdown-agents)
  (System/exit 0))`

// ReflectionLauncher chooses the clean JVM that loads the code for the
// reflection and boxed-math check, the way a clean-JVM test run does:
// deps.edn with the official CLI (`clojure -Sdeps <:vis/lint alias> -M[:test]:vis/lint
// -e script`, the synthetic alias going last so its main wins over a test
// runner's); project.clj with lein (`lein run -m clojure.main/main -- -e
// script`); else Debian's plain jars (`java -cp clojure.jar:spec.alpha.jar:
// core.specs.alpha.jar:<source and test folders> clojure.main -e script`).
// A babashka-only project gives ErrNoReflection; nothing installed gives an
// error wrapping ErrNoLauncher that says what to install.
func (p *Pack) ReflectionLauncher(ctx context.Context, proj *Project, script string) (Launcher, error) {
	if proj.HasDeps {
		if bin, ok := p.officialCLI(ctx); ok {
			var dirs []string
			for _, d := range append(proj.SourcePaths(), proj.TestPaths()...) {
				dirs = append(dirs, strconv.Quote(d))
			}
			sdeps := `{:aliases {:vis/lint {:extra-paths [` + strings.Join(dirs, " ") + `] :main-opts ["-e" "nil"]}}}`
			m := "-M"
			if _, ok := proj.depsAlias("test"); ok {
				m += ":test"
			}
			return Launcher{Tool: "clj", Argv: []string{bin, "-Sdeps", sdeps, m + ":vis/lint", "-e", script}}, nil
		}
	}
	if proj.HasLein {
		if bin, err := p.opts.LookPath("lein"); err == nil {
			return Launcher{Tool: "lein", Argv: []string{bin, "run", "-m", "clojure.main/main", "--", "-e", script}}, nil
		}
	}
	if proj.HasBB && !proj.HasDeps && !proj.HasLein {
		return Launcher{}, ErrNoReflection
	}
	java, jerr := p.opts.LookPath("java")
	jars, jok := p.jars(false)
	if jerr != nil || !jok {
		return Launcher{}, fmt.Errorf("%w: %s", ErrNoLauncher, p.installHint(proj))
	}
	cp := append(jars, proj.Classpath()...)
	l := Launcher{Tool: "java", Argv: []string{java, "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-cp", strings.Join(cp, string(os.PathListSeparator)), "clojure.main", "-e", script}}
	var notes []string
	if proj.HasDeps || proj.HasLein {
		notes = append(notes, p.missingTool(proj)+" is not installed: loaded with Debian's plain clojure.jar and the project's folders on the classpath")
	}
	if extra := proj.extraDeps(); len(extra) > 0 {
		notes = append(notes, "dependencies are NOT resolved ("+strings.Join(extra, ", ")+"), so files that require them fail to load")
	}
	l.Note = strings.Join(notes, "; ")
	return l, nil
}

// jvmDefaultPaths are the project's source folders without its resource
// folders (tests are not loaded by default: pass paths for them).
func jvmDefaultPaths(proj *Project) []string {
	res := map[string]bool{"resources": true}
	if proj.Lein != nil {
		for _, r := range stringsOf(proj.Lein.Kw("resource-paths")) {
			res[filepath.Clean(r)] = true
		}
	}
	var out []string
	for _, s := range proj.SourcePaths() {
		if !res[s] && !res[filepath.Base(s)] {
			out = append(out, s)
		}
	}
	return out
}

func (p *Pack) jvmLint(ctx context.Context, c ext.Call, sel lintSel, proj *Project) linted {
	l := linted{name: "clojure"}
	tmp, err := os.MkdirTemp(confine.TempDir(ctx), "vis-clj-lint-")
	if err != nil {
		l.err = err
		return l
	}
	defer os.RemoveAll(tmp)

	// The files to load and how each is shown ("" = the snippet).
	var files []string
	shown := map[string]string{}
	var paths []string
	if sel.code != "" {
		switch sel.lang {
		case "cljs":
			l.skipped = "ClojureScript cannot be reflection-checked (there is no JVM compiler for it)"
			return l
		case "edn":
			l.skipped = "EDN is data: nothing to reflection-check"
			return l
		}
		f := filepath.Join(tmp, "snippet."+sel.lang)
		if err := os.WriteFile(f, []byte(sel.code), 0o644); err != nil {
			l.err = err
			return l
		}
		files = []string{f}
		shown[f] = ""
	} else {
		paths = sel.paths
		if sel.defaulted {
			if paths = jvmDefaultPaths(proj); len(paths) == 0 {
				l.skipped = "the reflection check found no source folder to load: pass paths (the files are loaded, so their top-level code runs)"
				return l
			}
		}
		all, err := walkSources(c.Cwd, paths)
		if err != nil {
			l.err = err
			return l
		}
		var cljs, bb int
		for _, f := range all {
			switch ext := filepath.Ext(f); {
			case jvmExts[ext]:
				files = append(files, f)
				shown[f] = workspace.RelTo(c.Cwd, f)
			case ext == ".cljs":
				cljs++
			case ext == ".bb":
				bb++
			}
		}
		var skipped []string
		if cljs > 0 {
			skipped = append(skipped, fmt.Sprintf("%d .cljs file(s)", cljs))
		}
		if bb > 0 {
			skipped = append(skipped, fmt.Sprintf("%d babashka .bb file(s)", bb))
		}
		if len(skipped) > 0 {
			l.notes = append(l.notes, "not reflection-checked (no JVM compiler for them): "+strings.Join(skipped, ", "))
		}
		if len(files) == 0 {
			l.skipped = "the reflection check found no .clj/.cljc files under " + strings.Join(paths, ", ")
			return l
		}
	}

	list := filepath.Join(tmp, "files.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		l.err = err
		return l
	}
	mark := lintMarker()
	script := strings.NewReplacer(`"@MARK@"`, cljString(mark), `"@LIST@"`, cljString(list)).Replace(lintScript)
	launcher, err := p.ReflectionLauncher(ctx, proj, script)
	switch {
	case errors.Is(err, ErrNoReflection):
		l.skipped = "babashka has no reflection warnings: the reflection/boxed-math check is skipped for this bb project"
		return l
	case err != nil:
		l.skipped = "no JVM to run the reflection/boxed-math check: " + strings.TrimPrefix(err.Error(), ErrNoLauncher.Error()+": ")
		return l
	}
	if launcher.Note != "" {
		l.notes = append(l.notes, launcher.Note)
	}
	timeout := optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout)
	start := time.Now()
	r, err := run(ctx, launcher.Argv, c.Cwd, "", timeout, sel.env)
	if err != nil {
		l.err = fmt.Errorf("%s: %w", launcher.Argv[0], err)
		return l
	}
	res := parseJVMLint(r.stdout, mark)
	l.info = map[string]any{"tool": launcher.Tool, "files": len(files), "ms": int(time.Since(start).Milliseconds())}
	if paths != nil {
		shownPaths := make([]any, len(paths))
		for i, s := range paths {
			shownPaths[i] = s
		}
		l.info["paths"] = shownPaths
	}
	if len(res.begun) == 0 {
		what := fmt.Sprintf("exited with code %d", r.exit)
		if r.timedOut {
			what = fmt.Sprintf("did not start within %s and was killed", timeout)
		}
		l.err = fmt.Errorf("the clean JVM (%s) %s before loading anything: %s", launcher.Tool, what, strings.TrimSpace(tail(stripANSI(r.stderr+r.stdout), 12)))
		return l
	}
	roots := proj.Classpath()
	if sel.code != "" {
		roots = append(roots, tmp)
	}
	l.findings = jvmFindings(res, files, shown, roots)
	if !res.done {
		// The JVM stopped inside the last begun file.
		last := res.begun[len(res.begun)-1]
		msg := fmt.Sprintf("the JVM exited (code %d) while loading this file (does it call System/exit at load?)", r.exit)
		if t := strings.TrimSpace(tail(stripANSI(r.stderr), 6)); t != "" {
			msg += ": " + t
		}
		if r.timedOut {
			msg = fmt.Sprintf("loading did not finish within %s and the JVM was killed (does this file start a server or block at load?)", timeout)
		}
		if _, ended := res.ended[last]; !ended && last < len(files) {
			l.findings = append(l.findings, finding(shown[files[last]], 0, 0, "error", "load-error", msg))
		}
		if next := last + 1; next < len(files) {
			var rest []string
			for _, f := range files[next:] {
				rest = append(rest, shown[f])
			}
			l.notes = append(l.notes, fmt.Sprintf("the JVM stopped before loading %d file(s), not reflection-checked: %s", len(rest), strings.Join(rest, ", ")))
		}
	}
	return l
}

func lintMarker() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "VIS-LINT-" + hex.EncodeToString(b)
}

// jvmLintResult is what the script printed.
type jvmLintResult struct {
	begun []int                  // file indexes, in order
	ended map[int]map[string]any // index -> the file's result map
	done  bool                   // the script reached its end
}

var markLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(VIS-LINT-[0-9a-f]+) (BEGIN|END|DONE) ?(.*)`) })

// parseJVMLint reads the script's marked lines out of stdout, ignoring
// everything else the project printed.
func parseJVMLint(stdout, mark string) jvmLintResult {
	res := jvmLintResult{ended: map[int]map[string]any{}}
	for _, line := range strings.Split(stdout, "\n") {
		m := markLine().FindStringSubmatch(line)
		if m == nil || m[1] != mark {
			continue
		}
		switch m[2] {
		case "BEGIN":
			if i, err := strconv.Atoi(strings.TrimSpace(m[3])); err == nil {
				res.begun = append(res.begun, i)
			}
		case "END":
			v, err := ReadEDN(m[3])
			if err != nil {
				continue
			}
			rm, ok := toGo(v).(map[string]any)
			if !ok {
				continue
			}
			if i, ok := rm["index"].(int); ok {
				res.ended[i] = rm
			}
		case "DONE":
			res.done = true
		}
	}
	return res
}

var (
	warnRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(Reflection|Boxed math|Performance) warning, (.+):(\d+):(\d+) - (.*)$`)
	})
	recurRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+):(\d+) (recur arg for primitive local: .*)$`) })
)

var warnTypes = map[string]string{"Reflection": "reflection", "Boxed math": "boxed-math", "Performance": "performance"}

func finding(file string, row, col int, level, typ, msg string) map[string]any {
	return map[string]any{"file": file, "row": row, "col": col, "level": level, "type": typ, "message": msg, "provider": "clojure"}
}

// jvmFindings turns the per-file results into findings about the selected
// files only (a required namespace outside the selection is not reported),
// each once.
func jvmFindings(res jvmLintResult, files []string, shown map[string]string, roots []string) []map[string]any {
	var out []map[string]any
	seen := map[string]bool{}
	add := func(f map[string]any) {
		k := fmt.Sprint(f["file"], f["row"], f["col"], f["type"], f["message"])
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	// resolve maps a compiler path (absolute for load-file, classpath
	// relative for required namespaces, a bare name for recur warnings)
	// to a selected file.
	resolve := func(name, loading string) (string, bool) {
		if filepath.IsAbs(name) {
			s, ok := shown[filepath.Clean(name)]
			return s, ok
		}
		for _, r := range roots {
			if s, ok := shown[filepath.Join(r, name)]; ok {
				return s, true
			}
		}
		if !strings.Contains(name, "/") && filepath.Base(loading) == name {
			return shown[loading], true
		}
		return "", false
	}
	for i, f := range files {
		r, ok := res.ended[i]
		if !ok {
			continue
		}
		errText, _ := r["err"].(string)
		for _, line := range strings.Split(errText, "\n") {
			line = strings.TrimRight(line, "\r")
			if m := warnRe().FindStringSubmatch(line); m != nil {
				if file, ok := resolve(m[2], f); ok {
					row, _ := strconv.Atoi(m[3])
					col, _ := strconv.Atoi(m[4])
					add(finding(file, row, col, "warning", warnTypes[m[1]], m[5]))
				}
			} else if m := recurRe().FindStringSubmatch(line); m != nil {
				if file, ok := resolve(m[1], f); ok {
					row, _ := strconv.Atoi(m[2])
					add(finding(file, row, 0, "warning", "boxed-math", m[3]))
				}
			}
		}
		if msg, _ := r["error"].(string); msg != "" {
			row, col := 0, 0
			if src, _ := r["source"].(string); src == filepath.Base(f) {
				row, _ = r["line"].(int)
				col, _ = r["column"].(int)
			}
			add(finding(shown[f], row, col, "error", "load-error", strings.TrimSpace(msg)))
		}
	}
	return out
}
