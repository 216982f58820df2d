package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/visdesktop/vis/app/notify"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// WorkspaceName is the Wails event emitted (payload: the folder path) when a
// second launch names a folder and the running window adopts it.
const WorkspaceName = "vis:workspace"

// RunOptions are what the window needs besides the App.
type RunOptions struct {
	Assets fs.FS  // the built page: index.html at the root
	Icon   []byte // PNG for the window manager (Linux); may be nil
}

// Run opens the window and blocks until it closes. The window starts hidden
// and is shown, with its remembered geometry, once the page's DOM is ready. A
// second launch with the same VIS_HOME focuses this window instead (and hands
// over a folder argument) and exits.
func Run(a *App, ro RunOptions) error {
	var showOnce sync.Once
	a.mu.Lock()
	st := a.state
	a.mu.Unlock()

	return wails.Run(&options.App{
		Title:            "Vis",
		Width:            st.Width,
		Height:           st.Height,
		MinWidth:         minWidth,
		MinHeight:        minHeight,
		StartHidden:      true,
		BackgroundColour: options.NewRGB(0xf7, 0xf7, 0xf5),
		AssetServer:      &assetserver.Options{Assets: ro.Assets, Handler: a.assets()},
		Bind:             []any{a},
		ErrorFormatter:   wireError, // {"code", "message"} as JSON text (errors.go)
		OnStartup: func(ctx context.Context) {
			a.start(ctx, wailsShell{ctx}, FlushInterval)
			// Off the way to the first paint: a slow session bus must not
			// delay the window.
			go func() {
				if n, err := notify.Open(); err != nil {
					a.opts.Logf("vis: desktop notifications are off: %v", err)
				} else {
					a.startNotifications(ctx, n, wailsShell{ctx})
				}
			}()
			// Here, not in OnDomReady: that fires again after a drop.
			runtime.OnFileDrop(ctx, a.fileDropped)
		},
		OnDomReady: func(ctx context.Context) {
			// Wails fires this again after reloads and file drops: show once.
			showOnce.Do(func() {
				if st.Placed {
					runtime.WindowSetPosition(ctx, st.X, st.Y)
				} else {
					runtime.WindowCenter(ctx)
				}
				if st.Maximised {
					runtime.WindowMaximise(ctx)
				}
				runtime.WindowShow(ctx)
			})
		},
		OnBeforeClose: func(ctx context.Context) bool {
			a.rememberGeometry(ctx)
			return false
		},
		OnShutdown: func(context.Context) { a.stop() },
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId: instanceID(a.opts.Home),
			OnSecondInstanceLaunch: func(d options.SecondInstanceData) {
				_, sh := a.base()
				if sh == nil {
					return
				}
				sh.Focus()
				if len(d.Args) == 0 {
					return
				}
				dir := d.Args[0]
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(d.WorkingDirectory, dir)
				}
				if got, err := a.SetWorkspace(dir); err == nil {
					sh.Emit(WorkspaceName, got)
				}
			},
		},
		// Linux gives the page no drop events: Wails' native drop hands Go
		// the files' paths (fileDropped) and the page adds them.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true}, // DisableWebViewDrop would unset the GTK drop target too
		Linux: &linux.Options{
			Icon:             ro.Icon,
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
			ProgramName:      "vis-desktop",
		},
	})
}

// rememberGeometry saves the window's size and place for the next launch.
func (a *App) rememberGeometry(ctx context.Context) {
	a.mu.Lock()
	st := a.state
	a.mu.Unlock()
	st.Maximised = runtime.WindowIsMaximised(ctx)
	if !st.Maximised {
		st.Width, st.Height = runtime.WindowGetSize(ctx)
		st.X, st.Y = runtime.WindowGetPosition(ctx)
		st.Placed = true
	}
	a.mu.Lock()
	st.Workspace, st.Recent, st.Layout = a.state.Workspace, a.state.Recent, a.state.Layout
	a.state = st
	a.mu.Unlock()
	if err := saveState(a.opts.Home, st); err != nil {
		a.opts.Logf("vis: %v", err)
	}
}

// instanceID names the single-instance lock per VIS_HOME, so a test run with
// its own VIS_HOME does not hand over to a person's open window.
func instanceID(home string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(home)))
	return "vis-desktop-" + hex.EncodeToString(sum[:6])
}

// wailsShell is the Shell of a real window; ctx must be Wails' startup ctx.
type wailsShell struct{ ctx context.Context }

func (s wailsShell) Emit(name string, data any) { runtime.EventsEmit(s.ctx, name, data) }

func (s wailsShell) PickDirectory(title, defaultDir string) (string, error) {
	return runtime.OpenDirectoryDialog(s.ctx, runtime.OpenDialogOptions{
		Title:                title,
		DefaultDirectory:     defaultDir,
		CanCreateDirectories: true,
	})
}

func (s wailsShell) Focus() {
	runtime.WindowUnminimise(s.ctx)
	runtime.WindowShow(s.ctx)
}
