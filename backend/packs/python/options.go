package python

import "github.com/visdesktop/vis/backend/ext"

// ToolOptions are the option keys the Python pack's verbs take besides the
// facade's own (paths, code, cwd, id): the facade refuses any other key and
// doc() lists these.
var ToolOptions = ext.VerbOptions{
	// format_code runs the project's formatter: ruff when pyproject.toml
	// [tool.ruff(.format)], ruff.toml/.ruff.toml, pre-commit or the dev
	// dependencies name it, black for [tool.black] or a black dependency,
	// else ruff when installed, else black; the result's why says which.
	ext.VerbFormat: {
		{Key: "line_length", Type: "int", Doc: "overrides the project's configured line length for this call"},
		{Key: "config", Type: "str", Doc: "the formatter's config file (ruff or black --config)"},
		{Key: "timeout_ms", Type: "int", Doc: "bounds the formatter (default 2 minutes)"},
		ext.EnvOption,
		{Key: "args", Type: "[str]", Doc: "extra ruff format or black options, before the files"},
	},
	ext.VerbLint: {
		{Key: "select", Type: "str | [str]", Doc: "ruff rule codes to check (ruff --select)"},
		{Key: "ignore", Type: "str | [str]", Doc: "ruff rule codes to skip (ruff --ignore)"},
		{Key: "line_length", Type: "int", Doc: "overrides ruff's (or black's) configured line length for this call"},
		{Key: "config", Type: "str", Doc: "ruff's config file (--config)"},
		{Key: "timeout_ms", Type: "int", Doc: "bounds the linter (default 2 minutes)"},
		ext.EnvOption,
		{Key: "args", Type: "[str]", Doc: "extra ruff check (or black --check) options, before the files"},
	},
	ext.VerbTest: {
		{Key: "runner", Type: "str", Doc: `"pytest" (or "project") insists on pytest, "unittest" on unittest; default the project's own (pyproject/setup.cfg/tox.ini/noxfile/conftest/Makefile test), else pytest when importable`},
		{Key: "include", Type: "str | [str]", Doc: "pytest markers to run (-m), pytest only"},
		{Key: "exclude", Type: "str | [str]", Doc: "pytest markers to skip (-m not ...), pytest only"},
		{Key: "timeout_ms", Type: "int", Doc: "bounds the test run (default 10 minutes); its process group is killed after it"},
		{Key: "env", Type: "{str: str}", Doc: "variables added to the test process's environment"},
		{Key: "args", Type: "[str]", Doc: `extra pytest (or unittest) arguments, before the paths (e.g. ["-k", "name", "-x"])`},
	},
	ext.VerbEval:  {{Key: "timeout_ms", Type: "int", Doc: "this evaluation's budget (default 30 s); past it the evaluation is interrupted, the REPL kept"}},
	ext.VerbStart: {{Key: "env", Type: "{str: str}", Doc: "environment variables of THIS REPL"}},
}

func init() {
	ext.DeclareOptions(ext.PackOptions{Pack: "python", Languages: []string{"python"}, Verbs: ToolOptions})
}
