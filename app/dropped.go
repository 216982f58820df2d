package app

// Previews of files dropped on the window. A drop hands the page only the
// files' paths (fileDropped); the page shows their thumbnails from
// DroppedPath?path=<absolute path>. Only a path a drop handed over is
// served (the last maxDropped of them), only when its bytes are an image
// (attach.Sniff), and only up to MaxImageBytes: the page cannot read other
// files through it. Safe for concurrent use.

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/visdesktop/vis/backend/attach"
)

// DroppedPath is the URL of a dropped file's preview.
const DroppedPath = "/vis/dropped"

// maxDropped bounds how many dropped paths stay servable.
const maxDropped = 200

// droppedFiles is the set of paths drops handed to the page, oldest first.
type droppedFiles struct {
	mu    sync.Mutex
	order []string
	set   map[string]bool
}

func (d *droppedFiles) add(paths []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.set == nil {
		d.set = map[string]bool{}
	}
	for _, p := range paths {
		if d.set[p] {
			continue
		}
		d.set[p] = true
		d.order = append(d.order, p)
	}
	for len(d.order) > maxDropped {
		delete(d.set, d.order[0])
		d.order = d.order[1:]
	}
}

func (d *droppedFiles) has(p string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.set[p]
}

// handler serves the previews: 404 for a path no drop handed over
// (or gone), 415 for a file that is not an image, 413 for one over
// MaxImageBytes.
func (d *droppedFiles) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !readOnly(w, r) {
			return
		}
		p := r.URL.Query().Get("path")
		if p == "" || !filepath.IsAbs(p) || !d.has(filepath.Clean(p)) {
			http.NotFound(w, r)
			return
		}
		f, err := os.Open(p)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
		if err != nil {
			http.Error(w, "read: "+err.Error(), http.StatusInternalServerError)
			return
		}
		if len(b) > MaxImageBytes {
			http.Error(w, "too large to preview", http.StatusRequestEntityTooLarge)
			return
		}
		mime, ok := attach.Sniff(b)
		if !ok {
			http.Error(w, "not an image", http.StatusUnsupportedMediaType)
			return
		}
		serveBytes(w, r, mime, "no-store", b) // the file may change before it is sent
	})
}
