package store

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ftsIntact runs FTS5's integrity check, which compares the index with the
// turns table it is built from.
func ftsIntact(t *testing.T, s *Store) {
	t.Helper()
	if _, err := s.db.Exec(`INSERT INTO turns_fts (turns_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Errorf("search index out of step with turns: %v", err)
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	a := mustSession(t, s, "/proj/a", "Alpha")
	b := mustSession(t, s, "/proj/b", "Beta")
	a1 := mustTurn(t, s, a.ID, "Fix the parser crash in lexer.go")
	mustTurn(t, s, a.ID, `What does foo"bar mean? AND -x *`)
	mustTurn(t, s, b.ID, "Café résumé naïve")

	type ref struct {
		Session string
		Pos     int
	}
	search := func(q string) []ref {
		t.Helper()
		hits, err := s.Search(ctx, q, 10)
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		out := []ref{}
		for _, h := range hits {
			out = append(out, ref{h.Title, h.TurnPosition})
		}
		return out
	}
	tests := []struct {
		query string
		want  []ref
	}{
		{"parser", []ref{{"Alpha", 1}}},
		{"PARSER crash", []ref{{"Alpha", 1}}},
		{"pars", []ref{{"Alpha", 1}}},       // the last word is a prefix
		{"lex crash", []ref{}},              // only the last word is
		{"cafe resume", []ref{{"Beta", 1}}}, // diacritics folded
		{`foo"bar`, []ref{{"Alpha", 2}}},    // a quote inside a word
		{`"foo bar"`, []ref{{"Alpha", 2}}},  // quotes are text, not syntax
		{"AND", []ref{{"Alpha", 2}}},        // an operator is a word
		{"-x", []ref{{"Alpha", 2}}},         // not a negation
		{"nothing-here-at-all", []ref{}},    //
		{"*", []ref{}},                      // no word at all
		{"", []ref{}},                       //
		{"  \t ", []ref{}},                  //
		{`"`, []ref{}},                      //
		{"(", []ref{}},                      //
		{"OR", []ref{}},                     //
		{"NOT parser", []ref{}},             // "not" is a word, absent
		{"NEAR(parser crash)", []ref{}},     // a word: the phrase "near parser" is absent
		{"request:parser", []ref{}},         // no column filter: the phrase "request parser" is absent
		{"^Fix", []ref{{"Alpha", 1}}},
		{"parser)", []ref{{"Alpha", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, search(tt.query)); diff != "" {
				t.Errorf("Search(%q) (-want +got):\n%s", tt.query, diff)
			}
		})
	}

	// A hit names its session and highlights the match.
	hits, err := s.Search(ctx, "parser", 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("Search(parser) = %v, %v", hits, err)
	}
	h := hits[0]
	if h.SessionID != a.ID || h.Workspace != "/proj/a" || !strings.Contains(h.Snippet, HighlightStart+"parser"+HighlightEnd) {
		t.Errorf("hit = %+v, want session %s in /proj/a with «parser» highlighted", h, a.ID)
	}

	// The answer is indexed when the turn finishes, and re-indexed when it
	// changes.
	if got := search("unicode"); len(got) != 0 {
		t.Fatalf("found an answer before it was written: %v", got)
	}
	if err := s.FinishTurn(ctx, a1.ID, TurnOutcome{Status: TurnDone, Answer: "The lexer now handles unicode quotes"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]ref{{"Alpha", 1}}, search("unicode")); diff != "" {
		t.Errorf("answer not found after FinishTurn (-want +got):\n%s", diff)
	}
	if err := s.FinishTurn(ctx, a1.ID, TurnOutcome{Status: TurnDone, Answer: "rewritten"}); err != nil {
		t.Fatal(err)
	}
	if got := search("unicode"); len(got) != 0 {
		t.Errorf("the old answer is still found: %v", got)
	}
	if diff := cmp.Diff([]ref{{"Alpha", 1}}, search("rewritten")); diff != "" {
		t.Errorf("the new answer (-want +got):\n%s", diff)
	}
	if err := s.DeleteSession(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if got := search("cafe"); len(got) != 0 {
		t.Errorf("a deleted session's turn is still found: %v", got)
	}
	ftsIntact(t, s)
}

func TestSearchLimitAndRank(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	sess := mustSession(t, s, "/w", "")
	for range 5 {
		mustTurn(t, s, sess.ID, "refactor the widget code base slowly and with care")
	}
	best := mustTurn(t, s, sess.ID, "widget widget widget")
	hits, err := s.Search(ctx, "widget", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 {
		t.Fatalf("Search with limit 3 returned %d hits", len(hits))
	}
	if hits[0].TurnPosition != best.Position {
		t.Errorf("best match is turn %d, want %d (the one that is all about widgets)", hits[0].TurnPosition, best.Position)
	}
	all, err := s.Search(ctx, "widget", 0)
	if err != nil || len(all) != 6 {
		t.Errorf("Search with default limit = %d hits, %v; want 6", len(all), err)
	}
}

func TestFTSQuery(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"hello", `"hello"*`},
		{"hello world", `"hello" "world"*`},
		{`foo"bar`, `"foo""bar"*`},
		{"* - ( )", ``},
		{"a*b", `"a*b"*`},
	}
	for _, tt := range tests {
		if got := ftsQuery(tt.in); got != tt.want {
			t.Errorf("ftsQuery(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
