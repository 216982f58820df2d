//go:build !linux

package app

import "errors"

// readClipboardImage is Linux-only: elsewhere the web view hands the page a
// pasted image as a file itself.
func readClipboardImage() ([]byte, error) {
	return nil, errors.New("reading an image from the clipboard through Go is supported on Linux only; paste it in the page")
}
