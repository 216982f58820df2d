package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// windowState is remembered between launches in $VIS_HOME/desktop/window.json.
type windowState struct {
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	X         int    `json:"x"`
	Y         int    `json:"y"`
	Placed    bool   `json:"placed,omitempty"` // X and Y are meaningful
	Maximised bool   `json:"maximised,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	// Recent are the folders opened lately, newest first, at most maxRecent.
	Recent []string `json:"recent,omitempty"`
	// Layout is the window's panes and the session each showed (layout.go).
	Layout *Layout `json:"layout,omitempty"`
}

// maxRecent is how many recently opened folders the window remembers.
const maxRecent = 8

// remember puts dir first in the recent folders, once.
func (st *windowState) remember(dir string) {
	rec := []string{dir}
	for _, d := range st.Recent {
		if d != dir && len(rec) < maxRecent {
			rec = append(rec, d)
		}
	}
	st.Recent = rec
}

const (
	defaultWidth  = 1100
	defaultHeight = 760
	minWidth      = 640
	minHeight     = 420
)

func statePath(home string) string { return filepath.Join(home, "desktop", "window.json") }

// loadState reads the remembered state; a missing or unreadable file yields
// the defaults (a broken file must never stop the window from opening).
func loadState(home string) (windowState, error) {
	st := windowState{Width: defaultWidth, Height: defaultHeight}
	b, err := os.ReadFile(statePath(home))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("read window state: %w", err)
	}
	var got windowState
	if err := json.Unmarshal(b, &got); err != nil {
		return st, fmt.Errorf("parse window state %s: %w", statePath(home), err)
	}
	if got.Width < minWidth || got.Height < minHeight {
		got.Width, got.Height = defaultWidth, defaultHeight
	}
	return got, nil
}

// saveState writes the state atomically (temp file + rename).
func saveState(home string, st windowState) error {
	p := statePath(home)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("save window state: %w", err)
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("save window state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".window-*.json")
	if err != nil {
		return fmt.Errorf("save window state: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save window state: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save window state: %w", err)
	}
	return nil
}
