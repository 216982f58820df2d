package backend

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/packs/clojure"
	"github.com/visdesktop/vis/backend/packs/golang"
	"github.com/visdesktop/vis/backend/packs/js"
	"github.com/visdesktop/vis/backend/packs/python"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/workspace"
)

// languages is the engine's extension machinery: the registry of packs, the
// session-owned process registry, and one file watcher per workspace.
func (e *Engine) registerPacks() error {
	e.python = python.New(python.Options{Getenv: e.getenv})
	e.clojure = clojure.New(clojure.Options{Getenv: e.getenv})
	for _, x := range []ext.Extension{e.clojure.Extension(), e.python.Extension(), golang.Extension(), js.Extension()} {
		if err := e.ext.Register(x); err != nil {
			return err
		}
	}
	return nil
}

// turnEnv computes the extension environment of a workspace: a bounded scan
// (≤ 3,000 entries) of its files and languages.
func (e *Engine) turnEnv(ctx context.Context, sessionID, root string) ext.Environment {
	env := ext.Environment{SessionID: sessionID, Workspace: root, Getenv: e.getenv,
		Files: func(rel string) bool { return workspace.Exists(root, rel) }, HasExt: func(...string) bool { return false }}
	scan, err := workspace.ScanDir(ctx, root, 0)
	if err != nil {
		return env
	}
	for _, l := range scan.Languages {
		env.Languages = append(env.Languages, ext.LanguageCount{Language: l.Language, Files: l.Files})
	}
	env.Primary = scan.Primary()
	env.Files = scan.Exists
	env.HasExt = scan.HasExt
	return env
}

// activate computes the active extensions for a turn (once) and points the
// session's language surface at them. The facade may rescan the workspace
// to explain a refusal (a pack whose marker appeared mid-turn switches on
// at the next turn); that rescan never changes the turn's frozen set.
func (e *Engine) activate(ctx context.Context, sessionID string, rt *sessionRT) (*ext.Active, *langtools.Facade) {
	env := e.turnEnv(ctx, sessionID, rt.workspace)
	active := e.ext.Active(env)
	root := rt.workspace
	facade := langtools.New(active, ext.ToolEnv{SessionID: sessionID, Workspace: root, LogDir: e.logDir(), Resources: e.resources}, env.Languages).
		WithLive(func(ctx context.Context) *ext.Active { return e.ext.Active(e.turnEnv(ctx, sessionID, root)) })
	rt.surface.Set(facade)
	return active, facade
}

func (e *Engine) logDir() string { return filepath.Join(e.home, "desktop", "logs") }

// fragments are the TURN-SYSTEM-CONTEXT fragments: the language matrix,
// then every active extension's own.
func fragments(active *ext.Active, facade *langtools.Facade) []prompt.Fragment {
	var out []prompt.Fragment
	if f, ok := facade.Fragment(); ok {
		out = append(out, prompt.Fragment{Name: f.Name, Builtin: f.Builtin, Text: f.Text})
	}
	for _, f := range active.Fragments() {
		out = append(out, prompt.Fragment{Name: f.Name, Builtin: f.Builtin, Text: f.Text})
	}
	return out
}

// Packs returns the language packs active in a workspace now (what the
// next turn will see).
//
// The answer is cached for a watched workspace (the watcher drops it when
// files change), because the footer asks after every iteration and a scan
// walks up to 3,000 entries.
func (e *Engine) Packs(ctx context.Context, workspaceDir string) []string {
	root := canonical(workspaceDir)
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return []string{}
	}
	e.mu.Lock()
	cached, ok := e.packs[root]
	_, watched := e.watchers[root]
	e.mu.Unlock()
	if ok {
		return append([]string(nil), cached...)
	}
	names := e.scanPacks(ctx, root)
	if watched {
		e.mu.Lock()
		if _, ok := e.packs[root]; !ok { // the watcher may have stored a newer scan meanwhile
			e.packs[root] = names
		}
		e.mu.Unlock()
	} else {
		// A folder the window shows before any session runs in it is
		// watched too, so its badges follow a new marker at once.
		e.wg.Add(1)
		go func() { // owner: the engine (e.wg); setting up the watch walks the folder
			defer e.wg.Done()
			e.watch(root)
		}()
	}
	return append([]string(nil), names...)
}

func (e *Engine) scanPacks(ctx context.Context, root string) []string {
	names := []string{}
	for _, x := range e.ext.Active(e.turnEnv(ctx, "", root)).Extensions() {
		if x.Kind == "language" {
			names = append(names, packLabel(x.Name))
		}
	}
	sort.Strings(names)
	return names
}

func packLabel(name string) string {
	const prefix = "language-"
	if len(name) > len(prefix) && name[:len(prefix)] == prefix {
		return name[len(prefix):]
	}
	return name
}

// watch starts the file watcher of a workspace once: when files appear or
// vanish, the workspace's packs are recomputed at once and, when they
// changed, a packs event tells the window to redraw its badges (the running
// turn keeps its frozen set; the next turn sees the new one).
func (e *Engine) watch(root string) {
	if e.noWatch {
		return // a headless engine (Options.NoWatch)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.watchers[root]; ok || e.ctx.Err() != nil {
		return // watched already, or the engine closes
	}
	w, err := workspace.Watch(e.ctx, root, func([]string) {
		names := e.scanPacks(e.ctx, root)
		e.mu.Lock()
		old, known := e.packs[root]
		e.packs[root] = names
		e.mu.Unlock()
		if known && slices.Equal(old, names) {
			return // an edit that switched nothing on or off
		}
		e.broker.Publish(events.Event{Data: events.Packs{Workspace: root, Packs: append([]string(nil), names...)}})
	}, workspace.WatchOptions{Debounce: 300 * time.Millisecond})
	if err != nil {
		return // no watcher (too many folders, no inotify): the next turn still rescans
	}
	e.watchers[root] = w
}

// Resources lists the session's REPLs (probed now).
func (e *Engine) Resources(ctx context.Context, sessionID string) []ext.ResourceInfo {
	out := e.resources.List(ctx, sessionID)
	if out == nil {
		out = []ext.ResourceInfo{}
	}
	return out
}

// StopResource stops (or detaches) one of the session's REPLs.
func (e *Engine) StopResource(ctx context.Context, sessionID, id string) (ext.StopResult, error) {
	return e.resources.Stop(ctx, sessionID, id)
}

// RestartResource stops a REPL and starts it again with the same settings.
func (e *Engine) RestartResource(ctx context.Context, sessionID, id string) error {
	return e.resources.Restart(ctx, sessionID, id)
}

// ResourceLogs returns the last n lines of a REPL's log.
func (e *Engine) ResourceLogs(sessionID, id string, n int) (string, error) {
	return e.resources.Logs(sessionID, id, n)
}
