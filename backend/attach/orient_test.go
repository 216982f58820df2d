package attach

import (
	"encoding/binary"
	"image"
	"image/color"
	"strings"
	"testing"
)

// exifJPEG encodes img as a JPEG carrying an EXIF orientation tag (big- or
// little-endian TIFF, as cameras write both).
func exifJPEG(t *testing.T, img image.Image, orientation int, bigEndian bool) []byte {
	t.Helper()
	var bo binary.AppendByteOrder = binary.LittleEndian
	tiff := []byte("II*\x00")
	if bigEndian {
		bo, tiff = binary.BigEndian, []byte("MM\x00*")
	}
	tiff = bo.AppendUint32(tiff, 8) // IFD0 offset
	tiff = bo.AppendUint16(tiff, 2) // two entries
	tiff = bo.AppendUint16(tiff, 0x010F)
	tiff = bo.AppendUint16(tiff, 2) // ASCII "Make", inline
	tiff = bo.AppendUint32(tiff, 4)
	tiff = append(tiff, "Cam\x00"...)
	tiff = bo.AppendUint16(tiff, 0x0112) // Orientation, SHORT
	tiff = bo.AppendUint16(tiff, 3)
	tiff = bo.AppendUint32(tiff, 1)
	tiff = bo.AppendUint16(tiff, uint16(orientation))
	tiff = bo.AppendUint16(tiff, 0)
	tiff = bo.AppendUint32(tiff, 0) // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xFF, 0xE1}
	app1 = binary.BigEndian.AppendUint16(app1, uint16(len(seg)+2))
	app1 = append(app1, seg...)
	j := jpegBytes(t, img, 95)
	out := append([]byte{}, j[:2]...)
	out = append(out, app1...)
	return append(out, j[2:]...)
}

func TestJPEGTurnedUpright(t *testing.T) {
	// As stored: 40×20, left half red, right half blue.
	stored := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for y := range 20 {
		for x := range 40 {
			c := color.RGBA{220, 0, 0, 255}
			if x >= 20 {
				c = color.RGBA{0, 0, 220, 255}
			}
			stored.Set(x, y, c)
		}
	}
	tests := []struct {
		orientation int
		w, h        int
		// colours a person sees at the top-left and bottom-right corners
		topLeft, bottomRight string
	}{
		{1, 40, 20, "red", "blue"},
		{3, 40, 20, "blue", "red"},
		{6, 20, 40, "red", "blue"}, // turned clockwise: the left side is on top
		{8, 20, 40, "blue", "red"}, // turned counter-clockwise: the right side is on top
	}
	for _, tt := range tests {
		for _, big := range []bool{false, true} {
			data := exifJPEG(t, stored, tt.orientation, big)
			if got := jpegOrientation(data); got != tt.orientation {
				t.Fatalf("jpegOrientation = %d, want %d", got, tt.orientation)
			}
			imgs, skipped := Prepare([]Input{{Name: "phone.jpg", Bytes: data}}, DefaultOptions())
			if len(imgs) != 1 {
				t.Fatalf("orientation %d: refused %v", tt.orientation, skipped)
			}
			p := imgs[0]
			img, _ := decodeAny(t, wireBytes(t, p))
			b := img.Bounds()
			if b.Dx() != tt.w || b.Dy() != tt.h || p.Width != tt.w || p.SentHeight != tt.h {
				t.Errorf("orientation %d: sent %v (Width %d, SentHeight %d), want %d×%d", tt.orientation, b, p.Width, p.SentHeight, tt.w, tt.h)
			}
			if got := colourName(img.At(2, 2)); got != tt.topLeft {
				t.Errorf("orientation %d: top-left is %s, want %s", tt.orientation, got, tt.topLeft)
			}
			if got := colourName(img.At(b.Dx()-3, b.Dy()-3)); got != tt.bottomRight {
				t.Errorf("orientation %d: bottom-right is %s, want %s", tt.orientation, got, tt.bottomRight)
			}
			if turned := strings.Contains(p.Label, "turned upright"); turned != (tt.orientation != 1) {
				t.Errorf("orientation %d: Label %q", tt.orientation, p.Label)
			}
		}
	}
}

func colourName(c color.Color) string {
	r, _, b, _ := c.RGBA()
	switch {
	case r>>8 > 150 && b>>8 < 80:
		return "red"
	case b>>8 > 150 && r>>8 < 80:
		return "blue"
	}
	return "mixed"
}

func TestJPEGOrientationMalformed(t *testing.T) {
	j := jpegBytes(t, picture(8, 8, 0, 255), 80)
	for name, b := range map[string][]byte{
		"no exif":       j,
		"cut in APP1":   append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00}, "Exif\x00\x00II*\x00"...),
		"bad tiff":      append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x12}, "Exif\x00\x00XX*\x00\x08\x00\x00\x00"...),
		"ifd past end":  append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x12}, "Exif\x00\x00II*\x00\xff\x00\x00\x00"...),
		"just the SOI":  {0xFF, 0xD8},
		"zero seg size": {0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00},
	} {
		if got := jpegOrientation(b); got != 1 {
			t.Errorf("%s: jpegOrientation = %d, want 1", name, got)
		}
	}
}
