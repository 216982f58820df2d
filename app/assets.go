package app

// Large payloads reach the page from the asset server, not through bound
// calls (ARCHITECTURE.md §6): a turn's images are served at ImagePath (below)
// and a program's output as its transcript record holds it (the model's
// copy, clipped at 64 Ki chars; the whole kept output is paged by the bound
// CallOutput, outputs.go) at
//
//	/vis/output/<session>/<turn>/<iteration>/<call>
//
// as text/plain, <call> being the program's 0-based index in its iteration
// (the order of the transcript's Calls). The page fetches it for "show all"
// of a clipped or very long output. Wails calls the handler for every GET
// the embedded page files cannot answer (and for every other method); the
// handler is read-only, safe for concurrent use, and reads the transcript
// anew per request with the request's context.

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/visdesktop/vis/backend"
)

// OutputPath is the URL prefix of programs' outputs.
const OutputPath = "/vis/output/"

// TranscriptSource is what OutputHandler needs from the engine.
type TranscriptSource interface {
	Transcript(ctx context.Context, sessionID string) (backend.Transcript, error)
}

// OutputHandler serves programs' outputs from src's transcripts. Unknown
// paths, sessions, turns, iterations and calls are 404; methods other than
// GET and HEAD are 405; a transcript that cannot be read is 500.
func OutputHandler(src TranscriptSource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, OutputPath)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if !readOnly(w, r) {
			return
		}
		parts := strings.Split(rest, "/")
		if len(parts) != 4 || parts[0] == "" {
			http.NotFound(w, r)
			return
		}
		var pos [3]int
		for i, s := range parts[1:] {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				http.NotFound(w, r)
				return
			}
			pos[i] = n
		}
		t, err := src.Transcript(r.Context(), parts[0])
		if errors.Is(err, backend.ErrNotFound) {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		if err != nil {
			http.Error(w, "read transcript: "+err.Error(), http.StatusInternalServerError)
			return
		}
		out, ok := findOutput(t, pos[0], pos[1], pos[2])
		if !ok {
			http.Error(w, "no such output", http.StatusNotFound)
			return
		}
		serveBytes(w, r, "text/plain; charset=utf-8", "no-store", []byte(out))
	})
}

// findOutput returns the output of call k of iteration iter of turn turn.
func findOutput(t backend.Transcript, turn, iter, k int) (string, bool) {
	for _, tv := range t.Turns {
		if tv.Position != turn {
			continue
		}
		for _, it := range tv.Iterations {
			if it.Position != iter {
				continue
			}
			if k < len(it.Calls) {
				return it.Calls[k].Output, true
			}
			// An iteration recorded before calls were listed: one program.
			if len(it.Calls) == 0 && k == 0 && it.Code != "" {
				return it.Output, true
			}
			return "", false
		}
	}
	return "", false
}

// ImagePath is the URL prefix of images attached to turns:
//
//	/vis/image/<session>/<id>
//
// <id> being the transcript's images[].id. The bytes are served with their
// stored media type; an image of another session is 404.
const ImagePath = "/vis/image/"

// ImageSource is what ImageHandler needs from the engine.
type ImageSource interface {
	Image(ctx context.Context, sessionID string, id int64) ([]byte, string, error)
}

// ImageHandler serves the images stored with src's turns. Unknown paths,
// sessions and ids are 404; methods other than GET and HEAD are 405; a
// store that cannot be read is 500. Only image/* media types are served as
// such (anything else as application/octet-stream), never sniffed.
func ImageHandler(src ImageSource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, ImagePath)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if !readOnly(w, r) {
			return
		}
		sid, ids, ok := strings.Cut(rest, "/")
		id, err := strconv.ParseInt(ids, 10, 64)
		if !ok || sid == "" || err != nil || id <= 0 {
			http.NotFound(w, r)
			return
		}
		b, mime, err := src.Image(r.Context(), sid, id)
		if errors.Is(err, backend.ErrNotFound) {
			http.Error(w, "no such image", http.StatusNotFound)
			return
		}
		if err != nil {
			http.Error(w, "read image: "+err.Error(), http.StatusInternalServerError)
			return
		}
		if !strings.HasPrefix(mime, "image/") {
			mime = "application/octet-stream"
		}
		// An id names the same bytes for ever (stored once per content hash).
		serveBytes(w, r, mime, "private, max-age=86400", b)
	})
}

// readOnly answers 405 to methods other than GET and HEAD (the asset
// routes only read) and reports whether the request may go on.
func readOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// serveBytes answers with b as mime (never sniffed) under the cache policy;
// a HEAD request gets the headers only.
func serveBytes(w http.ResponseWriter, r *http.Request, mime, cache string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", mime)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", cache)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(b)
}

// AssetSource is what AssetHandler needs from the engine.
type AssetSource interface {
	TranscriptSource
	ImageSource
}

// AssetHandler serves what the page's files lack: programs' outputs
// (OutputPath) and turns' images (ImagePath); anything else is 404.
func AssetHandler(src AssetSource) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(OutputPath, OutputHandler(src))
	mux.Handle(ImagePath, ImageHandler(src))
	return mux
}

// assets is AssetHandler plus the previews of files dropped on a's window.
func (a *App) assets() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(DroppedPath, a.dropped.handler())
	mux.Handle("/", AssetHandler(a.eng))
	return mux
}
