// Command vis is the headless Vis: the CLI of app/cli (`vis run`,
// `sessions`, `show`, `goal`, `version`, `help`) in a pure-Go binary that
// links neither WebKit nor GTK (CGO_ENABLED=0 builds it), so a headless
// start costs milliseconds instead of the ~100 ms the dynamic loader spends
// on the desktop binary's libraries.
//
// With no arguments, or a first argument that is not a CLI command (a
// folder to open), it replaces itself (exec) with the desktop binary,
// vis-desktop: the one beside this executable, else the first on PATH;
// when there is none it says so in one sentence and exits 1.
//
// A sandboxed child of the model starts as `vis __vis-confine ...` (see
// backend/confine: the helper is this very executable, os.Executable), so
// confine.HelperMain runs first, before anything else.
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/visdesktop/vis/app/cli"
	"github.com/visdesktop/vis/backend/confine"
)

var version = "dev" // set with -ldflags "-X main.version=..."

// desktopName is the desktop binary's file name (wails.json outputfilename).
const desktopName = "vis-desktop"

func main() {
	confine.HelperMain()
	cli.Version = version
	args := os.Args[1:]
	if len(args) > 0 && slices.Contains(cli.Commands, args[0]) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Main(ctx, args, os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	self, _ := os.Executable()
	desktop, err := findDesktop(self, exec.LookPath)
	if err == nil {
		err = syscall.Exec(desktop, append([]string{desktop}, args...), os.Environ())
		err = fmt.Errorf("start %s: %w", desktop, err)
	}
	fmt.Fprintln(os.Stderr, "vis:", err)
	os.Exit(1)
}

// findDesktop returns the desktop binary: vis-desktop in self's folder, else
// the first on PATH (lookPath). A candidate that is self (a vis-desktop
// linked to this binary) is skipped: exec'ing it would loop.
func findDesktop(self string, lookPath func(string) (string, error)) (string, error) {
	var cands []string
	dir := "this binary's folder"
	if self != "" {
		dir = filepath.Dir(self)
		cands = append(cands, filepath.Join(dir, desktopName))
	}
	if p, err := lookPath(desktopName); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		cands = append(cands, p)
	}
	for _, c := range cands {
		if executable(c) && !sameFile(c, self) {
			return c, nil
		}
	}
	return "", fmt.Errorf("the desktop app is not installed beside vis: no executable %s in %s or on PATH (for a window, build it with make build; headless, use vis run, see vis help)", desktopName, dir)
}

func executable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

func sameFile(a, b string) bool {
	if b == "" {
		return false
	}
	sa, err := os.Stat(a)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
