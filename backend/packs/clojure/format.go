package clojure

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

// FormatExts are the files format_code and lint_code walk.
var FormatExts = map[string]bool{".clj": true, ".cljs": true, ".cljc": true, ".cljx": true, ".bb": true, ".edn": true}

// chooseFormatter is the formatter the project configures (detectFormatter,
// from dir up to the workspace root) when its files name one, else the
// installed one of cljfmt, zprint, standard-clj (Standard Clojure Style,
// from npm); why says which rule chose it. A formatter the project
// configures but nothing installs is an ErrFormatterMissing error naming
// the tool, the file and how to install it, never a substitute.
func (p *Pack) chooseFormatter(ws, dir string) (tool, bin, why string, err error) {
	if ch := detectFormatter(ws, dir); ch.Tool != "" {
		b, lerr := p.opts.LookPath(ch.Tool)
		if lerr != nil {
			return "", "", "", fmt.Errorf("%w: %s configures %s, which is not on PATH; %s, and call format_code again (Vis does not restyle the project with another formatter)",
				ErrFormatterMissing, ch.File, ch.Tool, formatterInstall[ch.Tool])
		}
		return ch.Tool, b, ch.Why, nil
	}
	for _, t := range []string{"cljfmt", "zprint", "standard-clj"} {
		if b, err := p.opts.LookPath(t); err == nil {
			return t, b, "the project names no formatter; " + t + " is installed", nil
		}
	}
	return "", "", "", errors.New("no Clojure formatter is installed: install cljfmt (a native binary: https://github.com/weavejester/cljfmt/releases), zprint (https://github.com/kkinnear/zprint/releases) or Standard Clojure Style (npm install -g @chrisoakman/standard-clojure-style), put it on PATH, and call format_code again")
}

// formatArgv formats files in place, with the call's extra arguments
// before the files.
func formatArgv(tool, bin string, args, files []string) []string {
	var argv []string
	switch tool {
	case "zprint":
		argv = []string{bin, "-fw"}
	case "standard-clj":
		argv = []string{bin, "fix", "--log-level", "quiet"}
	default:
		argv = []string{bin, "fix", "--quiet"}
	}
	return append(append(argv, args...), files...)
}

// walkSources expands files and folders into Clojure files (sorted),
// skipping hidden and build folders.
func walkSources(cwd string, paths []string) ([]string, error) {
	set := map[string]bool{}
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, p)
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("no such file or directory: %s", p)
		}
		if !fi.IsDir() {
			set[abs] = true
			continue
		}
		_ = filepath.WalkDir(abs, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if q != abs && (strings.HasPrefix(d.Name(), ".") || skipDirs[d.Name()] || dataDirs[d.Name()]) {
					return filepath.SkipDir
				}
				return nil
			}
			if FormatExts[filepath.Ext(q)] {
				set[q] = true
			}
			return nil
		})
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out, nil
}

// dataDirs are folders of test data by convention: the files tests read
// as input, whose exact text the tests may depend on (clj-reload's
// fixtures/ parses ns metadata and counts ns forms per file). A folder walk
// leaves them alone; naming one in paths formats or lints it.
var dataDirs = map[string]bool{"fixtures": true, "testdata": true, "test-resources": true}

// defaultPaths are the project's source and test folders (else cwd),
// without the test-data folders a :dev alias may put on the classpath.
func defaultPaths(pr *Project) []string {
	var ps []string
	for _, p := range append(pr.SourcePaths(), pr.TestPaths()...) {
		if !inDataDir(p) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return []string{"."}
	}
	return ps
}

// inDataDir reports whether a relative path is, or is inside, a dataDirs
// folder.
func inDataDir(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/") {
		if dataDirs[part] {
			return true
		}
	}
	return false
}

