package clojure

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/ext"
)

// Selection is run_tests' selector map after validation, before anything
// runs (seed 001: paths with node ids, ns/nses with ns/var, include and
// exclude tags, aliases, build).
type Selection struct {
	Paths            []string // as given (files, dirs, path::name, ::name)
	Nses             []string // ns and nses entries (ns or ns/var)
	Include, Exclude []string // metadata tags without ":"
	Aliases          []string
	Build            string
	// Env ("NAME=value") and Args are what the call adds to the test
	// command (a clean JVM only: a session REPL's are fixed).
	Env, Args []string
	// Echo is the selectors as the call gave them: a list stays a list,
	// even with one entry; a string stays a string.
	Echo map[string]any
}

var (
	nsName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z*+!_?<>=$-][A-Za-z0-9*+!_?<>=$.'-]*$`) })
	varName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9*+!_?<>=$.'-]+$`) })
	tagName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z*+!_?<>=-][A-Za-z0-9*+!_?<>=./-]*$`) })
	buildID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9*+!_?<>=.-]+$`) })
)

// ParseSelection validates run_tests options. Every error is a refusal
// before launch.
func ParseSelection(opts map[string]any) (s Selection, err error) {
	s.Echo = map[string]any{}
	if k, hint, ok := ToolOptions.Refused(ext.VerbTest, opts); ok {
		return s, fmt.Errorf("clojure run_tests does not take %q: %s", k, hint)
	}
	if s.Env, err = ext.EnvOf(opts); err != nil {
		return s, fmt.Errorf("clojure run_tests: %w", err)
	}
	if s.Args, err = ext.ArgsOf(opts); err != nil {
		return s, fmt.Errorf("clojure run_tests: %w", err)
	}
	paths, pathsList, err := optStrings(opts, "paths")
	if err != nil {
		return s, fmt.Errorf("clojure run_tests: %w", err)
	}
	s.Paths = paths
	if len(paths) > 0 {
		s.Echo["paths"] = echo(paths, pathsList)
	}
	for _, k := range []string{"ns", "nses"} {
		v, isList, err := optStrings(opts, k)
		if err != nil {
			return s, fmt.Errorf("clojure run_tests: %w", err)
		}
		for _, e := range v {
			ns, name, hasVar := strings.Cut(e, "/")
			if !nsName().MatchString(ns) || (hasVar && !varName().MatchString(name)) {
				return s, fmt.Errorf("clojure run_tests: %s entry %q is not a namespace or ns/var (e.g. \"my.app.core-test\" or \"my.app.core-test/adds-test\")", k, e)
			}
		}
		s.Nses = append(s.Nses, v...)
		if len(v) > 0 {
			s.Echo[k] = echo(v, isList || k == "nses")
		}
	}
	for _, k := range []string{"include", "exclude"} {
		v, isList, err := optStrings(opts, k)
		if err != nil {
			return s, fmt.Errorf("clojure run_tests: %w", err)
		}
		var tags []string
		for _, t := range v {
			t = strings.TrimPrefix(t, ":")
			if !tagName().MatchString(t) {
				return s, fmt.Errorf("clojure run_tests: %s tag %q is not a metadata keyword (e.g. \"integration\" for ^:integration)", k, t)
			}
			tags = append(tags, t)
		}
		if k == "include" {
			s.Include = tags
		} else {
			s.Exclude = tags
		}
		if len(tags) > 0 {
			s.Echo[k] = echo(tags, isList)
		}
	}
	s.Aliases, err = aliasNames(opts)
	if err != nil {
		return s, err
	}
	if len(s.Aliases) > 0 {
		s.Echo["aliases"] = stringList(s.Aliases)
	}
	if b := strings.TrimPrefix(optString(opts, "build"), ":"); b != "" {
		if !buildID().MatchString(b) {
			return s, fmt.Errorf("clojure run_tests: build %q is not a shadow-cljs build id", b)
		}
		s.Build = b
		s.Echo["build"] = b
	}
	return s, nil
}

func echo(v []string, list bool) any {
	if list || len(v) != 1 {
		return stringList(v)
	}
	return v[0]
}

// ---- the project's namespaces ----

// nsFile is one Clojure source file and the namespace it declares.
type nsFile struct {
	ns, path, ext string // path absolute; ext ".clj", ".cljc", ".cljs", ".bb"
	test          bool
}

// nsIndex maps the project's namespaces to their files.
type nsIndex struct {
	byNs   map[string][]nsFile // a .cljc and a .clj may share a namespace
	byPath map[string]nsFile
}

var skipDirs = map[string]bool{"target": true, "node_modules": true, "out": true, "classes": true}

