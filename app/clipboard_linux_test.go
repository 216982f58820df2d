//go:build linux

package app

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPasteImageFromTheXClipboard puts an image on the X clipboard of a
// private Xvfb from another process (scripts/clipsrc.py, as a screenshot
// tool would) and reads it through PasteImage: it must come back as a
// dropped file whose pixels are the image's, servable as a drop's preview.
// Then a text on the clipboard, and no owner at all: no image, no error.
func TestPasteImageFromTheXClipboard(t *testing.T) {
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (scripts/deps.sh test installs it)")
	}
	if exec.Command("/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk").Run() != nil {
		t.Skip("python3-gi with GTK 3 is not installed (scripts/deps.sh test installs it)")
	}
	display := startXvfb(t, xvfb)
	t.Setenv("DISPLAY", display)
	if !initGTK() {
		t.Fatalf("GTK did not start on %s", display)
	}

	img := image.NewNRGBA(image.Rect(0, 0, 12, 9))
	for y := range 9 {
		for x := range 12 {
			img.Set(x, y, color.NRGBA{uint8(x * 20), uint8(y * 25), 200, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "shot.png")
	if err := os.WriteFile(src, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	home := t.TempDir()
	a := New(newFakeEngine(), Options{Home: home})
	stop := clipboardOwner(t, display, "image", src)
	got, err := a.PasteImage()
	if err != nil {
		t.Fatal(err)
	}
	if got.Path == "" || got.DataBase64 != "" || filepath.Dir(got.Path) != filepath.Join(home, "desktop", "pasted") {
		t.Fatalf("PasteImage = %+v, want a file under %s", got, filepath.Join(home, "desktop", "pasted"))
	}
	if !a.dropped.has(got.Path) {
		t.Error("the pasted file is not servable as a drop's preview")
	}
	b, err := os.ReadFile(got.Path)
	if err != nil {
		t.Fatal(err)
	}
	pasted, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the pasted file is not a PNG: %v", err)
	}
	if pasted.Bounds() != img.Bounds() {
		t.Fatalf("pasted %v, copied %v", pasted.Bounds(), img.Bounds())
	}
	for y := range 9 {
		for x := range 12 {
			r1, g1, b1, _ := pasted.At(x, y).RGBA()
			r2, g2, b2, _ := img.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				t.Fatalf("pixel %d,%d is %v, copied %v", x, y, pasted.At(x, y), img.At(x, y))
			}
		}
	}
	stop()

	stop = clipboardOwner(t, display, "text", "just some text")
	if got, err := a.PasteImage(); err != nil || got != (ImageInput{}) {
		t.Errorf("PasteImage with a text on the clipboard = %+v, %v; want nothing", got, err)
	}
	stop()
	if got, err := a.PasteImage(); err != nil || got != (ImageInput{}) {
		t.Errorf("PasteImage with an empty clipboard = %+v, %v; want nothing", got, err)
	}
}

// startXvfb starts Xvfb on a free display number and returns it (":N").
func startXvfb(t *testing.T, bin string) string {
	t.Helper()
	for n := 300; n < 400; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		display := fmt.Sprintf(":%d", n)
		cmd := exec.Command(bin, display, "-screen", "0", "640x480x24", "-nolisten", "tcp")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		for range 200 { // its socket appears when it listens
			if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
				return display
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("Xvfb %s did not start", display)
	}
	t.Fatal("no free display number in :300-:399")
	return ""
}

// clipboardOwner runs scripts/clipsrc.py KIND VALUE on display until the
// returned stop is called; it returns once the helper owns the clipboard.
func clipboardOwner(t *testing.T, display, kind, value string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "/usr/bin/python3", "../scripts/clipsrc.py", kind, value)
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "NO_AT_BRIDGE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := false
	stop = func() {
		if !done {
			done = true
			cancel()
			_ = cmd.Wait()
		}
	}
	t.Cleanup(stop)
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		stop()
		t.Fatalf("clipsrc.py %s did not take the clipboard: %q %s", kind, line, stderr.String())
	}
	return stop
}
