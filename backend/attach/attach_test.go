package attach

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/prompt"
)

func TestSniff(t *testing.T) {
	small := picture(20, 10, 0, 255)
	pngB := pngBytes(t, small, png.DefaultCompression)
	tests := []struct {
		name string
		b    []byte
		want string // "" = not an image
	}{
		{"png", pngB, MIMEPNG},
		{"animated png", apngBytes(t, pngB), MIMEPNG},
		{"jpeg", jpegBytes(t, small, 90), MIMEJPEG},
		{"gif", gifBytes(t, 4, 4, 1), MIMEGIF},
		{"gif87a", append([]byte("GIF87a"), make([]byte, 20)...), MIMEGIF},
		{"webp lossy", readTestdata(t, "blue-purple-pink.lossy.webp"), MIMEWebP},
		{"webp lossless", readTestdata(t, "gopher-doc.1bpp.lossless.webp"), MIMEWebP},
		{"bmp", bmpBytes(t, small), MIMEBMP},
		{"truncated png still sniffs", pngB[:20], MIMEPNG},
		{"text renamed .png", []byte("just some notes, saved as shot.png\n"), ""},
		{"text starting with BM", []byte("BMW service record, 2024 — oil, brakes, tyres"), ""},
		{"RIFF that is a WAV", append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 16)...), ""},
		{"TIFF", []byte("II*\x00\x08\x00\x00\x00rest"), ""},
		{"empty", nil, ""},
		{"two bytes of a JPEG", []byte{0xFF, 0xD8}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Sniff(tt.b)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("Sniff = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}

// TestPrepareIntake runs every kind of input a person may offer through
// Prepare at once and checks what is attached and what is refused, and why.
func TestPrepareIntake(t *testing.T) {
	dir := t.TempDir()
	small := picture(40, 30, 0, 255)
	pngB := pngBytes(t, small, png.DefaultCompression)
	jpgB := jpegBytes(t, small, 90)

	// A 40 MB "image" on disk: a PNG header, then 40 MB (a sparse file, so
	// the test writes almost nothing). Intake must refuse it from its size.
	huge := filepath.Join(dir, "huge.png")
	if err := os.WriteFile(huge, pngB[:33], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 40<<20); err != nil {
		t.Fatal(err)
	}
	onDisk := filepath.Join(dir, "shot.jpg") // a JPEG behind a .jpg name
	if err := os.WriteFile(onDisk, jpgB, 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.png") // text behind a .png name
	if err := os.WriteFile(notes, []byte("TODO: take a screenshot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pngNamedGIF := filepath.Join(dir, "really-a-png.gif")
	pngB2 := pngBytes(t, picture(44, 34, 0, 255), png.DefaultCompression)
	if err := os.WriteFile(pngNamedGIF, pngB2, 0o644); err != nil {
		t.Fatal(err)
	}

	in := []Input{
		{Path: onDisk},
		{Name: "pasted.png", Bytes: pngB},
		{Path: notes},
		{Path: huge},
		{Name: "in-memory-40MB.png", Bytes: append(append([]byte{}, pngB[:33]...), make([]byte, 40<<20)...)},
		{Path: filepath.Join(dir, "gone.png")},
		{Path: dir},
		{Name: "cut-short.png", Bytes: pngB[:len(pngB)/2]},
		{Name: "cut-short.jpg", Bytes: jpgB[:len(jpgB)/2]},
		{Name: "cut-short.gif", Bytes: gifBytes(t, 40, 30, 1)[:30]},
		{Name: "cut-short.webp", Bytes: readTestdata(t, "blue-purple-pink.lossy.webp")[:300]},
		{Name: "cut-short.bmp", Bytes: bmpBytes(t, small)[:200]},
		{Name: "scan.tiff", Bytes: []byte("II*\x00\x08\x00\x00\x00rest of a tiff")},
		{Name: "pasted-again.png", Bytes: pngB},
		{Path: pngNamedGIF},
		{Name: "photo.webp", Bytes: readTestdata(t, "blue-purple-pink.lossy.webp")},
		{Name: "doc.webp", Bytes: readTestdata(t, "gopher-doc.1bpp.lossless.webp")},
		{Name: "paint.bmp", Bytes: bmpBytes(t, picture(41, 31, 0, 255))},
		{Name: "still.gif", Bytes: gifBytes(t, 40, 30, 1)},
		{Name: "anim.gif", Bytes: gifBytes(t, 40, 30, 3)},
		{Name: "anim.png", Bytes: apngBytes(t, pngBytes(t, picture(42, 32, 0, 255), png.DefaultCompression))},
		{Name: "ninth.png", Bytes: pngBytes(t, picture(43, 33, 0, 255), png.DefaultCompression)},
		{Path: onDisk}, // named a second time (--image and the message text): no row
	}
	imgs, skipped := Prepare(in, DefaultOptions())

	type row struct{ Name, MIME, Label string }
	var got []row
	for _, p := range imgs {
		got = append(got, row{p.Image.Path, p.Image.MIME, p.Label})
	}
	want := []row{
		{onDisk, MIMEJPEG, prompt.SizeLabel(int64(len(jpgB)))},
		{"pasted.png", MIMEPNG, prompt.SizeLabel(int64(len(pngB)))},
		{pngNamedGIF, MIMEPNG, prompt.SizeLabel(int64(len(pngB2)))},
		{"photo.webp", MIMEWebP, "2.4 KB"},
		{"doc.webp", MIMEWebP, "442 B"},
		{"paint.bmp", MIMEPNG, prompt.SizeLabel(int64(len(in[17].Bytes))) + ", BMP converted to PNG"},
		{"still.gif", MIMEGIF, prompt.SizeLabel(int64(len(in[18].Bytes)))},
		{"anim.gif", MIMEPNG, prompt.SizeLabel(int64(len(in[19].Bytes))) + ", first frame of an animation, as PNG"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attached (-want +got):\n%s", diff)
	}
	wantSkipped := []prompt.SkippedImage{
		{Path: notes, Reason: "not an image"},
		{Path: huge, Reason: "40 MiB exceeds the 25 MiB attachment limit"},
		{Path: "in-memory-40MB.png", Reason: "40.0 MiB exceeds the 25 MiB attachment limit"},
		{Path: filepath.Join(dir, "gone.png"), Reason: "could not be read: no such file"},
		{Path: dir, Reason: "not a regular file"},
		{Path: "cut-short.png", Reason: "could not be decoded"},
		{Path: "cut-short.jpg", Reason: "could not be decoded"},
		{Path: "cut-short.gif", Reason: "could not be decoded"},
		{Path: "cut-short.webp", Reason: "could not be decoded"},
		{Path: "cut-short.bmp", Reason: "could not be decoded"},
		{Path: "scan.tiff", Reason: "TIFF is not a supported image format (JPEG, PNG, GIF, WebP, BMP)"},
		{Path: "pasted-again.png", Reason: "the same image as image 2 — attached once"},
		{Path: "anim.png", Reason: "attachment limit of 8 images per message reached"},
		{Path: "ninth.png", Reason: "attachment limit of 8 images per message reached"},
	}
	if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}

	// Every attached image goes on the wire as a data: URL that decodes to
	// pixels of the original's size; originals are kept as given.
	for i, p := range imgs {
		sent := wireBytes(t, p)
		img, mime := decodeAny(t, sent)
		if mime != p.Image.MIME {
			t.Errorf("%s: sent bytes sniff as %s, Image.MIME = %s", p.Image.Path, mime, p.Image.MIME)
		}
		if b := img.Bounds(); b.Dx() != p.Width || b.Dy() != p.Height || p.SentWidth != p.Width {
			t.Errorf("%s: sent %v, original %d×%d, SentWidth %d", p.Image.Path, b, p.Width, p.Height, p.SentWidth)
		}
		if len(p.SHA256) != 64 || len(p.Original) == 0 {
			t.Errorf("%s: SHA256 %q, %d original bytes", p.Image.Path, p.SHA256, len(p.Original))
		}
		if p.OriginalMIME == MIMEJPEG || p.OriginalMIME == MIMEWebP || p.Image.Path == "still.gif" {
			if !bytes.Equal(sent, p.Original) {
				t.Errorf("image %d %s: a small %s was re-encoded instead of sent as it is", i, p.Image.Path, p.OriginalMIME)
			}
		}
	}
}

func TestAnimatedPNGSentAsStill(t *testing.T) {
	still := pngBytes(t, picture(42, 32, 0, 255), png.DefaultCompression)
	anim := apngBytes(t, still)
	if !isAPNG(anim) || isAPNG(still) {
		t.Fatalf("isAPNG(anim) = %v, isAPNG(still) = %v", isAPNG(anim), isAPNG(still))
	}
	imgs, skipped := Prepare([]Input{{Name: "anim.png", Bytes: anim}}, DefaultOptions())
	if len(imgs) != 1 || len(skipped) != 0 {
		t.Fatalf("Prepare(APNG) = %d images, skipped %v", len(imgs), skipped)
	}
	sent := wireBytes(t, imgs[0])
	if isAPNG(sent) || imgs[0].Image.MIME != MIMEPNG {
		t.Errorf("sent %s still animated = %v", imgs[0].Image.MIME, isAPNG(sent))
	}
	if !strings.Contains(imgs[0].Label, "first frame of an animation") {
		t.Errorf("Label = %q", imgs[0].Label)
	}
	if !bytes.Equal(imgs[0].Original, anim) {
		t.Error("the original APNG bytes were not kept for the store")
	}
}

func TestBMPConvertedToPNG(t *testing.T) {
	src := picture(64, 48, 0, 255)
	imgs, skipped := Prepare([]Input{{Path: "/shots/paint.bmp", Bytes: bmpBytes(t, src)}}, DefaultOptions())
	if len(imgs) != 1 || len(skipped) != 0 {
		t.Fatalf("Prepare(BMP) = %d images, skipped %v", len(imgs), skipped)
	}
	p := imgs[0]
	if p.Image.MIME != MIMEPNG || p.OriginalMIME != MIMEBMP {
		t.Errorf("MIME = %s (original %s), want image/png from image/bmp", p.Image.MIME, p.OriginalMIME)
	}
	img, mime := decodeAny(t, wireBytes(t, p))
	if mime != MIMEPNG {
		t.Fatalf("sent bytes are %s", mime)
	}
	// Lossless: every pixel survives the conversion.
	for _, pt := range [][2]int{{0, 0}, {63, 47}, {10, 40}, {50, 5}} {
		r1, g1, b1, _ := src.At(pt[0], pt[1]).RGBA()
		r2, g2, b2, _ := img.At(pt[0], pt[1]).RGBA()
		if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 {
			t.Errorf("pixel %v: %v in the BMP, %v in the PNG", pt, src.At(pt[0], pt[1]), img.At(pt[0], pt[1]))
		}
	}
}

func TestNoVision(t *testing.T) {
	pngB := pngBytes(t, picture(40, 30, 0, 255), png.DefaultCompression)
	opts := DefaultOptions()
	opts.Vision = false
	imgs, skipped := Prepare([]Input{
		{Name: "a.png", Bytes: pngB},
		{Name: "notes.png", Bytes: []byte("text")},
	}, opts)
	if len(imgs) != 1 || imgs[0].Image.DataURL != "" || len(imgs[0].Original) == 0 {
		t.Fatalf("imgs = %+v; want a.png kept for the store with no data URL", imgs)
	}
	if w := Wire(imgs); len(w) != 0 {
		t.Errorf("Wire = %d images for a blind model, want none", len(w))
	}
	// Rows follow the order of decision: a.png passed intake first.
	want := []prompt.SkippedImage{
		{Path: "a.png", Reason: "the active model has no vision — image not attached"},
		{Path: "notes.png", Reason: "not an image"},
	}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	msgs := prompt.InitialMessages(nil, prompt.UserInput{Text: "what is this?", Images: Wire(imgs), Skipped: skipped})
	if len(msgs) != 1 || len(msgs[0].Parts) != 0 || !strings.Contains(msgs[0].Content, "you canNOT see them") {
		t.Errorf("a blind model's message = %+v; want plain text saying it cannot see them", msgs)
	}
}

func TestZeroOptionsTakeDefaults(t *testing.T) {
	var in []Input
	for i := range 9 {
		in = append(in, Input{Name: "x.png", Bytes: pngBytes(t, picture(10+i, 10, 0, 255), png.BestSpeed)})
	}
	imgs, skipped := Prepare(in, Options{Vision: true})
	if len(imgs) != 8 || len(skipped) != 1 {
		t.Errorf("zero Options: %d attached, %d skipped; want the default 8 and 1", len(imgs), len(skipped))
	}
}

func TestMaxPixels(t *testing.T) {
	// A tiny file that claims 30000×30000 pixels must be refused before its
	// pixels are allocated.
	b := pngBytes(t, picture(4, 4, 0, 255), png.BestSpeed)
	ihdr := b[8+8 : 8+8+13]
	copy(ihdr[0:4], []byte{0, 0, 0x75, 0x30})
	copy(ihdr[4:8], []byte{0, 0, 0x75, 0x30})
	binary.BigEndian.PutUint32(b[8+8+13:], crc32.ChecksumIEEE(b[8+4:8+8+13]))
	_, skipped := Prepare([]Input{{Name: "bomb.png", Bytes: b}}, DefaultOptions())
	want := []prompt.SkippedImage{{Path: "bomb.png", Reason: "30000×30000 pixels is more than the 100-megapixel limit"}}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}
