package main

import (
	"bytes"
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// visBin is the headless binary, built once with CGO_ENABLED=0 the way
// scripts/build.sh builds build/bin/vis.
var visBin string

const testVersion = "v0.0.0-headless-test"

func TestMain(m *testing.M) {
	confine.HelperMain() // only so that confine.Status reports this kernel's Landlock
	dir, err := os.MkdirTemp("", "vis-headless-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	visBin = filepath.Join(dir, "vis")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+testVersion, "-o", visBin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build the headless vis with CGO_ENABLED=0:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	if desktopDir != "" {
		os.RemoveAll(desktopDir)
	}
	os.Exit(code)
}

var (
	desktopOnce sync.Once
	desktopDir  string
	desktopBin  string
	desktopErr  error
)

// desktop builds the desktop binary (the module root: Wails, cgo, WebKitGTK)
// once, as vis-desktop, with the tags and flags `wails build` gives the
// production build (scripts/build.sh).
func desktop(t *testing.T) string {
	t.Helper()
	desktopOnce.Do(func() {
		desktopDir, desktopErr = os.MkdirTemp("", "vis-desktop-")
		if desktopErr != nil {
			return
		}
		desktopBin = filepath.Join(desktopDir, desktopName)
		tags := "desktop,production"
		if exec.Command("pkg-config", "--exists", "webkit2gtk-4.0").Run() != nil && exec.Command("pkg-config", "--exists", "webkit2gtk-4.1").Run() == nil {
			tags += ",webkit2_41" // as scripts/build.sh
		}
		build := exec.Command("go", "build", "-tags", tags, "-ldflags", "-w -s", "-o", desktopBin, ".")
		build.Dir = "../.."
		var out bytes.Buffer
		build.Stdout, build.Stderr = &out, &out
		if err := build.Run(); err != nil {
			desktopErr = fmt.Errorf("build the desktop binary: %v\n%s", err, out.String())
		}
	})
	if desktopErr != nil {
		t.Fatal(desktopErr)
	}
	return desktopBin
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs bin with args in dir under exactly the environment env.
func run(t *testing.T, bin, dir string, env []string, args ...string) result {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Dir = dir
	c.Env = env
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

// baseEnv has no display, so a window that does start says so and exits.
func baseEnv(t *testing.T, path string) []string {
	home := t.TempDir()
	return []string{"VIS_HOME=" + home, "HOME=" + home, "PATH=" + path}
}

// windowLibs lists the shared libraries of a WebKit or GTK that the ELF file
// at p needs (DT_NEEDED), and whether it asks for a dynamic loader at all.
func windowLibs(t *testing.T, p string) (libs []string, dynamic bool) {
	t.Helper()
	f, err := elf.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_INTERP {
			dynamic = true
		}
	}
	needed, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range needed {
		if regexp.MustCompile(`(?i)webkit|gtk|gdk|javascriptcore|soup`).MatchString(l) {
			libs = append(libs, l)
		}
	}
	return libs, dynamic
}

// The headless binary is pure Go: statically linked, no WebKit or GTK for
// the loader to resolve, built without cgo and without the Wails modules.
// The same ELF check finds WebKit in the desktop binary, so it can fail.
func TestHeadlessLinksNoWindow(t *testing.T) {
	libs, dynamic := windowLibs(t, visBin)
	if len(libs) > 0 || dynamic {
		t.Errorf("headless vis: window libraries %v, dynamic loader %v; want none (static)", libs, dynamic)
	}
	info, err := buildinfo.ReadFile(visBin)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range info.Settings {
		if s.Key == "CGO_ENABLED" && s.Value != "0" {
			t.Errorf("built with CGO_ENABLED=%s", s.Value)
		}
	}
	for _, d := range info.Deps {
		if strings.HasPrefix(d.Path, "github.com/wailsapp/") || strings.Contains(d.Path, "webview") {
			t.Errorf("headless vis links the window module %s", d.Path)
		}
	}

	dlibs, ddynamic := windowLibs(t, desktop(t))
	if !ddynamic || !slicesHas(dlibs, "webkit2gtk") {
		t.Errorf("desktop binary: window libraries %v, dynamic %v; the check should see WebKitGTK there", dlibs, ddynamic)
	}
}

func slicesHas(xs []string, sub string) bool {
	for _, x := range xs {
		if strings.Contains(x, sub) {
			return true
		}
	}
	return false
}

func TestVersionAndHelpWithoutWindow(t *testing.T) {
	env := baseEnv(t, t.TempDir()) // nothing on PATH: no vis-desktop to run
	for _, arg := range []string{"version", "--version", "-v"} {
		if r := run(t, visBin, t.TempDir(), env, arg); r.code != 0 || r.stdout != "vis "+testVersion+"\n" || r.stderr != "" {
			t.Errorf("vis %s = %+v, want exit 0 and %q", arg, r, "vis "+testVersion)
		}
	}
	for _, arg := range []string{"help", "--help", "-h"} {
		r := run(t, visBin, t.TempDir(), env, arg)
		if r.code != 0 || !strings.Contains(r.stdout, "vis run [--workspace DIR]") || r.stderr != "" {
			t.Errorf("vis %s = exit %d, stdout %q, stderr %q", arg, r.code, r.stdout, r.stderr)
		}
	}
}

// One turn against the fake LLM, then the session is listed from the same
// VIS_HOME: the pure-Go SQLite driver writes and reads the database.
func TestOneTurnRun(t *testing.T) {
	llm := providertest.New(providertest.Reply{Content: []string{"Hello ", "from the fake."}})
	t.Cleanup(llm.Close)
	ws := t.TempDir()
	env := append(baseEnv(t, os.Getenv("PATH")), "VIS_BASE_URL="+llm.URL, "VIS_MODEL=fake-model")
	r := run(t, visBin, ws, env, "run", "say hello")
	if r.code != 0 || r.stdout != "Hello from the fake.\n" {
		t.Fatalf("vis run = %+v", r)
	}
	reqs := llm.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	last := reqs[0].Messages[len(reqs[0].Messages)-1]
	if s := fmt.Sprint(last["content"]); !strings.Contains(s, "say hello") {
		t.Errorf("last message sent = %v, want the prompt", last)
	}
	s := run(t, visBin, ws, env, "sessions")
	if s.code != 0 || !strings.Contains(s.stdout, ws) {
		t.Errorf("vis sessions = %+v, want the session of %s", s, ws)
	}
}

// The headless binary is its own sandbox helper: the model's shell runs as
// `vis __vis-confine ...` and, in workspace mode (the default), may write in
// the project but not outside it. Without HelperMain in cmd/vis the command
// would run unwrapped and the write outside would succeed.
func TestConfinedShellInWorkspaceMode(t *testing.T) {
	confine.SkipWithoutLandlock(t)
	outside := t.TempDir()
	prog := "a = shell('echo in > inside.txt')\nb = shell('echo out > " + outside + "/escape.txt')\nprint('exits', a['exit_code'], b['exit_code'])"
	llm := providertest.New(providertest.Reply{Code: prog}, providertest.Reply{Content: []string{"done"}})
	t.Cleanup(llm.Close)
	ws := t.TempDir()
	env := append(baseEnv(t, os.Getenv("PATH")), "VIS_BASE_URL="+llm.URL, "VIS_MODEL=fake-model")
	r := run(t, visBin, ws, env, "run", "--sandbox", "workspace", "write both")
	if r.code != 0 || r.stdout != "done\n" {
		t.Fatalf("vis run = %+v", r)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "inside.txt")); err != nil || string(b) != "in\n" {
		t.Errorf("inside.txt = %q, %v; want the write in the project to work", b, err)
	}
	if _, err := os.Stat(filepath.Join(outside, "escape.txt")); !os.IsNotExist(err) {
		t.Errorf("escape.txt outside the project: stat error %v, want it refused (absent)", err)
	}
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if sent := fmt.Sprint(reqs[1].Messages); !regexp.MustCompile(`exits 0 [1-9]`).MatchString(sent) {
		t.Errorf("the program's output sent back lacks 'exits 0 <failure>': %s", sent)
	}
}

// Without vis-desktop beside vis or on PATH, `vis` and `vis DIR` say so in
// one sentence and exit 1; a vis-desktop that is vis itself (a link) is not
// run (it would exec itself forever).
func TestWindowWithoutDesktopBinary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "vis")
	copyFile(t, visBin, bin)
	env := baseEnv(t, t.TempDir())
	check := func(name string, args ...string) {
		t.Helper()
		r := run(t, bin, t.TempDir(), env, args...)
		want := "vis: the desktop app is not installed beside vis: "
		if r.code != 1 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("%s: exit %d, stderr %q, stdout %q; want exit 1 and one line starting %q", name, r.code, r.stderr, r.stdout, want)
		}
	}
	check("no arguments")
	check("a folder", t.TempDir())
	if err := os.Symlink(bin, filepath.Join(dir, desktopName)); err != nil {
		t.Fatal(err)
	}
	check("vis-desktop linked to vis")
}

