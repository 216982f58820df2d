package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestFolds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	a := mustSession(t, s, "/w", "a")
	b := mustSession(t, s, "/w", "b")
	if fs, err := s.ListFolds(ctx, a.ID); err != nil || len(fs) != 0 {
		t.Fatalf("folds of a new session = %+v, %v", fs, err)
	}
	f1, err := s.AddFold(ctx, Fold{SessionID: a.ID, Key: "t1", Spans: []FoldSpan{{Turn: 1}}, Gist: "read the config"})
	if err != nil || f1.ID == 0 || f1.Created.IsZero() {
		t.Fatalf("AddFold = %+v, %v", f1, err)
	}
	f2, err := s.AddFold(ctx, Fold{SessionID: a.ID, Key: "t2/i1-i3,t3", Spans: []FoldSpan{{Turn: 2, From: 1, To: 3}, {Turn: 3}}, Gist: "fixed the parser"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFold(ctx, Fold{SessionID: b.ID, Key: "t1", Spans: []FoldSpan{{Turn: 1}}, Gist: "other session"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.ListFolds(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Fold{f1, f2}, got, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("ListFolds (-want +got):\n%s", diff)
	}
	if !got[0].Spans[0].Whole() || got[1].Spans[0].Whole() {
		t.Errorf("Whole() of %+v", got)
	}

	// Refusals: nothing covered, a bad gist, an absent session.
	if _, err := s.AddFold(ctx, Fold{SessionID: a.ID, Key: "t9", Gist: "x"}); err == nil {
		t.Error("a fold covering nothing was stored")
	}
	if _, err := s.AddFold(ctx, Fold{SessionID: a.ID, Key: "t1", Spans: []FoldSpan{{Turn: 1}}, Gist: ""}); err == nil {
		t.Error("a fold without a gist was stored")
	}
	if _, err := s.AddFold(ctx, Fold{SessionID: a.ID, Key: "t1", Spans: []FoldSpan{{Turn: 1}}, Gist: strings.Repeat("g", 501)}); err == nil {
		t.Error("a 501-character gist was stored")
	}
	if _, err := s.AddFold(ctx, Fold{SessionID: "nope", Key: "t1", Spans: []FoldSpan{{Turn: 1}}, Gist: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddFold to an absent session = %v, want ErrNotFound", err)
	}
	// Deleting the session deletes its folds.
	if err := s.DeleteSession(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if fs, err := s.ListFolds(ctx, a.ID); err != nil || len(fs) != 0 {
		t.Errorf("folds of a deleted session = %+v, %v", fs, err)
	}
}
