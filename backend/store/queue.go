package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Kinds of queued input.
const (
	QueueTurn       = "turn"        // a message for the model
	QueueShell      = "shell"       // a person's `!cmd`
	QueueGoalSet    = "goal-set"    // a goal's objective message (the goal is already set)
	QueueGoalResume = "goal-resume" // the continuation turn of a resumed goal
)

// Queued is one input waiting in a session's queue. Owner is the process
// that queued it (or was handed it); Held reports that this process may not
// drain it: its owner is gone (a crash, a quit) or it is another live
// process's, which drains it itself.
type Queued struct {
	ID         int64
	SessionID  string
	Kind       string
	Text       string
	ImagesJSON string // JSON array; "" = none
	Channel    string
	Model      string
	BaseURL    string
	Owner      string
	Created    time.Time
	// Held: the owner is another process (OwnerAlive tells whether it runs).
	Held       bool
	OwnerAlive bool
}

// ProcessOwner is this process's owner string (pid and start time), the
// owner of the turns it starts and the inputs it queues.
func ProcessOwner() string { return processOwner }

// OwnerAlive reports whether the process that recorded owner still runs.
func OwnerAlive(owner string) bool { return owner == processOwner || ownerAlive(owner) }

// Enqueue appends q to its session's queue and returns it with its id. An
// empty Owner is this process. An absent session is ErrNotFound.
func (s *Store) Enqueue(ctx context.Context, q Queued) (Queued, error) {
	if q.Owner == "" {
		q.Owner = processOwner
	}
	if q.ImagesJSON == "" {
		q.ImagesJSON = "[]"
	}
	if q.Channel == "" {
		q.Channel = "desktop"
	}
	now := s.now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
			INSERT INTO queue (session_id, kind, text, images_json, channel, model, base_url, owner, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			q.SessionID, q.Kind, q.Text, q.ImagesJSON, q.Channel, q.Model, q.BaseURL, q.Owner, ms(now)).Scan(&q.ID)
	})
	if err != nil {
		if isForeignKey(err) {
			err = fmt.Errorf("no such session: %w", ErrNotFound)
		}
		return Queued{}, fmt.Errorf("queue input in session %s: %w", q.SessionID, err)
	}
	q.Created = time.UnixMilli(now.UnixMilli())
	q.Held, q.OwnerAlive = q.Owner != processOwner, OwnerAlive(q.Owner)
	return q, nil
}

const queueCols = `id, session_id, kind, text, images_json, channel, model, base_url, owner, created_at`

func scanQueued(sc interface{ Scan(...any) error }) (Queued, error) {
	var q Queued
	var created int64
	if err := sc.Scan(&q.ID, &q.SessionID, &q.Kind, &q.Text, &q.ImagesJSON, &q.Channel, &q.Model, &q.BaseURL, &q.Owner, &created); err != nil {
		return Queued{}, err
	}
	q.Created = fromMs(created)
	q.Held = q.Owner != processOwner
	q.OwnerAlive = OwnerAlive(q.Owner)
	return q, nil
}

// ListQueue returns the session's queue, oldest first.
func (s *Store) ListQueue(ctx context.Context, sessionID string) ([]Queued, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+queueCols+` FROM queue WHERE session_id = ? ORDER BY id`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("list queue of %s: %w", sessionID, err)
	}
	defer rows.Close()
	out := []Queued{}
	for rows.Next() {
		q, err := scanQueued(rows)
		if err != nil {
			return nil, fmt.Errorf("list queue of %s: %w", sessionID, err)
		}
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list queue of %s: %w", sessionID, err)
	}
	return out, nil
}

// TakeNextQueued removes and returns the session's oldest queued input when
// this process owns it. The queue keeps its order: when the oldest input is
// another process's (held), nothing is taken.
func (s *Store) TakeNextQueued(ctx context.Context, sessionID string) (Queued, bool, error) {
	var q Queued
	found := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		q, err = scanQueued(tx.QueryRowContext(ctx, `SELECT `+queueCols+` FROM queue WHERE session_id = ? ORDER BY id LIMIT 1`, sessionID))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil || q.Owner != processOwner {
			return err
		}
		found = true
		_, err = tx.ExecContext(ctx, `DELETE FROM queue WHERE id = ?`, q.ID)
		return err
	})
	if err != nil {
		return Queued{}, false, fmt.Errorf("take queued input of %s: %w", sessionID, err)
	}
	return q, found, nil
}

