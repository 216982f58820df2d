package app

// Images offered with a message. The page offers three kinds: files dropped
// on the window (Linux gives no in-page drop events, so Wails' native file
// drop hands their absolute paths to Go, which forwards them to the page as
// the DropName event), and images pasted or picked in the page, which reach
// Go as base64. The engine decides what each one is by its bytes, scales or
// refuses it and says why (a "warning" event per refused image); this file
// only checks what the engine cannot: a path that is not absolute, base64
// that does not decode, a payload over MaxImageBytes.

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/attach"
)

// DropName is the Wails event emitted when files are dropped on the window;
// its payload is a Drop.
const DropName = "vis:drop"

// Drop is what the page gets for files dropped on the window: their absolute
// paths and the point they were dropped at (CSS pixels from the webview's
// top left), so the page gives them to the pane under it.
type Drop struct {
	Paths []string `json:"paths"`
	X     int      `json:"x"`
	Y     int      `json:"y"`
}

// MaxImageBytes is the most an image offered by the page may weigh; intake
// refuses larger files anyway (attach.DefaultMaxIntakeBytes), this cap stops
// a huge paste before it is decoded.
const MaxImageBytes = attach.DefaultMaxIntakeBytes

// ImageInput is an image offered with a message: either Path (a dropped
// file, absolute) or DataBase64 (a pasted or picked image's bytes, plain
// base64 or a data: URL) with Name as the person knows it.
type ImageInput struct {
	Path       string `json:"path"`
	Name       string `json:"name"`
	DataBase64 string `json:"data_base64"`
}

// SubmitWithImages is Submit with images attached to the message. Images go
// with a message to the model only: a `!cmd` or `/command` with images is
// refused, so they are not dropped silently. An image that cannot be read
// here is refused with its name and the reason, and nothing is sent.
func (a *App) SubmitWithImages(sessionID, workspace, text string, images []ImageInput) (SubmitResult, error) {
	in, err := decodeImages(images)
	if err != nil {
		return SubmitResult{}, fmt.Errorf("submit: %w", err)
	}
	return a.dispatch("submit", sessionID, workspace, backend.Input{Text: text, Images: in})
}

// ImageVerdict is what Send will do with one offered image (attach.Verdict):
// refused (Reason says why), attached and sent to the model, or attached and
// only named, the model having no vision (Sent false, Reason "").
type ImageVerdict struct {
	Reason string `json:"reason"`
	Sent   bool   `json:"sent"`
}

// CheckImages says, for the images offered with the next message of a
// session (or, with sessionID "", of a new one in workspace), in order,
// what Send will do with each, by the engine's own intake rules: the page
// calls it as images are added, so a refusal shows before Send.
func (a *App) CheckImages(sessionID, workspace string, images []ImageInput) ([]ImageVerdict, error) {
	in, err := decodeImages(images)
	if err != nil {
		return nil, fmt.Errorf("check images: %w", err)
	}
	ctx, _ := a.base()
	vs, err := a.eng.CheckImages(ctx, sessionID, workspace, in)
	if err != nil {
		return nil, fmt.Errorf("check images: %w", err)
	}
	out := make([]ImageVerdict, len(vs))
	for i, v := range vs {
		out[i] = ImageVerdict{Reason: v.Reason, Sent: v.Sent}
	}
	return out, nil
}

// encodeImage is an image of a queued message handed back to the page.
func encodeImage(in attach.Input) ImageInput {
	if len(in.Bytes) > 0 {
		url := "data:" + http.DetectContentType(in.Bytes) + ";base64," + base64.StdEncoding.EncodeToString(in.Bytes)
		return ImageInput{Name: in.Name, DataBase64: url}
	}
	return ImageInput{Path: in.Path, Name: in.Name}
}

// decodeImages turns the page's images into the engine's inputs.
func decodeImages(images []ImageInput) ([]attach.Input, error) {
	if len(images) == 0 {
		return nil, nil
	}
	out := make([]attach.Input, 0, len(images))
	for i, im := range images {
		name := im.Name
		if name == "" {
			name = fmt.Sprintf("image %d", i+1)
		}
		switch {
		case im.Path != "" && im.DataBase64 != "":
			return nil, fmt.Errorf("%w: image %q has both a path and data", ErrInput, name)
		case im.Path != "":
			if !filepath.IsAbs(im.Path) {
				return nil, fmt.Errorf("%w: image path %q is not absolute", ErrInput, im.Path)
			}
			out = append(out, attach.Input{Path: filepath.Clean(im.Path), Name: im.Name})
		case im.DataBase64 != "":
			b, err := decodeBase64(im.DataBase64)
			if err != nil {
				return nil, fmt.Errorf("%w: image %q: %v", ErrInput, name, err)
			}
			out = append(out, attach.Input{Name: name, Bytes: b})
		default:
			return nil, fmt.Errorf("%w: image %q is empty", ErrInput, name)
		}
	}
	return out, nil
}

// decodeBase64 decodes plain base64 or a data: URL, refusing more than
// MaxImageBytes before decoding.
func decodeBase64(s string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(s, "data:"); ok {
		meta, data, found := strings.Cut(rest, ",")
		if !found || !strings.HasSuffix(meta, ";base64") {
			return nil, fmt.Errorf("a data: URL that is not base64")
		}
		s = data
	}
	s = strings.TrimRight(s, "=")
	if n := base64.RawStdEncoding.DecodedLen(len(s)); n > MaxImageBytes {
		return nil, fmt.Errorf("it is %s; images over %s are refused", mib(int64(n)), mib(MaxImageBytes))
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("its data is not valid base64")
	}
	return b, nil
}

func mib(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// fileDropped forwards the paths of files dropped on the window to the page
// (registered with Wails' OnFileDrop once, at startup).
func (a *App) fileDropped(x, y int, paths []string) {
	_, sh := a.base()
	if sh == nil {
		return
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p = strings.TrimSpace(p); p != "" && filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	if len(out) > 0 {
		a.dropped.add(out)
		sh.Emit(DropName, Drop{Paths: out, X: x, Y: y})
	}
}
