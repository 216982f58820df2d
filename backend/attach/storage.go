package attach

import (
	"context"
	"fmt"

	"github.com/visdesktop/vis/backend/prompt"
	"github.com/visdesktop/vis/backend/store"
)

// Store is what Save and Load need of the store; *store.Store has it.
type Store interface {
	AddImage(ctx context.Context, img store.Image) (int64, error)
	TurnImages(ctx context.Context, sessionID string, turnID int64) ([]store.Image, error)
}

var _ Store = (*store.Store)(nil)

// Save links each prepared image to the turn and stores its original bytes
// once per session per content hash. It returns the attachment ids in the
// order of imgs. Each image is its own write: on an error the images before
// it stay saved and the error names the one that failed.
func Save(ctx context.Context, st Store, sessionID string, turnID int64, imgs []Prepared) ([]int64, error) {
	ids := make([]int64, 0, len(imgs))
	for _, p := range imgs {
		id, err := st.AddImage(ctx, store.Image{
			SessionID: sessionID,
			TurnID:    turnID,
			Name:      p.Image.Path,
			MediaType: p.OriginalMIME,
			SHA256:    p.SHA256,
			Bytes:     p.Original,
		})
		if err != nil {
			return ids, fmt.Errorf("save image %q: %w", p.Image.Path, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Load reads the images stored for one turn and runs them through the same
// gate as Prepare (sniffed, decoded, scaled to fit, no-vision rule), so a
// reopened or resumed turn sends exactly what a fresh one would. Each
// Prepared carries its attachment ID. A row whose bytes are missing or no
// longer decode becomes a skipped entry with a reason, never an error; the
// error is only for a store that cannot be read, and then the turn can still
// go on with its text alone.
func Load(ctx context.Context, st Store, sessionID string, turnID int64, opts Options) ([]Prepared, []prompt.SkippedImage, error) {
	rows, err := st.TurnImages(ctx, sessionID, turnID)
	if err != nil {
		return nil, nil, fmt.Errorf("load images of turn %d: %w", turnID, err)
	}
	in := make([]Input, 0, len(rows))
	var damaged []prompt.SkippedImage
	for _, r := range rows {
		if len(r.Bytes) == 0 {
			damaged = append(damaged, prompt.SkippedImage{Path: r.Name, Reason: ReasonStoredDamage})
			continue
		}
		in = append(in, Input{Name: r.Name, Bytes: r.Bytes, ID: r.ID})
	}
	imgs, skipped := Prepare(in, opts)
	return imgs, append(damaged, skipped...), nil
}
