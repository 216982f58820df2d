package python

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/homedir"
)

// ErrNoPython means no interpreter was configured or found.
var ErrNoPython = errors.New("no python interpreter found (looked for a config pin, VIS_PYTHON, .venv, venv, uv, poetry, python3, python)")

// Interpreter is how the pack runs Python for a project: an argv prefix
// (["/p/.venv/bin/python"], ["uv", "run", "python"]) and where it came from
// (config, env, venv, uv, poetry, path).
type Interpreter struct {
	Argv   []string `json:"argv"`
	Source string   `json:"source"`
}

// Resolve finds the interpreter for a project directory, in order: the
// configured pin (Options.Interpreter), VIS_PYTHON, dir/.venv or dir/venv,
// uv (uv.lock or a real [tool.uv] table, and uv on PATH), poetry
// (poetry.lock and poetry on PATH), python3, python. A pin's "~" is
// expanded and a relative path resolved against dir; a venv path is used
// as is (never canonicalised, so the venv is honoured).
func (p *Pack) Resolve(dir string) (Interpreter, error) {
	if len(p.opts.Interpreter) > 0 {
		return Interpreter{Argv: pinArgv(p.opts.Interpreter, dir), Source: "config"}, nil
	}
	if v := strings.TrimSpace(p.getenv("VIS_PYTHON")); v != "" {
		return Interpreter{Argv: pinArgv([]string{v}, dir), Source: "env"}, nil
	}
	for _, venv := range []string{".venv", "venv"} {
		py := filepath.Join(dir, venv, "bin", "python")
		if fi, err := os.Stat(py); err == nil && !fi.IsDir() {
			return Interpreter{Argv: []string{py}, Source: "venv"}, nil
		}
	}
	if fileExists(filepath.Join(dir, "uv.lock")) || hasToolUV(readFile(filepath.Join(dir, "pyproject.toml"))) {
		if uv, err := p.lookPath("uv"); err == nil {
			return Interpreter{Argv: []string{uv, "run", "python"}, Source: "uv"}, nil
		}
	}
	if fileExists(filepath.Join(dir, "poetry.lock")) {
		if poetry, err := p.lookPath("poetry"); err == nil {
			return Interpreter{Argv: []string{poetry, "run", "python"}, Source: "poetry"}, nil
		}
	}
	for _, name := range []string{"python3", "python"} {
		if py, err := p.lookPath(name); err == nil {
			return Interpreter{Argv: []string{py}, Source: "path"}, nil
		}
	}
	return Interpreter{}, ErrNoPython
}

// pinArgv expands "~" and resolves a relative program path against dir.
func pinArgv(pin []string, dir string) []string {
	out := append([]string(nil), pin...)
	prog := homedir.Expand(out[0], homedir.Dir())
	if strings.ContainsRune(prog, filepath.Separator) && !filepath.IsAbs(prog) {
		prog = filepath.Join(dir, prog)
	}
	out[0] = prog
	return out
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func readFile(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}

var (
	tableHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[\[?\s*([^\[\]]+?)\s*\]\]?$`) })
	dottedKey   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:"uv"|'uv'|uv)\s*(?:\.|=)`) })
)

// hasToolUV reports whether pyproject text has a real [tool.uv] table (or a
// sub-table, an array of tables, or uv keys under [tool]), ignoring
// comments, strings and look-alikes such as [tool.uvicorn].
func hasToolUV(toml string) bool {
	inTool := false
	for _, line := range tomlLines(toml) {
		if m := tableHeader().FindStringSubmatch(line); m != nil {
			key := normalizeKey(m[1])
			if key == "tool.uv" || strings.HasPrefix(key, "tool.uv.") {
				return true
			}
			inTool = key == "tool"
			continue
		}
		if inTool && dottedKey().MatchString(line) {
			return true
		}
		if !inTool {
			if k := strings.TrimSpace(strings.SplitN(line, "=", 2)[0]); normalizeKey(k) == "tool.uv" || strings.HasPrefix(normalizeKey(k), "tool.uv.") {
				if strings.Contains(line, "=") {
					return true // tool.uv.x = ... at the top level
				}
			}
		}
	}
	return false
}

// normalizeKey removes spaces and quotes around the parts of a dotted key.
func normalizeKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// tomlLines returns the logical lines of TOML text with comments removed
// and multi-line strings blanked out, trimmed; inline string contents are
// left in place only outside header/key positions we test.
func tomlLines(s string) []string {
	var out []string
	var cur strings.Builder
	inML := "" // `"""` or `'''` while inside a multi-line string
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inML != "" {
			if strings.HasPrefix(s[i:], inML) {
				cur.WriteString("\"\"")
				i += len(inML) - 1
				inML = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`):
			inML = s[i : i+3]
			i += 2
		case c == '"' || c == '\'':
			// a one-line string: copy it blanked, honouring \" in basic strings
			q := c
			cur.WriteByte(q)
			for i++; i < len(s) && s[i] != '\n'; i++ {
				if q == '"' && s[i] == '\\' {
					i++
					continue
				}
				if s[i] == q {
					break
				}
				cur.WriteByte('x')
			}
			cur.WriteByte(q)
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			i--
		case c == '\n':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	out = append(out, strings.TrimSpace(cur.String()))
	return out
}

func (i Interpreter) String() string {
	return fmt.Sprintf("%s (%s)", strings.Join(i.Argv, " "), i.Source)
}
