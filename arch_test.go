package main

// The architecture test: keeps AGENTS.md's "imports point down only" and "each
// third-party module has one owning package" true for the whole module.
//
// `go list` only builds the import graph; archCheck is a pure function over
// that graph, so the synthetic sub-test can prove that every rule can fail.
//
// Only non-test imports are checked (go list's Imports, not TestImports or
// XTestImports): tests may reach across layers for fixtures and the fake LLM,
// and go-cmp is a test-only module. The graph is the host GOOS's; the files
// behind build constraints (packs/proc, packs/clojure/nrepl) import only the
// standard library today.

import (
	"fmt"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

const archModule = "github.com/visdesktop/vis"

// archLayer is one layer of the module, bottom first: each package with the
// module packages it may import (relative to the module root; the root
// package itself is "main"). Every allowed import must sit in an earlier
// layer (checked by the "table" sub-test), so the table cannot describe a
// cycle or an upward edge. A new package, or a new edge that points down,
// goes into this table.
type archLayer struct {
	doc  string
	pkgs map[string][]string
}

var archLayers = []archLayer{
	{
		doc: "0 leaves: value types, event broker, keyring, the host-function types (what a tool knows of the sandbox), the Python-to-Starlark pre-pass, the Python builtins and modules, the workspace, the home folder, a running tool's live output, OS confinement, the nREPL codec; no module imports",
		pkgs: map[string][]string{
			"backend/chat":                nil,
			"backend/events":              nil,
			"backend/secrets":             nil,
			"backend/sandbox/hostfn":      nil, // Builtin, ToolError, the call's ctx: what tools import instead of the interpreter
			"backend/sandbox/pyprep":      nil, // the line-preserving Python-to-Starlark rewrite
			"backend/sandbox/pylib":       nil, // Python's builtins and modules over Starlark values
			"backend/workspace":           nil,
			"backend/homedir":             nil, // the person's home: ~ expanded and shown, VIS_HOME
			"backend/live":                nil,
			"backend/confine":             nil,
			"backend/packs/clojure/nrepl": nil,
			"app/notify":                  nil, // desktop notifications over D-Bus (the window's)
			"app/notify/notifytest":       nil, // a notification server for tests
			"internal/golden":             nil, // test files only: golden files and the one -update flag
			"internal/fixture":            nil, // test files only: the files a test writes
		},
	},
	{
		doc: "1 on the leaves: config (on the home folder and canonical workspace paths); the Starlark runtime (on the host-function types); persistence, the prompt, the model client and its scripted fake (on the chat types); the packs' process groups (their output live); per-turn checkpoints (on the workspace)",
		pkgs: map[string][]string{
			"backend/sandbox":                {"backend/sandbox/hostfn", "backend/sandbox/pylib", "backend/sandbox/pyprep"},
			"backend/config":                 {"backend/homedir", "backend/workspace"}, // ~ in trust lists, canonical workspaces
			"backend/store":                  {"backend/chat"},
			"backend/prompt":                 {"backend/chat", "backend/homedir", "backend/workspace"},
			"backend/provider":               {"backend/chat"},
			"backend/provider/providertest":  {"backend/chat"},
			"backend/packs/proc":             {"backend/confine", "backend/live"},
			"backend/checkpoint":             {"backend/workspace"},
			"app/notify/notifytest/recorder": {"app/notify/notifytest"}, // the smoke test's notification server
		},
	},
	{
		doc: "2 services over layers 0-1: images, the extension registry, the jailed tools, goals, the turn loop, the fake LLM binary, the packs' line-protocol REPL (on process groups), the MCP client (on process groups and the sandbox) and its test server's tools; the person's prompt files and skills (on config)",
		pkgs: map[string][]string{
			"backend/attach":                        {"backend/homedir", "backend/prompt", "backend/store"},
			"backend/ext":                           {"backend/sandbox/hostfn"},
			"backend/tools":                         {"backend/confine", "backend/live", "backend/sandbox/hostfn", "backend/workspace"},
			"backend/packs/linerepl":                {"backend/confine", "backend/packs/proc"},
			"backend/goals":                         {"backend/chat", "backend/sandbox/hostfn", "backend/store"},
			"backend/loop":                          {"backend/chat", "backend/events", "backend/prompt", "backend/provider", "backend/sandbox", "backend/store"},
			"backend/provider/providertest/fakellm": {"backend/provider/providertest"},
			"backend/mcp":                           {"backend/confine", "backend/packs/proc", "backend/sandbox/hostfn"},
			"backend/mcp/mcptest":                   nil,
			"backend/userprompts":                   {"backend/config"}, // the person's prompt files as slash commands (front matter read by config)
			"backend/skills":                        {"backend/config"}, // the person's skills (SKILL.md folders)
		},
	},
	{
		doc: "3 on the extension registry: session-owned processes, the language-tool facade, the language packs and their test helpers; the MCP test server's stdio binary",
		pkgs: map[string][]string{
			"backend/resources":          {"backend/ext"},
			"backend/langtools":          {"backend/ext", "backend/homedir", "backend/sandbox/hostfn", "backend/workspace"},
			"backend/packs/clojure":      {"backend/confine", "backend/ext", "backend/homedir", "backend/live", "backend/packs/clojure/nrepl", "backend/packs/proc", "backend/workspace"},
			"backend/packs/golang":       {"backend/confine", "backend/ext", "backend/live", "backend/packs/proc", "backend/workspace"},
			"backend/packs/js":           {"backend/confine", "backend/ext", "backend/homedir", "backend/live", "backend/packs/linerepl", "backend/packs/proc", "backend/workspace"},
			"backend/packs/python":       {"backend/confine", "backend/ext", "backend/homedir", "backend/packs/linerepl", "backend/packs/proc", "backend/workspace"},
			"backend/packs/packtest":     {"backend/ext", "backend/live"},
			"backend/mcp/mcptest/server": {"backend/mcp/mcptest"},
		},
	},
	{
		doc: "4 the engine root: wires the layers below (never the test helpers or the fake LLM); imported only by the fronts and main",
		pkgs: map[string][]string{
			"backend": {
				"backend/attach", "backend/chat", "backend/checkpoint", "backend/config", "backend/confine", "backend/events", "backend/ext",
				"backend/goals", "backend/homedir", "backend/langtools", "backend/live", "backend/loop", "backend/mcp", "backend/packs/clojure",
				"backend/packs/golang", "backend/packs/js", "backend/packs/python", "backend/prompt",
				"backend/provider", "backend/resources", "backend/sandbox", "backend/sandbox/hostfn", "backend/secrets",
				"backend/skills", "backend/store", "backend/tools", "backend/userprompts", "backend/workspace",
			},
		},
	},
	{
		doc: "5 the fronts, each over the engine and never each other: the Wails window (app) and the headless CLI (app/cli)",
		pkgs: map[string][]string{
			"app":     {"app/notify", "backend", "backend/attach", "backend/chat", "backend/config", "backend/events", "backend/ext", "backend/goals"},
			"app/cli": {"backend", "backend/attach", "backend/events", "backend/goals", "backend/homedir", "backend/store"},
		},
	},
	{
		doc: "6 the composition roots: the desktop binary (main) and the headless one (cmd/vis: no Wails, no cgo)",
		pkgs: map[string][]string{
			"main":    {"app", "app/cli", "backend", "backend/confine", "backend/homedir"},
			"cmd/vis": {"app/cli", "backend/confine"},
		},
	},
	{
		doc: "7 developer tools, run by go run / go generate and never imported: the TypeScript generator of the event shapes",
		pkgs: map[string][]string{
			"tools/tsgen": {"backend/events"},
		},
	},
}

// archOwners: each third-party module and the only packages that may import
// it. A module ending in "/" is a prefix (every wailsapp module).
var archOwners = []struct {
	module string
	owners []string
}{
	{"github.com/sashabaranov/go-openai", []string{"backend/provider"}},
	{"modernc.org/sqlite", []string{"backend/store"}},
	{"go.starlark.net", []string{"backend/sandbox", "backend/sandbox/pylib"}},
	{"github.com/fsnotify/fsnotify", []string{"backend/workspace"}},
	{"github.com/zalando/go-keyring", []string{"backend/secrets"}},
	{"golang.org/x/image", []string{"backend/attach"}},
	{"gopkg.in/yaml.v3", []string{"backend/config"}},                               // the config files
	{"golang.org/x/sys", []string{"backend/confine"}},                              // the Landlock system calls
	{"github.com/godbus/dbus/v5", []string{"app/notify", "app/notify/notifytest"}}, // desktop notifications
	{"github.com/wailsapp/", []string{"app", "main"}},                              // Wails: the window front and the composition root
	{"github.com/google/go-cmp", nil},                                              // test files only
	// MCP: the client, and the test suite's server
	{"github.com/modelcontextprotocol/go-sdk", []string{"backend/mcp", "backend/mcp/mcptest", "backend/mcp/mcptest/server"}},
}

// archRel names a module package relative to the module root ("main" for the
// root itself); ok is false for packages outside the module.
func archRel(path string) (rel string, ok bool) {
	if path == archModule {
		return "main", true
	}
	if r, found := strings.CutPrefix(path, archModule+"/"); found {
		return r, true
	}
	return "", false
}

// archStd reports whether an import path is the standard library (its first
// element has no dot) or cgo's "C".
func archStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func archUnderBackend(rel string) bool {
	return rel == "backend" || strings.HasPrefix(rel, "backend/")
}

// archIndex maps each table package to its layer number and allowed imports.
func archIndex() (layer map[string]int, allowed map[string][]string) {
	layer, allowed = map[string]int{}, map[string][]string{}
	for i, l := range archLayers {
		for p, imps := range l.pkgs {
			layer[p], allowed[p] = i, imps
		}
	}
	return layer, allowed
}

// archOwnerOf finds the owner entry of a third-party import path.
func archOwnerOf(path string) (module string, owners []string, ok bool) {
	for _, o := range archOwners {
		if strings.HasSuffix(o.module, "/") && strings.HasPrefix(path, o.module) ||
			path == o.module || strings.HasPrefix(path, o.module+"/") {
			return o.module, o.owners, true
		}
	}
	return "", nil, false
}

// archCheck returns one message per violation in graph (import path → its
// non-test imports, full paths), sorted. It is pure: no go list, no files.
func archCheck(graph map[string][]string) []string {
	layer, allowed := archIndex()
	var out []string
	for pkg, imps := range graph {
		from, ok := archRel(pkg)
		if !ok {
			continue // only the module's own packages are checked
		}
		_, known := layer[from]
		if !known {
			out = append(out, fmt.Sprintf("%s is not in the layer table: add it to archLayers in arch_test.go, in the layer it belongs to, with the module packages it may import (imports point down only)", from))
		}
		for _, imp := range imps {
			if to, internal := archRel(imp); internal {
				if msg := archInternal(from, to, known, layer, allowed); msg != "" {
					out = append(out, msg)
				}
				continue
			}
			if archStd(imp) {
				continue
			}
			module, owners, found := archOwnerOf(imp)
			switch {
			case !found:
				out = append(out, fmt.Sprintf("%s imports %s: a third-party module with no owner; add it to archOwners in arch_test.go with its one owning package", from, imp))
			case !slices.Contains(owners, from):
				who := "test files only"
				if len(owners) > 0 {
					who = strings.Join(owners, " and ") + " only"
				}
				if strings.HasSuffix(module, "/") {
					module += "*"
				}
				out = append(out, fmt.Sprintf("%s imports %s: module %s belongs to %s (one owner per third-party module; go through it)", from, imp, module, who))
			}
		}
	}
	sort.Strings(out)
	return out
}

// archInternal checks one edge between two module packages; "" means allowed.
func archInternal(from, to string, known bool, layer map[string]int, allowed map[string][]string) string {
	switch {
	case archUnderBackend(from) && !archUnderBackend(to):
		return fmt.Sprintf("%s imports %s: nothing under backend/ may import app, app/cli or main", from, to)
	case archUnderBackend(from) && to == "backend":
		return fmt.Sprintf("%s imports backend: the engine root is imported only by app, app/cli and main", from)
	case from == "app/cli" && to == "app":
		return "app/cli imports app: the headless front must not import the Wails front"
	case !known:
		return "" // reported once as a package missing from the table
	case slices.Contains(allowed[from], to):
		return ""
	}
	lf := layer[from]
	lt, toKnown := layer[to]
	switch {
	case !toKnown:
		return fmt.Sprintf("%s imports %s, which is not in the layer table of arch_test.go", from, to)
	case lt >= lf:
		return fmt.Sprintf("%s imports %s: an upward or sideways import (layer %d imports layer %d); imports point down only (archLayers in arch_test.go)", from, to, lf, lt)
	default:
		return fmt.Sprintf("%s imports %s: not in %s's allowed imports; it points down (layer %d to %d), so if intended add it to archLayers in arch_test.go", from, to, from, lf, lt)
	}
}

// archStale lists table packages that graph does not have (deleted or moved).
func archStale(graph map[string][]string) []string {
	var out []string
	for _, l := range archLayers {
		for p := range l.pkgs {
			full := archModule + "/" + p
			if p == "main" {
				full = archModule
			}
			if _, ok := graph[full]; !ok {
				out = append(out, fmt.Sprintf("%s is in archLayers but go list does not report it: remove or rename it in arch_test.go", p))
			}
		}
	}
	sort.Strings(out)
	return out
}

// archGoList builds the graph of the module's packages from go list.
func archGoList(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	graph := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) > 0 {
			graph[f[0]] = f[1:]
		}
	}
	if _, ok := graph[archModule+"/backend"]; !ok {
		t.Fatalf("go list did not report %s/backend; output:\n%s", archModule, out)
	}
	return graph
}