// format is format_code: the project's formatter (chooseFormatter), with
// the call's env and args (before the files).
func (p *Pack) format(ctx context.Context, env ext.ToolEnv, c ext.Call) (ext.FormatResult, error) {
	fail := func(err error) (ext.FormatResult, error) { return ext.FormatResult{}, err }
	vars, extra, err := c.EnvArgs("clojure format_code")
	if err != nil {
		return fail(err)
	}
	tool, bin, why, err := p.chooseFormatter(env.Workspace, c.Cwd)
	if err != nil {
		return fail(fmt.Errorf("clojure format_code: %w", err))
	}
	if code, ok := c.Opts["code"].(string); ok && strings.TrimSpace(code) != "" {
		tmp, err := os.MkdirTemp(confine.TempDir(ctx), "vis-cljfmt-")
		if err != nil {
			return fail(fmt.Errorf("clojure format_code: %w", err))
		}
		defer os.RemoveAll(tmp)
		f := filepath.Join(tmp, "snippet.clj")
		if err := os.WriteFile(f, []byte(code), 0o644); err != nil {
			return fail(fmt.Errorf("clojure format_code: %w", err))
		}
		r, err := run(ctx, formatArgv(tool, bin, extra, []string{f}), c.Cwd, "", optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout), vars)
		if err != nil {
			return fail(fmt.Errorf("clojure format_code: %s: %w", tool, err))
		}
		after, _ := os.ReadFile(f)
		if r.exit != 0 {
			return fail(fmt.Errorf("clojure format_code: %s exited with code %d (unbalanced code?): %s", tool, r.exit, strings.TrimSpace(tail(r.stderr+r.stdout, 8))))
		}
		n := utf8.RuneCount(after)
		return ext.FormatResult{Formatter: tool, Why: why, Snippet: true, Changed: string(after) != code, Delta: n - utf8.RuneCountInString(code), Chars: n}, nil
	}
	paths, _, err := optStrings(c.Opts, "paths")
	if err != nil {
		return fail(fmt.Errorf("clojure format_code: %w", err))
	}
	if len(paths) == 0 {
		paths = defaultPaths(LoadProject(c.Cwd))
	}
	files, err := walkSources(c.Cwd, paths)
	if err != nil {
		return fail(fmt.Errorf("clojure format_code: %w", err))
	}
	var held []ext.FormatError
	if tool == "standard-clj" {
		files, held = holdNSRewrites(c.Cwd, files)
	}
	if len(files) == 0 && len(held) == 0 {
		return ext.FormatResult{Formatter: tool, Why: why, Message: "no Clojure files under " + strings.Join(paths, ", ")}, nil
	}
	if len(files) == 0 {
		return ext.FormatResult{Formatter: tool, Why: why, Errors: held}, nil
	}
	before := map[string]string{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		before[f] = string(b)
	}
	r, err := run(ctx, formatArgv(tool, bin, extra, files), c.Cwd, "", optDuration(c.Opts, "timeout_ms", p.opts.ToolTimeout), vars)
	if err != nil {
		return fail(fmt.Errorf("clojure format_code: %s: %w", tool, err))
	}
	out := ext.FormatResult{Formatter: tool, Why: why, Checked: len(files), Errors: held}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if string(b) != before[f] {
			out.Files = append(out.Files, ext.FormatFile{File: workspace.RelTo(c.Cwd, f), Delta: utf8.RuneCount(b) - utf8.RuneCountInString(before[f])})
		}
	}
	if r.exit != 0 {
		out.Error = fmt.Sprintf("%s exited with code %d: %s", tool, r.exit, strings.TrimSpace(tail(r.stderr+r.stdout, 8)))
	}
	return out, nil
}

var (
	nsFormRe           = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\(ns[\s)]`) })
	condReferClojureRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\?\(\s*:[\w-]+\s+\(:refer-clojure`) })
)

// holdNSRewrites keeps out of a standard-clj run the files whose ns form
// Standard Clojure Style rewrites into different code (it re-prints every
// ns form from what it parsed, and known cases come out wrong):
//   - more than one top-level ns form: the first is rewritten from all of
//     them (renamed to the last one's name, their requires merged);
//   - a splicing reader conditional (#?@) in the ns form, or :refer-clojure
//     under a reader conditional: the platform split is lost, e.g.
//     [lib :as x #?@(:cljs [:refer [T]])] became [lib :as x :refer [T]] for
//     Clojure too (jasentaa's position_test.cljc; upstream
//     oakmac/standard-clojure-style-js#210 for :refer-clojure).
//
// Each held file is an error row saying why.
func holdNSRewrites(cwd string, files []string) (kept []string, held []ext.FormatError) {
	for _, f := range files {
		b, err := os.ReadFile(f)
		why := ""
		if err == nil {
			locs := nsFormRe().FindAllIndex(b, 2)
			switch {
			case len(locs) > 1:
				why = "the file has more than one ns form, and standard-clj rewrites the first from all of them (renaming it)"
			case len(locs) == 1:
				ns := formText(b[locs[0][0]:])
				if strings.Contains(ns, "#?@") || condReferClojureRe().MatchString(ns) {
					why = "its ns form has reader conditionals (#?@, or :refer-clojure under #?) that standard-clj re-prints without their platform split"
				}
			}
		}
		if why != "" {
			held = append(held, ext.FormatError{File: workspace.RelTo(cwd, f),
				Message: "not formatted: " + why + "; format it with cljfmt or zprint, or by hand"})
			continue
		}
		kept = append(kept, f)
	}
	return kept, held
}

// formText is the balanced form at the start of b (strings, comments and
// character literals skipped), or all of b when it never closes.
func formText(b []byte) string {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case ';':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return string(b[:i+1])
			}
		}
	}
	return string(b)
}
