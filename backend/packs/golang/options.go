package golang

import "github.com/visdesktop/vis/backend/ext"

// ToolOptions are the option keys the Go pack's verbs take besides the
// facade's own (paths, code, cwd): the facade refuses any other key and
// doc() lists these.
var ToolOptions = ext.VerbOptions{
	ext.VerbFormat: {{Key: "timeout_ms", Type: "int", Doc: "bounds each gofmt run (default 2 minutes)"}, ext.EnvOption, ext.ArgsOption},
	ext.VerbLint:   {{Key: "timeout_ms", Type: "int", Doc: "bounds go vet (default 5 minutes)"}, ext.EnvOption, ext.ArgsOption},
	ext.VerbTest: {
		ext.OptionSpec{Key: "timeout_ms", Type: "int", Doc: "bounds the go test run (default 10 minutes); its process group is killed after it"},
		ext.EnvOption,
		ext.OptionSpec{Key: "args", Type: "[str]", Doc: `extra go test flags, placed before the packages (e.g. ["-count=1", "-race"])`},
	},
}

func init() {
	ext.DeclareOptions(ext.PackOptions{Pack: "go", Languages: []string{"go"}, Verbs: ToolOptions})
}
