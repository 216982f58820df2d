package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestQueue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	a := mustSession(t, s, "/w", "a")
	b := mustSession(t, s, "/w", "b")
	texts := func(qs []Queued) []string {
		out := []string{}
		for _, q := range qs {
			out = append(out, q.Text)
		}
		return out
	}
	if qs, err := s.ListQueue(ctx, a.ID); err != nil || len(qs) != 0 {
		t.Fatalf("queue of a new session = %+v, %v", qs, err)
	}
	q1, err := s.Enqueue(ctx, Queued{SessionID: a.ID, Kind: QueueTurn, Text: "first", ImagesJSON: `[{"name":"a.png"}]`})
	if err != nil || q1.ID == 0 || q1.Held || !q1.OwnerAlive || q1.Channel != "desktop" {
		t.Fatalf("Enqueue = %+v, %v", q1, err)
	}
	q2, _ := s.Enqueue(ctx, Queued{SessionID: a.ID, Kind: QueueShell, Text: "!ls", Channel: "cli"})
	q3, _ := s.Enqueue(ctx, Queued{SessionID: a.ID, Kind: QueueTurn, Text: "third"})
	if _, err := s.Enqueue(ctx, Queued{SessionID: b.ID, Kind: QueueTurn, Text: "other"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, Queued{SessionID: "nope", Kind: QueueTurn, Text: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Enqueue into an absent session = %v, want ErrNotFound", err)
	}
	if _, err := s.Enqueue(ctx, Queued{SessionID: a.ID, Kind: "bogus", Text: "x"}); err == nil {
		t.Error("a queued input of an unknown kind was stored")
	}
	if err := s.EditQueued(ctx, a.ID, q3.ID, "third, edited", QueueTurn); err != nil {
		t.Fatal(err)
	}
	if err := s.EditQueued(ctx, b.ID, q3.ID, "wrong session", QueueTurn); !errors.Is(err, ErrNotFound) {
		t.Errorf("EditQueued through another session = %v, want ErrNotFound", err)
	}
	got, _ := s.ListQueue(ctx, a.ID)
	if want := []string{"first", "!ls", "third, edited"}; !equalStrings(texts(got), want) || got[0].ImagesJSON != `[{"name":"a.png"}]` || got[1].Channel != "cli" {
		t.Fatalf("ListQueue = %+v, want texts %v", got, want)
	}
	// Drained oldest first.
	n, ok, err := s.TakeNextQueued(ctx, a.ID)
	if err != nil || !ok || n.ID != q1.ID {
		t.Fatalf("TakeNextQueued = %+v, %v, %v; want %d", n, ok, err, q1.ID)
	}
	if err := s.RemoveQueued(ctx, a.ID, q2.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveQueued(ctx, a.ID, q2.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing twice = %v, want ErrNotFound", err)
	}
	// An input queued by a process that is gone is held: not drained, in
	// order, until adopted.
	dead := deadOwner(t)
	q4, _ := s.Enqueue(ctx, Queued{SessionID: b.ID, Kind: QueueTurn, Text: "orphan", Owner: dead})
	if !q4.Held || q4.OwnerAlive {
		t.Errorf("an orphan = %+v, want held and its owner dead", q4)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE queue SET owner = ? WHERE session_id = ?`, dead, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.TakeNextQueued(ctx, b.ID); ok || err != nil {
		t.Errorf("TakeNextQueued took a held input (%v)", err)
	}
	if n, err := s.AdoptQueue(ctx, b.ID); err != nil || n != 2 {
		t.Errorf("AdoptQueue = %d, %v; want 2", n, err)
	}
	if q, ok, _ := s.TakeNextQueued(ctx, b.ID); !ok || q.Text != "other" {
		t.Errorf("after adoption TakeNextQueued = %+v, %v; want \"other\"", q, ok)
	}
	// Stop takes the whole queue back, in order.
	q5, _ := s.Enqueue(ctx, Queued{SessionID: a.ID, Kind: QueueGoalSet, Text: "/goal ship it"})
	back, err := s.TakeQueue(ctx, a.ID)
	if err != nil || !equalStrings(texts(back), []string{"third, edited", "/goal ship it"}) || back[1].ID != q5.ID {
		t.Fatalf("TakeQueue = %+v, %v", back, err)
	}
	if qs, _ := s.ListQueue(ctx, a.ID); len(qs) != 0 {
		t.Errorf("queue after TakeQueue = %+v", qs)
	}
	// Deleting a session deletes its queue.
	if err := s.DeleteSession(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if qs, _ := s.ListQueue(ctx, b.ID); len(qs) != 0 {
		t.Errorf("queue of a deleted session = %+v", qs)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSessionClaims(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	a := mustSession(t, s, "/w", "a")
	if o, err := s.ClaimedElsewhere(ctx, a.ID); o != "" || err != nil {
		t.Fatalf("a new session is claimed: %q, %v", o, err)
	}
	if o, err := s.ClaimSession(ctx, a.ID); o != "" || err != nil {
		t.Fatalf("ClaimSession = %q, %v", o, err)
	}
	if o, err := s.ClaimSession(ctx, a.ID); o != "" || err != nil {
		t.Fatalf("claiming again = %q, %v; want success", o, err)
	}
	// Another live process's claim holds; a dead one's is taken over.
	live := ownerOf(1) // init runs as long as the machine does
	if _, err := s.db.ExecContext(ctx, `UPDATE session_claims SET owner = ? WHERE session_id = ?`, live, a.ID); err != nil {
		t.Fatal(err)
	}
	if o, _ := s.ClaimSession(ctx, a.ID); o != live {
		t.Fatalf("claim over a live owner = %q, want %q", o, live)
	}
	if o, _ := s.ClaimedElsewhere(ctx, a.ID); o != live {
		t.Fatalf("ClaimedElsewhere = %q, want %q", o, live)
	}
	if err := s.ReleaseSession(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if o, _ := s.ClaimedElsewhere(ctx, a.ID); o != live {
		t.Fatal("ReleaseSession dropped another process's claim")
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE session_claims SET owner = ? WHERE session_id = ?`, deadOwner(t), a.ID); err != nil {
		t.Fatal(err)
	}
	if o, err := s.ClaimSession(ctx, a.ID); o != "" || err != nil {
		t.Fatalf("claim over a dead owner = %q, %v; want taken over", o, err)
	}
	if err := s.ReleaseSession(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if o, _ := s.ClaimedElsewhere(ctx, a.ID); o != "" {
		t.Fatalf("claimed after release: %q", o)
	}
	if _, err := s.ClaimSession(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("claiming an absent session: %v", err)
	}
	if got := ClaimPID(live); got != 1 {
		t.Errorf("ClaimPID(%q) = %d", live, got)
	}
}

// A claim is a lease: where the holder's start time cannot be told (an
// owner recorded without it), the claim holds while it is renewed and is
// free once unrenewed for ClaimLease; RenewClaims renews this process's.
func TestSessionClaimLease(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	a := mustSession(t, s, "/w", "a")
	noTicks := "1:" // a running pid, start time unknown
	now := s.now()
	set := func(owner string, at time.Time) {
		t.Helper()
		if _, err := s.db.ExecContext(ctx, `INSERT INTO session_claims (session_id, owner, claimed_at) VALUES (?, ?, ?)
			ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at`, a.ID, owner, ms(at)); err != nil {
			t.Fatal(err)
		}
	}
	set(noTicks, now.Add(-ClaimLease/2))
	if o, _ := s.ClaimSession(ctx, a.ID); o != noTicks {
		t.Fatalf("a renewed lease was taken over: %q", o)
	}
	set(noTicks, now.Add(-ClaimLease-time.Second))
	if o, err := s.ClaimSession(ctx, a.ID); o != "" || err != nil {
		t.Fatalf("an expired lease of an unknown holder = %q, %v; want taken over", o, err)
	}
	// A holder whose start time is known holds however old its lease:
	// only its death frees the session.
	set(ownerOf(1), now.Add(-time.Hour))
	if o, _ := s.ClaimedElsewhere(ctx, a.ID); o != ownerOf(1) {
		t.Fatalf("a live holder's old lease = %q", o)
	}
	// Renewal moves this process's lease only.
	set(processOwner, now.Add(-time.Hour))
	if err := s.RenewClaims(ctx); err != nil {
		t.Fatal(err)
	}
	var at int64
	if err := s.db.QueryRowContext(ctx, `SELECT claimed_at FROM session_claims WHERE session_id = ?`, a.ID).Scan(&at); err != nil {
		t.Fatal(err)
	}
	if fromMs(at).Before(now) {
		t.Errorf("RenewClaims left the lease at %v", fromMs(at))
	}
}
