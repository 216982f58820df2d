package goals

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
)

// legalEdge lists the status changes that pause, resume, cancel, clear and
// the model (complete, blocked) can make to one goal.
var legalEdge = map[[2]string]bool{
	{StatusActive, StatusPaused}:   true,
	{StatusPaused, StatusActive}:   true,
	{StatusBlocked, StatusActive}:  true,
	{StatusActive, StatusComplete}: true,
	{StatusActive, StatusBlocked}:  true,
}

func init() {
	for st := range validStatus {
		if st != StatusCancelled && st != StatusCleared {
			legalEdge[[2]string{st, StatusCancelled}] = true
		}
	}
}

// TestConcurrentControls has many goroutines pause, resume, cancel, complete,
// block, account, resume-for-user-turn and start and finish turns (the
// goal's clock) on one goal at once, through three
// Services on three connections to one SQLite file (as the window, the CLI
// and a second window would). Every write must be notified exactly once,
// each Service's notifications must come in increasing revision order, the
// history in revision order must consist of legal steps only, and the final
// goal must be the one the history ends with.
func TestConcurrentControls(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	st := openStore(t, path)
	sid := newSession(t, st)

	const services, workers, ops = 3, 12, 25
	var mu sync.Mutex
	seen := make([][]Goal, services)
	svcs := make([]*Service, services)
	for i := range svcs {
		s := st
		if i > 0 {
			s = openStore(t, path)
		}
		svcs[i] = New(s, Options{OnChange: func(g Goal) {
			mu.Lock()
			seen[i] = append(seen[i], g)
			mu.Unlock()
		}})
	}
	var attempts atomic.Int64 // compare-and-sets tried; minus the writes = the ones lost
	for _, s := range svcs {
		s.beforeWrite = func() { attempts.Add(1) }
		s.afterWrite = func() { runtime.Gosched() } // widen the window for out-of-order notifications
	}
	if _, err := svcs[0].Set(ctx, sid, "race", ptr(200)); err != nil {
		t.Fatal(err)
	}

	var cancels, conflicts atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			svc := svcs[w%services]
			for op := range ops {
				var err error
				var g Goal
				// Complete and cancel end the goal's work: allow them only in
				// each worker's last ops, so that the rest races first.
				late := op >= ops-4
				switch n := rng.IntN(100); {
				case n < 25:
					g, err = svc.Control(ctx, sid, ActionPause)
				case n < 50:
					g, err = svc.Control(ctx, sid, ActionResume)
				case n < 55 && late:
					g, err = svc.Control(ctx, sid, ActionCancel)
					if err == nil {
						cancels.Add(1)
					}
				case n < 62 && late:
					g, err = svc.UpdateFromModel(ctx, sid, StatusComplete)
				case n < 65:
					g, err = svc.UpdateFromModel(ctx, sid, StatusBlocked)
				case n < 82:
					var tk Ticket
					if tk, err = svc.Capture(ctx, sid); err == nil {
						err = svc.Account(ctx, tk, chat.Usage{InputTokens: 3, OutputTokens: 2})
					}
				case n < 87:
					var tk Ticket
					if tk, err = svc.Capture(ctx, sid); err == nil {
						err = svc.StartClock(ctx, tk)
					}
				case n < 90:
					var tk Ticket
					if tk, err = svc.Capture(ctx, sid); err == nil {
						err = svc.FinishTurn(ctx, tk, []string{"done", TurnCancelled}[rng.IntN(2)])
					}
				default:
					g, _, err = svc.ResumeForUserTurn(ctx, sid)
				}
				var re *RefusedError
				switch {
				case errors.As(err, &re):
				case errors.Is(err, ErrConflict):
					conflicts.Add(1)
				case err != nil:
					t.Error(err)
				case g.Status != "" && !validStatus[g.Status]:
					t.Errorf("returned status %q", g.Status)
				}
			}
		})
	}
	wg.Wait()

	final, _, err := svcs[0].Get(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	var all []Goal
	for i, gs := range seen {
		for j := 1; j < len(gs); j++ {
			if gs[j].Revision <= gs[j-1].Revision {
				t.Errorf("service %d: revision %d notified after %d", i, gs[j].Revision, gs[j-1].Revision)
			}
		}
		all = append(all, gs...)
	}
	slices.SortFunc(all, func(a, b Goal) int { return int(a.Revision - b.Revision) })
	for i, g := range all {
		if g.Revision != int64(i+1) {
			t.Fatalf("notified revisions %v: want each of 1..%d exactly once", revs(all), final.Revision)
		}
	}
	if last := all[len(all)-1]; last.Revision != final.Revision || last.Status != final.Status ||
		last.Version != final.Version || last.IterationsUsed != final.IterationsUsed {
		t.Errorf("final %+v is not the last notified %+v", final, last)
	}
	changes, clockWrites := 0, 0
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		step := fmt.Sprintf("revision %d→%d (%s v%d → %s v%d)", a.Revision, b.Revision, a.Status, a.Version, b.Status, b.Version)
		switch {
		case a.ID != b.ID:
			t.Errorf("%s: the goal changed identity", step)
		case a.Status != b.Status:
			changes++
			if !legalEdge[[2]string{a.Status, b.Status}] || b.Version != a.Version+1 || b.IterationsUsed != a.IterationsUsed {
				t.Errorf("%s: illegal status change", step)
			}
			if b.Status == StatusActive && b.BudgetSpent() {
				t.Errorf("%s: resumed with the budget spent", step)
			}
			if !b.ActiveSince.IsZero() {
				t.Errorf("%s: a status change left the clock running", step)
			}
		case b.Version == a.Version && b.IterationsUsed == a.IterationsUsed && b.TokensUsed == a.TokensUsed: // StartClock or FinishTurn
			clockWrites++
			if a.ActiveSince.IsZero() == b.ActiveSince.IsZero() || b.Status != StatusActive {
				t.Errorf("%s: a write that neither starts nor stops the clock of an active goal", step)
			}
		default: // accounting
			if b.Version != a.Version || b.IterationsUsed != a.IterationsUsed+1 || b.TokensUsed != a.TokensUsed+5 {
				t.Errorf("%s: a write that is neither a status change, a clock start or stop, nor one accounted response", step)
			}
			if a.ActiveSince.IsZero() != b.ActiveSince.IsZero() {
				t.Errorf("%s: accounting started or stopped the clock", step)
			}
		}
		if b.TimeUsedMs < a.TimeUsedMs {
			t.Errorf("%s: active time went back from %d to %d ms", step, a.TimeUsedMs, b.TimeUsedMs)
		}
	}
	if final.Version != int64(1+changes) {
		t.Errorf("version %d after %d status changes", final.Version, changes)
	}
	if (cancels.Load() > 0) != (final.Status == StatusCancelled) {
		t.Errorf("%d successful cancels, final status %s", cancels.Load(), final.Status)
	}
	t.Logf("%d writes, %d status changes, %d clock starts and stops, %d iterations, %d ms, final %s; %d compare-and-sets lost and retried; %d ops gave up after %d retries",
		final.Revision, changes, clockWrites, final.IterationsUsed, final.TimeUsedMs, final.Status, attempts.Load()-final.Revision, conflicts.Load(), DefaultMaxCASRetries)
}

func revs(gs []Goal) []int64 {
	var rs []int64
	for _, g := range gs {
		rs = append(rs, g.Revision)
	}
	return rs
}
