package app

// Pasting an image the page cannot see. WebKitGTK hands the page no file
// for an image on the clipboard; PasteImage reads it on the Go side
// (readClipboardImage) and hands it to the page as a dropped file: saved
// once per content under $VIS_HOME/desktop/pasted, its path servable as a
// drop's preview (DroppedPath) and sent by path, so a paste and a drop take
// one road through intake. Saved pastes older than pastedKeep are removed
// at the next paste.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/visdesktop/vis/backend/attach"
)

// pastedKeep is how long a saved paste stays on disk.
const pastedKeep = 7 * 24 * time.Hour

// PasteImage reads an image from the system clipboard and returns it as a
// dropped file (Path set; Name empty, the page names pastes). An empty
// ImageInput means the clipboard holds no image; an error says why one
// could not be read or kept.
func (a *App) PasteImage() (ImageInput, error) {
	b, err := readClipboardImage()
	if err != nil {
		return ImageInput{}, fmt.Errorf("paste: %w", err)
	}
	if len(b) == 0 {
		return ImageInput{}, nil
	}
	p, err := savePasted(filepath.Join(a.opts.Home, "desktop", "pasted"), b, time.Now())
	if err != nil {
		return ImageInput{}, fmt.Errorf("paste: %w", err)
	}
	a.dropped.add([]string{p})
	return ImageInput{Path: p}, nil
}

// savePasted writes b to dir as <sha256 prefix>.<type> (once: the same
// bytes pasted again reuse the file) and removes pastes older than
// pastedKeep. It returns the file's absolute path.
func savePasted(dir string, b []byte, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("keep the pasted image: %w", err)
	}
	if old, err := os.ReadDir(dir); err == nil {
		for _, e := range old {
			if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > pastedKeep {
				_ = os.Remove(filepath.Join(dir, e.Name())) // best effort: an old paste left is harmless
			}
		}
	}
	ext := "png"
	if mime, ok := attach.Sniff(b); ok {
		ext = map[string]string{attach.MIMEJPEG: "jpg", attach.MIMEGIF: "gif", attach.MIMEWebP: "webp", attach.MIMEBMP: "bmp"}[mime]
		if ext == "" {
			ext = "png"
		}
	}
	sum := sha256.Sum256(b)
	abs, err := filepath.Abs(filepath.Join(dir, hex.EncodeToString(sum[:8])+"."+ext))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err == nil {
		_ = os.Chtimes(abs, now, now) // pasted again: kept another pastedKeep
		return abs, nil
	}
	tmp := abs + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return "", fmt.Errorf("keep the pasted image: %w", err)
	}
	if err := os.Rename(tmp, abs); err != nil {
		return "", fmt.Errorf("keep the pasted image: %w", err)
	}
	return abs, nil
}
