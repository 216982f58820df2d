package backend

// Every turn is a checkpoint (issue 18): the workspace's files are
// snapshotted lazily before the turn's first program (or a person's !cmd)
// and again when the turn ends, however it ends; the figures of their diff
// (files changed, +A −D) are stored with the turn (store.TurnChanges) and
// sent in its turn-end event and transcript snapshot. TurnDiff shows a
// turn's diff; UndoTurn restores the files as they were before a turn,
// recorded as a turn of channel "undo" (its own checkpoint, so undoing it
// redoes the turn; the next turn's recap tells the model). A checkpoint
// that fails never fails the turn: it is a warning, and the turn has no
// figures.

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/visdesktop/vis/backend/checkpoint"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/store"
)

// ChannelUndo marks a turn that undid (or redid) another turn's changes.
const ChannelUndo = "undo"

type (
	// FileChange is one file of a turn's diff.
	FileChange = checkpoint.FileChange
	// UndoMode says what an undo does with files changed since the turn.
	UndoMode = checkpoint.UndoMode
	// ConflictError names the files changed since the turn; nothing was undone.
	ConflictError = checkpoint.ConflictError
	// TurnChanges is a turn's figures: files changed, +A −D, undo links.
	TurnChanges = events.TurnChanges
)

// Undo modes.
const (
	UndoRefuse    = checkpoint.UndoRefuse
	UndoRest      = checkpoint.UndoRest
	UndoOverwrite = checkpoint.UndoOverwrite
)

// ErrNoCheckpoint: the turn has no checkpoint (it ran no program, or ran
// before checkpoints existed).
var ErrNoCheckpoint = checkpoint.ErrNoCheckpoint

var (
	gitOnce, gitMissingOnce sync.Once
	gitOK                   bool
)

// gitFound reports whether the git binary checkpoints need is on PATH
// (looked up once per process; without it turns run unchecked, said once).
func gitFound() bool {
	gitOnce.Do(func() {
		_, err := exec.LookPath("git")
		gitOK = err == nil
	})
	return gitOK
}

func (e *Engine) keeper() *checkpoint.Keeper {
	return checkpoint.New(filepath.Join(e.home, "desktop", "checkpoints"), checkpoint.Options{})
}

// turnCheckpoint is one turn's checkpoint: the before snapshot is taken by
// the first program (before), the after snapshot by finish. Safe for the
// loop's goroutines.
type turnCheckpoint struct {
	e    *Engine
	sid  string
	ws   string
	mu   sync.Mutex
	turn int64 // the store's turn id, from the loop's OnStart
	took bool  // the before snapshot exists
}

func (e *Engine) newTurnCheckpoint(sid, ws string) *turnCheckpoint {
	return &turnCheckpoint{e: e, sid: sid, ws: ws}
}

// start names the turn (its store id).
func (c *turnCheckpoint) start(turn int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.turn = turn
	c.mu.Unlock()
}

// before takes the before snapshot once, before the turn's first program.
func (c *turnCheckpoint) before(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.took || c.turn == 0 {
		return
	}
	if !gitFound() {
		gitMissingOnce.Do(func() {
			c.e.broker.Publish(eventWarning(c.sid, "Turns are not checkpointed: git is not installed (a turn's diff and undo need it)."))
		})
		return
	}
	if _, err := c.e.keeper().Take(context.WithoutCancel(ctx), c.ws, c.turn, checkpoint.Before); err != nil {
		c.e.broker.Publish(eventWarning(c.sid, "The workspace could not be checkpointed before the program: "+err.Error()))
		return
	}
	c.took = true
}

