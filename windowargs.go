package main

import (
	"fmt"
	"strings"
)

// windowArgs reads the window's command line (what is not a CLI command):
// an optional project folder to open and `--ask` (a command the OS sandbox
// refuses waits at its call for the person's answer, whatever Settings
// say; docs/SECURITY.md). Other -flags are the dev build's (wails dev) and
// are left alone; a second folder is an error.
func windowArgs(args []string) (workspace string, ask bool, err error) {
	for _, a := range args {
		switch {
		case a == "--ask" || a == "-ask":
			ask = true
		case strings.HasPrefix(a, "-"):
			// wails dev passes its own flags
		case workspace == "":
			workspace = a
		default:
			return "", false, fmt.Errorf("one project folder at a time: got %q and %q", workspace, a)
		}
	}
	return workspace, ask, nil
}
