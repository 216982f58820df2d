package main

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// errNoDisplay is the window path's answer when no display can be reached:
// GTK would otherwise panic ("failed to init GTK") with a Go trace.
var errNoDisplay = errors.New("no display: use `vis run ...` for headless work, or set DISPLAY")

// displayDialTimeout bounds the connect to a remote X server (DISPLAY=host:N).
const displayDialTimeout = 2 * time.Second

// checkDisplay says whether GTK will find a display, cheaply and before GTK
// starts: it connects to the X server's socket (DISPLAY) or the Wayland
// compositor's (WAYLAND_DISPLAY), whichever GTK would use, and closes the
// connection at once. Nil when one answers; errNoDisplay wrapped with the
// reason otherwise. Only X11/Wayland systems are checked (elsewhere nil).
func checkDisplay(getenv func(string) string) error {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
	default:
		return nil
	}
	xName, wlName := getenv("DISPLAY"), getenv("WAYLAND_DISPLAY")
	if xName == "" && wlName == "" {
		return fmt.Errorf("%w (DISPLAY and WAYLAND_DISPLAY are unset)", errNoDisplay)
	}
	backend, session := getenv("GDK_BACKEND"), getenv("XDG_SESSION_TYPE")
	// Wails sets GDK_BACKEND=x11 when both it and XDG_SESSION_TYPE (or that
	// is "unspecified"/"x11") are unset, so GTK then tries X only.
	allows := func(name string) bool {
		if backend == "" {
			return name == "x11" || (session != "" && session != "unspecified" && session != "x11")
		}
		return strings.Contains(backend, name) || strings.Contains(backend, "*")
	}
	var reasons []string
	if wlName != "" && allows("wayland") {
		err := dialWayland(wlName, getenv("XDG_RUNTIME_DIR"))
		if err == nil {
			return nil
		}
		reasons = append(reasons, fmt.Sprintf("WAYLAND_DISPLAY=%s: %v", wlName, err))
	}
	if xName != "" && allows("x11") {
		err := dialX(xName)
		if err == nil {
			return nil
		}
		reasons = append(reasons, fmt.Sprintf("DISPLAY=%s: %v", xName, err))
	}
	if len(reasons) == 0 {
		reasons = append(reasons, fmt.Sprintf("GDK_BACKEND=%q allows neither display that is set", backend))
	}
	return fmt.Errorf("%w (%s)", errNoDisplay, strings.Join(reasons, "; "))
}

// dialWayland connects to the compositor's socket: WAYLAND_DISPLAY is a path
// or a name under XDG_RUNTIME_DIR.
func dialWayland(name, runtimeDir string) error {
	path := name
	if !filepath.IsAbs(path) {
		if runtimeDir == "" {
			return errors.New("XDG_RUNTIME_DIR is unset")
		}
		path = filepath.Join(runtimeDir, name)
	}
	c, err := net.DialTimeout("unix", path, displayDialTimeout)
	if err != nil {
		return errors.New("cannot connect to " + path)
	}
	return c.Close()
}

// dialX connects to the X server DISPLAY names ([host]:N[.screen]): a local
// display through its socket (Linux's abstract one first, then the file
// /tmp/.X11-unix/XN), a remote one over TCP port 6000+N.
func dialX(display string) error {
	host, num, ok := parseXDisplay(display)
	if !ok {
		return errors.New("not of the form [host]:N[.screen]")
	}
	if host == "" || host == "unix" {
		path := "/tmp/.X11-unix/X" + strconv.Itoa(num)
		if runtime.GOOS == "linux" {
			if c, err := net.DialTimeout("unix", "@"+path, displayDialTimeout); err == nil {
				return c.Close()
			}
		}
		c, err := net.DialTimeout("unix", path, displayDialTimeout)
		if err != nil {
			return fmt.Errorf("no X server answers at %s", path)
		}
		return c.Close()
	}
	addr := net.JoinHostPort(strings.TrimPrefix(host, "tcp/"), strconv.Itoa(6000+num))
	c, err := net.DialTimeout("tcp", addr, displayDialTimeout)
	if err != nil {
		return fmt.Errorf("no X server answers at %s", addr)
	}
	return c.Close()
}

// parseXDisplay splits "[host]:N[.screen]" into host and N.
func parseXDisplay(display string) (host string, num int, ok bool) {
	i := strings.LastIndex(display, ":")
	if i < 0 {
		return "", 0, false
	}
	host, rest := display[:i], display[i+1:]
	if strings.HasSuffix(host, ":") { // DECnet "host::N"
		return "", 0, false
	}
	if j := strings.IndexByte(rest, '.'); j >= 0 {
		rest = rest[:j]
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 {
		return "", 0, false
	}
	return host, n, true
}
