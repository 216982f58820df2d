package app

import (
	"image/color"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The page shows a dropped file's thumbnail from DroppedPath: only paths a
// drop handed over, only images, and the other asset routes still work.
func TestDroppedFilePreviews(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "shot.png")
	txt := filepath.Join(dir, "notes.png") // an image's name, not its bytes
	other := filepath.Join(dir, "other.png")
	img := pngBytes(t, 8, 6, color.RGBA{255, 0, 0, 255})
	os.WriteFile(png, img, 0o644)
	os.WriteFile(txt, []byte("just text"), 0o644)
	os.WriteFile(other, img, 0o644)

	a := New(newFakeEngine(), Options{Home: t.TempDir()})
	a.mu.Lock()
	a.shell = &anyEmitter{}
	a.mu.Unlock()
	a.fileDropped(0, 0, []string{png, txt})
	srv := httptest.NewServer(a.assets())
	defer srv.Close()

	get := func(method, path string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+DroppedPath+"?path="+url.QueryEscape(path), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, body := get(http.MethodGet, png)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || string(body) != string(img) {
		t.Fatalf("dropped PNG: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	for _, tt := range []struct {
		method, path string
		status       int
	}{
		{http.MethodHead, png, 200},
		{http.MethodGet, txt, http.StatusUnsupportedMediaType},
		{http.MethodGet, other, http.StatusNotFound}, // never dropped: not readable through here
		{http.MethodGet, "shot.png", http.StatusNotFound},
		{http.MethodGet, filepath.Join(dir, "x", "..", "other.png"), http.StatusNotFound},
		{http.MethodPost, png, http.StatusMethodNotAllowed},
	} {
		if resp, _ := get(tt.method, tt.path); resp.StatusCode != tt.status {
			t.Errorf("%s %s = %d, want %d", tt.method, tt.path, resp.StatusCode, tt.status)
		}
	}
	os.Remove(png)
	if resp, _ := get(http.MethodGet, png); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a dropped file deleted since: %d, want 404", resp.StatusCode)
	}
	// The transcript's own assets are still served by the same handler.
	resp2, err := http.Get(srv.URL + OutputPath + "nosession/1/1/0")
	if err != nil || resp2.StatusCode != http.StatusNotFound {
		t.Fatalf("output route: %v %v", resp2, err)
	}
	b, _ := io.ReadAll(resp2.Body)
	resp2.Body.Close()
	if !strings.Contains(string(b), "no such") {
		t.Errorf("the output route did not answer: %q", b)
	}
}

func TestDroppedFilesAreBounded(t *testing.T) {
	var d droppedFiles
	for i := 0; i < maxDropped+10; i++ {
		d.add([]string{"/p/" + strconv.Itoa(i) + ".png"})
	}
	if len(d.order) != maxDropped || d.has("/p/0.png") || !d.has("/p/"+strconv.Itoa(maxDropped+9)+".png") {
		t.Errorf("%d paths kept (max %d); the oldest must go first", len(d.order), maxDropped)
	}
	d.add([]string{"/p/" + strconv.Itoa(maxDropped+9) + ".png"}) // again: no duplicate
	if len(d.order) != maxDropped {
		t.Errorf("a path dropped twice is kept twice")
	}
}
