// Package cli is the headless front: `vis run`, `vis sessions`, `vis show`.
package cli

import (
	"context"
	"fmt"
	"io"
)

// Commands lists the first arguments that select the CLI instead of the window.
var Commands = []string{"run", "sessions", "show", "version", "help", "-h", "--help"}

// Main runs the CLI with args (without the program name) and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "vis: CLI not wired yet")
	return 2
}
