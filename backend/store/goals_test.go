package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestGoalCompareAndSwap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	t0 := time.UnixMilli(1_780_000_000_000)

	if _, err := s.GetGoal(ctx, sess.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetGoal before any goal = %v, want ErrNotFound", err)
	}
	g1 := Goal{SessionID: sess.ID, GoalID: "g-1", Objective: "make the tests pass", Status: "active",
		IterationBudget: 20, Version: 1, Revision: 1, Created: t0, Updated: t0, ActiveSince: t0}
	if ok, err := s.CompareAndSwapGoal(ctx, 0, g1); err != nil || !ok {
		t.Fatalf("first CAS = %v, %v; want true", ok, err)
	}
	got, err := s.GetGoal(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(g1, got); diff != "" {
		t.Errorf("GetGoal (-want +got):\n%s", diff)
	}
	// A second "create" loses: a goal exists now.
	if ok, err := s.CompareAndSwapGoal(ctx, 0, g1); err != nil || ok {
		t.Errorf("create over an existing goal = %v, %v; want false", ok, err)
	}

	g2 := g1
	g2.Status, g2.IterationBudget, g2.IterationsUsed, g2.TokensUsed = "paused", 0, 3, 1234
	g2.TimeUsedMs, g2.Version, g2.Revision, g2.Updated, g2.ActiveSince = 5000, 2, 2, t0.Add(5*time.Second), time.Time{}
	if ok, err := s.CompareAndSwapGoal(ctx, 1, g2); err != nil || !ok {
		t.Fatalf("CAS 1->2 = %v, %v; want true", ok, err)
	}
	// A writer that read revision 1 is now stale.
	stale := g1
	stale.Status, stale.Revision = "complete", 2
	if ok, err := s.CompareAndSwapGoal(ctx, 1, stale); err != nil || ok {
		t.Errorf("stale CAS = %v, %v; want false", ok, err)
	}
	got, err = s.GetGoal(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(g2, got); diff != "" {
		t.Errorf("after stale CAS (-want +got):\n%s", diff)
	}

	// Misuse is an error, not a silent false.
	bad := g2
	bad.Revision = 2 // must be expected+1 = 3
	if _, err := s.CompareAndSwapGoal(ctx, 2, bad); err == nil {
		t.Error("CAS not advancing the revision succeeded")
	}
	bad.Revision, bad.Status = 3, "finished"
	if _, err := s.CompareAndSwapGoal(ctx, 2, bad); err == nil {
		t.Error("CAS with an unknown status succeeded")
	}
	if got, _ := s.GetGoal(ctx, sess.ID); got.Revision != 2 {
		t.Errorf("revision after rejected writes = %d, want 2", got.Revision)
	}
}

// TestGoalCASConcurrent has several writers each apply read-modify-CAS
// increments with retries; none may be lost.
func TestGoalCASConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	if ok, err := s.CompareAndSwapGoal(ctx, 0, Goal{SessionID: sess.ID, GoalID: "g", Objective: "o",
		Status: "active", Version: 1, Revision: 1}); err != nil || !ok {
		t.Fatal(ok, err)
	}
	const writers, each = 6, 10
	var wg sync.WaitGroup
	var mu sync.Mutex
	conflicts := 0
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			for range each {
				for {
					g, err := s.GetGoal(ctx, sess.ID)
					if err != nil {
						errs <- err
						return
					}
					expected := g.Revision
					g.IterationsUsed++
					g.Revision++
					ok, err := s.CompareAndSwapGoal(ctx, expected, g)
					if err != nil {
						errs <- err
						return
					}
					if ok {
						break
					}
					mu.Lock()
					conflicts++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	g, err := s.GetGoal(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.IterationsUsed != writers*each || g.Revision != writers*each+1 {
		t.Errorf("after %d increments: iterations_used=%d revision=%d (conflicts seen: %d)",
			writers*each, g.IterationsUsed, g.Revision, conflicts)
	}
}
