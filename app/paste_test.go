package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/attach"
	"github.com/visdesktop/vis/backend/secrets"
)

// The fake engine checks images by attach's rules, with vision unless
// noVision says otherwise.
func (f *fakeEngine) CheckImages(_ context.Context, _, _ string, in []attach.Input) ([]attach.Verdict, error) {
	opts := attach.DefaultOptions()
	opts.Vision = !f.noVision
	return attach.Check(in, opts), f.err
}

// TestCheckImagesSaysWhatSendWillDo asks a real engine, as the page does on
// each add, about a pasted image, a dropped one, a dropped text file and a
// file gone since the drop; then the same with a model that has no vision.
func TestCheckImagesSaysWhatSendWillDo(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	red := pngBytes(t, 8, 6, color.RGBA{255, 0, 0, 255})
	shot, notes := filepath.Join(dir, "shot.png"), filepath.Join(dir, "notes.png")
	if err := os.WriteFile(shot, pngBytes(t, 4, 4, color.RGBA{0, 0, 255, 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notes, []byte("just text, named .png"), 0o644); err != nil {
		t.Fatal(err)
	}
	offered := []ImageInput{
		{Name: "pasted image 1.png", DataBase64: "data:image/png;base64," + base64.StdEncoding.EncodeToString(red)},
		{Path: shot},
		{Path: notes},
		{Path: filepath.Join(dir, "gone.png")},
	}
	for _, tt := range []struct {
		model string
		want  []ImageVerdict
	}{
		{"gpt-4o", []ImageVerdict{{Sent: true}, {Sent: true}, {Reason: "not an image"}, {Reason: "could not be read: no such file"}}},
		{"fake-model", []ImageVerdict{{}, {}, {Reason: "not an image"}, {Reason: "could not be read: no such file"}}},
	} {
		t.Run(tt.model, func(t *testing.T) {
			home, ws := t.TempDir(), t.TempDir()
			vars := map[string]string{"VIS_BASE_URL": "http://127.0.0.1:9/v1", "VIS_MODEL": tt.model}
			eng, err := backend.Open(ctx, backend.Options{Home: home, Getenv: func(k string) string { return vars[k] }, Secrets: secrets.NewWith(filepath.Join(home, "secrets.json"), nil)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Close() })
			a := New(eng, Options{Home: t.TempDir()})
			got, err := a.CheckImages("", ws, offered)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CheckImages (-want +got):\n%s", diff)
			}
		})
	}
	a := New(newFakeEngine(), Options{Home: t.TempDir()})
	if _, err := a.CheckImages("", dir, []ImageInput{{Path: "shot.png"}}); err == nil {
		t.Error("CheckImages took a relative path")
	}
}

// TestSavePasted keeps each pasted content once, under a name from its
// bytes and with its type's extension, and removes pastes older than
// pastedKeep.
func TestSavePasted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pasted")
	now := time.Now()
	red := pngBytes(t, 8, 6, color.RGBA{255, 0, 0, 255})
	p1, err := savePasted(dir, red, now)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := savePasted(dir, red, now)
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 || filepath.Ext(p1) != ".png" || !filepath.IsAbs(p1) {
		t.Errorf("the same paste twice: %q and %q, want one absolute .png", p1, p2)
	}
	if b, _ := os.ReadFile(p1); !bytes.Equal(b, red) {
		t.Error("the saved paste is not the clipboard's bytes")
	}
	old := now.Add(-pastedKeep - time.Hour)
	if err := os.Chtimes(p1, old, old); err != nil {
		t.Fatal(err)
	}
	blue := pngBytes(t, 4, 4, color.RGBA{0, 0, 255, 255})
	if _, err := savePasted(dir, blue, now); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p1); !os.IsNotExist(err) {
		t.Errorf("a paste older than %v was kept (%v)", pastedKeep, err)
	}
}
