package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func blobCount(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM image_blobs`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestImagesStoredOncePerSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	other := mustSession(t, s, "/w", "")
	t1 := mustTurn(t, s, sess.ID, "look")
	t2 := mustTurn(t, s, sess.ID, "again")
	shot := bytes.Repeat([]byte("pixels"), 1000)
	logo := []byte("logo bytes")

	add := func(img Image) int64 {
		t.Helper()
		id, err := s.AddImage(ctx, img)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a := add(Image{SessionID: sess.ID, TurnID: t1.ID, Name: "/home/p/shot.png", MediaType: "image/png", SHA256: hashOf(shot), Bytes: shot})
	b := add(Image{SessionID: sess.ID, TurnID: t1.ID, Name: "logo.gif", MediaType: "image/gif", SHA256: hashOf(logo), Bytes: logo})
	c := add(Image{SessionID: sess.ID, TurnID: t2.ID, Name: "shot-again.png", MediaType: "image/png", SHA256: hashOf(shot), Bytes: shot})
	if n := blobCount(t, s); n != 2 {
		t.Errorf("after the same screenshot twice in one session: %d blobs, want 2", n)
	}
	// Another session keeps its own copy: deleting one session never takes
	// another's images with it.
	add(Image{SessionID: other.ID, Name: "shot.png", MediaType: "image/png", SHA256: hashOf(shot), Bytes: shot})
	if n := blobCount(t, s); n != 3 {
		t.Errorf("after the screenshot in a second session: %d blobs, want 3", n)
	}

	got, err := s.TurnImages(ctx, sess.ID, t1.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []Image{
		{ID: a, SessionID: sess.ID, TurnID: t1.ID, Name: "/home/p/shot.png", MediaType: "image/png", SHA256: hashOf(shot), SizeBytes: int64(len(shot)), Bytes: shot},
		{ID: b, SessionID: sess.ID, TurnID: t1.ID, Name: "logo.gif", MediaType: "image/gif", SHA256: hashOf(logo), SizeBytes: int64(len(logo)), Bytes: logo},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Image{}, "Created")); diff != "" {
		t.Errorf("TurnImages(turn 1) (-want +got):\n%s", diff)
	}
	second, err := s.TurnImages(ctx, sess.ID, t2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != 1 || second[0].ID != c || !bytes.Equal(second[0].Bytes, shot) {
		t.Errorf("TurnImages(turn 2) = %+v, want the deduplicated screenshot with its bytes", second)
	}
	all, err := s.TurnImages(ctx, sess.ID, 0)
	if err != nil || len(all) != 3 {
		t.Errorf("TurnImages(all) = %d images, %v; want 3", len(all), err)
	}

	// The generic listing shows the rows with their real sizes.
	list, err := s.ListAttachments(ctx, sess.ID, t2.ID)
	if err != nil || len(list) != 1 || list[0].SizeBytes != int64(len(shot)) || list[0].Kind != "image" {
		t.Errorf("ListAttachments(turn 2) = %+v, %v", list, err)
	}

	one, err := s.GetImage(ctx, c)
	if err != nil || !bytes.Equal(one.Bytes, shot) || one.Name != "shot-again.png" {
		t.Errorf("GetImage = %+v, %v", one, err)
	}
	if _, err := s.GetImage(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetImage(absent) = %v, want ErrNotFound", err)
	}

	if err := s.DeleteSession(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if n := blobCount(t, s); n != 1 {
		t.Errorf("after deleting the session: %d blobs, want only the other session's 1", n)
	}
}

func TestAddImageRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	b := []byte("x")
	if _, err := s.AddImage(ctx, Image{SessionID: "nope", Name: "a.png", SHA256: hashOf(b), Bytes: b}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddImage to an absent session = %v, want ErrNotFound", err)
	}
	if _, err := s.AddImage(ctx, Image{SessionID: sess.ID, TurnID: 12345, Name: "a.png", SHA256: hashOf(b), Bytes: b}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddImage to an absent turn = %v, want ErrNotFound", err)
	}
	if _, err := s.AddImage(ctx, Image{SessionID: sess.ID, Name: "a.png", SHA256: "abc", Bytes: b}); err == nil {
		t.Error("AddImage with a short hash succeeded")
	}
	// The refused turn left nothing behind (one transaction).
	if n := blobCount(t, s); n != 0 {
		t.Errorf("refused adds left %d blobs", n)
	}
}

func TestTurnImagesSurvivesDamage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	sess := mustSession(t, s, "/w", "")
	turn := mustTurn(t, s, sess.ID, "look")
	b := []byte("png bytes")
	lost, err := s.AddImage(ctx, Image{SessionID: sess.ID, TurnID: turn.ID, Name: "lost.png", MediaType: "image/png", SHA256: hashOf(b), Bytes: b})
	if err != nil {
		t.Fatal(err)
	}
	// An attachment written before hashing keeps its own bytes.
	old, err := s.AddAttachment(ctx, Attachment{SessionID: sess.ID, TurnID: turn.ID, MediaType: "image/gif", Filename: "old.gif", Bytes: []byte("GIF89a")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`DELETE FROM image_blobs`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = Open(ctx, path) // reopened, as after a restart
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.TurnImages(ctx, sess.ID, turn.ID)
	if err != nil {
		t.Fatalf("TurnImages with a missing blob: %v", err)
	}
	if len(got) != 2 || got[0].ID != lost || len(got[0].Bytes) != 0 || got[1].ID != old || string(got[1].Bytes) != "GIF89a" {
		t.Errorf("TurnImages = %+v; want the lost image with no bytes, then the old one with its own", got)
	}
}