const maxIndexFiles = 20000

// indexProject reads the ns form of every Clojure file under dir.
func indexProject(pr *Project) *nsIndex {
	idx := &nsIndex{byNs: map[string][]nsFile{}, byPath: map[string]nsFile{}}
	testRoots := map[string]bool{}
	for _, t := range pr.TestPaths() {
		testRoots[filepath.Join(pr.Dir, t)] = true
	}
	n := 0
	_ = filepath.WalkDir(pr.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != pr.Dir && (strings.HasPrefix(d.Name(), ".") || skipDirs[d.Name()]) {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		switch ext {
		case ".clj", ".cljc", ".cljs", ".bb":
		default:
			return nil
		}
		if n++; n > maxIndexFiles {
			return filepath.SkipAll
		}
		ns := readNsName(p)
		if ns == "" {
			return nil
		}
		f := nsFile{ns: ns, path: p, ext: ext}
		base := strings.TrimSuffix(filepath.Base(p), ext)
		f.test = strings.HasSuffix(ns, "-test") || strings.HasSuffix(base, "_test") || strings.HasPrefix(base, "test_")
		if !f.test {
			for root := range testRoots {
				if strings.HasPrefix(p, root+string(filepath.Separator)) {
					f.test = true
				}
			}
		}
		idx.byNs[ns] = append(idx.byNs[ns], f)
		idx.byPath[p] = f
		return nil
	})
	return idx
}

// readNsName returns the namespace a file declares ("" when none).
func readNsName(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	forms, _ := ReadForms(string(b), 16)
	for _, f := range forms {
		if l, ok := f.(List); ok && len(l) >= 2 && l[0] == Symbol("ns") {
			return asString(l[1])
		}
	}
	return ""
}

