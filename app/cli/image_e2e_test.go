package cli_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

func writePNG(t *testing.T, path string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	seed := len(path) // different files get different pixels
	for x := 0; x < 40; x++ {
		img.Set(x, (x+seed)%30, color.RGBA{R: 200, G: uint8(seed), A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImagesReachAVisionModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"A red diagonal."}})
	e.vars = append(e.vars, "VIS_MODEL=gpt-4o") // a vision family: attached
	writePNG(t, filepath.Join(e.ws, "shot.png"))
	writePNG(t, filepath.Join(e.ws, "other-image.png"))
	os.WriteFile(filepath.Join(e.ws, "fake.png"), []byte("just text"), 0o644)
	r := e.run("", "run", "--image", filepath.Join(e.ws, "other-image.png"), "--image", filepath.Join(e.ws, "fake.png"), "what is in shot.png?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	msgs := e.llm.Requests()[0].Messages
	parts, ok := msgs[len(msgs)-1]["content"].([]any)
	if !ok || len(parts) != 3 {
		t.Fatalf("user message = %v", msgs[len(msgs)-1]["content"])
	}
	for i, p := range parts[:2] {
		m := p.(map[string]any)
		url := fmt.Sprint(m["image_url"].(map[string]any)["url"])
		if m["type"] != "image_url" || !strings.HasPrefix(url, "data:image/png;base64,") {
			t.Fatalf("part %d = %v", i, m)
		}
	}
	text := parts[2].(map[string]any)
	body := fmt.Sprint(text["text"])
	if text["type"] != "text" || !strings.Contains(body, "ATTACHED-IMAGES") || !strings.Contains(body, "fake.png — NOT attached: not an image") || !strings.Contains(body, "shot.png (image/png") {
		t.Fatalf("text part = %s", body)
	}
}

func TestImagesAreNamedButNotSentToABlindModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"I cannot see it."}})
	writePNG(t, filepath.Join(e.ws, "shot.png"))
	r := e.run("", "run", "look at shot.png")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	msgs := e.llm.Requests()[0].Messages
	body, ok := msgs[len(msgs)-1]["content"].(string)
	if !ok || !strings.Contains(body, "shot.png — NOT attached: the active model has no vision") {
		t.Fatalf("user message = %v", msgs[len(msgs)-1]["content"])
	}
	// The person is told too: on stderr, the answer alone on stdout.
	if !strings.Contains(r.stderr, "vis: warning: Image") || !strings.Contains(r.stderr, "shot.png not attached") || strings.TrimSpace(r.stdout) != "I cannot see it." {
		t.Fatalf("stderr %q stdout %q", r.stderr, r.stdout)
	}
}

func TestSentImagesAreKeptWithTheTurn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"seen"}})
	e.vars = append(e.vars, "VIS_MODEL=claude-sonnet")
	writePNG(t, filepath.Join(e.ws, "a.png"))
	if r := e.run("", "run", "see a.png"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	r := e.run("", "sessions", "--json")
	id := strings.Split(strings.Split(r.stdout, `"id": "`)[1], `"`)[0]
	r = e.run("", "show", "--json", id)
	if !strings.Contains(r.stdout, `"media_type": "image/png"`) || !strings.Contains(r.stdout, "a.png") {
		t.Fatalf("the reopened session lost its image: %s", r.stdout)
	}
}
