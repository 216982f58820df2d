package attach

import (
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/prompt"
)

// TestLargeImagesFitTheWire checks, at the real 5 MiB limit, that a large
// image always ends up under it as an image that still decodes, with its
// aspect ratio, in the format the package comment promises.
func TestLargeImagesFitTheWire(t *testing.T) {
	tests := []struct {
		name     string
		w, h     int
		noise    int
		level    png.CompressionLevel
		wantMIME string
		scaled   bool
	}{
		// A screenshot saved without compression: compressing it is enough,
		// every pixel is kept.
		{"uncompressed screenshot", 2400, 1600, 0, png.NoCompression, MIMEPNG, false},
		// A grainy picture: stays PNG, scaled, its longer side still at
		// least LosslessFloor.
		{"grainy png", 2000, 1500, 24, png.BestSpeed, MIMEPNG, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // image codecs are slow under -race; use both cores
			src := picture(tt.w, tt.h, tt.noise, 255)
			orig := pngBytes(t, src, tt.level)
			if n := base64.StdEncoding.EncodedLen(len(orig)); n <= DefaultMaxWireBase64 {
				t.Fatalf("test image is only %d bytes of base64; it must exceed the limit", n)
			}
			imgs, skipped := Prepare([]Input{{Name: "big.png", Bytes: orig}}, DefaultOptions())
			if len(imgs) != 1 {
				t.Fatalf("refused: %v", skipped)
			}
			p := imgs[0]
			if b64 := len(p.Image.DataURL) - len("data:"+p.Image.MIME+";base64,"); b64 > DefaultMaxWireBase64 {
				t.Errorf("sent %d bytes of base64, over the %d limit", b64, DefaultMaxWireBase64)
			}
			img, mime := decodeAny(t, wireBytes(t, p))
			if mime != tt.wantMIME || p.Image.MIME != tt.wantMIME {
				t.Errorf("sent %s (Image.MIME %s), want %s", mime, p.Image.MIME, tt.wantMIME)
			}
			b := img.Bounds()
			if b.Dx() != p.SentWidth || b.Dy() != p.SentHeight {
				t.Errorf("sent %v, SentWidth×SentHeight = %d×%d", b, p.SentWidth, p.SentHeight)
			}
			if scaled := b.Dx() != tt.w; scaled != tt.scaled {
				t.Errorf("sent %d×%d from %d×%d; scaled = %v, want %v", b.Dx(), b.Dy(), tt.w, tt.h, scaled, tt.scaled)
			}
			// Aspect ratio kept to within rounding of one pixel.
			if want := float64(b.Dx()) * float64(tt.h) / float64(tt.w); float64(b.Dy()) < want-1 || float64(b.Dy()) > want+1 {
				t.Errorf("sent %d×%d from %d×%d: aspect ratio changed", b.Dx(), b.Dy(), tt.w, tt.h)
			}
			if tt.wantMIME == MIMEPNG && max(b.Dx(), b.Dy()) < min(LosslessFloor, max(tt.w, tt.h)) {
				t.Errorf("PNG scaled to %v, below the %d px floor", b, LosslessFloor)
			}
			if !tt.scaled && tt.wantMIME == MIMEPNG {
				// Lossless: the pixels are the original's.
				for _, pt := range []image.Point{{0, 0}, {tt.w - 1, tt.h - 1}, {tt.w / 3, tt.h / 2}} {
					if !sameRGB(src.At(pt.X, pt.Y), img.At(pt.X, pt.Y)) {
						t.Errorf("pixel %v: %v sent as %v", pt, src.At(pt.X, pt.Y), img.At(pt.X, pt.Y))
					}
				}
			}
			if p.Label == prompt.SizeLabel(int64(len(orig))) {
				t.Errorf("Label %q does not say the image was changed", p.Label)
			}
		})
	}
}

func sameRGB(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	return r1>>8 == r2>>8 && g1>>8 == g2>>8 && b1>>8 == b2>>8
}

// TestFitFormats exercises the format rules with a small wire limit, so the
// images can stay small.
func TestFitFormats(t *testing.T) {
	const limit = 48 << 10 // 48 KiB of base64
	opts := DefaultOptions()
	opts.MaxWireBase64 = limit

	tests := []struct {
		name      string
		in        []byte
		wantMIME  string
		wantLabel string // a substring
	}{
		{"a JPEG stays JPEG", jpegBytes(t, picture(800, 600, 256, 255), 95), MIMEJPEG, "scaled from 800×600 to"},
		{"a noisy PNG becomes JPEG", pngBytes(t, picture(300, 300, 256, 255), png.BestSpeed), MIMEJPEG, "(JPEG)"},
		{"a transparent PNG becomes JPEG on white", pngBytes(t, picture(600, 600, 256, 0), png.BestSpeed), MIMEJPEG, "(JPEG)"},
		{"a BMP photo becomes JPEG", bmpBytes(t, picture(400, 300, 256, 255)), MIMEJPEG, "(JPEG)"},
		{"an animated GIF sends its first frame", gifBytes(t, 300, 300, 2), MIMEPNG, "first frame of an animation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imgs, skipped := Prepare([]Input{{Name: "x", Bytes: tt.in}}, opts)
			if len(imgs) != 1 {
				t.Fatalf("refused: %v", skipped)
			}
			p := imgs[0]
			if n := base64.StdEncoding.EncodedLen(int(p.Image.Size)); n > limit {
				t.Errorf("sent %d bytes of base64, limit %d", n, limit)
			}
			img, mime := decodeAny(t, wireBytes(t, p))
			if mime != tt.wantMIME {
				t.Errorf("sent %s, want %s (label %q)", mime, tt.wantMIME, p.Label)
			}
			if !strings.Contains(p.Label, tt.wantLabel) {
				t.Errorf("Label = %q, want it to contain %q", p.Label, tt.wantLabel)
			}
			if strings.Contains(tt.name, "transparent") {
				// The transparent top-left quarter is white, not black.
				r, g, b, _ := img.At(img.Bounds().Dx()/8, img.Bounds().Dy()/8).RGBA()
				if r>>8 < 200 || g>>8 < 200 || b>>8 < 200 {
					t.Errorf("transparent area sent as %v, want white", img.At(img.Bounds().Dx()/8, img.Bounds().Dy()/8))
				}
			}
		})
	}
}

func TestTooLargeToFitIsRefused(t *testing.T) {
	opts := DefaultOptions()
	opts.MaxWireBase64 = 100 // no JPEG is that small
	_, skipped := Prepare([]Input{{Name: "noise.png", Bytes: pngBytes(t, picture(300, 300, 256, 255), png.BestSpeed)}}, opts)
	want := []prompt.SkippedImage{{Path: "noise.png", Reason: "could not be scaled under the 100 B limit for one image"}}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func BenchmarkPrepareLargePNG(b *testing.B) {
	orig := pngBytes(b, picture(2000, 1500, 24, 255), png.BestSpeed)
	b.SetBytes(int64(len(orig)))
	for b.Loop() {
		if imgs, _ := Prepare([]Input{{Name: "big.png", Bytes: orig}}, DefaultOptions()); len(imgs) != 1 {
			b.Fatal("refused")
		}
	}
}

func BenchmarkPrepareSmallJPEG(b *testing.B) {
	orig := jpegBytes(b, picture(1280, 800, 8, 255), 85)
	b.SetBytes(int64(len(orig)))
	for b.Loop() {
		if imgs, _ := Prepare([]Input{{Name: "shot.jpg", Bytes: orig}}, DefaultOptions()); len(imgs) != 1 {
			b.Fatal("refused")
		}
	}
}
