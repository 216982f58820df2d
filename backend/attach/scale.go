package attach

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"

	xdraw "golang.org/x/image/draw"
)

// fitResult is a re-encoded image that fits the wire limit.
type fitResult struct {
	data []byte
	mime string
	w, h int
}

var errNoFit = errors.New("image does not fit the wire limit at any size tried")

// fit re-encodes img so that its base64 stays within maxB64 bytes, scaling
// it down (aspect ratio kept) as far as needed; see the package comment for
// the PNG/JPEG choice. origLen is the size of the original encoding and
// wasSendable whether it could have gone as it is. The first lossless try is
// at full size, since a BMP or a PNG saved without compression often fits
// once compressed; it is skipped for a PNG or GIF already compressed to under
// 80 % of its raw pixel bytes, which re-compressing would not shrink.
func fit(img image.Image, mime string, origLen int, wasSendable bool, maxB64 int) (fitResult, error) {
	b := img.Bounds()
	longest := max(b.Dx(), b.Dy())
	maxRaw := float64(maxB64) / 4 * 3
	opaque := isOpaque(img)

	lossless := mime == MIMEPNG || mime == MIMEGIF || mime == MIMEBMP || (mime == MIMEWebP && !opaque)
	if lossless {
		floor := min(longest, LosslessFloor)
		s := 1.0
		if raw := b.Dx() * b.Dy() * bytesPerPixel(img, opaque); wasSendable && float64(origLen) < 0.8*float64(raw) {
			s = next(1, origLen, maxRaw)
		}
		for range 6 {
			if int(math.Round(float64(longest)*s)) < floor {
				break
			}
			r, err := encode(img, s, MIMEPNG, opaque)
			if err != nil {
				return fitResult{}, err
			}
			if fits(len(r.data), maxB64) {
				return r, nil
			}
			s = next(s, len(r.data), maxRaw)
		}
	}
	// JPEG: start at full size (a JPEG saved at high quality often fits once
	// re-encoded at jpegQuality) and shrink from there.
	s := 1.0
	for range 12 {
		if float64(longest)*s < 16 {
			break
		}
		r, err := encode(img, s, MIMEJPEG, opaque)
		if err != nil {
			return fitResult{}, err
		}
		if fits(len(r.data), maxB64) {
			return r, nil
		}
		s = next(s, len(r.data), maxRaw)
	}
	return fitResult{}, errNoFit
}

// next is the scale for the next try: encoded size grows about with the
// pixel count, so scale by the square root of the ratio, with a margin, and
// always by at least 10 %.
func next(s float64, size int, maxRaw float64) float64 {
	n := s * math.Sqrt(maxRaw/float64(size)) * 0.9
	return min(n, s*0.9)
}

// encode scales img by s and encodes it as mime (PNG or JPEG).
func encode(img image.Image, s float64, mime string, opaque bool) (fitResult, error) {
	src := img
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if s < 1 {
		w = max(1, int(math.Round(float64(w)*s)))
		h = max(1, int(math.Round(float64(h)*s)))
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.BiLinear.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
		src = dst
	}
	var buf bytes.Buffer
	switch mime {
	case MIMEPNG:
		// BestSpeed: about ten times faster than the default level on
		// photographic content for about 12 % more bytes; scaling makes
		// up the difference.
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&buf, src); err != nil {
			return fitResult{}, err
		}
	default:
		if !opaque { // JPEG has no alpha: flatten onto white, not black
			flat := image.NewRGBA(image.Rect(0, 0, w, h))
			xdraw.Draw(flat, flat.Bounds(), image.NewUniform(color.White), image.Point{}, xdraw.Src)
			xdraw.Draw(flat, flat.Bounds(), src, src.Bounds().Min, xdraw.Over)
			src = flat
		}
		if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: jpegQuality}); err != nil {
			return fitResult{}, err
		}
		mime = MIMEJPEG
	}
	return fitResult{data: buf.Bytes(), mime: mime, w: w, h: h}, nil
}

// bytesPerPixel is about what a PNG of img holds per pixel before
// compression.
func bytesPerPixel(img image.Image, opaque bool) int {
	switch img.(type) {
	case *image.Paletted, *image.Gray:
		return 1
	case *image.Gray16:
		return 2
	case *image.RGBA64, *image.NRGBA64:
		if opaque {
			return 6
		}
		return 8
	}
	if opaque {
		return 3
	}
	return 4
}

func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}
