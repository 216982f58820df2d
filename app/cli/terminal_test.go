package cli_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The terminal contract of the one binary: version and help flags print and
// exit 0 without touching the window path; the window path without a display
// says what to do in one sentence and exits 1, never a Go panic trace.
func TestTerminalFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--version"}, "vis dev\n"},
		{[]string{"-v"}, "vis dev\n"},
		{[]string{"version"}, "vis dev\n"},
		{[]string{"--help"}, "Usage:\n"},
		{[]string{"-h"}, "Usage:\n"},
		{[]string{"help"}, "Usage:\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			e := newEnv(t)
			e.vars = noDisplay(e) // a flag must never reach the window path
			r := e.run("", tc.args...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, tc.want) || r.stderr != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 0 and stdout starting %q", r.code, r.stdout, r.stderr, tc.want)
			}
			if strings.HasPrefix(tc.want, "Usage") && !strings.Contains(r.stdout, "vis run") {
				t.Fatalf("usage does not name vis run: %q", r.stdout)
			}
		})
	}
}

func TestWindowWithoutDisplay(t *testing.T) {
	t.Parallel()
	const sentence = "no display: use `vis run ...` for headless work, or set DISPLAY"
	for _, tc := range []struct {
		name  string
		extra []string
		args  []string
	}{
		{"unset", nil, nil},
		{"unset with a project folder", nil, []string{"."}},
		{"DISPLAY nobody answers", []string{"DISPLAY=:" + freeDisplay(t)}, nil},
		{"DISPLAY malformed", []string{"DISPLAY=nonsense"}, nil},
		{"WAYLAND_DISPLAY nobody answers", []string{"WAYLAND_DISPLAY=wayland-vis-test", "XDG_RUNTIME_DIR=" + t.TempDir(), "XDG_SESSION_TYPE=wayland"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.vars = append(noDisplay(e), tc.extra...)
			r := e.run("", tc.args...)
			if r.code != 1 || !strings.Contains(r.stderr, sentence) {
				t.Fatalf("exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, sentence)
			}
			if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Fatalf("want one line, got %q", r.stderr)
			}
			if r.stdout != "" {
				t.Fatalf("stdout %q", r.stdout)
			}
			if _, err := os.Stat(e.home + "/desktop"); err == nil {
				t.Fatal("the engine was opened (VIS_HOME/desktop made) before the display was checked")
			}
		})
	}
}

// noDisplay is e's environment without any display variable.
func noDisplay(e *env) []string {
	var out []string
	for _, v := range e.vars {
		if !strings.HasPrefix(v, "DISPLAY=") && !strings.HasPrefix(v, "WAYLAND_DISPLAY=") {
			out = append(out, v)
		}
	}
	return out
}

// freeDisplay is an X display number with no server socket.
func freeDisplay(t *testing.T) string {
	for n := 900; n < 1000; n++ {
		p := "/tmp/.X11-unix/X" + strconv.Itoa(n)
		if _, err := os.Stat(p); os.IsNotExist(err) {
			return strconv.Itoa(n)
		}
	}
	t.Skip("no free X display number")
	return ""
}
