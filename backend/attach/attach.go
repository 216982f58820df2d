// Package attach takes in the images a person attaches to a message (picked,
// dropped, pasted, passed with --image, or named by path in the message) and
// turns them into what the provider receives and what the store keeps
// (spec §8, seed 000's ATTACHED-IMAGES manifest).
//
// Contract:
//
//   - The type comes from the bytes (Sniff), never from a file name: JPEG,
//     PNG, GIF, WebP and BMP are taken; anything else is refused as "not an
//     image" (or, for TIFF, HEIC, AVIF, SVG, PDF and ICO, as "not a supported
//     image format").
//   - Every image is decoded to prove it is pixels; one that does not decode is
//     refused ("could not be decoded"). A file over Options.MaxIntakeBytes
//     (25 MiB) is refused before it is read or decoded; an image with more
//     than Options.MaxPixels pixels is refused before its pixels are
//     allocated. At most Options.MaxImages (8) images ride one message; later
//     ones are refused. The same bytes given twice are attached once (under
//     another name, with a row saying so; under the same path, silently, so
//     `--image shot.png "look at shot.png"` attaches one image and no noise).
//   - What is sent: JPEG, PNG, GIF and WebP go as they are when their base64
//     fits Options.MaxWireBase64 (5 MiB). BMP is re-encoded as PNG; an animated
//     PNG or GIF is sent as its first frame re-encoded as PNG (providers take
//     stills only). An image too large is scaled down, keeping its aspect
//     ratio, until its base64 fits: a lossless image (PNG, GIF, BMP) stays PNG
//     while its longer side can stay at LosslessFloor (1568 px, the largest
//     side providers look at) or at its own size if smaller; past that it
//     becomes a JPEG at quality 85 (transparency flattened onto white), which
//     keeps far more pixels in the same bytes. A JPEG that must shrink stays
//     JPEG; a WebP that must shrink becomes JPEG, or PNG when it has
//     transparency (Go has no WebP encoder). An animated WebP does not decode
//     here and is refused as "could not be decoded".
//     A JPEG with an EXIF orientation (a phone photo stored sideways) is
//     always re-encoded turned upright, since a provider may ignore EXIF.
//     Prepared.Label says what was done ("scaled from 4000×3000 to …").
//   - Store vs send: Prepared.Original keeps the bytes as given, with their
//     SHA-256; the store keeps those (Save) and a replay runs them through the
//     same gate again (Load), so a damaged row becomes a refusal with a
//     reason, never an error that stops the turn.
//   - Check answers, per input, what Prepare will do by the same rules
//     without decoding pixels (a window shows it as each image is added);
//     only an image whose pixels fail to decode past a sound header is
//     refused by Prepare alone.
//   - Every refusal is a prompt.SkippedImage naming the image and the reason
//     in words a person reads; the manifest shows the same rows to the model.
//     Besides the ones above: "could not be read: no such file" (and other
//     read errors), "not a regular file", "the same image as image N —
//     attached once", and, when no size fits (never seen in practice),
//     "could not be scaled under the 5 MiB limit for one image".
//
// Concurrency: every function is safe for concurrent use; none keeps state.
// Prepare and Load take CPU time in proportion to the pixels they decode and
// re-encode: an image that fits is only decoded (about 25 ms for a 1280×800
// JPEG), one that must shrink is decoded and encoded two or three times
// (about 2 s for a grainy 2000×1500 PNG of 4.5 MB on a busy 2-core machine).
// Callers run them off any UI thread. Failure: Prepare never fails as a
// whole; each input is either prepared or refused. Save and Load report
// store failures as errors.
package attach

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/image/bmp"
	"golang.org/x/image/webp"

	"github.com/visdesktop/vis/backend/prompt"
)

// Defaults of Options.
const (
	DefaultMaxImages      = 8
	DefaultMaxIntakeBytes = 25 << 20
	DefaultMaxWireBase64  = 5 << 20
	DefaultMaxPixels      = 100_000_000
	// LosslessFloor is the longer side, in pixels, below which a lossless
	// image that must shrink to fit becomes a JPEG instead of a smaller PNG.
	LosslessFloor = 1568
	jpegQuality   = 85
)

// Reasons a person and the model read when an image is refused. Size and
// format reasons are built with the figures in them (see Prepare).
const (
	ReasonNotImage     = "not an image"
	ReasonUndecodable  = "could not be decoded"
	ReasonStoredDamage = "the stored copy is missing or damaged — image not attached"
	// ReasonNoVision is prompt.ReasonNoVision.
	ReasonNoVision = prompt.ReasonNoVision
)

