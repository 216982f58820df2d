package attach

import (
	"bytes"
	"encoding/binary"
)

// Media types Sniff reports.
const (
	MIMEJPEG = "image/jpeg"
	MIMEPNG  = "image/png"
	MIMEGIF  = "image/gif"
	MIMEWebP = "image/webp"
	MIMEBMP  = "image/bmp"
)

var pngSig = []byte("\x89PNG\r\n\x1a\n")

// Sniff names the image type of b from its leading bytes alone (a file's
// name is never consulted): JPEG, PNG, GIF, WebP or BMP. ok is false for
// anything else, including text renamed to .png. Sniff only reads the header:
// a truncated or corrupt file can still sniff as an image; decoding is what
// proves it is pixels.
//
// An animated PNG (APNG) sniffs as image/png: it is a valid PNG whose default
// image every decoder shows. Prepare sends that still image re-encoded as a
// plain PNG, so no provider ever receives animation chunks.
func Sniff(b []byte) (mime string, ok bool) {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return MIMEJPEG, true
	case bytes.HasPrefix(b, pngSig):
		return MIMEPNG, true
	case bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a")):
		return MIMEGIF, true
	case len(b) >= 16 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP" &&
		(string(b[12:16]) == "VP8 " || string(b[12:16]) == "VP8L" || string(b[12:16]) == "VP8X"):
		return MIMEWebP, true
	case isBMP(b):
		return MIMEBMP, true
	}
	return "", false
}

// isBMP requires "BM" and a known DIB header size, so that text which happens
// to start with "BM" is not taken for a bitmap.
func isBMP(b []byte) bool {
	if len(b) < 26 || b[0] != 'B' || b[1] != 'M' {
		return false
	}
	switch binary.LittleEndian.Uint32(b[14:18]) {
	case 12, 40, 52, 56, 64, 108, 124:
		return true
	}
	return false
}

// otherFormat names a common image or document format that providers do not
// take, so the refusal can say what the file is. "" when unknown.
func otherFormat(b []byte) string {
	head := b
	if len(head) > 512 {
		head = head[:512]
	}
	switch {
	case bytes.HasPrefix(b, []byte("II*\x00")) || bytes.HasPrefix(b, []byte("MM\x00*")):
		return "TIFF"
	case len(b) >= 12 && string(b[4:8]) == "ftyp":
		switch string(b[8:12]) {
		case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1":
			return "HEIC"
		case "avif", "avis":
			return "AVIF"
		}
	case bytes.HasPrefix(b, []byte("%PDF-")):
		return "PDF"
	case bytes.Contains(bytes.ToLower(head), []byte("<svg")):
		return "SVG"
	case bytes.HasPrefix(b, []byte{0, 0, 1, 0}) && len(b) >= 6:
		return "ICO"
	}
	return ""
}

// isAPNG reports whether a PNG carries an animation control chunk before its
// first image data.
func isAPNG(b []byte) bool {
	i := len(pngSig)
	for i+8 <= len(b) {
		n := int(binary.BigEndian.Uint32(b[i : i+4]))
		typ := string(b[i+4 : i+8])
		switch typ {
		case "acTL":
			return true
		case "IDAT", "IEND":
			return false
		}
		if n < 0 || n > len(b) {
			return false
		}
		i += 12 + n // length, type, data, CRC
	}
	return false
}

// gifFrames counts the image descriptors of a GIF, stopping at 2 (all that
// matters is "animated or not") or at the first malformed block.
func gifFrames(b []byte) int {
	if len(b) < 13 {
		return 0
	}
	i := 13
	if b[10]&0x80 != 0 { // global colour table
		i += 3 << (int(b[10]&7) + 1)
	}
	frames := 0
	skipSubBlocks := func() bool {
		for i < len(b) {
			n := int(b[i])
			i++
			if n == 0 {
				return true
			}
			i += n
		}
		return false
	}
	for i < len(b) && frames < 2 {
		switch b[i] {
		case 0x21: // extension: introducer, label, sub-blocks
			i += 2
			if !skipSubBlocks() {
				return frames
			}
		case 0x2C: // image descriptor
			frames++
			if i+10 > len(b) {
				return frames
			}
			flags := b[i+9]
			i += 10
			if flags&0x80 != 0 { // local colour table
				i += 3 << (int(flags&7) + 1)
			}
			i++ // LZW minimum code size
			if !skipSubBlocks() {
				return frames
			}
		default: // trailer (0x3B) or garbage
			return frames
		}
	}
	return frames
}
