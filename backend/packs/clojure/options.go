package clojure

import "github.com/visdesktop/vis/backend/ext"

// ToolOptions are the option keys the Clojure pack's verbs take besides
// the facade's own (paths, code, cwd, id): the facade refuses any other key
// and doc() lists these. Spellings with Instead are refused with what to
// write instead, so a typo never widens a run.
var ToolOptions = ext.VerbOptions{
	ext.VerbFormat: {{Key: "timeout_ms", Type: "int", Doc: "bounds the formatter (default 2 minutes)"}, ext.EnvOption, {Key: "args", Type: "[str]", Doc: "extra cljfmt fix / zprint / standard-clj fix options, before the files"}},
	ext.VerbLint: {
		{Key: "lang", Type: "str", Doc: `a snippet's dialect: "clj" (default), "cljs", "cljc" or "edn"`},
		{Key: "timeout_ms", Type: "int", Doc: "each linter's budget (default 2 minutes)"},
		{Key: "env", Type: "{str: str}", Doc: "variables added to clj-kondo's and the clean JVM's environment"},
		{Key: "args", Type: "[str]", Doc: "extra clj-kondo options, before --lint"},
	},
	ext.VerbTest: {
		{Key: "ns", Type: "str | [str]", Doc: "a namespace, or ns/var for one test"},
		{Key: "nses", Type: "[str]", Doc: "namespaces (or ns/var entries)"},
		{Key: "include", Type: "str | [str]", Doc: "metadata tags to run (integration for ^:integration)"},
		{Key: "exclude", Type: "str | [str]", Doc: "metadata tags to skip"},
		{Key: "aliases", Type: "str | [str]", Doc: "deps.edn aliases (or lein profiles) added to the test command; one may select the runner"},
		{Key: "build", Type: "str", Doc: "the shadow-cljs build that runs ClojureScript tests"},
		{Key: "timeout_ms", Type: "int", Doc: "bounds the test run (default 10 minutes)"},
		{Key: "env", Type: "{str: str}", Doc: "variables added to the clean JVM's environment (not with a session REPL: repl_stop it first)"},
		{Key: "args", Type: "[str]", Doc: "extra arguments appended to the project's own runner command (cognitect, kaocha, lazytest, lein, bb test, shadow node test); refused where Vis runs clojure.test itself, or in a session REPL"},
		{Key: "namespace", Instead: `use "ns" (a namespace, or ns/var)`},
		{Key: "namespaces", Instead: `use "nses" (a list of namespaces)`},
		{Key: "var", Instead: `use "ns": "my.ns-test/my-test", or a node id in paths: "test/my/ns_test.clj::my-test"`},
		{Key: "vars", Instead: `use "nses": ["my.ns-test/a-test", "my.ns-test/b-test"]`},
		{Key: "only", Instead: `use "ns": "my.ns-test/my-test"`},
		{Key: "focus", Instead: `use "ns"/"nses" (namespaces or ns/var) or paths node ids; Vis turns them into the runner's focus`},
		{Key: "test", Instead: `use a node id: {"paths": ["::my-test"]}`},
		{Key: "tests", Instead: `use node ids: {"paths": ["::a-test", "::b-test"]}`},
		{Key: "filter", Instead: `use include/exclude metadata tags, or node ids in paths`},
		{Key: "k", Instead: `use node ids in paths ("::name")`},
		{Key: "select", Instead: `use include/exclude metadata tags`},
	},
	ext.VerbEval: {
		{Key: "ns", Type: "str", Doc: "the namespace to evaluate in"},
		{Key: "port", Type: "int", Doc: "evaluate in the nREPL server on this port (not one of the session's REPLs)"},
		{Key: "host", Type: "str", Doc: "that server's host (default localhost)"},
		{Key: "timeout_ms", Type: "int", Doc: "this evaluation's budget (default 30 s); past it the evaluation is interrupted, the REPL kept"},
	},
	ext.VerbStart: {
		{Key: "aliases", Type: "str | [str]", Doc: "deps.edn aliases (or lein profiles) on the REPL's classpath"},
		{Key: "env", Type: "{str: str}", Doc: "environment variables of THIS REPL's process (its launcher: lein, clojure, java)"},
		{Key: "port", Instead: `repl_start starts nothing on a port you name: to use a server that is already running, call repl_connect("clojure", {"port": ...})`},
		{Key: "build", Instead: `repl_start starts no shadow-cljs build: to use one that is already running, call repl_connect("clojure", {"build": ...})`},
		{Key: "host", Instead: `repl_start starts a local REPL: to use a server on another host, call repl_connect("clojure", {"host": ..., "port": ...})`},
	},
	ext.VerbStop: {{Key: "build", Type: "str", Doc: "detach the shadow-cljs build attachment of this project"}},
}

func init() {
	ext.DeclareOptions(ext.PackOptions{Pack: "clojure", Languages: []string{"clojure"}, Verbs: ToolOptions})
}
