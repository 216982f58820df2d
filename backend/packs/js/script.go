package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ScriptCommand is the test command a project's package.json declares:
// the one segment of scripts.test (followed through `npm run X`) that
// invokes a runner run_tests understands, split as sh would split it.
type ScriptCommand struct {
	Runner string            // RunnerNode, RunnerVitest or RunnerJest
	Dir    string            // the package.json's directory: where npm runs the script
	Args   []string          // the runner's arguments after its executable, globs expanded as sh would
	Env    map[string]string // VAR=value prefixes (and cross-env's) of the segment
	Text   string            // the segment as written
	Why    string            // where it came from, e.g. "package.json scripts.test"
}

// shellWord is one word of a script: its text with quotes removed, and
// whether any part was quoted (sh does not expand globs in quoted words).
type shellWord struct {
	text   string
	quoted bool
}

// splitScript splits a package.json script into command segments at
// &&, ||, ;, | and &, and each segment into words, honouring single and
// double quotes and backslashes the way sh does for the simple scripts
// package.json holds (no substitutions).
func splitScript(s string) [][]shellWord {
	var segs [][]shellWord
	var words []shellWord
	var cur strings.Builder
	inWord, quoted := false, false
	endWord := func() {
		if inWord {
			words = append(words, shellWord{cur.String(), quoted})
		}
		cur.Reset()
		inWord, quoted = false, false
	}
	endSeg := func() {
		endWord()
		if len(words) > 0 {
			segs = append(segs, words)
		}
		words = nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord, quoted = true, true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			inWord, quoted = true, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord, quoted = true, true
		case c == ' ' || c == '\t' || c == '\n':
			endWord()
		case c == '&' || c == '|' || c == ';':
			endSeg()
			if i+1 < len(s) && (s[i+1] == '&' || s[i+1] == '|') {
				i++
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	endSeg()
	return segs
}

// readPackage finds the nearest package.json from dir up to the workspace.
func readPackage(workspace, dir string) (packageJSON, string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			var pj packageJSON
			if json.Unmarshal(b, &pj) != nil {
				return packageJSON{}, "", false
			}
			return pj, d, true
		}
		if d == workspace || filepath.Dir(d) == d || (workspace != "" && !strings.HasPrefix(d, workspace)) {
			return packageJSON{}, "", false
		}
	}
}

// ProjectTestCommand reads the test command from the nearest package.json:
// the first segment, in the order sh runs them, of scripts.test that
// invokes a runner run_tests knows, following `npm run X` (`pnpm X`,
// `yarn X`) into the scripts it names. ok is false when the project
// declares none that run_tests can run; why then says what the project
// declares (empty when nothing).
func ProjectTestCommand(workspace, dir string) (cmd ScriptCommand, ok bool, why string) {
	pj, pdir, found := readPackage(workspace, dir)
	if !found {
		return ScriptCommand{}, false, ""
	}
	top := pj.Scripts["test"]
	if strings.TrimSpace(top) == "" || strings.Contains(top, "no test specified") {
		return ScriptCommand{}, false, ""
	}
	looped := false
	var find func(script string, via []string, partial bool) (ScriptCommand, bool)
	find = func(script string, via []string, partial bool) (ScriptCommand, bool) {
		if len(via) > 5 {
			looped = true
			return ScriptCommand{}, false
		}
		segs := splitScript(script)
		partial = partial || len(segs) > 1
		for _, seg := range segs {
			if next := npmRunTarget(seg); next != "" && strings.TrimSpace(pj.Scripts[next]) != "" {
				if c, ok := find(pj.Scripts[next], append(via[:len(via):len(via)], "scripts."+next), partial); ok {
					return c, true
				}
				continue
			}
			if c, ok := runnerOf(seg, pdir); ok {
				c.Why = "package.json " + strings.Join(via, " → ")
				if partial {
					c.Why += fmt.Sprintf(" (only its test runner; the script is %q)", top)
				}
				return c, true
			}
		}
		return ScriptCommand{}, false
	}
	if c, ok := find(top, []string{"scripts.test"}, false); ok {
		return c, true, ""
	}
	if looped {
		return ScriptCommand{}, false, "package.json scripts.test runs scripts in a loop"
	}
	return ScriptCommand{}, false, fmt.Sprintf("package.json scripts.test is %q, which names no runner run_tests knows (node --test, vitest, jest)", top)
}

// npmRunTarget is X of `npm run X`, `npm run-script X`, `pnpm [run] X`,
// `yarn [run] X` ("" otherwise).
func npmRunTarget(seg []shellWord) string {
	w := words(seg)
	if len(w) < 2 {
		return ""
	}
	switch w[0] {
	case "npm":
		if (w[1] == "run" || w[1] == "run-script") && len(w) > 2 {
			return w[2]
		}
	case "pnpm", "yarn":
		if w[1] == "run" && len(w) > 2 {
			return w[2]
		}
		if !strings.HasPrefix(w[1], "-") {
			return w[1]
		}
	}
	return ""
}

