package python

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// ErrToolMissing means the project names a formatter or linter that is
// not installed anywhere Vis looks; the error names the tool, the project
// file that named it, and how to install it. Vis does not substitute
// another formatter: that would restyle the project's code.
var ErrToolMissing = errors.New("the project's tool is not installed")

// EnvRuffWasm names ruff-wasm.mjs (tools/python: ruff's formatter and
// linter as WebAssembly, run with node), the last place Vis looks for ruff
// after the project's venv and PATH.
const EnvRuffWasm = "VIS_RUFF_WASM"

// projectStyle is what a project's own files say about its formatter and
// linter: a tool name ("ruff", "black") and why (the file and section that
// say so), "" when the files say nothing.
type projectStyle struct {
	Formatter, FormatWhy string
	Linter, LintWhy      string
}

// Section headers and dependency mentions, matched line by line (no TOML
// parser: only these facts are read).
var (
	reRuffSection       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\[\s*tool\.ruff\s*[\].]`) })
	reRuffFormatSection = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\[\s*tool\.ruff\.format\s*\]`) })
	reBlackSection      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\[\s*tool\.black\s*\]`) })
	reFormatTable       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\[\s*format\s*\]`) })
	// A dependency: quoted in a TOML array ("ruff>=0.4"), a poetry table key
	// (ruff = "^0.4"), or a requirements/setup.cfg line (ruff==0.4.1).
	reDep = func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)(["']` + name + `\s*([<>=~!;\[ "']|$))|(^\s*` + name + `\s*([<>=~!;\[]|$))`)
	}
	reRuffDep  = reDep("ruff")
	reBlackDep = reDep("black")
	// pre-commit hooks: id: ruff-format / ruff (or ruff-check) / black.
	rePreCommitRuffFormat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*-?\s*id:\s*ruff-format\b`) })
	rePreCommitRuffLint   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*-?\s*id:\s*ruff(-check)?\s*$`) })
	rePreCommitBlack      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*-?\s*id:\s*black(-jupyter)?\s*$`) })
)

// depFiles are where projects list their development tools besides
// pyproject.toml.
var depFiles = []string{"setup.cfg", "requirements-dev.txt", "dev-requirements.txt", "requirements_dev.txt",
	"requirements/dev.txt", "requirements-test.txt", "requirements/test.txt", "tox.ini"}

// detectStyle reads the project's files from dir up to the workspace root
// (dir alone when workspace is ""); the nearest directory that says
// anything decides each of formatter and linter.
func detectStyle(workspace, dir string) projectStyle {
	var st projectStyle
	for _, d := range upDirs(workspace, dir) {
		f, fw, l, lw := styleIn(workspace, d)
		if st.Formatter == "" && f != "" {
			st.Formatter, st.FormatWhy = f, fw
		}
		if st.Linter == "" && l != "" {
			st.Linter, st.LintWhy = l, lw
		}
		if st.Formatter != "" && st.Linter != "" {
			break
		}
	}
	return st
}

// upDirs is dir, its parent, ... up to workspace (inclusive); only dir
// when dir is not inside workspace.
func upDirs(workspace, dir string) []string {
	dir = filepath.Clean(dir)
	out := []string{dir}
	if workspace == "" {
		return out
	}
	workspace = filepath.Clean(workspace)
	if r, err := filepath.Rel(workspace, dir); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return out
	}
	for d := dir; d != workspace; {
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
		out = append(out, d)
	}
	return out
}

// styleIn reads one directory's files. Formatter precedence: ruff's format
// settings, black's settings, black as a dev tool (the common "ruff lints,
// black formats" setup), ruff's settings, ruff as a dev tool.
func styleIn(workspace, dir string) (fmtTool, fmtWhy, lintTool, lintWhy string) {
	read := func(name string) (string, string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", "", false
		}
		shown := name
		if workspace != "" {
			shown = rel(workspace, filepath.Join(dir, name))
		}
		return string(b), shown, true
	}
	type signal struct {
		tool, why string
	}
	var ruffFormat, blackCfg, blackDep, ruffCfg, ruffDep []signal
	for _, name := range []string{".ruff.toml", "ruff.toml"} {
		if text, shown, ok := read(name); ok {
			ruffCfg = append(ruffCfg, signal{"ruff", shown})
			if reFormatTable().MatchString(text) {
				ruffFormat = append(ruffFormat, signal{"ruff", shown + " [format]"})
			}
		}
	}
	if text, shown, ok := read("pyproject.toml"); ok {
		if reRuffFormatSection().MatchString(text) {
			ruffFormat = append(ruffFormat, signal{"ruff", shown + " [tool.ruff.format]"})
		}
		if reRuffSection().MatchString(text) {
			ruffCfg = append(ruffCfg, signal{"ruff", shown + " [tool.ruff]"})
		}
		if reBlackSection().MatchString(text) {
			blackCfg = append(blackCfg, signal{"black", shown + " [tool.black]"})
		}
		if reBlackDep.MatchString(text) {
			blackDep = append(blackDep, signal{"black", "black is a dependency in " + shown})
		}
		if reRuffDep.MatchString(text) {
			ruffDep = append(ruffDep, signal{"ruff", "ruff is a dependency in " + shown})
		}
	}
	if text, shown, ok := read(".pre-commit-config.yaml"); ok {
		if rePreCommitRuffFormat().MatchString(text) {
			ruffFormat = append(ruffFormat, signal{"ruff", shown + " runs ruff-format"})
		}
		if rePreCommitBlack().MatchString(text) {
			blackCfg = append(blackCfg, signal{"black", shown + " runs black"})
		}
		if rePreCommitRuffLint().MatchString(text) {
			ruffCfg = append(ruffCfg, signal{"ruff", shown + " runs ruff"})
		}
	}
	for _, name := range depFiles {
		if text, shown, ok := read(name); ok {
			if reBlackDep.MatchString(text) {
				blackDep = append(blackDep, signal{"black", "black is a dependency in " + shown})
			}
			if reRuffDep.MatchString(text) {
				ruffDep = append(ruffDep, signal{"ruff", "ruff is a dependency in " + shown})
			}
		}
	}
	for _, group := range [][]signal{ruffFormat, blackCfg, blackDep, ruffCfg, ruffDep} {
		if len(group) > 0 {
			fmtTool, fmtWhy = group[0].tool, group[0].why
			break
		}
	}
	for _, group := range [][]signal{ruffCfg, ruffFormat, ruffDep} {
		if len(group) > 0 {
			lintTool, lintWhy = "ruff", group[0].why
			break
		}
	}
	return fmtTool, fmtWhy, lintTool, lintWhy
}

// findTool looks for a tool in the project's venv (.venv or venv, from dir
// up to the workspace root), then on PATH.
func (p *Pack) findTool(workspace, dir, name string) (string, bool) {
	for _, d := range upDirs(workspace, dir) {
		for _, venv := range []string{".venv", "venv"} {
			exe := filepath.Join(d, venv, "bin", name)
			if fileExists(exe) {
				return exe, true
			}
		}
	}
	if exe, err := p.lookPath(name); err == nil {
		return exe, true
	}
	return "", false
}

// toolCmd is a resolved formatter or linter: its argv prefix and where it
// was found ("the project's venv", "PATH", "ruff-wasm").
type toolCmd struct {
	name  string
	argv  []string
	where string
}

// resolve finds name: the venv, PATH, then (ruff only) the wasm ruff that
// VIS_RUFF_WASM names, run with node.
func (p *Pack) resolve(workspace, dir, name string) (toolCmd, bool) {
	if exe, ok := p.findTool(workspace, dir, name); ok {
		where := "PATH"
		if strings.Contains(exe, string(filepath.Separator)+"venv"+string(filepath.Separator)) ||
			strings.Contains(exe, string(filepath.Separator)+".venv"+string(filepath.Separator)) {
			where = "the project's venv"
		}
		return toolCmd{name: name, argv: []string{exe}, where: where}, true
	}
	if name != "ruff" {
		return toolCmd{}, false
	}
	script := p.getenv(EnvRuffWasm)
	if script == "" || !fileExists(script) {
		return toolCmd{}, false
	}
	node, err := p.lookPath("node")
	if err != nil {
		return toolCmd{}, false
	}
	return toolCmd{name: "ruff", argv: []string{node, script}, where: "ruff-wasm (" + EnvRuffWasm + ")"}, true
}

// missing is the error for a tool the project names but nothing provides.
func missing(verb, tool, why string) error {
	how := "install it in the project's venv (.venv/bin/" + tool + ") or on PATH"
	if tool == "ruff" {
		how += ", or set " + EnvRuffWasm + " to tools/python/ruff-wasm.mjs (ruff as WebAssembly, run with node)"
	} else if tool == "black" {
		how += " (Debian: apt-get install black)"
	}
	return fmt.Errorf("python %s: the project uses %s (%s) but %s is not installed: %s: %w", verb, tool, why, tool, how, ErrToolMissing)
}