// `vis` and `vis DIR` run the real desktop binary: the one beside vis, else
// the one on PATH. Without a display it answers with its own sentence, which
// proves it ran; it takes the CLI commands too.
func TestWindowRunsDesktopBinary(t *testing.T) {
	d := desktop(t)
	noDisplay := "no display"

	beside := t.TempDir()
	copyFile(t, visBin, filepath.Join(beside, "vis"))
	copyFile(t, d, filepath.Join(beside, desktopName))
	onPath := t.TempDir()
	copyFile(t, visBin, filepath.Join(onPath, "vis"))

	for _, tc := range []struct {
		name, bin, path string
		args            []string
	}{
		{"beside, no arguments", filepath.Join(beside, "vis"), t.TempDir(), nil},
		{"beside, a folder", filepath.Join(beside, "vis"), t.TempDir(), []string{t.TempDir()}},
		{"on PATH", filepath.Join(onPath, "vis"), desktopDir, []string{t.TempDir()}},
	} {
		r := run(t, tc.bin, t.TempDir(), baseEnv(t, tc.path), tc.args...)
		if r.code != 1 || !strings.Contains(r.stderr, noDisplay) || strings.Contains(r.stderr, "not installed") {
			t.Errorf("%s: exit %d, stderr %q; want the desktop binary's %q", tc.name, r.code, r.stderr, noDisplay)
		}
	}

	r := run(t, d, t.TempDir(), baseEnv(t, t.TempDir()), "version")
	if diff := cmp.Diff(result{0, "vis dev\n", ""}, r, cmp.AllowUnexported(result{})); diff != "" {
		t.Errorf("vis-desktop version (-want +got):\n%s", diff)
	}
}

// copyFile links from at to, or copies it where a link cannot be made.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if os.Link(from, to) == nil {
		return
	}
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
