package attach

import (
	"bytes"
	"context"
	"image/png"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/store"
)

// TestStoreRoundTrip saves a turn's images, restarts (closes and reopens
// the database) and loads them back: the reopened session shows the same
// images and a replay sends the same bytes a fresh send did.
func TestStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	sess := store.Session{ID: store.NewID(), Workspace: "/w"}
	if err := st.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	turn1, err := st.StartTurn(ctx, sess.ID, "what is wrong here?", "cli")
	if err != nil {
		t.Fatal(err)
	}
	turn2, err := st.StartTurn(ctx, sess.ID, "and now?", "cli")
	if err != nil {
		t.Fatal(err)
	}

	shot := pngBytes(t, picture(200, 120, 0, 255), png.DefaultCompression)
	paint := bmpBytes(t, picture(30, 20, 0, 255))
	fresh, skipped := Prepare([]Input{
		{Path: "/home/ana/shot.png", Bytes: shot},
		{Name: "paint.bmp", Bytes: paint},
	}, DefaultOptions())
	if len(fresh) != 2 || len(skipped) != 0 {
		t.Fatalf("Prepare = %d, %v", len(fresh), skipped)
	}
	ids1, err := Save(ctx, st, sess.ID, turn1.ID, fresh)
	if err != nil {
		t.Fatal(err)
	}
	// The same screenshot again on the next turn, plus a row whose bytes
	// went bad and one whose bytes are gone.
	again, _ := Prepare([]Input{{Path: "/home/ana/shot.png", Bytes: shot}}, DefaultOptions())
	bad := Prepared{Image: prompt.Image{Path: "cut.png"}, Original: shot[:len(shot)/2], OriginalMIME: MIMEPNG, SHA256: sha256Hex(shot[:len(shot)/2])}
	gone := Prepared{Image: prompt.Image{Path: "gone.png"}, Original: []byte{}, OriginalMIME: MIMEPNG, SHA256: sha256Hex(nil)}
	ids2, err := Save(ctx, st, sess.ID, turn2.ID, append(again, bad, gone))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = store.Open(ctx, path) // a restart
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	got, skipped, err := Load(ctx, st, sess.ID, turn1.ID, DefaultOptions())
	if err != nil || len(skipped) != 0 {
		t.Fatalf("Load(turn 1) = %v, skipped %v", err, skipped)
	}
	want := make([]Prepared, len(fresh))
	copy(want, fresh)
	for i := range want {
		want[i].ID = ids1[i]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reloaded turn 1 differs from what was sent (-want +got):\n%s", diff)
	}

	got2, skipped2, err := Load(ctx, st, sess.ID, turn2.ID, DefaultOptions())
	if err != nil {
		t.Fatalf("Load(turn 2) = %v; a bad row must not fail the load", err)
	}
	if len(got2) != 1 || got2[0].ID != ids2[0] || got2[0].Image.DataURL != fresh[0].Image.DataURL {
		t.Errorf("Load(turn 2) = %+v; want the deduplicated screenshot, sent as before", got2)
	}
	wantSkipped := []prompt.SkippedImage{
		{Path: "gone.png", Reason: "the stored copy is missing or damaged — image not attached"},
		{Path: "cut.png", Reason: "could not be decoded"},
	}
	if diff := cmp.Diff(wantSkipped, skipped2); diff != "" {
		t.Errorf("Load(turn 2) skipped (-want +got):\n%s", diff)
	}
	// The replay still makes a valid message: text, the one good image, and
	// the manifest naming the bad rows.
	msgs := prompt.InitialMessages(nil, prompt.UserInput{Text: "and now?", Images: Wire(got2), Skipped: skipped2})
	if len(msgs) != 1 || len(msgs[0].Parts) != 2 {
		t.Errorf("replayed message = %+v", msgs)
	}

	// What the window shows for the reopened session: both turns' images,
	// bytes from one stored copy.
	all, err := st.TurnImages(ctx, sess.ID, 0)
	if err != nil || len(all) != 5 {
		t.Fatalf("TurnImages = %d, %v", len(all), err)
	}
	if !bytes.Equal(all[0].Bytes, shot) || !bytes.Equal(all[2].Bytes, shot) || all[1].MediaType != MIMEBMP {
		t.Errorf("stored originals not kept as given: %q %q", all[0].Name, all[1].MediaType)
	}

	// A blind model replaying the turn gets no image, and the reason.
	blind := DefaultOptions()
	blind.Vision = false
	imgs, sk, err := Load(ctx, st, sess.ID, turn1.ID, blind)
	if err != nil || len(Wire(imgs)) != 0 || len(sk) != 2 || sk[0].Reason != ReasonNoVision {
		t.Errorf("blind Load = %d wire images, %v, %v", len(Wire(imgs)), sk, err)
	}
}
