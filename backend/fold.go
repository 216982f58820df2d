package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/loop"
	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/sandbox/hostfn"
	"github.com/visdesktop/vis/backend/store"
)

// foldSessionDoc is the doc of the fold_session builtin: its first line is
// the summary apropos and doc() show.
const foldSessionDoc = `Fold settled work out of your context; a one-line gist stands for it from then on.
key names settled work: ` + loop.FoldGrammar + `.
Turns are tN (results are headed "# tN/iM"), iterations tN/iM; session["scope"] says where you are now. Only settled work folds: never the iteration running now.
gist is one line, 1–500 characters: the paths, findings, decisions and open questions you still need. A gist is all that survives of the folded work, so write it before you fold and check it names what you will need.
Effects: this turn's folded iterations (their programs and outputs) leave the next request and a "# ⋯ folded t4/i1-i3 · <gist>" line takes their place on the next result; a folded earlier turn shows as "# ⋯ folded turn(s) 1, 2 · <gist>" and folded iterations of it as "(folded) <gist>" in CONVERSATION-SO-FAR, now and in later turns. Nothing is deleted: the transcript and the store keep everything; only what you are sent changes.
Fold when session["utilization"]["hint"] says FOLD SOON or FOLD NOW, or when a long stretch of work is settled (found, fixed, verified).
Returns {"folded": normalised key, "iterations": how many, "chars_saved": n, "tokens_saved": estimate}.
Example: fold_session("-t3/i7", "config in conf/app.yml; bug is the unrounded VAT in cart/total.go:41; tests: go test ./cart/")`

// foldBook is a session's folds, loaded from the store at every turn start
// and extended by fold_session during the turn. Safe for concurrent use.
type foldBook struct {
	mu    sync.Mutex
	folds []store.Fold
}

func (b *foldBook) load(ctx context.Context, st *store.Store, sessionID string) error {
	folds, err := st.ListFolds(ctx, sessionID)
	if err != nil {
		return fmt.Errorf("load folds: %w", err)
	}
	b.mu.Lock()
	b.folds = folds
	b.mu.Unlock()
	return nil
}

func (b *foldBook) add(f store.Fold) {
	b.mu.Lock()
	b.folds = append(b.folds, f)
	b.mu.Unlock()
}

// apply returns the recap with the session's folds applied (see foldRecaps).
func (b *foldBook) apply(prev []prompt.TurnRecap) []prompt.TurnRecap {
	b.mu.Lock()
	folds := b.folds
	b.mu.Unlock()
	return foldRecaps(prev, folds)
}

// foldRecaps marks the prior turns the folds cover: a turn some fold covers
// whole gets the newest such fold (turns folded whole by one fold share its
// line), and the iterations folds cover in the other turns get IterFolds,
// oldest first. prev is not modified.
func foldRecaps(prev []prompt.TurnRecap, folds []store.Fold) []prompt.TurnRecap {
	if len(folds) == 0 {
		return prev
	}
	out := append([]prompt.TurnRecap(nil), prev...)
	at := map[int]int{}
	for i, t := range out {
		at[t.Position] = i
	}
	wholeBy := map[int]int{} // turn -> newest fold that covers it whole
	for fi, f := range folds {
		for _, sp := range f.Spans {
			if sp.Whole() {
				wholeBy[sp.Turn] = fi
			}
		}
	}
	lines := map[int]*prompt.TurnFold{}
	for i := range out {
		fi, ok := wholeBy[out[i].Position]
		if !ok {
			continue
		}
		tf := lines[fi]
		if tf == nil {
			tf = &prompt.TurnFold{Gist: folds[fi].Gist}
			lines[fi] = tf
		}
		tf.Turns = append(tf.Turns, out[i].Position)
		out[i].Folded = tf
	}
	for _, f := range folds {
		for _, sp := range f.Spans {
			i, ok := at[sp.Turn]
			if !ok || sp.Whole() || out[i].Folded != nil {
				continue
			}
			out[i].IterFolds = append(append([]prompt.IterFold(nil), out[i].IterFolds...), prompt.IterFold{From: sp.From, To: sp.To, Gist: f.Gist})
		}
	}
	return out
}

// foldBuiltin is the fold_session builtin of a session's sandbox: it checks
// the key against the session's settled work, stores the fold, and hands
// the running turn's part to the loop (rt.state.Fold), which applies it
// when the running iteration ends.
func (e *Engine) foldBuiltin(sessionID string, rt *sessionRT) hostfn.Builtin {
	return hostfn.Builtin{
		Name:   "fold_session",
		Doc:    foldSessionDoc,
		Params: []hostfn.Param{{Name: "key", Required: true}, {Name: "gist", Required: true}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			key, _ := args["key"].(string)
			gist, _ := args["gist"].(string)
			res, err := e.fold(ctx, sessionID, rt, key, gist)
			if errors.Is(err, loop.ErrFoldKey) {
				return nil, &hostfn.ToolError{Message: strings.TrimPrefix(err.Error(), loop.ErrFoldKey.Error()+": "),
					Hint: `fold_session("t2/i1-i5", "one line: what that work found or changed")`}
			}
			return res, err
		},
	}
}

func (e *Engine) fold(ctx context.Context, sessionID string, rt *sessionRT, key, gist string) (map[string]any, error) {
	g, err := loop.CheckGist(gist)
	if err != nil {
		return nil, err
	}
	k, err := loop.ParseFoldKey(key)
	if err != nil {
		return nil, err
	}
	cur, running := rt.state.Live()
	if cur == 0 {
		return nil, errors.New("fold_session works only while a turn runs")
	}
	turns, err := e.store.ListTurns(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	settled := loop.Settled{Current: cur, Running: running}
	iters := map[int]int{}
	for _, t := range turns {
		if t.Status == store.TurnRunning || t.Position == cur {
			continue // the recap leaves out turns still running
		}
		settled.Turns = append(settled.Turns, loop.SettledTurn{Turn: t.Position, Iters: t.Iterations})
		iters[t.Position] = t.Iterations
	}
	spans, norm, err := k.Resolve(settled)
	if err != nil {
		return nil, err
	}
	var live []int
	n, earlier := 0, false
	for _, sp := range spans {
		switch {
		case sp.Turn == cur:
			for i := sp.From; i <= sp.To; i++ {
				live = append(live, i)
			}
			n += sp.To - sp.From + 1
		case sp.Whole():
			earlier = true
			n += iters[sp.Turn]
		default:
			earlier = true
			n += sp.To - sp.From + 1
		}
	}
	f, err := e.store.AddFold(context.WithoutCancel(ctx), store.Fold{SessionID: sessionID, Key: norm, Spans: spans, Gist: g})
	if err != nil {
		return nil, fmt.Errorf("fold_session: %w", err)
	}
	rt.folds.add(f)
	save, err := rt.state.Fold(live, g, earlier)
	if err != nil {
		return nil, fmt.Errorf("fold_session: %w", err)
	}
	return map[string]any{"folded": norm, "iterations": n, "chars_saved": save.Chars, "tokens_saved": save.Tokens}, nil
}
