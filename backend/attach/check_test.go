package attach

import (
	"encoding/binary"
	"hash/crc32"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/prompt"
)

// TestCheck runs the inputs a person may add to a message through Check and
// checks each verdict, then that Prepare refuses exactly the same inputs for
// the same reasons (Check must not be a second set of rules).
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	pngB := pngBytes(t, picture(40, 30, 0, 255), png.DefaultCompression)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shot := write("shot.png", pngB)
	notes := write("notes.txt", []byte("TODO: take a screenshot\n"))
	tiff := write("scan.tiff", []byte("II*\x00\x08\x00\x00\x00rest of a tiff"))
	huge := write("huge.png", pngB[:33])
	if err := os.Truncate(huge, 40<<20); err != nil {
		t.Fatal(err)
	}
	// A PNG header claiming 20000×20000 pixels: refused from its header.
	giant := append([]byte(nil), pngB...)
	giant[16], giant[17], giant[18], giant[19] = 0, 0, 0x4e, 0x20
	giant[20], giant[21], giant[22], giant[23] = 0, 0, 0x4e, 0x20
	binary.BigEndian.PutUint32(giant[29:33], crc32.ChecksumIEEE(giant[12:29]))
	in := []Input{
		{Path: shot},
		{Path: notes},
		{Path: tiff},
		{Path: huge},
		{Path: filepath.Join(dir, "gone.png")},
		{Path: dir},
		{Name: "pasted image 1.png", Bytes: pngB},
		{Path: shot},
		{Name: "giant.png", Bytes: giant},
	}
	want := []Verdict{
		{Name: shot, Sent: true, MIME: MIMEPNG, Width: 40, Height: 30},
		{Name: notes, Reason: ReasonNotImage},
		{Name: tiff, Reason: "TIFF is not a supported image format (JPEG, PNG, GIF, WebP, BMP)"},
		{Name: huge, Reason: "40 MiB exceeds the 25 MiB attachment limit"},
		{Name: filepath.Join(dir, "gone.png"), Reason: "could not be read: no such file"},
		{Name: dir, Reason: "not a regular file"},
		{Name: "pasted image 1.png", Reason: "the same image as image 1 — attached once"},
		{Name: shot, Reason: "the same image as image 1 — attached once"},
		{Name: "giant.png", Reason: "20000×20000 pixels is more than the 100-megapixel limit"},
	}
	got := Check(in, DefaultOptions())
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Check (-want +got):\n%s", diff)
	}

	// Prepare refuses the same inputs for the same reasons (it says nothing
	// of the same path named twice).
	_, skipped := Prepare(in, DefaultOptions())
	var fromCheck []prompt.SkippedImage
	for i, v := range got {
		if v.Reason != "" && i != 7 { // 7 names shot.png again
			fromCheck = append(fromCheck, prompt.SkippedImage{Path: v.Name, Reason: v.Reason})
		}
	}
	if diff := cmp.Diff(fromCheck, skipped); diff != "" {
		t.Errorf("Prepare's refusals differ from Check's (-check +prepare):\n%s", diff)
	}

	// A model without vision: attached images are named, not sent.
	noVision := DefaultOptions()
	noVision.Vision = false
	v := Check([]Input{{Path: shot}, {Path: notes}}, noVision)
	if !(v[0].Reason == "" && !v[0].Sent && v[1].Reason == ReasonNotImage) {
		t.Errorf("Check without vision = %+v; want the PNG attached but not sent, the text refused", v)
	}

	// The count limit: the ninth distinct image is refused.
	var many []Input
	for i := range 9 {
		many = append(many, Input{Name: "p.png", Bytes: pngBytes(t, picture(10+i, 10, 0, 255), png.DefaultCompression)})
	}
	v = Check(many, DefaultOptions())
	if v[7].Reason != "" || v[8].Reason != "attachment limit of 8 images per message reached" {
		t.Errorf("Check of 9 images: 8th %q, 9th %q", v[7].Reason, v[8].Reason)
	}
}
