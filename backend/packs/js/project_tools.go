package js

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
)

// projectTool is the formatter or linter a project uses: its name, the
// executable found for it, and why it was chosen (said in results).
type projectTool struct {
	Name string // "biome", "prettier", "oxfmt", "eslint"
	Bin  string
	Why  string
}

// npmPackage is the npm package that installs each tool.
var npmPackage = map[string]string{"biome": "@biomejs/biome", "prettier": "prettier", "oxfmt": "oxfmt", "eslint": "eslint"}

// toolRule says how a project declares a tool: config files (looked for
// from the project directory up to the workspace) and package names in
// its dependencies.
type toolRule struct {
	name    string
	configs []string
	deps    []string
}

var formatterRules = []toolRule{
	{"biome", []string{"biome.json", "biome.jsonc"}, []string{"@biomejs/biome"}},
	{"oxfmt", []string{".oxfmtrc.json", ".oxfmtrc.jsonc", "oxfmt.config.ts", "oxfmt.config.js", "oxfmt.config.mjs"}, []string{"oxfmt"}},
	{"prettier", []string{".prettierrc", ".prettierrc.json", ".prettierrc.json5", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.toml", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.ts", "prettier.config.js", "prettier.config.cjs", "prettier.config.mjs", "prettier.config.ts"}, []string{"prettier"}},
}

var linterRules = []toolRule{
	{"eslint", []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts", "eslint.config.cts", ".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yaml", ".eslintrc.yml"}, []string{"eslint"}},
	{"biome", []string{"biome.json", "biome.jsonc"}, []string{"@biomejs/biome"}},
}

// formatScripts and lintScripts are the package.json scripts that say how
// the project formats and lints, in the order they are read.
var (
	formatScripts = []string{"format", "fmt", "format:write", "format:fix", "prettier"}
	lintScripts   = []string{"lint", "lint:js", "eslint"}
)

// projectJSON is what tool detection reads of package.json.
type projectJSON struct {
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
	Prettier        json.RawMessage   `json:"prettier"`
	ESLintConfig    json.RawMessage   `json:"eslintConfig"`
}

// detectTool picks the project's tool of a kind: a script of the nearest
// package.json that runs one, then a config file (from dir up to the
// workspace; package.json's "prettier"/"eslintConfig" keys count), then
// its dependencies. name is "" when the project names none.
func detectTool(workspace, dir string, rules []toolRule, scripts []string) (name, why string) {
	var pj projectJSON
	pdir := ""
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			if json.Unmarshal(b, &pj) == nil {
				pdir = d
			}
			break
		}
		if d == workspace || filepath.Dir(d) == d {
			break
		}
	}
	for _, s := range scripts {
		script := pj.Scripts[s]
		for _, r := range rules {
			if regexp.MustCompile(`(^|[\s/&;|])` + regexp.QuoteMeta(r.name) + `(\s|$)`).MatchString(script) {
				return r.name, fmt.Sprintf("package.json scripts.%s runs %s", s, r.name)
			}
		}
	}
	for d := dir; ; d = filepath.Dir(d) {
		for _, r := range rules {
			for _, c := range r.configs {
				if _, err := os.Stat(filepath.Join(d, c)); err == nil {
					return r.name, fmt.Sprintf("the project configures it (%s)", relOr(workspace, filepath.Join(d, c)))
				}
			}
		}
		if d == workspace || filepath.Dir(d) == d || d == pdir {
			break
		}
	}
	for _, r := range rules {
		if r.name == "prettier" && len(pj.Prettier) > 0 {
			return r.name, `the project configures it (package.json "prettier")`
		}
		if r.name == "eslint" && len(pj.ESLintConfig) > 0 {
			return r.name, `the project configures it (package.json "eslintConfig")`
		}
	}
	for _, r := range rules {
		for _, dep := range r.deps {
			if _, ok := pj.DevDependencies[dep]; ok {
				return r.name, fmt.Sprintf("package.json devDependencies names %s", dep)
			}
			if _, ok := pj.Dependencies[dep]; ok {
				return r.name, fmt.Sprintf("package.json dependencies names %s", dep)
			}
		}
	}
	return "", ""
}

// toolBin finds a tool's executable: the project's node_modules/.bin (from
// dir up to the workspace), else PATH; "" when neither has it.
func toolBin(workspace, dir, name string) string {
	if b := findUp(workspace, dir, filepath.Join("node_modules", ".bin", name)); b != "" {
		return b
	}
	if b, err := exec.LookPath(name); err == nil {
		return b
	}
	return ""
}

// resolveTool is the project's tool of a kind with its executable. A tool
// the project names but that is not installed is an error naming the
// package to install; a project naming none gets the first tool of rules
// installed in its node_modules, else an error wrapping none.
func resolveTool(workspace, dir string, rules []toolRule, scripts []string, none error) (projectTool, error) {
	name, why := detectTool(workspace, dir, rules, scripts)
	if name != "" {
		bin := toolBin(workspace, dir, name)
		if bin == "" {
			return projectTool{}, fmt.Errorf("%w: the project uses %s (%s) but it is not installed: run npm install --save-dev %s (or put %s on PATH)", none, name, why, npmPackage[name], name)
		}
		return projectTool{Name: name, Bin: bin, Why: why}, nil
	}
	// A project that names nothing keeps what Vis always did: prettier
	// (or eslint) first when its node_modules has it.
	order := append([]toolRule(nil), rules...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].name == "prettier" && order[j].name != "prettier" })
	for _, r := range order {
		if b := findUp(workspace, dir, filepath.Join("node_modules", ".bin", r.name)); b != "" {
			return projectTool{Name: r.name, Bin: b, Why: "the project names no " + kindOf(rules) + "; " + r.name + " is installed in its node_modules"}, nil
		}
	}
	return projectTool{}, none
}

func kindOf(rules []toolRule) string {
	if len(rules) > 0 && rules[0].name == linterRules[0].name {
		return "linter"
	}
	return "formatter"
}

func relOr(workspace, p string) string {
	if rel, err := filepath.Rel(workspace, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}
