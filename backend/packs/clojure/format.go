package clojure

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/ext"
)

// FormatExts are the files format_code and lint_code walk.
var FormatExts = map[string]bool{".clj": true, ".cljs": true, ".cljc": true, ".cljx": true, ".bb": true, ".edn": true}

// formatter returns the installed formatter: cljfmt, else zprint.
func (p *Pack) formatter() (tool, bin string, err error) {
	if b, err := p.opts.LookPath("cljfmt"); err == nil {
		return "cljfmt", b, nil
	}
	if b, err := p.opts.LookPath("zprint"); err == nil {
		return "zprint", b, nil
	}
	return "", "", errors.New("no Clojure formatter is installed: install cljfmt (a native binary: https://github.com/weavejester/cljfmt/releases) or zprint (https://github.com/kkinnear/zprint/releases), put it on PATH, and call format_code again")
}

// formatArgv formats files in place.
func formatArgv(tool, bin string, files []string) []string {
	if tool == "zprint" {
		return append([]string{bin, "-fw"}, files...)
	}
	return append([]string{bin, "fix", "--quiet"}, files...)
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
				if q != abs && (strings.HasPrefix(d.Name(), ".") || skipDirs[d.Name()]) {
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

func rel(cwd, p string) string {
	if r, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// defaultPaths are the project's source and test folders (else cwd).
func defaultPaths(cwd string) []string {
	pr := LoadProject(cwd)
	ps := append(pr.SourcePaths(), pr.TestPaths()...)
	if len(ps) == 0 {
		return []string{"."}
	}
	return ps
}

func (p *Pack) format(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	tool, bin, err := p.formatter()
	if err != nil {
		return nil, fmt.Errorf("clojure format_code: %w", err)
	}
	if code, ok := c.Opts["code"].(string); ok && strings.TrimSpace(code) != "" {
		tmp, err := os.MkdirTemp("", "vis-cljfmt-")
		if err != nil {
			return nil, fmt.Errorf("clojure format_code: %w", err)
		}
		defer os.RemoveAll(tmp)
		f := filepath.Join(tmp, "snippet.clj")
		if err := os.WriteFile(f, []byte(code), 0o644); err != nil {
			return nil, fmt.Errorf("clojure format_code: %w", err)
		}
		r, err := run(ctx, formatArgv(tool, bin, []string{f}), c.Cwd, "", p.opts.ToolTimeout, nil)
		if err != nil {
			return nil, fmt.Errorf("clojure format_code: %s: %w", tool, err)
		}
		after, _ := os.ReadFile(f)
		if r.exit != 0 {
			return nil, fmt.Errorf("clojure format_code: %s exited with code %d (unbalanced code?): %s", tool, r.exit, strings.TrimSpace(tail(r.stderr+r.stdout, 8)))
		}
		return map[string]any{"changed": string(after) != code, "delta": utf8.RuneCount(after) - utf8.RuneCountInString(code), "formatter": tool}, nil
	}
	paths, _, err := optStrings(c.Opts, "paths")
	if err != nil {
		return nil, fmt.Errorf("clojure format_code: %w", err)
	}
	if len(paths) == 0 {
		paths = defaultPaths(c.Cwd)
	}
	files, err := walkSources(c.Cwd, paths)
	if err != nil {
		return nil, fmt.Errorf("clojure format_code: %w", err)
	}
	if len(files) == 0 {
		return map[string]any{"changed": 0, "checked": 0, "files": []any{}, "formatter": tool, "message": "no Clojure files under " + strings.Join(paths, ", ")}, nil
	}
	before := map[string]string{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		before[f] = string(b)
	}
	r, err := run(ctx, formatArgv(tool, bin, files), c.Cwd, "", p.opts.ToolTimeout, nil)
	if err != nil {
		return nil, fmt.Errorf("clojure format_code: %s: %w", tool, err)
	}
	rows := []any{}
	changed := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if string(b) != before[f] {
			changed++
			rows = append(rows, map[string]any{"file": rel(c.Cwd, f), "changed": true,
				"delta": utf8.RuneCount(b) - utf8.RuneCountInString(before[f])})
		}
	}
	out := map[string]any{"changed": changed, "checked": len(files), "files": rows, "formatter": tool}
	if r.exit != 0 {
		out["error"] = fmt.Sprintf("%s exited with code %d: %s", tool, r.exit, strings.TrimSpace(tail(r.stderr+r.stdout, 8)))
	}
	return out, nil
}

// ---- lint ----

func (p *Pack) lint(ctx context.Context, env ext.ToolEnv, c ext.Call) (map[string]any, error) {
	bin, err := p.opts.LookPath("clj-kondo")
	if err != nil {
		return nil, errors.New("clojure lint_code: clj-kondo is not installed: install it (https://github.com/clj-kondo/clj-kondo/releases, a single native binary), put it on PATH, and call lint_code again")
	}
	argv := []string{bin, "--config", "{:output {:format :edn}}", "--lint"}
	stdin := ""
	if code, ok := c.Opts["code"].(string); ok && strings.TrimSpace(code) != "" {
		lang := "clj"
		if l := strings.TrimPrefix(optString(c.Opts, "lang"), "."); l == "cljs" || l == "cljc" || l == "edn" {
			lang = l
		}
		argv = append(argv, "-", "--lang", lang)
		stdin = code
	} else {
		paths, _, err := optStrings(c.Opts, "paths")
		if err != nil {
			return nil, fmt.Errorf("clojure lint_code: %w", err)
		}
		if len(paths) == 0 {
			paths = defaultPaths(c.Cwd)
		}
		for _, p := range paths {
			if _, err := os.Stat(filepath.Join(c.Cwd, p)); err != nil && !filepath.IsAbs(p) {
				return nil, fmt.Errorf("clojure lint_code: no such file or directory: %s", p)
			}
		}
		argv = append(argv, strings.Join(paths, string(os.PathListSeparator)))
	}
	r, err := run(ctx, argv, c.Cwd, stdin, p.opts.ToolTimeout, nil)
	if err != nil {
		return nil, fmt.Errorf("clojure lint_code: clj-kondo: %w", err)
	}
	out, perr := parseKondo(r.stdout, c.Cwd)
	if perr != nil {
		return nil, fmt.Errorf("clojure lint_code: could not read clj-kondo's output (exit %d): %v: %s", r.exit, perr, strings.TrimSpace(tail(r.stderr+r.stdout, 8)))
	}
	out["linter"] = "clj-kondo"
	return out, nil
}

// parseKondo reads clj-kondo's EDN output into findings and counts.
func parseKondo(s, cwd string) (map[string]any, error) {
	v, err := ReadEDN(s)
	if err != nil {
		return nil, err
	}
	m, ok := v.(Map)
	if !ok {
		return nil, fmt.Errorf("not a map")
	}
	rows := []any{}
	counts := map[string]any{"error": 0, "warning": 0, "info": 0}
	for _, f := range asSeq(m.Kw("findings")) {
		fm, ok := f.(Map)
		if !ok {
			continue
		}
		level := asString(fm.Kw("level"))
		file := asString(fm.Kw("filename"))
		if file == "<stdin>" || file == "-" {
			file = ""
		} else if filepath.IsAbs(file) {
			file = rel(cwd, file)
		}
		rows = append(rows, map[string]any{"file": file, "row": toGo(fm.Kw("row")), "col": toGo(fm.Kw("col")),
			"level": level, "type": asString(fm.Kw("type")), "message": asString(fm.Kw("message")), "provider": "clj-kondo"})
		if n, ok := counts[level].(int); ok {
			counts[level] = n + 1
		} else {
			counts[level] = 1
		}
	}
	return map[string]any{"findings": rows, "counts": counts, "total": len(rows)}, nil
}
