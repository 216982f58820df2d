package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/backend/secrets"
)

// The fake engine stores no images.
func (f *fakeEngine) Image(context.Context, string, int64) ([]byte, string, error) {
	return nil, "", backend.ErrNotFound
}

func pngBytes(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSubmitWithImagesChecksWhatThePageSends(t *testing.T) {
	ws := t.TempDir()
	pic := []byte("\x89PNG\r\n\x1a\n....")
	b64 := base64.StdEncoding.EncodeToString(pic)
	tests := []struct {
		name    string
		text    string
		images  []ImageInput
		want    []attach.Input
		wantErr string
	}{
		{name: "pasted base64 and a dropped path", text: "look",
			images: []ImageInput{{Name: "pasted image 1.png", DataBase64: b64}, {Path: "/tmp/x/../shot.png"}},
			want:   []attach.Input{{Name: "pasted image 1.png", Bytes: pic}, {Path: "/tmp/shot.png"}}},
		{name: "a data: URL, unnamed", text: "look",
			images: []ImageInput{{DataBase64: "data:image/png;base64," + b64}},
			want:   []attach.Input{{Name: "image 1", Bytes: pic}}},
		{name: "no images is a plain message", text: "look", images: nil, want: nil},
		{name: "over 25 MiB is refused before decoding", text: "look",
			images:  []ImageInput{{Name: "huge.png", DataBase64: strings.Repeat("A", 36<<20)}},
			wantErr: `image "huge.png": it is 27.0 MiB; images over 25.0 MiB are refused`},
		{name: "not base64", text: "look", images: []ImageInput{{Name: "a.png", DataBase64: "%%%"}},
			wantErr: `image "a.png": its data is not valid base64`},
		{name: "a data: URL that is not base64", text: "look", images: []ImageInput{{Name: "a.svg", DataBase64: "data:image/svg+xml,<svg/>"}},
			wantErr: "not base64"},
		{name: "a relative path", text: "look", images: []ImageInput{{Path: "shot.png"}},
			wantErr: `image path "shot.png" is not absolute`},
		{name: "an empty image", text: "look", images: []ImageInput{{Name: "x"}},
			wantErr: `image "x" is empty`},
		// Images with a `!cmd` or `/command` are the engine's refusal
		// (backend TestImagesGoOnlyWithAMessage).
		{name: "images without words", text: " ", images: []ImageInput{{DataBase64: b64}},
			wantErr: "the message is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine()
			eng.submit = backend.Accepted{Kind: "turn", SessionID: "s1", Started: true}
			a := New(eng, Options{Home: t.TempDir()})
			_, err := a.SubmitWithImages("", ws, tc.text, tc.images)
			if tc.wantErr != "" {
				if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want ErrInput with %q", err, tc.wantErr)
				}
				if len(eng.submitted) != 0 {
					t.Errorf("a refused request reached the engine: %+v", eng.submitted)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := dispatched{In: backend.Input{Workspace: ws, Text: tc.text, Channel: backend.ChannelDesktop, Images: tc.want}}
			if diff := cmp.Diff([]dispatched{want}, eng.submitted); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

// anyEmitter records every event the App emits, whatever its payload.
type anyEmitter struct {
	mu   sync.Mutex
	got  []emitted
	pick string
}

type emitted struct {
	Name string
	Data any
}

func (e *anyEmitter) Emit(name string, data any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, emitted{name, data})
}
func (e *anyEmitter) PickDirectory(string, string) (string, error) { return e.pick, nil }
func (e *anyEmitter) Focus()                                       {}

func TestDroppedFilesReachThePage(t *testing.T) {
	a := New(newFakeEngine(), Options{Home: t.TempDir()})
	a.fileDropped(0, 0, []string{"/tmp/a.png"}) // before the window: ignored, no panic
	sh := &anyEmitter{}
	a.mu.Lock()
	a.shell = sh
	a.mu.Unlock()

	a.fileDropped(10, 20, []string{"/home/me/shots/../a.png", "", "relative.png", "/b c.jpg"})
	a.fileDropped(0, 0, nil)
	a.fileDropped(0, 0, []string{"  "})
	want := []emitted{{DropName, Drop{Paths: []string{"/home/me/a.png", "/b c.jpg"}, X: 10, Y: 20}}}
	if diff := cmp.Diff(want, sh.got); diff != "" {
		t.Errorf("emitted (-want +got):\n%s", diff)
	}
}

// The whole way with a real engine and the scripted LLM: a pasted image and
// a dropped file go to a vision model as image_url parts, a dropped text
// file is refused with a warning the page shows, and the sent images are
// served at /vis/image/... for the transcript.
func TestImagesFromTheWindowReachTheModelAndComeBack(t *testing.T) {
	ctx := context.Background()
	llm := providertest.New(providertest.Reply{Content: []string{"A red square and a blue one."}})
	t.Cleanup(llm.Close)
	home, ws := t.TempDir(), t.TempDir()
	vars := map[string]string{"VIS_BASE_URL": llm.URL, "VIS_MODEL": "gpt-4o"}
	eng, err := backend.Open(ctx, backend.Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	red, blue := pngBytes(t, 8, 6, color.RGBA{255, 0, 0, 255}), pngBytes(t, 4, 4, color.RGBA{0, 0, 255, 255})
	dropped := filepath.Join(t.TempDir(), "blue.png")
	notes := filepath.Join(t.TempDir(), "notes.png")
	for p, b := range map[string][]byte{dropped: blue, notes: []byte("just text, named .png")} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	evs, cancel := eng.Events().Subscribe(256)
	defer cancel()
	a := New(eng, Options{Home: t.TempDir()})
	res, err := a.SubmitWithImages("", ws, "what are these?", []ImageInput{
		{Name: "pasted image 1.png", DataBase64: base64.StdEncoding.EncodeToString(red)},
		{Path: dropped},
		{Path: notes},
	})
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for done := false; !done; {
		select {
		case e := <-evs:
			switch {
			case e.SessionID != res.SessionID:
			case e.Phase == events.PhaseWarning:
				warnings = append(warnings, e.Data.(events.Warning).Message)
			case e.Phase == events.PhaseTurnEnd:
				done = true
			}
		case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
			t.Fatal("the turn did not end")
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "notes.png not attached") {
		t.Errorf("warnings = %q, want one naming notes.png", warnings)
	}

	reqs := llm.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests to the model, want 1", len(reqs))
	}
	msgs := reqs[0].Messages
	parts, _ := msgs[len(msgs)-1]["content"].([]any)
	var urls []string
	for _, p := range parts {
		if m, _ := p.(map[string]any); m["type"] == "image_url" {
			u, _ := m["image_url"].(map[string]any)["url"].(string)
			urls = append(urls, u)
		}
	}
	wantURLs := []string{
		"data:image/png;base64," + base64.StdEncoding.EncodeToString(red),
		"data:image/png;base64," + base64.StdEncoding.EncodeToString(blue),
	}
	if diff := cmp.Diff(wantURLs, urls); diff != "" {
		t.Errorf("image_url parts of the last message (-want +got):\n%s", diff)
	}

	tr, err := a.OpenTranscript(res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	imgs := tr.Turns[0].Images
	if len(imgs) != 2 {
		t.Fatalf("the turn lists %d images, want 2: %+v", len(imgs), imgs)
	}
	srv := httptest.NewServer(AssetHandler(eng))
	t.Cleanup(srv.Close)
	get := func(path string) (int, string, []byte) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), b
	}
	for i, want := range [][]byte{red, blue} {
		code, ct, body := get(ImagePath + res.SessionID + "/" + strconv.FormatInt(imgs[i].ID, 10))
		if code != 200 || ct != "image/png" || !bytes.Equal(body, want) {
			t.Errorf("image %d: %d %q, %d bytes; want 200 image/png with the %d bytes sent", i, code, ct, len(body), len(want))
		}
	}
	other, err := eng.CreateSession(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		ImagePath + other.ID + "/" + strconv.FormatInt(imgs[0].ID, 10), // another session's image
		ImagePath + res.SessionID + "/999999",
		ImagePath + res.SessionID + "/x",
		ImagePath + res.SessionID,
		ImagePath + "/1",
		"/vis/nothing",
	} {
		if code, _, _ := get(path); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, code)
		}
	}
	// The output route still answers through the combined handler.
	if code, _, _ := get(OutputPath + res.SessionID + "/1/1/0"); code != http.StatusNotFound {
		t.Errorf("output of an answer-only iteration: %d, want 404 from the output handler", code)
	}
	resp, err := http.Post(srv.URL+ImagePath+res.SessionID+"/"+strconv.FormatInt(imgs[0].ID, 10), "image/png", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", resp.StatusCode)
	}
}

type brokenImages struct{}

func (brokenImages) Image(context.Context, string, int64) ([]byte, string, error) {
	return nil, "", errors.New("disk on fire")
}

func TestImageHandlerReportsAnUnreadableStore(t *testing.T) {
	rec := httptest.NewRecorder()
	ImageHandler(brokenImages{}).ServeHTTP(rec, httptest.NewRequest("GET", "/vis/image/s/1", nil))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "disk on fire") {
		t.Errorf("got %d %q, want 500 with the cause", rec.Code, rec.Body.String())
	}
}