// testNses returns the test namespaces of the index, sorted, for one
// dialect ("clj": .clj/.cljc; "cljs": .cljs/.cljc).
func (idx *nsIndex) testNses(dialect string) []string {
	var out []string
	for ns, fs := range idx.byNs {
		for _, f := range fs {
			if f.test && f.inDialect(dialect) {
				out = append(out, ns)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

func (f nsFile) inDialect(d string) bool {
	switch f.ext {
	case ".cljc":
		return true
	case ".cljs":
		return d == "cljs"
	}
	return d == "clj"
}

// file returns the file of ns for a dialect.
func (idx *nsIndex) file(ns, dialect string) (nsFile, bool) {
	for _, f := range idx.byNs[ns] {
		if f.inDialect(dialect) && (f.ext != ".cljc" || len(idx.byNs[ns]) == 1) {
			return f, true
		}
	}
	for _, f := range idx.byNs[ns] {
		if f.inDialect(dialect) {
			return f, true
		}
	}
	return nsFile{}, false
}

// VarSel is one test-var selector: Ns "" matches any namespace; a name
// matches the test var or the source var it covers (name + "-test").
type VarSel struct{ Ns, Name string }

// Resolved is what a run needs: the namespaces to load and the vars to keep.
type Resolved struct {
	Nses    []string
	Vars    []VarSel
	Files   map[string]string // ns -> absolute file
	Dialect string            // clj or cljs
}

// Resolve turns a Selection into namespaces and vars for the project at
// dir (cwd anchors relative paths). Errors are refusals before launch.
func Resolve(pr *Project, cwd string, s Selection) (Resolved, error) {
	idx := indexProject(pr)
	res := Resolved{Files: map[string]string{}, Dialect: "clj"}
	// The dialect: a build, or .cljs selections, mean ClojureScript.
	var exts []string
	for _, p := range s.Paths {
		path, _, _ := strings.Cut(p, "::")
		if path != "" {
			exts = append(exts, filepath.Ext(path))
		}
	}
	for _, e := range s.Nses {
		ns, _, _ := strings.Cut(e, "/")
		for _, f := range idx.byNs[ns] {
			exts = append(exts, f.ext)
		}
	}
	hasCljs, hasClj := false, false
	for _, e := range exts {
		hasCljs = hasCljs || e == ".cljs"
		hasClj = hasClj || e == ".clj" || e == ".bb"
	}
	if hasCljs && hasClj {
		return res, fmt.Errorf("clojure run_tests: the selection mixes .clj (JVM) and .cljs (JS) tests; run them in two calls")
	}
	switch {
	case s.Build != "" || hasCljs:
		res.Dialect = "cljs"
	case !hasClj && len(exts) == 0:
		// Nothing selected decides: a shadow-only project, or one whose
		// only tests are ClojureScript, runs its ClojureScript tests.
		jvmProject := pr.HasDeps || pr.HasLein || pr.HasBB
		if (pr.HasShadow && !jvmProject) || (len(idx.testNses("clj")) == 0 && len(idx.testNses("cljs")) > 0) {
			res.Dialect = "cljs"
		}
	}
	d := res.Dialect
	nses := map[string]bool{}
	var vars []VarSel
	addNs := func(ns string) {
		nses[ns] = true
		if f, ok := idx.file(ns, d); ok {
			res.Files[ns] = f.path
		}
	}
	// testNsOf maps a file to the test namespace that covers it.
	testNsOf := func(f nsFile) (string, bool) {
		if f.test {
			return f.ns, true
		}
		t := f.ns + "-test"
		if _, ok := idx.file(t, d); ok {
			return t, true
		}
		return "", false
	}
	for _, p := range s.Paths {
		path, name, hasName := strings.Cut(p, "::")
		if hasName && !varName().MatchString(name) {
			return res, fmt.Errorf("clojure run_tests: %q: the part after :: must be a test name (e.g. test/my/core_test.clj::adds-test)", p)
		}
		if path == "" {
			if !hasName {
				continue
			}
			vars = append(vars, VarSel{Name: name})
			continue
		}
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, path)
		}
		abs = filepath.Clean(abs)
		fi, err := os.Stat(abs)
		if err != nil {
			return res, fmt.Errorf("clojure run_tests: no such file or directory: %s (paths are relative to %s)", path, tilde(cwd))
		}
		var found []string
		if !fi.IsDir() {
			f, ok := idx.byPath[abs]
			if !ok {
				if real, err := filepath.EvalSymlinks(abs); err == nil {
					f, ok = idx.byPath[real]
				}
			}
			if !ok {
				return res, fmt.Errorf("clojure run_tests: %s declares no namespace (or is not a Clojure file)", path)
			}
			t, ok := testNsOf(f)
			if !ok {
				return res, fmt.Errorf("clojure run_tests: no test namespace covers %s (looked for %s-test)", path, f.ns)
			}
			found = []string{t}
		} else {
			var tests, sources []nsFile
			for fp, f := range idx.byPath {
				if fp == abs || strings.HasPrefix(fp, abs+string(filepath.Separator)) {
					if !f.inDialect(d) {
						continue
					}
					if f.test {
						tests = append(tests, f)
					} else {
						sources = append(sources, f)
					}
				}
			}
			for _, f := range tests {
				found = append(found, f.ns)
			}
			if len(found) == 0 {
				for _, f := range sources {
					if t, ok := testNsOf(f); ok {
						found = append(found, t)
					}
				}
			}
			if len(found) == 0 {
				return res, fmt.Errorf("clojure run_tests: no test namespaces under %s", path)
			}
			sort.Strings(found)
		}
		for _, ns := range found {
			addNs(ns)
			if hasName {
				vars = append(vars, VarSel{Ns: ns, Name: name})
			}
		}
	}
	for _, e := range s.Nses {
		ns, name, hasVar := strings.Cut(e, "/")
		if _, ok := idx.byNs[ns]; !ok {
			return res, fmt.Errorf("clojure run_tests: no namespace %s in %s (test namespaces: %s)", ns, tilde(pr.Dir), short(idx.testNses(d), 8))
		}
		f, _ := idx.file(ns, d)
		if f.path == "" {
			f = idx.byNs[ns][0]
		}
		t, ok := testNsOf(f)
		if !ok {
			return res, fmt.Errorf("clojure run_tests: %s is not a test namespace and no %s-test exists", ns, ns)
		}
		addNs(t)
		if hasVar {
			vars = append(vars, VarSel{Ns: t, Name: name})
		}
	}
	if len(nses) == 0 {
		all := idx.testNses(d)
		if len(all) == 0 {
			where := strings.Join(pr.TestPaths(), ", ")
			if where == "" {
				where = "the project"
			}
			return res, fmt.Errorf("clojure run_tests: no test namespaces found in %s (looked for *_test files declaring an ns)", where)
		}
		for _, ns := range all {
			addNs(ns)
		}
	}
	for ns := range nses {
		res.Nses = append(res.Nses, ns)
	}
	sort.Strings(res.Nses)
	seen := map[VarSel]bool{}
	for _, v := range vars {
		if !seen[v] {
			seen[v] = true
			res.Vars = append(res.Vars, v)
		}
	}
	return res, nil
}

func short(ss []string, n int) string {
	if len(ss) == 0 {
		return "none"
	}
	if len(ss) > n {
		return strings.Join(ss[:n], ", ") + fmt.Sprintf(", … (%d more)", len(ss)-n)
	}
	return strings.Join(ss, ", ")
}
