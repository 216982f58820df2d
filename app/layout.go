package app

import (
	"fmt"
	"strings"
)

// Layout is the window's panes, side by side, remembered between launches
// (window.json) so the sessions a person had open come back after a restart.
// The page saves it whenever a pane opens, closes or shows another session.
type Layout struct {
	// Panes left to right: each shows one session, or a new session's
	// composer in Workspace when SessionID is "".
	Panes []Pane `json:"panes"`
	// Active is the pane the header, the sidebar and a clicked notification act on.
	Active int `json:"active"`
}

// Pane is one pane of the layout.
type Pane struct {
	SessionID string `json:"session_id"`
	Workspace string `json:"workspace"`
}

// MaxPanes is how many sessions the window shows side by side at most.
const MaxPanes = 3

// check refuses a layout the page could not have meant; the saved one is
// left as it was.
func (l Layout) check() error {
	if len(l.Panes) == 0 {
		return fmt.Errorf("%w: a layout has at least one pane", ErrInput)
	}
	if len(l.Panes) > MaxPanes {
		return fmt.Errorf("%w: at most %d panes side by side, not %d", ErrInput, MaxPanes, len(l.Panes))
	}
	if l.Active < 0 || l.Active >= len(l.Panes) {
		return fmt.Errorf("%w: active pane %d of %d", ErrInput, l.Active, len(l.Panes))
	}
	seen := map[string]bool{}
	for i, p := range l.Panes {
		if p.SessionID == "" {
			continue
		}
		if strings.TrimSpace(p.SessionID) != p.SessionID {
			return fmt.Errorf("%w: pane %d: session id %q", ErrInput, i+1, p.SessionID)
		}
		if seen[p.SessionID] {
			return fmt.Errorf("%w: session %s is in two panes", ErrInput, p.SessionID)
		}
		seen[p.SessionID] = true
	}
	return nil
}

// SaveLayout remembers the window's panes for the next launch.
func (a *App) SaveLayout(l Layout) error {
	if err := l.check(); err != nil {
		return fmt.Errorf("save layout: %w", err)
	}
	a.mu.Lock()
	a.state.Layout = &l
	st := a.state
	a.mu.Unlock()
	return saveState(a.opts.Home, st)
}

// savedLayout is the remembered layout without the sessions deleted since
// (a pane that showed one shows a new session in its folder); nil when none
// was saved or it no longer makes sense.
func (a *App) savedLayout() *Layout {
	a.mu.Lock()
	l := a.state.Layout
	a.mu.Unlock()
	if l == nil || l.check() != nil {
		return nil
	}
	// One lookup a pane (at most MaxPanes), not the list of every session
	// the page reads for its sidebar anyway.
	out := Layout{Active: l.Active, Panes: make([]Pane, len(l.Panes))}
	for i, p := range l.Panes {
		if p.SessionID != "" {
			ok, err := a.eng.SessionExists(a.ctx, p.SessionID)
			if err != nil {
				return nil
			}
			if !ok {
				p.SessionID = ""
			}
		}
		out.Panes[i] = p
	}
	return &out
}
