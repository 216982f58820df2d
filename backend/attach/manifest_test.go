package attach

import (
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/internal/golden"
)

// manifestInputs is a message with images of every outcome, under fixed
// names so the manifest text is stable.
func manifestInputs(t *testing.T) []Input {
	in := []Input{
		{Name: "/home/ana/shots/login-bug.png", Bytes: pngBytes(t, picture(120, 80, 0, 255), png.DefaultCompression)},
		{Name: "/home/ana/shots/photo.jpg", Bytes: jpegBytes(t, picture(90, 60, 8, 255), 80)},
		{Name: "/home/ana/shots/diagram.bmp", Bytes: bmpBytes(t, picture(30, 20, 0, 255))},
		{Name: "/home/ana/notes.png", Bytes: []byte("meeting notes, not a picture")},
		{Name: "/home/ana/shots/broken.jpg", Bytes: jpegBytes(t, picture(90, 60, 8, 255), 80)[:100]},
		{Path: "/nonexistent/dir/ghost.png"},
	}
	for i := range 7 {
		in = append(in, Input{Name: "/home/ana/shots/more-" + string(rune('a'+i)) + ".png",
			Bytes: pngBytes(t, picture(10+i, 10, 0, 255), png.DefaultCompression)})
	}
	return in
}

// TestManifestGolden is the ATTACHED-IMAGES block a vision model reads for
// that message (seed 000, spec §2.7).
func TestManifestGolden(t *testing.T) {
	imgs, skipped := Prepare(manifestInputs(t), DefaultOptions())
	golden.CheckString(t, filepath.Join("testdata", "manifest.golden"), prompt.ImagesManifest(Wire(imgs), skipped))

	// The message itself: every attached image as an image_url part ahead
	// of the text, which carries the manifest.
	msgs := prompt.InitialMessages(nil, prompt.UserInput{Text: "why does login fail?", Images: Wire(imgs), Skipped: skipped})
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	parts := msgs[0].Parts
	if len(parts) != 9 {
		t.Fatalf("%d parts, want 8 images and the text", len(parts))
	}
	for i, p := range parts[:8] {
		if p.Type != "image_url" || p.ImageURL != imgs[i].Image.DataURL {
			t.Errorf("part %d = %s %.30q, want image %d's data URL", i, p.Type, p.ImageURL, i+1)
		}
	}
	if last := parts[8]; last.Type != "text" || !strings.Contains(last.Text, "- image 3: /home/ana/shots/diagram.bmp (image/png,") {
		t.Errorf("text part does not carry the manifest: %q", last.Text)
	}
}

// TestManifestGoldenNoVision is the same message for a model without
// vision: nothing attached, every image named with the reason.
func TestManifestGoldenNoVision(t *testing.T) {
	opts := DefaultOptions()
	opts.Vision = false
	imgs, skipped := Prepare(manifestInputs(t), opts)
	if len(Wire(imgs)) != 0 {
		t.Fatalf("Wire = %d images for a blind model", len(Wire(imgs)))
	}
	golden.CheckString(t, filepath.Join("testdata", "manifest_novision.golden"), prompt.ImagesManifest(Wire(imgs), skipped))
}
