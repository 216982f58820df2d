// Package golang is the Go language pack (seed 001): it activates on a
// go.mod at the workspace root and answers the language-tool facade for
// "go" (alias "golang"):
//
//   - format_code with gofmt: a code snippet answers changed + char delta
//     (never the text); a paths list formats files and directories in place
//     and answers per-file changes; neither formats the module's packages.
//     Code and paths together are refused before any file changes.
//   - lint_code with `go vet -json`: findings (file, row, col, level, type,
//     message, provider) and severity counts; type errors are findings of
//     level "error".
//   - run_tests with `go test -json`: paths select packages, node ids
//     `path::TestName` and `::TestName` become one `-run '^(A|B)$'` pattern,
//     and the JSON event stream becomes the shared result contract (is_pass,
//     total, pass, fail, skipped, failures, output, timed_out). A count the
//     runner did not report is absent, never 0; a build failure is an error
//     result, not a silent 0/0.
//   - Go has no REPL: the pack leaves Eval and Repl nil, so the facade
//     refuses repl_eval and repl_start for go before any side effect and
//     the capability matrix does not offer them.
//
// Every child (gofmt, go vet, go test) runs in its own process group with
// the parent-death signal on Linux, under a timeout, and its group is killed
// when it ends, so none outlives the call. Handlers keep no state and are
// safe for concurrent use; two format calls on the same files race like
// two editors would.
package golang

import (
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/workspace"
)

// ErrBadArgs marks a call the pack refuses before doing anything (ext's:
// every pack's refusals wrap the one sentinel).
var ErrBadArgs = ext.ErrBadArgs

// Provider names the tools in results.
const (
	formatter = "gofmt"
	linter    = "go vet"
	runner    = "go test"
)

// Extension returns the Go pack.
func Extension() ext.Extension {
	return ext.Extension{
		Name:        "language-go",
		Description: "Go language pack: gofmt (format_code), go vet (lint_code) and go test -json (run_tests); Go has no REPL.",
		Kind:        "language",
		Title:       "Go",
		Markers:     Markers,
		Activate:    Active,
		LanguageTools: []ext.LanguageTools{{
			Language: "go",
			Aliases:  []string{"golang"},
			Format:   Format,
			Lint:     Lint,
			Test:     Test,
			Options:  ToolOptions,
			// Go has no REPL: Eval and Repl stay nil, so the capability
			// matrix does not offer them and the facade refuses repl_* for
			// go before any side effect, naming the languages that have one.
		}},
	}
}

// Markers are what activates the pack: a go.mod at the workspace root.
var Markers = []ext.Marker{{File: "go.mod"}}

// Active reports whether the workspace root holds a go.mod.
func Active(env ext.Environment) (bool, error) {
	return ext.AnyPresent(env, Markers), nil
}

// resolveIn makes p absolute against cwd and refuses a path outside the
// workspace (a bad argument).
func resolveIn(root, cwd, p string) (string, error) {
	abs, err := workspace.Within(root, cwd, p)
	if err != nil {
		return "", ext.BadArgs("%v", err)
	}
	return abs, nil
}