// finish takes the after snapshot when the turn had a before one, stores
// the figures and returns them (nil when there is no checkpoint).
func (c *turnCheckpoint) finish(ctx context.Context) *TurnChanges {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.took {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	k := c.e.keeper()
	if _, err := k.Take(ctx, c.ws, c.turn, checkpoint.After); err != nil {
		c.e.broker.Publish(eventWarning(c.sid, "The workspace could not be checkpointed after the turn: "+err.Error()))
		return nil
	}
	ch, err := k.Diff(ctx, c.ws, c.turn, false)
	if err != nil {
		c.e.broker.Publish(eventWarning(c.sid, "The turn's changes could not be listed: "+err.Error()))
		return nil
	}
	s := ch.Summary()
	if err := c.e.store.SetTurnChanges(ctx, store.TurnChanges{TurnID: c.turn, Files: s.Files, Added: s.Added, Deleted: s.Deleted}); err != nil {
		c.e.broker.Publish(eventWarning(c.sid, "The turn's changes could not be saved: "+err.Error()))
	}
	return &TurnChanges{Files: s.Files, Added: s.Added, Deleted: s.Deleted}
}

// withChanges puts a turn's figures into its turn-end event.
func withChanges(ev events.Event, ch *TurnChanges) events.Event {
	if te, ok := ev.Data.(events.TurnEnd); ok && ch != nil {
		te.Changes = ch
		ev.Data = te
	}
	return ev
}

// addChanges fills the transcript's turns' figures and undo links.
func (e *Engine) addChanges(ctx context.Context, id string, turns []store.Turn, tv []TurnView) {
	cs, err := e.store.SessionChanges(ctx, id)
	if err != nil || len(cs) == 0 {
		return
	}
	pos := map[int64]int{}
	for _, t := range turns {
		pos[t.ID] = t.Position
	}
	for i := range tv {
		if i >= len(turns) {
			break
		}
		c, ok := cs[turns[i].ID]
		if !ok {
			continue
		}
		tv[i].Changes = &TurnChanges{Files: c.Files, Added: c.Added, Deleted: c.Deleted, UndoOf: pos[c.UndoOf], UndoneBy: pos[c.UndoneBy]}
	}
}

// TurnDiff is a turn's diff.
type TurnDiff struct {
	SessionID string       `json:"session_id"`
	Turn      int          `json:"turn"`
	Files     []FileChange `json:"files"`
	Added     int          `json:"added"`
	Deleted   int          `json:"deleted"`
	UndoOf    int          `json:"undo_of,omitempty"`   // this turn undid that one
	UndoneBy  int          `json:"undone_by,omitempty"` // that turn undid this one
}

// findTurn returns the session's turn at position n, or with n 0 the
// latest turn with a checkpoint.
func (e *Engine) findTurn(ctx context.Context, sid string, n int) (store.Session, store.Turn, map[int64]store.TurnChanges, error) {
	s, err := e.store.GetSession(ctx, sid)
	if err != nil {
		return s, store.Turn{}, nil, err
	}
	turns, err := e.store.ListTurns(ctx, sid)
	if err != nil {
		return s, store.Turn{}, nil, err
	}
	cs, err := e.store.SessionChanges(ctx, sid)
	if err != nil {
		return s, store.Turn{}, nil, err
	}
	for i := len(turns) - 1; i >= 0; i-- {
		t := turns[i]
		if n == 0 {
			if _, ok := cs[t.ID]; ok && e.keeper().Has(s.Workspace, t.ID) {
				return s, t, cs, nil
			}
			continue
		}
		if t.Position == n {
			return s, t, cs, nil
		}
	}
	if n == 0 {
		return s, store.Turn{}, cs, fmt.Errorf("session %s: %w (no turn has changed files yet)", sid, ErrNoCheckpoint)
	}
	return s, store.Turn{}, cs, fmt.Errorf("session %s has no turn %d", sid, n)
}

// TurnDiff returns what turn n (0: the latest turn with a checkpoint) of
// the session changed, each file with its unified diff when patch is set.
func (e *Engine) TurnDiff(ctx context.Context, sessionID string, n int, patch bool) (TurnDiff, error) {
	s, t, cs, err := e.findTurn(ctx, sessionID, n)
	if err != nil {
		return TurnDiff{}, err
	}
	ch, err := e.keeper().Diff(ctx, s.Workspace, t.ID, patch)
	if err != nil {
		return TurnDiff{}, fmt.Errorf("turn %d: %w", t.Position, err)
	}
	d := TurnDiff{SessionID: sessionID, Turn: t.Position, Files: ch.Files, Added: ch.Added, Deleted: ch.Deleted}
	if c, ok := cs[t.ID]; ok {
		d.UndoOf, d.UndoneBy = e.positionOf(ctx, sessionID, c.UndoOf), e.positionOf(ctx, sessionID, c.UndoneBy)
	}
	return d, nil
}

func (e *Engine) positionOf(ctx context.Context, sid string, turnID int64) int {
	if turnID == 0 {
		return 0
	}
	t, err := e.store.GetTurn(ctx, turnID)
	if err != nil || t.SessionID != sid {
		return 0
	}
	return t.Position
}

// UndoView is what an undo did.
type UndoView struct {
	SessionID   string   `json:"session_id"`
	Turn        int      `json:"turn"`      // the turn undone
	UndoTurn    int      `json:"undo_turn"` // the undo's own turn (undo it to redo)
	Restored    []string `json:"restored"`
	Removed     []string `json:"removed"`
	Skipped     []string `json:"skipped,omitempty"`
	NotRestored []string `json:"not_restored,omitempty"`
	// Held: a revert asked for while a turn runs, applied when it ends.
	Held bool `json:"held,omitempty"`
}

// ErrUndoBusy: the session runs a turn (here or in another process); an
// undo waits for it to end.
var ErrUndoBusy = errors.New("the session is running a turn: undo when it ends")

// UndoTurn puts the workspace's files back as they were before turn n (0:
// the latest turn with a checkpoint). Files changed since the turn are a
// *ConflictError (nothing undone) unless mode says to skip or overwrite
// them. The undo is recorded as a turn of channel "undo": the transcript
// shows it, the next turn's recap tells the model, and undoing it redoes
// turn n.
func (e *Engine) UndoTurn(ctx context.Context, sessionID string, n int, mode UndoMode) (UndoView, error) {
	v, publish, err := e.undoTurn(ctx, sessionID, n, mode)
	publish() // after the session's lock is released: a subscriber may call back
	return v, err
}

// undoTurn is UndoTurn holding the session's control lock (no turn of it
// starts here meanwhile); publish sends what the undo's events are.
func (e *Engine) undoTurn(ctx context.Context, sessionID string, n int, mode UndoMode) (UndoView, func(), error) {
	var evs []events.Event
	publish := func() { e.publishUndo(sessionID, evs) }
	v, err := func() (UndoView, error) {
		if rt := e.lookup(sessionID); rt != nil {
			rt.ctlMu.Lock()
			defer rt.ctlMu.Unlock()
			if rt.ctl.running != nil {
				return UndoView{}, ErrUndoBusy
			}
		}
		return e.undoLocked(ctx, sessionID, n, mode, &evs)
	}()
	return v, publish, err
}

func (e *Engine) undoLocked(ctx context.Context, sessionID string, n int, mode UndoMode, evs *[]events.Event) (UndoView, error) {
	if other, err := e.store.ClaimedElsewhere(ctx, sessionID); err != nil {
		return UndoView{}, err
	} else if other != "" {
		return UndoView{}, ErrUndoBusy
	}
	s, t, cs, err := e.findTurn(ctx, sessionID, n)
	if err != nil {
		return UndoView{}, err
	}
	verb := "Undo"
	if c := cs[t.ID]; c.UndoOf != 0 {
		verb = "Redo" // undoing an undo
	}
	return e.recordUndo(ctx, sessionID, s, t, undoOp{
		request: fmt.Sprintf("%s turn %d", verb, t.Position),
		answer:  func(r checkpoint.UndoResult) string { return undoAnswer(verb, t.Position, r) },
		link:    true,
		run: func(bg context.Context, into func() (int64, error)) (checkpoint.UndoResult, error) {
			return e.keeper().Undo(bg, s.Workspace, t.ID, mode, into)
		},
	}, evs)
}

// undoOp is one way of putting files back (a whole turn, one file, one
// hunk), recorded the same way.
type undoOp struct {
	request string                             // the undo turn's request
	answer  func(checkpoint.UndoResult) string // its answer (the next recap shows it)
	link    bool                               // a whole turn: the two turns name each other
	run     func(context.Context, func() (int64, error)) (checkpoint.UndoResult, error)
}

// recordUndo runs op on turn t as a turn of channel "undo": its own
// checkpoint, figures and answer, its events appended to evs.
func (e *Engine) recordUndo(ctx context.Context, sessionID string, s store.Session, t store.Turn, op undoOp, evs *[]events.Event) (UndoView, error) {
	if !e.keeper().Has(s.Workspace, t.ID) {
		return UndoView{}, fmt.Errorf("turn %d: %w", t.Position, ErrNoCheckpoint)
	}
	bg := context.WithoutCancel(ctx)
	started := time.Now()
	var undo store.Turn
	res, err := op.run(bg, func() (int64, error) {
		var err error
		undo, err = e.store.StartTurn(bg, sessionID, op.request, ChannelUndo)
		return undo.ID, err
	})
	if err != nil {
		if undo.ID != 0 {
			_ = e.store.FinishTurn(bg, undo.ID, store.TurnOutcome{Status: store.TurnError, Error: err.Error(), DurationMs: time.Since(started).Milliseconds()})
			*evs = append(*evs, events.Event{SessionID: sessionID, Data: events.SessionChanged{}})
		}
		return UndoView{}, err
	}
	answer := op.answer(res)
	if err := e.store.FinishTurn(bg, undo.ID, store.TurnOutcome{Status: store.TurnDone, Answer: answer, DurationMs: time.Since(started).Milliseconds()}); err != nil {
		return UndoView{}, err
	}
	var fig TurnChanges
	if ch, err := e.keeper().Diff(bg, s.Workspace, undo.ID, false); err == nil {
		sum := ch.Summary()
		fig = TurnChanges{Files: sum.Files, Added: sum.Added, Deleted: sum.Deleted}
	}
	row := store.TurnChanges{TurnID: undo.ID, Files: fig.Files, Added: fig.Added, Deleted: fig.Deleted}
	if op.link {
		row.UndoOf = t.ID
	}
	if err := e.store.SetTurnChanges(bg, row); err != nil {
		return UndoView{}, err
	}
	if op.link {
		if err := e.store.MarkUndone(bg, t.ID, undo.ID); err != nil {
			return UndoView{}, err
		}
		fig.UndoOf = t.Position
	}
	pub := func(p events.Payload) {
		*evs = append(*evs, events.Event{SessionID: sessionID, Turn: undo.Position, Data: p})
	}
	pub(events.TurnStart{Request: op.request, Channel: ChannelUndo})
	pub(events.TurnEnd{Status: store.TurnDone, Answer: answer, DurationMs: time.Since(started).Milliseconds(), Changes: &fig})
	return UndoView{SessionID: sessionID, Turn: t.Position, UndoTurn: undo.Position, Restored: nonNil(res.Restored), Removed: nonNil(res.Removed), Skipped: res.Skipped, NotRestored: res.NotRestored}, nil
}

// heldRevert is a revert asked for while a turn ran, applied when it ends.
type heldRevert struct {
	turn int
	path string
	hunk int
	mode UndoMode
}

// RevertChange takes back part of turn n's changes, from its diff: one
// file (hunk < 0; a renamed file under both names), or hunk (0-based, in
// the file's patch as TurnDiff shows it) of a modified text file, leaving
// the rest of the file as it is. A file changed since the turn is a
// *ConflictError (nothing changed) unless mode is UndoOverwrite (files
// only; a hunk whose lines changed since cannot be taken back). It is
// recorded like UndoTurn, as a turn of channel "undo" the next recap
// shows the model and which can itself be undone. While the session runs a
// turn in this process the revert is held (the answer says Held) and
// applied when that turn ends, before the next input starts; a held revert
// that fails then is a warning event.
func (e *Engine) RevertChange(ctx context.Context, sessionID string, n int, path string, hunk int, mode UndoMode) (UndoView, error) {
	var evs []events.Event
	v, err := func() (UndoView, error) {
		if rt := e.lookup(sessionID); rt != nil {
			rt.ctlMu.Lock()
			defer rt.ctlMu.Unlock()
			if rt.ctl.running != nil {
				if _, _, _, err := e.findTurn(ctx, sessionID, n); err != nil {
					return UndoView{}, err
				}
				rt.ctl.held = append(rt.ctl.held, heldRevert{turn: n, path: path, hunk: hunk, mode: mode})
				return UndoView{SessionID: sessionID, Turn: n, Held: true, Restored: []string{}, Removed: []string{}}, nil
			}
		}
		return e.revertLocked(ctx, sessionID, n, path, hunk, mode, &evs)
	}()
	e.publishUndo(sessionID, evs)
	return v, err
}

func (e *Engine) publishUndo(sessionID string, evs []events.Event) {
	for _, ev := range evs {
		e.broker.Publish(ev)
	}
	if len(evs) > 0 {
		e.publishSession(sessionID)
	}
}

// applyHeld applies the reverts held while the session's turn ran; the
// caller holds rt.ctlMu and no job runs. It returns what publishes their
// events.
func (e *Engine) applyHeld(rt *sessionRT, id string) func() {
	held := rt.ctl.held
	rt.ctl.held = nil
	if len(held) == 0 {
		return func() {}
	}
	var evs []events.Event
	for _, h := range held {
		if _, err := e.revertLocked(e.ctx, id, h.turn, h.path, h.hunk, h.mode, &evs); err != nil {
			what := h.path
			if h.hunk >= 0 {
				what = fmt.Sprintf("hunk %d of %s", h.hunk+1, h.path)
			}
			evs = append(evs, eventWarning(id, fmt.Sprintf("The revert of %s in turn %d, held while a turn ran, was not applied: %v", what, h.turn, err)))
		}
	}
	return func() { e.publishUndo(id, evs) }
}

func (e *Engine) revertLocked(ctx context.Context, sessionID string, n int, path string, hunk int, mode UndoMode, evs *[]events.Event) (UndoView, error) {
	if other, err := e.store.ClaimedElsewhere(ctx, sessionID); err != nil {
		return UndoView{}, err
	} else if other != "" {
		return UndoView{}, ErrUndoBusy
	}
	if n < 1 || strings.TrimSpace(path) == "" {
		return UndoView{}, fmt.Errorf("revert: need a turn and a file (got %d, %q)", n, path)
	}
	s, t, _, err := e.findTurn(ctx, sessionID, n)
	if err != nil {
		return UndoView{}, err
	}
	op := undoOp{
		request: fmt.Sprintf("Revert %s in turn %d", path, t.Position),
		answer: func(r checkpoint.UndoResult) string {
			return fmt.Sprintf("The person reverted turn %d's change to %s: it is back as it was before that turn (the turn's other changes stay).%s", t.Position, path, revertList(r))
		},
		run: func(bg context.Context, into func() (int64, error)) (checkpoint.UndoResult, error) {
			return e.keeper().RevertFile(bg, s.Workspace, t.ID, path, mode, into)
		},
	}
	if hunk >= 0 {
		op.request = fmt.Sprintf("Revert hunk %d of %s in turn %d", hunk+1, path, t.Position)
		op.answer = func(checkpoint.UndoResult) string {
			return fmt.Sprintf("The person reverted hunk %d of turn %d's change to %s: those lines are back as they were before that turn; the rest of the file is as it was.", hunk+1, t.Position, path)
		}
		op.run = func(bg context.Context, into func() (int64, error)) (checkpoint.UndoResult, error) {
			return e.keeper().RevertHunk(bg, s.Workspace, t.ID, path, hunk, into)
		}
	}
	return e.recordUndo(ctx, sessionID, s, t, op, evs)
}

// revertList names what a file revert restored and removed.
func revertList(r checkpoint.UndoResult) string {
	var b strings.Builder
	if len(r.Restored) > 0 {
		fmt.Fprintf(&b, " Restored: %s.", strings.Join(r.Restored, ", "))
	}
	if len(r.Removed) > 0 {
		fmt.Fprintf(&b, " Removed (created by the turn): %s.", strings.Join(r.Removed, ", "))
	}
	if len(r.NotRestored) > 0 {
		fmt.Fprintf(&b, " Not restored (too large to have been kept): %s.", strings.Join(r.NotRestored, ", "))
	}
	return b.String()
}

// undoAnswer is the undo turn's answer, which the next turn's recap shows
// the model: which turn was undone and which files are back.
func undoAnswer(verb string, pos int, r checkpoint.UndoResult) string {
	var b strings.Builder
	if verb == "Redo" {
		fmt.Fprintf(&b, "Turn %d (an undo) was undone: the files it restored have the contents they had before it again.", pos)
	} else {
		fmt.Fprintf(&b, "Turn %d was undone: the files it changed are back as they were before it; its edits are gone.", pos)
	}
	list := func(label string, ps []string) {
		if len(ps) == 0 {
			return
		}
		const max = 20
		shown := ps
		if len(ps) > max {
			shown = ps[:max]
		}
		fmt.Fprintf(&b, " %s: %s", label, strings.Join(shown, ", "))
		if len(ps) > max {
			fmt.Fprintf(&b, " and %d more", len(ps)-max)
		}
		b.WriteString(".")
	}
	list("Restored", r.Restored)
	list("Removed (created by the turn)", r.Removed)
	list("Left as they are (changed since)", r.Skipped)
	list("Not restored (too large to have been kept)", r.NotRestored)
	return b.String()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// SessionFile is one file a session's turns changed: the turns that
// changed it (undo turns included) and its net change over the session.
type SessionFile struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"` // renamed from, over the session
	// Status is the net change: added, deleted, modified, renamed, binary,
	// too-large, or "unchanged" when the session's turns changed it and
	// then put it back.
	Status  string `json:"status"`
	Turns   []int  `json:"turns"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	Binary  bool   `json:"binary,omitempty"`
}

// SessionChanges is every file a session's turns touched.
type SessionChanges struct {
	SessionID string        `json:"session_id"`
	Files     []SessionFile `json:"files"`
	Added     int           `json:"added"`   // net, over all the files
	Deleted   int           `json:"deleted"` // net
	// From and To are the first and last turns with a checkpoint: the net
	// change is from before From to after To (what the person changed
	// between turns included).
	From int `json:"from"`
	To   int `json:"to"`
}

// StatusUnchanged: a session file its turns changed and then put back.
const StatusUnchanged = "unchanged"

// sessionTurns is the session's turns with a checkpoint, in order.
func (e *Engine) sessionTurns(ctx context.Context, sid string) (store.Session, []store.Turn, error) {
	s, err := e.store.GetSession(ctx, sid)
	if err != nil {
		return s, nil, err
	}
	turns, err := e.store.ListTurns(ctx, sid)
	if err != nil {
		return s, nil, err
	}
	cs, err := e.store.SessionChanges(ctx, sid)
	if err != nil {
		return s, nil, err
	}
	k := e.keeper()
	var out []store.Turn
	for _, t := range turns {
		if c, ok := cs[t.ID]; ok && c.Files > 0 && k.Has(s.Workspace, t.ID) {
			out = append(out, t)
		}
	}
	return s, out, nil
}

// SessionChanges lists every file the session's turns changed, each with
// the turns that changed it and its net change from before the first such
// turn to after the last one.
func (e *Engine) SessionChanges(ctx context.Context, sessionID string) (SessionChanges, error) {
	out := SessionChanges{SessionID: sessionID, Files: []SessionFile{}}
	s, turns, err := e.sessionTurns(ctx, sessionID)
	if err != nil || len(turns) == 0 {
		return out, err
	}
	k := e.keeper()
	byPath := map[string]*SessionFile{}
	var order []string
	for _, t := range turns {
		ch, err := k.Diff(ctx, s.Workspace, t.ID, false)
		if err != nil {
			return out, fmt.Errorf("turn %d: %w", t.Position, err)
		}
		for _, f := range ch.Files {
			for _, p := range []string{f.OldPath, f.Path} {
				if p == "" {
					continue
				}
				sf := byPath[p]
				if sf == nil {
					sf = &SessionFile{Path: p, Status: StatusUnchanged}
					byPath[p] = sf
					order = append(order, p)
				}
				if n := len(sf.Turns); n == 0 || sf.Turns[n-1] != t.Position {
					sf.Turns = append(sf.Turns, t.Position)
				}
			}
		}
	}
	out.From, out.To = turns[0].Position, turns[len(turns)-1].Position
	net, err := k.DiffRange(ctx, s.Workspace, turns[0].ID, turns[len(turns)-1].ID, order, false)
	if err != nil {
		return out, err
	}
	for _, f := range net.Files {
		sf := byPath[f.Path]
		if sf == nil { // a rename's new name that only the net diff pairs
			continue
		}
		sf.Status, sf.Added, sf.Deleted, sf.Binary = f.Status, f.Added, f.Deleted, f.Binary
		if f.OldPath != "" {
			sf.OldPath = f.OldPath
			if old := byPath[f.OldPath]; old != nil && old.Status == StatusUnchanged {
				delete(byPath, f.OldPath) // shown under its new name
				sf.Turns = mergeTurns(sf.Turns, old.Turns)
			}
		}
	}
	for _, p := range order {
		if sf := byPath[p]; sf != nil {
			out.Files = append(out.Files, *sf)
		}
	}
	slices.SortFunc(out.Files, func(a, b SessionFile) int { return strings.Compare(a.Path, b.Path) })
	out.Added, out.Deleted = net.Added, net.Deleted
	return out, nil
}

func mergeTurns(a, b []int) []int {
	m := append(slices.Clone(a), b...)
	slices.Sort(m)
	return slices.Compact(m)
}

// SessionFileDiff is one file's net diff over the session (SessionChanges'
// range), with its unified patch; a file with no net change has Status
// "unchanged" and no patch.
func (e *Engine) SessionFileDiff(ctx context.Context, sessionID, path string) (FileChange, error) {
	s, turns, err := e.sessionTurns(ctx, sessionID)
	if err != nil {
		return FileChange{}, err
	}
	if len(turns) == 0 {
		return FileChange{}, fmt.Errorf("session %s: %w (no turn has changed files yet)", sessionID, ErrNoCheckpoint)
	}
	net, err := e.keeper().DiffRange(ctx, s.Workspace, turns[0].ID, turns[len(turns)-1].ID, []string{path}, true)
	if err != nil {
		return FileChange{}, err
	}
	for _, f := range net.Files {
		if f.Path == path || f.OldPath == path {
			return f, nil
		}
	}
	return FileChange{Path: path, Status: StatusUnchanged}, nil
}

// dropCheckpoints removes a deleted session's snapshots (its turn_changes
// rows went with its turns): the whole shadow repository when no session
// uses the workspace any more, else the session's turns' refs and the
// objects only they needed. A failure is a warning: the session is gone.
func (e *Engine) dropCheckpoints(ctx context.Context, s store.Session, turns []store.Turn) {
	if s.Workspace == "" || !gitFound() {
		return
	}
	ctx = context.WithoutCancel(ctx)
	k := e.keeper()
	others, err := e.store.ListSessions(ctx, s.Workspace)
	if err == nil && len(others) == 0 {
		err = k.RemoveWorkspace(ctx, s.Workspace)
	} else if err == nil {
		ids := make([]int64, len(turns))
		for i, t := range turns {
			ids[i] = t.ID
		}
		err = k.Drop(ctx, s.Workspace, ids)
	}
	if err != nil {
		e.broker.Publish(eventWarning(s.ID, "The deleted session's checkpoints could not be removed: "+err.Error()))
	}
}
