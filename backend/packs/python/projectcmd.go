package python

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// projectRunner is how a project itself runs its tests, read from its
// files: the runner, the arguments it gives that runner, the environment
// it sets, and where that was found (said in the result).
type projectRunner struct {
	Runner string   // "pytest" or "unittest"
	Args   []string // the project's arguments, tool substitutions and coverage options removed
	Env    []string // KEY=VALUE the project sets for its tests (tox setenv)
	Why    string
}

// projectTestCommand reads the project's own test command, in order:
// pyproject.toml (a hatch "test" script, an embedded tox config,
// [tool.pytest.ini_options]), setup.cfg [tool:pytest], tox.ini commands
// (or its [pytest] section), noxfile.py session.run calls, pytest.ini or a
// conftest.py, a Makefile test target. ok is false when the project says
// nothing (the caller falls back to pytest-if-importable).
func projectTestCommand(dir string) (projectRunner, bool) {
	if py := readFile(filepath.Join(dir, "pyproject.toml")); py != "" {
		if cmd, ok := hatchTestScript(py); ok {
			if r, ok := parseTestCommand(cmd); ok {
				r.Why = "pyproject.toml [tool.hatch] test script: " + cmd
				return r, true
			}
		}
		if ini, ok := legacyToxIni(py); ok {
			if r, ok := toxRunner(ini); ok {
				r.Why = "pyproject.toml [tool.tox] " + r.Why
				return r, true
			}
		}
		if hasTable(py, "tool.pytest.ini_options") {
			return projectRunner{Runner: "pytest", Why: "pyproject.toml has [tool.pytest.ini_options]"}, true
		}
	}
	if cfg := readFile(filepath.Join(dir, "setup.cfg")); strings.Contains(cfg, "[tool:pytest]") {
		return projectRunner{Runner: "pytest", Why: "setup.cfg has [tool:pytest]"}, true
	}
	if ini := readFile(filepath.Join(dir, "tox.ini")); ini != "" {
		if r, ok := toxRunner(ini); ok {
			r.Why = "tox.ini " + r.Why
			return r, true
		}
		if _, ok := iniSections(ini)["pytest"]; ok {
			return projectRunner{Runner: "pytest", Why: "tox.ini has a [pytest] section"}, true
		}
	}
	if nox := readFile(filepath.Join(dir, "noxfile.py")); nox != "" {
		for _, m := range noxRunRe().FindAllStringSubmatch(nox, -1) {
			var words []string
			for _, s := range pyStringRe().FindAllStringSubmatch(m[1], -1) {
				words = append(words, s[2])
			}
			if r, ok := parseTestCommand(strings.Join(quoteAll(words), " ")); ok {
				r.Why = "noxfile.py runs: " + strings.Join(words, " ")
				return r, true
			}
		}
	}
	for _, f := range []string{"pytest.ini", "conftest.py", "tests/conftest.py", "test/conftest.py"} {
		if fileExists(filepath.Join(dir, f)) {
			return projectRunner{Runner: "pytest", Why: "the project has " + f}, true
		}
	}
	if mk := readFile(filepath.Join(dir, "Makefile")); mk != "" {
		for _, target := range []string{"test", "tests"} {
			for _, line := range makeRecipe(mk, target) {
				if r, ok := parseTestCommand(line); ok {
					r.Why = "Makefile target " + target + ": " + line
					return r, true
				}
			}
		}
	}
	return projectRunner{}, false
}

var (
	noxRunRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`session\.run\(([^)]*)\)`) })
	pyStringRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(["'])([^"']*)(["'])`) })
	hatchTable = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^tool\.hatch\.envs\.[^.]+\.scripts$`) })
	iniHeader  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([^\]]+)\]\s*$`) })
)

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + w + "'"
	}
	return out
}

// hasTable reports whether TOML text has the table [name].
func hasTable(toml, name string) bool {
	for _, line := range tomlLines(toml) {
		if m := tableHeader().FindStringSubmatch(line); m != nil && normalizeKey(m[1]) == name {
			return true
		}
	}
	return false
}

// hatchTestScript finds test = "cmd" (or the first string of a list) in a
// [tool.hatch.envs.*.scripts] table.
func hatchTestScript(toml string) (string, bool) {
	in := false
	lines := strings.Split(toml, "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if m := tableHeader().FindStringSubmatch(line); m != nil {
			in = hatchTable().MatchString(normalizeKey(m[1]))
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.Trim(strings.TrimSpace(k), `"'`) != "test" {
			continue
		}
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, "[") && !strings.Contains(v, `"`) && i+1 < len(lines) {
			v = lines[i+1]
		}
		if s := pyStringRe().FindStringSubmatch(v); s != nil {
			return s[2], true
		}
	}
	return "", false
}

// legacyToxIni extracts [tool.tox] legacy_tox_ini = """...""".
func legacyToxIni(toml string) (string, bool) {
	i := strings.Index(toml, "legacy_tox_ini")
	if i < 0 {
		return "", false
	}
	rest := toml[i:]
	for _, q := range []string{`"""`, `'''`} {
		if a := strings.Index(rest, q); a >= 0 && a < 40 {
			if b := strings.Index(rest[a+3:], q); b >= 0 {
				return rest[a+3 : a+3+b], true
			}
		}
	}
	return "", false
}

