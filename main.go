// Command vis-desktop is Vis Desktop, the window (built as
// build/bin/vis-desktop; the headless build/bin/vis of cmd/vis runs it for
// `vis` and `vis DIR`). With a CLI command as its first argument (`run`,
// `--version`, `--help`, see app/cli) it runs headless too; otherwise it
// opens the window, optionally on the project folder named by its first
// argument. Without a display the window path says so in one sentence and
// exits 1 (checked before GTK starts, which would panic).
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/visdesktop/vis/app"
	"github.com/visdesktop/vis/app/cli"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/homedir"
)

//go:embed all:frontend/dist
var dist embed.FS

// The window's icon: build/appicon.png (1024x1024, 16-bit, for the launcher
// and packaging) scaled to 256x256 at 8 bits. GTK decodes the icon and sends
// it to the X server while the window is created, on the way to the first
// paint: the full-size one cost about 30 ms of CPU there and a 4 MB
// _NET_WM_ICON property. Remake it after changing appicon.png:
// convert build/appicon.png -resize 256x256 -depth 8 -strip build/windowicon.png
//
//go:embed build/windowicon.png
var icon []byte

var version = "dev" // set with -ldflags "-X main.version=..."

func main() {
	// A sandboxed child of this app starts as `vis __vis-confine ...`:
	// confine itself, then exec the command. Nothing else runs first.
	confine.HelperMain()
	if len(os.Args) > 1 && slices.Contains(cli.Commands, os.Args[1]) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	if err := runWindow(); err != nil {
		fmt.Fprintln(os.Stderr, "vis:", err)
		os.Exit(1)
	}
}

func runWindow() (err error) {
	if err := checkDisplay(os.Getenv); err != nil && !bindingsBuild {
		return err
	}
	// The check above can pass while GTK still refuses (a server that
	// accepts the connection but not our authorization): Wails then panics
	// on this goroutine; say the same sentence instead of a trace.
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok && strings.Contains(e.Error(), "failed to init GTK") {
				err = fmt.Errorf("%w (GTK could not open DISPLAY=%q)", errNoDisplay, os.Getenv("DISPLAY"))
				return
			}
			panic(r)
		}
	}()
	if runtime.GOOS == "linux" && os.Getenv("WEBKIT_DISABLE_DMABUF_RENDERER") == "" {
		os.Setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1") // blank windows on NVIDIA otherwise
	}
	home, err := homedir.Vis(os.Getenv) // the one VIS_HOME rule, shared with app/cli and the engine
	if err != nil {
		return err
	}
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		return fmt.Errorf("embedded page: %w", err)
	}
	workspace, ask, err := windowArgs(os.Args[1:])
	if err != nil {
		return err
	}
	// The window can ask the person at a program's call (approvals).
	eng, err := backend.Open(context.Background(), backend.Options{Home: home, Getenv: os.Getenv, CanAsk: true, Ask: ask})
	if err != nil {
		return fmt.Errorf("open engine: %w", err)
	}
	defer eng.Close()
	a := app.New(eng, app.Options{
		Home:      home,
		Workspace: workspace,
		Version:   version,
		Logf:      func(f string, args ...any) { fmt.Fprintf(os.Stderr, f+"\n", args...) },
	})
	return app.Run(a, app.RunOptions{Assets: assets, Icon: icon})
}