// Options bounds intake. A zero numeric field takes its default; Vision has
// no default: false means the active model cannot see images, so none is
// sent and each is named in the manifest with ReasonNoVision.
type Options struct {
	MaxImages      int   // images per message (8)
	MaxIntakeBytes int64 // largest file taken in (25 MiB)
	MaxWireBase64  int   // largest base64 payload per image on the wire (5 MiB)
	MaxPixels      int64 // largest width×height decoded (100 megapixels)
	Vision         bool  // the active model takes image input
}

// DefaultOptions returns the defaults with Vision on.
func DefaultOptions() Options {
	return Options{MaxImages: DefaultMaxImages, MaxIntakeBytes: DefaultMaxIntakeBytes,
		MaxWireBase64: DefaultMaxWireBase64, MaxPixels: DefaultMaxPixels, Vision: true}
}

func (o Options) withDefaults() Options {
	if o.MaxImages <= 0 {
		o.MaxImages = DefaultMaxImages
	}
	if o.MaxIntakeBytes <= 0 {
		o.MaxIntakeBytes = DefaultMaxIntakeBytes
	}
	if o.MaxWireBase64 <= 0 {
		o.MaxWireBase64 = DefaultMaxWireBase64
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	return o
}

// Input is one image offered for a message: a file (Path, read by Prepare
// when Bytes is nil) or bytes from elsewhere (a paste, a drop, a stored row)
// with the Name to show for them.
type Input struct {
	// Path is the file's path as it will be named in the manifest. Callers
	// make it absolute (PathsInText does); a relative path is read relative
	// to the process's working directory.
	Path string
	// Name is shown when Path is empty ("pasted image 1.png"); when both are
	// empty the image is called "image <n>".
	Name  string
	Bytes []byte
	// ID is a stored attachment's id, carried to Prepared.ID (Load sets it);
	// 0 for new input.
	ID int64
}

// Prepared is an image that passed intake.
type Prepared struct {
	// ID is the stored attachment id: 0 until Save, set by Load.
	ID int64
	// Image is what the prompt carries: Path is the name shown, MIME and
	// Size describe the bytes sent, DataURL is the data: URL. DataURL is ""
	// when the model has no vision (the image is kept for the store and the
	// transcript, and named in skipped instead).
	Image prompt.Image
	// Original holds the bytes as given; OriginalMIME their sniffed type and
	// SHA256 the lowercase hex of their hash (the store's dedupe key).
	Original     []byte
	OriginalMIME string
	SHA256       string
	// Width and Height are the original's; SentWidth and SentHeight those of
	// the image sent (equal unless scaled).
	Width, Height         int
	SentWidth, SentHeight int
	// Label is a short line for people: the original's size and what was
	// done to it, e.g. "6.1 MB, scaled from 4000×3000 to 1568×1176 (JPEG)".
	Label string
}

// Wire returns the prompt images of imgs that are to be sent (those with a
// DataURL), in order: put them in prompt.UserInput.Images and the skipped
// list from Prepare in prompt.UserInput.Skipped.
func Wire(imgs []Prepared) []prompt.Image {
	out := make([]prompt.Image, 0, len(imgs))
	for _, p := range imgs {
		if p.Image.DataURL != "" {
			out = append(out, p.Image)
		}
	}
	return out
}

// Prepare takes in, in order, and returns the images that passed intake and
// the refused ones with their reasons (see the package comment for the rules).
// With opts.Vision false, images that pass are still returned (to store and
// show) but carry no DataURL, and each is also listed in skipped with
// ReasonNoVision. Prepare never fails as a whole.
func Prepare(in []Input, opts Options) (imgs []Prepared, skipped []prompt.SkippedImage) {
	opts = opts.withDefaults()
	walk(in, opts, false, prepareOne, func(_ int, name string, p *Prepared, reason string) {
		if reason != "" {
			skipped = append(skipped, prompt.SkippedImage{Path: name, Reason: reason})
			return
		}
		imgs = append(imgs, *p)
		if !opts.Vision {
			skipped = append(skipped, prompt.SkippedImage{Path: name, Reason: ReasonNoVision})
		}
	})
	return imgs, skipped
}

// Verdict is what Check says Prepare will do with one input.
type Verdict struct {
	// Name is the input's name as the manifest shows it.
	Name string
	// Reason is why the input is refused (Prepare's words); "" when it is
	// attached.
	Reason string
	// Sent is true when the image is attached and goes to the model; an
	// attached image with Sent false is only named (the model has no vision:
	// ReasonNoVision).
	Sent bool
	// MIME, Width and Height describe an attached image as sniffed.
	MIME          string
	Width, Height int
}

// Check says, for each input in order, what Prepare would do with it, by the
// same rules (read and size limits, sniffing, the header's dimensions and the
// pixel limit, duplicates, the per-message count) without decoding pixels or
// scaling: it is cheap enough to run as each image is added. An image whose
// header passes but whose pixels do not decode is refused only by Prepare.
func Check(in []Input, opts Options) []Verdict {
	opts = opts.withDefaults()
	out := make([]Verdict, len(in))
	header := func(name string, data []byte, mime string, opts Options) (Prepared, string) {
		cfg, reason := checkHeader(data, mime, opts)
		if reason != "" {
			return Prepared{}, reason
		}
		return Prepared{OriginalMIME: mime, Width: cfg.Width, Height: cfg.Height, Image: prompt.Image{Path: name}}, ""
	}
	walk(in, opts, true, header, func(i int, name string, p *Prepared, reason string) {
		out[i] = Verdict{Name: name, Reason: reason}
		if reason == "" {
			out[i].Sent = opts.Vision
			out[i].MIME, out[i].Width, out[i].Height = p.OriginalMIME, p.Width, p.Height
		}
	})
	return out
}

// walk runs the intake rules over in, in order: it reads and sniffs each
// input, refuses duplicates and inputs past the count limit, and hands the
// rest to prep. It calls done once per input, in order, with the prepared
// image or the reason it was refused, except for an input naming the same
// path as an earlier one, which Prepare leaves out silently (sayAll false).
func walk(in []Input, opts Options, sayAll bool, prep func(name string, data []byte, mime string, opts Options) (Prepared, string),
	done func(i int, name string, p *Prepared, reason string)) {
	seen := map[string]int{} // hash -> 1-based index among the attached
	var names []string       // the attached ones' names
	for i, inp := range in {
		name := inp.Path
		if name == "" {
			name = inp.Name
		}
		if name == "" {
			name = "image " + strconv.Itoa(i+1)
		}
		skip := func(reason string) { done(i, name, nil, reason) }
		data := inp.Bytes
		if data == nil {
			var reason string
			data, reason = readFile(inp.Path, opts.MaxIntakeBytes)
			if reason != "" {
				skip(reason)
				continue
			}
		}
		if int64(len(data)) > opts.MaxIntakeBytes {
			skip(tooLarge(int64(len(data)), opts.MaxIntakeBytes))
			continue
		}
		mime, ok := Sniff(data)
		if !ok {
			if f := otherFormat(data); f != "" {
				skip(f + " is not a supported image format (JPEG, PNG, GIF, WebP, BMP)")
			} else {
				skip(ReasonNotImage)
			}
			continue
		}
		hash := sha256Hex(data)
		if n, dup := seen[hash]; dup {
			// The same path twice (--image and the text) says nothing in a
			// prompt; a check still names it.
			if names[n-1] != name || sayAll {
				skip("the same image as image " + strconv.Itoa(n) + " — attached once")
			}
			continue
		}
		if len(names) >= opts.MaxImages {
			skip("attachment limit of " + strconv.Itoa(opts.MaxImages) + " images per message reached")
			continue
		}
		p, reason := prep(name, data, mime, opts)
		if reason != "" {
			skip(reason)
			continue
		}
		p.ID, p.SHA256 = inp.ID, hash
		names = append(names, name)
		seen[hash] = len(names)
		done(i, name, &p, "")
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readFile reads a regular file of at most limit bytes, or says why not.
func readFile(path string, limit int64) ([]byte, string) {
	if path == "" {
		return nil, "no file and no bytes were given"
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "could not be read: " + describeOpenErr(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, "could not be read: " + describeOpenErr(err)
	}
	if !st.Mode().IsRegular() {
		return nil, "not a regular file"
	}
	if st.Size() > limit {
		return nil, tooLarge(st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, "could not be read: " + describeOpenErr(err)
	}
	return data, ""
}

func describeOpenErr(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// tooLarge is the refusal for a file over the intake cap, with both figures
// in MiB: "40.0 MiB exceeds the 25 MiB attachment limit".
func tooLarge(size, limit int64) string {
	return mib(size) + " exceeds the " + mib(limit) + " attachment limit"
}

// mib renders a byte count in binary units: "25 MiB", "40.0 MiB",
// "48.0 KiB", "100 B".
func mib(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// prepareOne decodes one sniffed image and produces what is sent, or a
// refusal reason.
func prepareOne(name string, data []byte, mime string, opts Options) (Prepared, string) {
	if _, reason := checkHeader(data, mime, opts); reason != "" {
		return Prepared{}, reason
	}
	img, err := decode(data, mime)
	if err != nil {
		return Prepared{}, ReasonUndecodable
	}
	// A JPEG a phone stored sideways is turned upright here, and so is
	// always re-encoded: providers are not relied on to read EXIF.
	rot := 1
	if mime == MIMEJPEG {
		rot = jpegOrientation(data)
		img = orient(img, rot)
	}
	b := img.Bounds()
	p := Prepared{Original: data, OriginalMIME: mime, Width: b.Dx(), Height: b.Dy()}

	// What goes on the wire: the original when the provider takes it as it
	// is and it fits; else a re-encoding, scaled when needed.
	animated := (mime == MIMEPNG && isAPNG(data)) || (mime == MIMEGIF && gifFrames(data) > 1)
	sendAsIs := mime != MIMEBMP && !animated && rot == 1
	var wire []byte
	wireMIME := mime
	var notes []string
	if sendAsIs && fits(len(data), opts.MaxWireBase64) {
		wire = data
		p.SentWidth, p.SentHeight = p.Width, p.Height
	} else {
		res, err := fit(img, mime, len(data), sendAsIs, opts.MaxWireBase64)
		if err != nil {
			return Prepared{}, "could not be scaled under the " + mib(int64(opts.MaxWireBase64)) + " limit for one image"
		}
		wire, wireMIME = res.data, res.mime
		p.SentWidth, p.SentHeight = res.w, res.h
		if animated {
			notes = append(notes, "first frame of an animation")
		}
		if rot != 1 {
			notes = append(notes, "turned upright")
		}
		switch {
		case res.w != p.Width || res.h != p.Height:
			notes = append(notes, fmt.Sprintf("scaled from %d×%d to %d×%d (%s)", p.Width, p.Height, res.w, res.h, formatName(wireMIME)))
		case mime == MIMEBMP:
			notes = append(notes, "BMP converted to "+formatName(wireMIME))
		case animated:
			notes[len(notes)-1] += ", as " + formatName(wireMIME)
		default:
			notes = append(notes, "re-encoded as "+formatName(wireMIME))
		}
	}
	p.Image = prompt.Image{Path: name, MIME: wireMIME, Size: int64(len(wire))}
	if opts.Vision {
		p.Image.DataURL = "data:" + wireMIME + ";base64," + base64.StdEncoding.EncodeToString(wire)
	}
	p.Label = strings.Join(append([]string{prompt.SizeLabel(int64(len(data)))}, notes...), ", ")
	return p, ""
}

// checkHeader reads a sniffed image's dimensions from its header and refuses
// one without any or with more pixels than opts.MaxPixels.
func checkHeader(data []byte, mime string, opts Options) (image.Config, string) {
	cfg, err := decodeConfig(data, mime)
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return cfg, ReasonUndecodable
	}
	if int64(cfg.Width)*int64(cfg.Height) > opts.MaxPixels {
		return cfg, fmt.Sprintf("%d×%d pixels is more than the %d-megapixel limit", cfg.Width, cfg.Height, opts.MaxPixels/1_000_000)
	}
	return cfg, ""
}

func formatName(mime string) string {
	switch mime {
	case MIMEJPEG:
		return "JPEG"
	case MIMEPNG:
		return "PNG"
	case MIMEGIF:
		return "GIF"
	case MIMEWebP:
		return "WebP"
	case MIMEBMP:
		return "BMP"
	}
	return mime
}

// fits reports whether n raw bytes stay within max bytes of base64.
func fits(n, max int) bool {
	return base64.StdEncoding.EncodedLen(n) <= max
}

func decodeConfig(data []byte, mime string) (image.Config, error) {
	r := bytes.NewReader(data)
	switch mime {
	case MIMEJPEG:
		return jpeg.DecodeConfig(r)
	case MIMEPNG:
		return png.DecodeConfig(r)
	case MIMEGIF:
		return gif.DecodeConfig(r)
	case MIMEWebP:
		return webp.DecodeConfig(r)
	case MIMEBMP:
		return bmp.DecodeConfig(r)
	}
	return image.Config{}, fmt.Errorf("unknown type %s", mime)
}

// decode decodes data (for a GIF, its first frame). A decoder panic (a
// malformed file reaching a decoder bug) is a decode failure, not a crash.
func decode(data []byte, mime string) (img image.Image, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("decode %s: panic: %v", mime, r)
		}
	}()
	r := bytes.NewReader(data)
	switch mime {
	case MIMEJPEG:
		return jpeg.Decode(r)
	case MIMEPNG:
		return png.Decode(r)
	case MIMEGIF:
		return gif.Decode(r)
	case MIMEWebP:
		return webp.Decode(r)
	case MIMEBMP:
		return bmp.Decode(r)
	}
	return nil, fmt.Errorf("unknown type %s", mime)
}
