package attach

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
)

// picture draws a w×h test image: a gradient with a few flat blocks, plus
// per-pixel noise of the given amplitude (0: none, 256: pure noise, which
// no codec can compress). alpha < 255 makes its top-left quarter
// transparent to that level.
func picture(w, h, noise int, alpha uint8) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	for y := range h {
		for x := range w {
			n := 0
			if noise > 0 {
				n = r.IntN(noise)
			}
			c := [4]uint8{uint8(x*200/w + n), uint8(y*200/h + n/2), uint8((x/64+y/64)%2*120 + n/3), 255}
			if x < w/2 && y < h/2 {
				c[3] = alpha
			}
			if noise >= 256 {
				c = [4]uint8{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), c[3]}
			}
			copy(img.Pix[img.PixOffset(x, y):], c[:])
		}
	}
	return img
}

func pngBytes(t testing.TB, img image.Image, level png.CompressionLevel) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: level}
	if err := enc.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB, img image.Image, q int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func bmpBytes(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bmp.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gifBytes encodes frames (one: a still GIF) of a w×h picture, each frame a
// different flat colour.
func gifBytes(t testing.TB, w, h, frames int) []byte {
	t.Helper()
	pal := color.Palette{color.Black, color.White, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}}
	g := &gif.GIF{}
	for f := range frames {
		p := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for i := range p.Pix {
			p.Pix[i] = uint8((f + 2) % len(pal))
		}
		p.Pix[0] = 1
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// apngBytes turns a PNG into an animated PNG by inserting an acTL chunk
// after IHDR (a decoder that knows no APNG shows the default image).
func apngBytes(t testing.TB, p []byte) []byte {
	t.Helper()
	ihdrEnd := 8 + 12 + 13
	data := make([]byte, 8)
	binary.BigEndian.PutUint32(data[0:4], 2) // frames
	binary.BigEndian.PutUint32(data[4:8], 0) // loop forever
	chunk := make([]byte, 0, 20)
	chunk = binary.BigEndian.AppendUint32(chunk, uint32(len(data)))
	chunk = append(chunk, "acTL"...)
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(append([]byte("acTL"), data...)))
	out := append([]byte{}, p[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, p[ihdrEnd:]...)
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wireBytes decodes a prepared image's data: URL back to the bytes sent,
// checking the URL's shape.
func wireBytes(t testing.TB, p Prepared) []byte {
	t.Helper()
	prefix := "data:" + p.Image.MIME + ";base64,"
	if !strings.HasPrefix(p.Image.DataURL, prefix) {
		t.Fatalf("%s: DataURL starts %.40q, want %q", p.Image.Path, p.Image.DataURL, prefix)
	}
	b, err := base64.StdEncoding.DecodeString(p.Image.DataURL[len(prefix):])
	if err != nil {
		t.Fatalf("%s: DataURL base64: %v", p.Image.Path, err)
	}
	if int64(len(b)) != p.Image.Size {
		t.Errorf("%s: Size = %d, data URL holds %d bytes", p.Image.Path, p.Image.Size, len(b))
	}
	return b
}

// decodeAny decodes sent bytes with the decoder their sniffed type names.
func decodeAny(t testing.TB, b []byte) (image.Image, string) {
	t.Helper()
	mime, ok := Sniff(b)
	if !ok {
		t.Fatalf("sent bytes do not sniff as an image: % x", b[:min(len(b), 16)])
	}
	img, err := decode(b, mime)
	if err != nil {
		t.Fatalf("sent %s does not decode: %v", mime, err)
	}
	return img, mime
}