// archTableGraph is the graph the table describes: every package importing
// exactly what it may, plus each owned module from its owner.
func archTableGraph() map[string][]string {
	full := func(rel string) string {
		if rel == "main" {
			return archModule
		}
		return archModule + "/" + rel
	}
	g := map[string][]string{}
	for _, l := range archLayers {
		for p, imps := range l.pkgs {
			g[full(p)] = append(g[full(p)], "fmt", "context")
			for _, i := range imps {
				g[full(p)] = append(g[full(p)], full(i))
			}
		}
	}
	for _, o := range archOwners {
		for _, p := range o.owners {
			g[full(p)] = append(g[full(p)], strings.TrimSuffix(o.module, "/")+"/sub")
		}
	}
	return g
}

func TestArch(t *testing.T) {
	t.Parallel()

	t.Run("table", func(t *testing.T) {
		t.Parallel()
		seen := map[string]int{}
		for i, l := range archLayers {
			for p := range l.pkgs {
				if j, dup := seen[p]; dup {
					t.Errorf("%s is in layers %d and %d of archLayers", p, j, i)
				}
				seen[p] = i
			}
		}
		for i, l := range archLayers {
			for p, imps := range l.pkgs {
				for _, imp := range imps {
					if j, ok := seen[imp]; !ok || j >= i {
						t.Errorf("archLayers: %s (layer %d) may import %s, which is not in an earlier layer", p, i, imp)
					}
				}
			}
		}
	})

	t.Run("repo", func(t *testing.T) {
		t.Parallel()
		graph := archGoList(t)
		for _, msg := range archCheck(graph) {
			t.Error(msg)
		}
		for _, msg := range archStale(graph) {
			t.Error(msg)
		}
	})

	t.Run("synthetic", func(t *testing.T) {
		t.Parallel()
		m := func(rel string) string { return archModule + "/" + rel }
		cases := []struct {
			name string
			from string // full import path
			imp  string
			want []string // substrings of the one expected message; none: no message
		}{
			{"table graph is clean", "", "", nil},
			{"leaf imports upward", m("backend/chat"), m("backend/store"), []string{"backend/chat imports backend/store", "upward"}},
			{"sideways within a layer", m("backend/store"), m("backend/prompt"), []string{"backend/store imports backend/prompt", "upward or sideways"}},
			{"loop imports the engine root", m("backend/loop"), m("backend"), []string{"backend/loop imports backend", "engine root"}},
			{"backend imports a front", m("backend/events"), m("app"), []string{"backend/events imports app", "nothing under backend/"}},
			{"backend imports main", m("backend/store"), archModule, []string{"backend/store imports main"}},
			{"cli imports the window", m("app/cli"), m("app"), []string{"app/cli imports app"}},
			{"down edge not in the table", m("backend/tools"), m("backend/chat"), []string{"backend/tools imports backend/chat", "points down"}},
			{"new backend package", m("backend/newthing"), "fmt", []string{"backend/newthing is not in the layer table"}},
			{"backend imports wails", m("backend/events"), "github.com/wailsapp/wails/v2/pkg/runtime", []string{"backend/events imports github.com/wailsapp/wails/v2/pkg/runtime", "app and main only"}},
			{"cli imports wails", m("app/cli"), "github.com/wailsapp/wails/v2", []string{"app/cli imports github.com/wailsapp/wails/v2"}},
			{"loop imports go-openai", m("backend/loop"), "github.com/sashabaranov/go-openai", []string{"backend/loop imports github.com/sashabaranov/go-openai", "backend/provider only"}},
			{"pack imports starlark", m("backend/packs/clojure"), "go.starlark.net/starlark", []string{"backend/packs/clojure imports go.starlark.net/starlark", "backend/sandbox and backend/sandbox/pylib only"}},
			{"sqlite outside store", m("backend/goals"), "modernc.org/sqlite/lib", []string{"backend/goals imports modernc.org/sqlite/lib"}},
			{"go-cmp outside tests", m("backend/packs/packtest"), "github.com/google/go-cmp/cmp", []string{"test files only"}},
			{"unowned module", m("backend/tools"), "example.com/newdep", []string{"backend/tools imports example.com/newdep", "no owner"}},
			{"outside packages are ignored", "example.com/other", m("app"), nil},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				g := archTableGraph()
				if tc.from != "" {
					g[tc.from] = append(slices.Clone(g[tc.from]), tc.imp)
				}
				got := archCheck(g)
				if tc.want == nil {
					if len(got) != 0 {
						t.Fatalf("want no violations, got:\n%s", strings.Join(got, "\n"))
					}
					return
				}
				if len(got) != 1 {
					t.Fatalf("want one violation containing %q, got %d:\n%s", tc.want, len(got), strings.Join(got, "\n"))
				}
				for _, w := range tc.want {
					if !strings.Contains(got[0], w) {
						t.Errorf("violation %q does not contain %q", got[0], w)
					}
				}
			})
		}
		if stale := archStale(archTableGraph()); len(stale) != 0 {
			t.Errorf("archStale on the table's own graph: %v", stale)
		}
		g := archTableGraph()
		delete(g, m("backend/chat"))
		if stale := archStale(g); len(stale) != 1 || !strings.Contains(stale[0], "backend/chat") {
			t.Errorf("archStale with backend/chat removed = %v, want one message naming backend/chat", stale)
		}
	})
}
