package main

import (
	"errors"
	"net"
	"path/filepath"
	"strconv"
	"testing"
)

func TestParseXDisplay(t *testing.T) {
	for _, tc := range []struct {
		in   string
		host string
		num  int
		ok   bool
	}{
		{":0", "", 0, true},
		{":99.0", "", 99, true},
		{"unix:3", "unix", 3, true},
		{"remote.example:10.1", "remote.example", 10, true},
		{"nonsense", "", 0, false},
		{"host::0", "", 0, false},
		{":x", "", 0, false},
	} {
		host, num, ok := parseXDisplay(tc.in)
		if host != tc.host || num != tc.num || ok != tc.ok {
			t.Errorf("parseXDisplay(%q) = %q, %d, %v; want %q, %d, %v", tc.in, host, num, ok, tc.host, tc.num, tc.ok)
		}
	}
}

// checkDisplay passes exactly when a socket answers where GTK would look.
func TestCheckDisplay(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("unix", filepath.Join(dir, "wayland-0"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	xln, xnum := listenX(t)
	if xln != nil {
		defer xln.Close()
	}
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		name string
		env  func(string) string
		ok   bool
	}{
		{"nothing set", env(), false},
		{"wayland answers", env("WAYLAND_DISPLAY", "wayland-0", "XDG_RUNTIME_DIR", dir, "XDG_SESSION_TYPE", "wayland"), true},
		{"wayland by path", env("WAYLAND_DISPLAY", filepath.Join(dir, "wayland-0"), "GDK_BACKEND", "wayland"), true},
		// Wails forces GDK_BACKEND=x11 when XDG_SESSION_TYPE is unset: GTK would not try Wayland.
		{"wayland answers but GTK would use X", env("WAYLAND_DISPLAY", "wayland-0", "XDG_RUNTIME_DIR", dir), false},
		{"wayland socket missing", env("WAYLAND_DISPLAY", "wayland-9", "XDG_RUNTIME_DIR", dir, "XDG_SESSION_TYPE", "wayland"), false},
		{"X missing", env("DISPLAY", ":"+strconv.Itoa(xnum+1)), false},
	}
	if xln != nil {
		cases = append(cases, struct {
			name string
			env  func(string) string
			ok   bool
		}{"X answers", env("DISPLAY", ":"+strconv.Itoa(xnum)+".0"), true})
	}
	for _, tc := range cases {
		err := checkDisplay(tc.env)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, errNoDisplay)) {
			t.Errorf("%s: checkDisplay = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// listenX listens on Linux's abstract X socket of a display number nobody
// uses (nil when none is free); the number after it is free too.
func listenX(t *testing.T) (net.Listener, int) {
	for n := 940; n < 990; n += 2 {
		if c, err := net.Dial("unix", "@/tmp/.X11-unix/X"+strconv.Itoa(n+1)); err == nil {
			c.Close()
			continue
		}
		ln, err := net.Listen("unix", "@/tmp/.X11-unix/X"+strconv.Itoa(n))
		if err == nil {
			return ln, n
		}
	}
	t.Log("no free abstract X socket: the positive X case is skipped")
	return nil, 998
}
