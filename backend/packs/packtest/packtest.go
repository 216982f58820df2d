// Package packtest holds what language-pack tests share: an in-memory
// ext.Resources, a ToolEnv over a temporary workspace, fixture copying, and
// a TestMain guard that fails the run when a child process outlives it.
//
// The guard works by marking the test process's environment with a unique
// token that every child inherits; after the tests, any process still
// carrying the token (other than the test binary itself) is a survivor: it
// is reported, killed, and the run fails. Linux only (/proc); elsewhere the
// guard only runs the tests.
//
// Resources is safe for concurrent use. It is a test helper, not the
// session registry (that is backend/resources).
package packtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/live"
)

// MarkVar is the environment variable that tags the test's children.
const MarkVar = "VIS_PACKTEST_MARK"

// Main runs the tests and then fails the run if any child survived:
//
//	func TestMain(m *testing.M) { os.Exit(packtest.Main(m)) }
func Main(m *testing.M) int {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	mark := hex.EncodeToString(b)
	os.Setenv(MarkVar, mark)
	code := m.Run()
	// Children killed a moment ago may still be exiting.
	var left []int
	for i := 0; i < 50; i++ {
		if left = Survivors(mark); len(left) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(left) > 0 {
		for _, pid := range left {
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			fmt.Fprintf(os.Stderr, "packtest: child survived the tests: pid %d: %s\n", pid, strings.ReplaceAll(string(cmd), "\x00", " "))
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Survivors lists live processes (not zombies, not this one) whose
// environment carries MarkVar=mark.
func Survivors(mark string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(MarkVar + "=" + mark + "\x00")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil || !strings.Contains(string(env)+"\x00", string(want)) {
			continue
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
				continue // exited, waiting to be reaped by a parent that is gone
			}
		}
		out = append(out, pid)
	}
	return out
}

// Alive reports whether a process exists and is not a zombie.
func Alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: kill(0) said it exists
	}
	i := strings.LastIndexByte(string(stat), ')')
	return !(i > 0 && len(stat) > i+2 && stat[i+2] == 'Z')
}

// GroupAlive reports whether any process of group pgid is alive.
func GroupAlive(pgid int) bool {
	return pgid > 0 && syscall.Kill(-pgid, 0) == nil
}

// CopyFixture copies the directory src into a fresh temporary directory and
// returns it (resolved through symlinks). Files named "*.in" are written
// without the suffix, so fixtures that must not look like source to
// repository-wide tools (an unformatted .go file) can be stored safely.
func CopyFixture(t testing.TB, src string) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, strings.TrimSuffix(rel, ".in"))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copy fixture %s: %v", src, err)
	}
	return dst
}

// WriteFiles writes name → content under dir, creating folders.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ToolEnv returns a ToolEnv for workspace with a fresh log dir and an
// in-memory registry that stops every resource when the test ends.
func ToolEnv(t testing.TB, workspace string) (ext.ToolEnv, *Resources) {
	t.Helper()
	res := NewResources()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res.StopAll(ctx)
	})
	return ext.ToolEnv{SessionID: "s-test", Workspace: workspace, LogDir: t.TempDir(), Resources: res}, res
}

// Environment is an activation environment over a real directory: Files
// stats, HasExt walks (skipping node_modules and dot folders, at most 3,000
// entries).
func Environment(root string) ext.Environment {
	return ext.Environment{
		SessionID: "s-test",
		Workspace: root,
		Files: func(rel string) bool {
			_, err := os.Stat(filepath.Join(root, rel))
			return err == nil
		},
		HasExt: func(exts ...string) bool {
			n, found := 0, false
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || found {
					return filepath.SkipAll
				}
				if n++; n > 3000 {
					return filepath.SkipAll
				}
				if d.IsDir() && p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				for _, x := range exts {
					if !d.IsDir() && strings.HasSuffix(d.Name(), x) {
						found = true
					}
				}
				return nil
			})
			return found
		},
		Getenv: os.Getenv,
	}
}

// Resources is an in-memory ext.Resources.
type Resources struct {
	mu sync.Mutex
	m  map[string]map[string]ext.Resource // session → id → resource
}

// NewResources returns an empty registry.
func NewResources() *Resources { return &Resources{m: map[string]map[string]ext.Resource{}} }

// Register adds or replaces r.
func (r *Resources) Register(res ext.Resource) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.m[res.Info.SessionID]
	if s == nil {
		s = map[string]ext.Resource{}
		r.m[res.Info.SessionID] = s
	}
	s[res.Info.ID] = res
}

// Lookup returns the resource id of session.
func (r *Resources) Lookup(session, id string) (ext.Resource, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res, ok := r.m[session][id]
	return res, ok
}

// List returns the session's resources with statuses probed (2 s each).
func (r *Resources) List(ctx context.Context, session string) []ext.ResourceInfo {
	r.mu.Lock()
	var all []ext.Resource
	for _, res := range r.m[session] {
		all = append(all, res)
	}
	r.mu.Unlock()
	var out []ext.ResourceInfo
	for _, res := range all {
		info := res.Info
		if res.Health != nil {
			hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			info.Status = res.Health(hctx)
			cancel()
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Stop stops and forgets a resource.
func (r *Resources) Stop(ctx context.Context, session, id string) (ext.StopResult, error) {
	r.mu.Lock()
	res, ok := r.m[session][id]
	delete(r.m[session], id)
	r.mu.Unlock()
	if !ok {
		return ext.StopResult{}, fmt.Errorf("no resource %q in session %s", id, session)
	}
	if res.StopFn != nil {
		if err := res.StopFn(ctx); err != nil {
			return ext.StopResult{}, fmt.Errorf("stop %s: %w", id, err)
		}
	}
	return ext.StopResult{Result: "stopped", ID: id, Message: "stopped " + id}, nil
}

// StopAll stops every resource of every session.
func (r *Resources) StopAll(ctx context.Context) {
	r.mu.Lock()
	var all []ext.Resource
	for _, s := range r.m {
		for _, res := range s {
			all = append(all, res)
		}
	}
	r.m = map[string]map[string]ext.Resource{}
	r.mu.Unlock()
	for _, res := range all {
		if res.StopFn != nil {
			_ = res.StopFn(ctx)
		}
	}
}

// LiveLines returns ctx with a live-output sink (package live) that keeps
// every line a tool's children print, and a func that returns them so far
// joined by newlines: what the transcript's live tail would have shown.
func LiveLines(ctx context.Context) (context.Context, func() string) {
	var mu sync.Mutex
	var lines []string
	ctx = live.With(ctx, func(l string) {
		mu.Lock()
		lines = append(lines, l)
		mu.Unlock()
	})
	return ctx, func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(lines, "\n")
	}
}