func words(seg []shellWord) []string {
	out := make([]string, len(seg))
	for i, w := range seg {
		out[i] = w.text
	}
	return out
}

// runnerOf recognises `node … --test …`, `vitest …` and `jest …` in one
// segment, after VAR=value prefixes and wrappers (cross-env, npx, bunx, c8,
// nyc, `pnpm`/`yarn` running a binary, `npm|pnpm|yarn exec`, `pnpm dlx`).
func runnerOf(seg []shellWord, dir string) (ScriptCommand, bool) {
	env := map[string]string{}
	for i := 0; i < len(seg); i++ {
		w := seg[i].text
		if k, v, isEnv := strings.Cut(w, "="); isEnv && isEnvName(k) {
			env[k] = v
			continue
		}
		base := filepath.Base(w)
		var runner string
		switch {
		case base == "node" || base == "nodejs":
			if !hasTestFlag(seg[i+1:]) {
				return ScriptCommand{}, false
			}
			runner = RunnerNode
		case base == "vitest":
			runner = RunnerVitest
		case base == "jest":
			runner = RunnerJest
		case base == "cross-env" || base == "npx" || base == "bunx" || base == "c8" || base == "nyc" || strings.HasPrefix(w, "-"):
			continue // a wrapper or its option: the runner follows
		case base == "pnpm" || base == "yarn" || base == "npm":
			// `pnpm X`/`yarn X` run the binary X when no script is named X
			// (scripts were followed before); `npm exec X`, `pnpm exec X`,
			// `pnpm dlx X` always do.
			if i+1 < len(seg) && (seg[i+1].text == "exec" || seg[i+1].text == "x" || seg[i+1].text == "dlx") {
				i++
				continue
			}
			if base == "npm" || i+1 >= len(seg) || seg[i+1].text == "run" || seg[i+1].text == "run-script" {
				return ScriptCommand{}, false
			}
			continue
		default:
			if i > 0 && strings.HasPrefix(seg[i-1].text, "-") {
				continue // a wrapper option's value (c8 --reporter lcov)
			}
			return ScriptCommand{}, false
		}
		var text []string
		for _, sw := range seg {
			text = append(text, sw.text)
		}
		return ScriptCommand{Runner: runner, Dir: dir, Args: expandGlobs(dir, seg[i+1:]), Env: env, Text: strings.Join(text, " ")}, true
	}
	return ScriptCommand{}, false
}

// hasTestFlag: --test among node's options, before any script argument.
func hasTestFlag(args []shellWord) bool {
	for i := 0; i < len(args); i++ {
		a := args[i].text
		switch {
		case a == "--test":
			return true
		case nodeValued[a]:
			i++
		case !strings.HasPrefix(a, "-"):
			return false
		}
	}
	return false
}

func isEnvName(k string) bool {
	if k == "" || (k[0] >= '0' && k[0] <= '9') {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// expandGlobs expands unquoted words with glob characters against dir as
// sh does (sorted matches; a pattern matching nothing stays as written).
func expandGlobs(dir string, seg []shellWord) []string {
	var out []string
	for _, w := range seg {
		if w.quoted || !strings.ContainsAny(w.text, "*?[") {
			out = append(out, w.text)
			continue
		}
		pat := w.text
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(dir, pat)
		}
		ms, err := filepath.Glob(pat)
		if err != nil || len(ms) == 0 {
			out = append(out, w.text)
			continue
		}
		sort.Strings(ms)
		for _, m := range ms {
			if rel, err := filepath.Rel(dir, m); err == nil && !filepath.IsAbs(w.text) {
				m = rel
			}
			out = append(out, m)
		}
	}
	return out
}

// nodeValued are node options whose value may be the next word.
var nodeValued = map[string]bool{
	"--import": true, "--require": true, "-r": true, "--loader": true, "--experimental-loader": true,
	"--test-reporter": true, "--test-reporter-destination": true, "--test-name-pattern": true,
	"--test-skip-pattern": true, "--test-concurrency": true, "--test-timeout": true, "--env-file": true,
	"--conditions": true, "-C": true, "--input-type": true, "--test-shard": true,
}

// nodeTestArgs turns the script's node arguments into ours: its own
// reporters and --watch dropped (we read TAP), its files replaced by
// paths when the call selects some.
func nodeTestArgs(script []string, paths []string) (opts, files []string) {
	for i := 0; i < len(script); i++ {
		a := script[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case name == "--test-reporter" || name == "--test-reporter-destination":
			if !hasValue && i+1 < len(script) {
				i++
			}
		case a == "--watch" || a == "--test":
		case strings.HasPrefix(a, "-"):
			opts = append(opts, a)
			if nodeValued[a] && i+1 < len(script) {
				i++
				opts = append(opts, script[i])
			}
		default:
			files = append(files, a)
		}
	}
	if len(paths) > 0 {
		files = paths
	}
	return opts, files
}
