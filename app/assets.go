package app

// Large payloads reach the page from the asset server, not through bound
// calls (ARCHITECTURE.md §6): a program's full output is served at
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
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
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
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Length", strconv.Itoa(len(out)))
		if r.Method == http.MethodHead {
			return
		}
		_, _ = w.Write([]byte(out))
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
