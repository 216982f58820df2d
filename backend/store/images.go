package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Image is an image attached to a turn (an inbound attachment of kind
// "image"). Its bytes are stored once per session per content hash (the
// image_blobs table): attaching the same picture again in the session adds a
// row that names it, not a second copy.
type Image struct {
	ID        int64 // the attachments row
	SessionID string
	TurnID    int64
	// IterationID is set for an image a program's tool returned (an MCP
	// tool's screenshot), 0 for one the person sent with the request.
	IterationID int64
	Name        string // the path or name the person gave it
	MediaType   string // type sniffed from the stored bytes
	SHA256      string // lowercase hex of the bytes' SHA-256
	SizeBytes   int64  // len(Bytes) as stored
	// Bytes are the original bytes. Empty when the blob is missing (a
	// damaged file); callers treat that as an undecodable image.
	Bytes   []byte
	Created time.Time
}

// AddImage links an image to a turn and stores its bytes unless the session
// already holds the same hash; it returns the attachment id. SHA256 must be
// the 64-hex-digit hash of Bytes (the caller computed it to deduplicate; a
// wrong one is the caller's defect and is not re-checked). An absent session
// or turn is reported with ErrNotFound.
func (s *Store) AddImage(ctx context.Context, img Image) (int64, error) {
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) (err error) {
		id, err = s.addImage(ctx, tx, img)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("add image %q to session %s: %w", img.Name, img.SessionID, err)
	}
	return id, nil
}

// addImage is AddImage inside tx (AddIteration adds a program's images
// with their iteration).
func (s *Store) addImage(ctx context.Context, tx *sql.Tx, img Image) (int64, error) {
	if len(img.SHA256) != 64 {
		return 0, fmt.Errorf("sha256 must be 64 hex digits, got %q", img.SHA256)
	}
	if img.Created.IsZero() {
		img.Created = s.now()
	}
	if img.Bytes == nil {
		img.Bytes = []byte{}
	}
	_, err := tx.ExecContext(ctx, `
		INSERT INTO image_blobs (session_id, sha256, size_bytes, bytes, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, sha256) DO NOTHING`,
		img.SessionID, img.SHA256, len(img.Bytes), img.Bytes, ms(img.Created))
	if isForeignKey(err) {
		return 0, fmt.Errorf("no such session: %w", ErrNotFound)
	}
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.QueryRowContext(ctx, `
		INSERT INTO attachments (session_id, turn_id, iteration_id, kind, media_type, filename, size_bytes, bytes, sha256, created_at)
		VALUES (?, ?, ?, 'image', ?, ?, ?, X'', ?, ?) RETURNING id`,
		img.SessionID, nullID(img.TurnID), nullID(img.IterationID), img.MediaType, img.Name, len(img.Bytes), img.SHA256,
		ms(img.Created)).Scan(&id)
	if isForeignKey(err) {
		return 0, fmt.Errorf("no such session, turn or iteration: %w", ErrNotFound)
	}
	return id, err
}

// imageSelect reads image attachments with their bytes: from image_blobs for
// rows with a hash, from the row itself for rows written before hashing.
const imageSelect = `
	SELECT a.id, a.session_id, a.turn_id, a.media_type, a.filename, a.sha256, a.size_bytes,
	       CASE WHEN a.sha256 = '' THEN a.bytes ELSE coalesce(b.bytes, X'') END, a.created_at
	FROM attachments a
	LEFT JOIN image_blobs b ON b.session_id = a.session_id AND b.sha256 = a.sha256 AND a.sha256 != ''`

// TurnImages returns the inbound images of one turn of a session (turnID 0:
// of every turn), in the order they were attached, with their bytes.
func (s *Store) TurnImages(ctx context.Context, sessionID string, turnID int64) ([]Image, error) {
	rows, err := s.db.QueryContext(ctx, imageSelect+`
		WHERE a.session_id = ?1 AND (?2 = 0 OR a.turn_id = ?2) AND a.kind = 'image' AND a.iteration_id IS NULL
		ORDER BY a.id`, sessionID, turnID)
	if err != nil {
		return nil, fmt.Errorf("images of session %s turn %d: %w", sessionID, turnID, err)
	}
	defer rows.Close()
	out := []Image{}
	for rows.Next() {
		img, err := scanImage(rows)
		if err != nil {
			return nil, fmt.Errorf("images of session %s turn %d: %w", sessionID, turnID, err)
		}
		out = append(out, img)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("images of session %s turn %d: %w", sessionID, turnID, err)
	}
	return out, nil
}

// GetImage returns one image attachment with its bytes (for showing it
// larger). An absent id, or one that is not an image, is ErrNotFound.
func (s *Store) GetImage(ctx context.Context, id int64) (Image, error) {
	img, err := scanImage(s.db.QueryRowContext(ctx, imageSelect+` WHERE a.id = ? AND a.kind = 'image'`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Image{}, fmt.Errorf("get image %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Image{}, fmt.Errorf("get image %d: %w", id, err)
	}
	return img, nil
}

func scanImage(sc interface{ Scan(...any) error }) (Image, error) {
	var img Image
	var turn sql.NullInt64
	var created int64
	if err := sc.Scan(&img.ID, &img.SessionID, &turn, &img.MediaType, &img.Name, &img.SHA256,
		&img.SizeBytes, &img.Bytes, &created); err != nil {
		return Image{}, err
	}
	if img.Bytes == nil {
		img.Bytes = []byte{}
	}
	img.TurnID, img.Created = turn.Int64, fromMs(created)
	return img, nil
}