// iniSections reads INI text into sections of keys, joining indented
// continuation lines with "\n".
func iniSections(ini string) map[string]map[string]string {
	out := map[string]map[string]string{}
	var sec map[string]string
	key := ""
	for _, raw := range strings.Split(ini, "\n") {
		line := strings.TrimRight(raw, " \t\r")
		trim := strings.TrimSpace(line)
		if trim == "" || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, ";") {
			continue
		}
		if m := iniHeader().FindStringSubmatch(trim); m != nil && line == trim {
			sec = map[string]string{}
			out[strings.TrimSpace(m[1])] = sec
			key = ""
			continue
		}
		if sec == nil {
			continue
		}
		if line != trim && key != "" { // continuation
			sec[key] = strings.TrimSpace(sec[key] + "\n" + trim)
			continue
		}
		k, v, ok := strings.Cut(trim, "=")
		if !ok {
			continue
		}
		key = strings.TrimSpace(k)
		sec[key] = strings.TrimSpace(v)
	}
	return out
}

// toxRunner finds the first test command in [testenv] (then testenv:py*,
// testenv:test*) commands, with that section's setenv.
func toxRunner(ini string) (projectRunner, bool) {
	secs := iniSections(ini)
	names := []string{"testenv"}
	for name := range secs {
		if n, ok := strings.CutPrefix(name, "testenv:"); ok && (strings.HasPrefix(n, "py") || strings.HasPrefix(n, "test") || n == "unit") {
			names = append(names, name)
		}
	}
	for _, name := range names {
		sec := secs[name]
		if sec == nil {
			continue
		}
		for _, cmd := range strings.Split(sec["commands"], "\n") {
			r, ok := parseTestCommand(cmd)
			if !ok {
				continue
			}
			r.Why = "[" + name + "] commands: " + strings.TrimSpace(cmd)
			env := sec["setenv"]
			if env == "" {
				env = secs["testenv"]["setenv"]
			}
			for _, kv := range strings.Split(env, "\n") {
				k, v, ok := strings.Cut(kv, "=")
				k, v = strings.TrimSpace(k), strings.TrimSpace(v)
				if ok && k != "" && !strings.ContainsAny(k+v, "{}") {
					r.Env = append(r.Env, k+"="+v)
				}
			}
			return r, true
		}
	}
	return projectRunner{}, false
}

// makeRecipe returns the recipe lines of a Makefile target.
func makeRecipe(mk, target string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(mk, "\n") {
		if strings.HasPrefix(line, "\t") {
			if in {
				out = append(out, strings.TrimLeft(strings.TrimSpace(line), "@-"))
			}
			continue
		}
		if name, _, ok := strings.Cut(line, ":"); ok && !strings.Contains(line, ":=") {
			in = false
			for _, n := range strings.Fields(name) {
				if n == target {
					in = true
				}
			}
			continue
		}
		if strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			in = false
		}
	}
	return out
}

// coverageFlags take a value as the next word when written without "=".
var coverageFlags = map[string]bool{"--cov": true, "--cov-report": true, "--cov-config": true, "--cov-fail-under": true, "--cov-branch": false, "--cov-append": false, "--no-cov": false}

// parseTestCommand recognises a command line that runs pytest (pytest,
// py.test, -m pytest) or unittest (-m unittest) — through python, tox's
// {envpython}, coverage run, uv run — and returns the runner with the
// project's arguments. Tool substitutions ({posargs}, ${tests}, $(VAR))
// and coverage options (a plugin, not the tests) are dropped.
func parseTestCommand(cmd string) (projectRunner, bool) {
	words := shellWords(cmd)
	runner, at := "", -1
	for i, w := range words {
		base := filepath.Base(w)
		if base == "pytest" || base == "py.test" {
			runner, at = "pytest", i+1
			break
		}
		if w == "-m" && i+1 < len(words) && (words[i+1] == "pytest" || words[i+1] == "unittest") {
			runner, at = words[i+1], i+2
			break
		}
	}
	if runner == "" {
		return projectRunner{}, false
	}
	var args []string
	rest := words[at:]
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if w == "&&" || w == ";" || w == "|" || w == "||" {
			break
		}
		if strings.ContainsAny(w, "{}$") {
			continue
		}
		flag, _, hasValue := strings.Cut(w, "=")
		if takes, ok := coverageFlags[flag]; ok || strings.HasPrefix(flag, "--cov") {
			if takes && !hasValue && i+1 < len(rest) && !strings.HasPrefix(rest[i+1], "-") {
				i++
			}
			continue
		}
		args = append(args, w)
	}
	return projectRunner{Runner: runner, Args: args}, true
}

// shellWords splits a command line on blanks, honouring single and double
// quotes (no other shell syntax).
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// srcPackage returns "src" and the first package under it when the
// project has a src layout (src/<pkg>/__init__.py and no <pkg> at the
// root).
func srcPackage(dir string) (string, bool) {
	ents, err := os.ReadDir(filepath.Join(dir, "src"))
	if err != nil {
		return "", false
	}
	for _, e := range ents {
		if e.IsDir() && fileExists(filepath.Join(dir, "src", e.Name(), "__init__.py")) {
			if _, err := os.Stat(filepath.Join(dir, e.Name())); err == nil {
				return "", false
			}
			return e.Name(), true
		}
	}
	return "", false
}
