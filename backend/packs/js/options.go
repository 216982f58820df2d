package js

import "github.com/visdesktop/vis/backend/ext"

// ToolOptions are the option keys the JavaScript/TypeScript pack's verbs
// take besides the facade's own (paths, code, cwd, id): the facade refuses
// any other key and doc() lists these.
var ToolOptions = ext.VerbOptions{
	ext.VerbFormat: {{Key: "timeout_ms", Type: "int", Doc: "bounds each formatter run (default 2 minutes)"}, ext.EnvOption, {Key: "args", Type: "[str]", Doc: `extra options for the project's formatter (biome format, oxfmt or prettier; e.g. ["--single-quote"]), before the files`}},
	ext.VerbLint:   {{Key: "timeout_ms", Type: "int", Doc: "bounds the linter run (default 5 minutes)"}, ext.EnvOption, {Key: "args", Type: "[str]", Doc: `extra options for the project's linter (eslint or biome lint), before the files`}},
	ext.VerbTest: {
		{Key: "timeout_ms", Type: "int", Doc: "bounds the test run (default 10 minutes); its process group is killed after it"},
		ext.EnvOption,
		{Key: "args", Type: "[str]", Doc: "extra arguments for the test runner (bun test, vitest, jest or node --test), before the test files"},
		{Key: "filter", Instead: `select tests with node ids: {"paths": ["::test name"]}`},
	},
	ext.VerbEval:  {{Key: "timeout_ms", Type: "int", Doc: "this evaluation's budget (default 30 s); past it the evaluation is abandoned, the REPL kept"}},
	ext.VerbStart: {{Key: "env", Type: "{str: str}", Doc: "environment variables of THIS REPL"}},
}

func init() {
	ext.DeclareOptions(ext.PackOptions{Pack: "javascript/typescript", Languages: Languages, Verbs: ToolOptions})
}
