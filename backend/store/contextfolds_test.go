package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A turn's context fold is kept as given, replaced by the next write, and
// listed only for its own session.
func TestContextFolds(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	a, b := mustSession(t, s, "/w", "a").ID, mustSession(t, s, "/w", "b").ID
	t1, err := s.StartTurn(ctx, a, "one", "cli")
	if err != nil {
		t.Fatal(err)
	}
	t2, err := s.StartTurn(ctx, b, "two", "cli")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{`{"programs_folded":1}`, `{"programs_folded":2}`} {
		if err := s.SetContextFold(ctx, t1.ID, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetContextFold(ctx, t2.ID, `{"turns_dropped":1}`); err != nil {
		t.Fatal(err)
	}
	got, err := s.SessionContextFolds(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[int64]string{t1.ID: `{"programs_folded":2}`}, got); diff != "" {
		t.Errorf("folds of session a (-want +got):\n%s", diff)
	}
}