// TakeQueue removes and returns the session's whole queue, oldest first
// (Stop hands it back to the person).
func (s *Store) TakeQueue(ctx context.Context, sessionID string) ([]Queued, error) {
	out := []Queued{}
	err := s.write(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, `DELETE FROM queue WHERE session_id = ? RETURNING `+queueCols, sessionID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			q, err := scanQueued(rows)
			if err != nil {
				return err
			}
			out = append(out, q)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("take queue of %s: %w", sessionID, err)
	}
	// RETURNING does not promise an order.
	slices.SortFunc(out, func(a, b Queued) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// EditQueued replaces a queued input's text and kind; ErrNotFound when it
// is gone (sent or taken back meanwhile).
func (s *Store) EditQueued(ctx context.Context, sessionID string, id int64, text, kind string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE queue SET text = ?, kind = ? WHERE id = ? AND session_id = ?`, text, kind, id, sessionID)
		if err != nil {
			return err
		}
		return affected(res, "no such queued input")
	})
	if err != nil {
		return fmt.Errorf("edit queued input %d: %w", id, err)
	}
	return nil
}

// RemoveQueued deletes a queued input; ErrNotFound when it is gone.
func (s *Store) RemoveQueued(ctx context.Context, sessionID string, id int64) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM queue WHERE id = ? AND session_id = ?`, id, sessionID)
		if err != nil {
			return err
		}
		return affected(res, "no such queued input")
	})
	if err != nil {
		return fmt.Errorf("remove queued input %d: %w", id, err)
	}
	return nil
}

// AdoptQueue makes this process the owner of the session's queued inputs
// whose owner is gone, and returns how many it adopted.
func (s *Store) AdoptQueue(ctx context.Context, sessionID string) (int, error) {
	qs, err := s.ListQueue(ctx, sessionID)
	if err != nil {
		return 0, err
	}
	var dead []any
	for _, q := range qs {
		if q.Held && !q.OwnerAlive {
			dead = append(dead, q.ID)
		}
	}
	if len(dead) == 0 {
		return 0, nil
	}
	var n int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE queue SET owner = ? WHERE id IN (`+placeholders(len(dead))+`)`, append([]any{processOwner}, dead...)...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("adopt queue of %s: %w", sessionID, err)
	}
	return int(n), nil
}

// Session claims are leases. The process that runs a session's turns holds
// its claim: a row naming the process (pid and start time, owner.go) and
// when it last renewed it. While it holds claims, it renews them every
// ClaimRenew (RenewClaims; the engine runs the heartbeat). Another process
// takes a claim over only when its holder is dead: its pid is gone or, where
// the start time is known, belongs to a later process. Only where neither
// can be told (no /proc, or an owner recorded without its start time) does
// an unrenewed lease count: a claim not renewed for ClaimLease is free.
const (
	ClaimRenew = 10 * time.Second
	ClaimLease = 3 * ClaimRenew
)

// ClaimPID is the process id of a claim's owner (as ClaimSession and
// ClaimedElsewhere return it), 0 when it names none.
func ClaimPID(owner string) int {
	pidText, _, _ := strings.Cut(owner, ":")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// claimHeld reports whether owner, who last renewed the claim at renewed,
// still holds it at now.
func claimHeld(owner string, renewed, now time.Time) bool {
	pid := ClaimPID(owner)
	if pid == 0 || owner == processOwner {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false // no such process
	}
	_, ticks, _ := strings.Cut(owner, ":")
	if mine := startTicks(pid); ticks != "" && mine != "" {
		return mine == ticks
	}
	return now.Sub(renewed) < ClaimLease
}

// ClaimSession makes this process the one that runs the session's turns,
// unless another live process holds it: then it returns that owner and
// claims nothing. A claim of a process that is gone is taken over.
// Claiming a session this process holds succeeds (and renews it).
func (s *Store) ClaimSession(ctx context.Context, sessionID string) (other string, err error) {
	err = s.write(ctx, func(tx *sql.Tx) error {
		other = ""
		var o string
		var at int64
		err := tx.QueryRowContext(ctx, `SELECT owner, claimed_at FROM session_claims WHERE session_id = ?`, sessionID).Scan(&o, &at)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && claimHeld(o, fromMs(at), s.now()) {
			other = o
			return nil
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO session_claims (session_id, owner, claimed_at) VALUES (?, ?, ?)
			ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at`,
			sessionID, processOwner, ms(s.now()))
		return err
	})
	if err != nil {
		if isForeignKey(err) {
			err = fmt.Errorf("no such session: %w", ErrNotFound)
		}
		return "", fmt.Errorf("claim session %s: %w", sessionID, err)
	}
	return other, nil
}

// RenewClaims renews the leases of every claim this process holds; the
// process that holds claims calls it every ClaimRenew.
func (s *Store) RenewClaims(ctx context.Context) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE session_claims SET claimed_at = ? WHERE owner = ?`, ms(s.now()), processOwner)
		return err
	})
	if err != nil {
		return fmt.Errorf("renew session claims: %w", err)
	}
	return nil
}

// ReleaseSession gives up this process's claim on the session (a claim of
// another process is left alone).
func (s *Store) ReleaseSession(ctx context.Context, sessionID string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM session_claims WHERE session_id = ? AND owner = ?`, sessionID, processOwner)
		return err
	})
	if err != nil {
		return fmt.Errorf("release session %s: %w", sessionID, err)
	}
	return nil
}

// ClaimedElsewhere returns the owner of the session's claim when a live
// process other than this one holds it ("" otherwise); ClaimPID reads its
// pid.
func (s *Store) ClaimedElsewhere(ctx context.Context, sessionID string) (string, error) {
	var o string
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT owner, claimed_at FROM session_claims WHERE session_id = ?`, sessionID).Scan(&o, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("claim of session %s: %w", sessionID, err)
	}
	if claimHeld(o, fromMs(at), s.now()) {
		return o, nil
	}
	return "", nil
}
