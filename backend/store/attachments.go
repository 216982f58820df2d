package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Attachment is a stored file (an image the user dropped, an artifact a tool
// produced). TurnID and IterationID are 0 when the attachment belongs to no
// turn or iteration (an iteration's attachment is an outbound artifact, one
// without is inbound).
type Attachment struct {
	ID          int64
	SessionID   string
	TurnID      int64
	IterationID int64
	Kind        string // default "image"
	MediaType   string
	Filename    string
	SizeBytes   int64 // len(Bytes) as stored
	Bytes       []byte
	Created     time.Time
}

// AddAttachment stores a and returns its id. SizeBytes is set from Bytes; an
// empty Kind is "image". An absent session, turn or iteration is reported
// with ErrNotFound.
func (s *Store) AddAttachment(ctx context.Context, a Attachment) (int64, error) {
	if a.Kind == "" {
		a.Kind = "image"
	}
	if a.Created.IsZero() {
		a.Created = s.now()
	}
	if a.Bytes == nil {
		a.Bytes = []byte{}
	}
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
			INSERT INTO attachments (session_id, turn_id, iteration_id, kind, media_type, filename, size_bytes, bytes, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			a.SessionID, nullID(a.TurnID), nullID(a.IterationID), a.Kind, a.MediaType, a.Filename,
			len(a.Bytes), a.Bytes, ms(a.Created)).Scan(&id)
		if isForeignKey(err) {
			return fmt.Errorf("no such session, turn or iteration: %w", ErrNotFound)
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("add attachment to session %s: %w", a.SessionID, err)
	}
	return id, nil
}

// GetAttachment returns one attachment with its bytes.
func (s *Store) GetAttachment(ctx context.Context, id int64) (Attachment, error) {
	a, err := scanAttachment(s.db.QueryRowContext(ctx, `
		SELECT id, session_id, turn_id, iteration_id, kind, media_type, filename, size_bytes, bytes, created_at
		FROM attachments WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Attachment{}, fmt.Errorf("get attachment %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Attachment{}, fmt.Errorf("get attachment %d: %w", id, err)
	}
	return a, nil
}

// ListAttachments returns the attachments of a session (turnID 0) or of one
// turn of it, oldest first, without their bytes.
func (s *Store) ListAttachments(ctx context.Context, sessionID string, turnID int64) ([]Attachment, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, session_id, turn_id, iteration_id, kind, media_type, filename, size_bytes, NULL, created_at
		FROM attachments WHERE session_id = ?1 AND (?2 = 0 OR turn_id = ?2) ORDER BY id`, sessionID, turnID)
	if err != nil {
		return nil, fmt.Errorf("list attachments of %s: %w", sessionID, err)
	}
	defer rows.Close()
	out := []Attachment{}
	for rows.Next() {
		a, err := scanAttachment(rows)
		if err != nil {
			return nil, fmt.Errorf("list attachments of %s: %w", sessionID, err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list attachments of %s: %w", sessionID, err)
	}
	return out, nil
}

func scanAttachment(sc interface{ Scan(...any) error }) (Attachment, error) {
	var a Attachment
	var turn, iter sql.NullInt64
	var created int64
	err := sc.Scan(&a.ID, &a.SessionID, &turn, &iter, &a.Kind, &a.MediaType, &a.Filename, &a.SizeBytes,
		&a.Bytes, &created)
	if err != nil {
		return Attachment{}, err
	}
	a.TurnID, a.IterationID, a.Created = turn.Int64, iter.Int64, fromMs(created)
	return a, nil
}

func nullID(id int64) sql.NullInt64 {
	return sql.NullInt64{Int64: id, Valid: id != 0}
}
