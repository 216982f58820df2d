package loop

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/store"
)

// The session every case resolves against: turns 1–3 finished (turn 2 has
// no iterations: an error before the first reply), turn 4 running its
// iteration 6, so t4/i1–i5 are settled.
var keySession = Settled{
	Turns:   []SettledTurn{{1, 3}, {2, 0}, {3, 4}},
	Current: 4, Running: 6,
}

func whole(t int) store.FoldSpan { return store.FoldSpan{Turn: t} }
func iters(t, a, b int) store.FoldSpan {
	return store.FoldSpan{Turn: t, From: a, To: b}
}

func TestFoldKeyGrammar(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key   string
		spans []store.FoldSpan
		norm  string
	}{
		{"t1", []store.FoldSpan{whole(1)}, "t1"},
		{"t2", []store.FoldSpan{whole(2)}, "t2"},
		{"t3/i2", []store.FoldSpan{iters(3, 2, 2)}, "t3/i2"},
		{"t4/i1", []store.FoldSpan{iters(4, 1, 1)}, "t4/i1"},
		{"t4/i1-i3", []store.FoldSpan{iters(4, 1, 3)}, "t4/i1-i3"},
		{"t3/i1-i4", []store.FoldSpan{whole(3)}, "t3"}, // every iteration of a finished turn: the whole turn
		{"t1-t3", []store.FoldSpan{whole(1), whole(2), whole(3)}, "t1-t3"},
		{"t1/i2-t3/i1", []store.FoldSpan{iters(1, 2, 3), whole(2), iters(3, 1, 1)}, "t1/i2-i3,t2,t3/i1"},
		{"-t3/i2", []store.FoldSpan{whole(1), whole(2), iters(3, 1, 2)}, "t1-t2,t3/i1-i2"},
		{"-t4/i5", []store.FoldSpan{whole(1), whole(2), whole(3), iters(4, 1, 5)}, "t1-t3,t4/i1-i5"},
		{"-t1", []store.FoldSpan{whole(1)}, "t1"},
		{"t4/i3-", []store.FoldSpan{iters(4, 3, 5)}, "t4/i3-i5"},
		{"t3/i3-", []store.FoldSpan{iters(3, 3, 4), iters(4, 1, 5)}, "t3/i3-i4,t4/i1-i5"},
		{"t1-", []store.FoldSpan{whole(1), whole(2), whole(3), iters(4, 1, 5)}, "t1-t3,t4/i1-i5"},
		{"t1, t3/i2-i3", []store.FoldSpan{whole(1), iters(3, 2, 3)}, "t1,t3/i2-i3"},
		{"t4/i1,t4/i2 , t4/i4", []store.FoldSpan{iters(4, 1, 2), iters(4, 4, 4)}, "t4/i1-i2,t4/i4"},
		{"t3/i1-i2,t3/i2-i3", []store.FoldSpan{iters(3, 1, 3)}, "t3/i1-i3"},
		{" T4/I2 - I3 ", []store.FoldSpan{iters(4, 2, 3)}, "t4/i2-i3"},
		{"t3/i2/f1", []store.FoldSpan{iters(3, 2, 2)}, "t3/i2"}, // legacy form suffix
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			k, err := ParseFoldKey(tt.key)
			if err != nil {
				t.Fatal(err)
			}
			spans, norm, err := k.Resolve(keySession)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.spans, spans); diff != "" {
				t.Errorf("spans (-want +got):\n%s", diff)
			}
			if norm != tt.norm {
				t.Errorf("normalised key = %q, want %q", norm, tt.norm)
			}
			// The normalised key names the same work.
			k2, err := ParseFoldKey(norm)
			if err != nil {
				t.Fatalf("normalised key %q does not parse: %v", norm, err)
			}
			if again, _, err := k2.Resolve(keySession); err != nil || !cmp.Equal(again, spans) {
				t.Errorf("normalised key %q resolves to %+v, %v", norm, again, err)
			}
		})
	}
}

func TestFoldKeyRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"", "empty"},
		{"t1,,t2", "empty part"},
		{"turn 1", "not a fold key"},
		{"t0", "not a fold key"},
		{"t1/i0", "not a fold key"},
		{"i3", "not a fold key"},
		{"t1-i3", "not a fold key"}, // `iM` as an end needs an iteration start
		{"t1/i2-", "t4/i1–i5"},      // fine key; guards the next rows' setup
		{"--t1", "not a fold key"},
		{"t3/i3-i1", "runs backwards"},
		{"t3-t1", "runs backwards"},
		{"t9", "turn 9, which does not exist"},
		{"t3/i9", "t3/i9, which does not exist (turn 3 has 4 settled iteration(s))"},
		{"t2/i1", "turn 2 has 0 settled"},
		{"t4", "the running turn 4"},
		{"t1-t4", "the running turn 4"},
		{"-t4", "the running turn 4"},
		{"t4/i6", "t4/i6, the iteration running now"},
		{"t4/i1-i6", "the iteration running now"},
		{"-t4/i6", "the iteration running now"},
		{"t4/i6-", "the iteration running now"},
		{"t4/i7", "t4/i7, which does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			k, err := ParseFoldKey(tt.key)
			if err == nil {
				_, _, err = k.Resolve(keySession)
			}
			if tt.key == "t1/i2-" {
				if err != nil {
					t.Fatalf("a valid key was refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("key %q was accepted", tt.key)
			}
			if !errors.Is(err, ErrFoldKey) {
				t.Errorf("refusal does not wrap ErrFoldKey: %v", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("refusal %q does not say %q", err, tt.want)
			}
			// Every refusal teaches the grammar; those about the session
			// also say what is settled.
			if !strings.Contains(err.Error(), "-t2/i9 (everything up to)") {
				t.Errorf("refusal %q does not show the key grammar", err)
			}
			if strings.Contains(tt.want, "t4") && !strings.Contains(err.Error(), "t1–t3 and t4/i1–i5 are settled; t4/i6 is running") {
				t.Errorf("refusal %q does not name the settled range", err)
			}
		})
	}
	// Nothing settled yet: the first iteration of the first turn.
	k, _ := ParseFoldKey("t1/i1")
	if _, _, err := k.Resolve(Settled{Current: 1, Running: 1}); err == nil || !strings.Contains(err.Error(), "nothing is settled yet") {
		t.Errorf("fold at t1/i1 = %v", err)
	}
	// `t4/i1-` at the running turn's first iteration covers nothing.
	k, _ = ParseFoldKey("t2-")
	if spans, _, err := k.Resolve(Settled{Turns: []SettledTurn{{1, 2}, {2, 1}}, Current: 3, Running: 1}); err != nil || !cmp.Equal(spans, []store.FoldSpan{whole(2)}) {
		t.Errorf("t2- at t3/i1 = %+v, %v", spans, err)
	}
}

func TestCheckGist(t *testing.T) {
	t.Parallel()
	if g, err := CheckGist("  read config.yml: port 8080  "); err != nil || g != "read config.yml: port 8080" {
		t.Errorf("CheckGist = %q, %v", g, err)
	}
	for _, bad := range []string{"", "   ", strings.Repeat("é", MaxGistChars+1), "two\nlines"} {
		if _, err := CheckGist(bad); !errors.Is(err, ErrFoldKey) {
			t.Errorf("CheckGist(%.20q) = %v, want a refusal", bad, err)
		}
	}
	if _, err := CheckGist(strings.Repeat("é", MaxGistChars)); err != nil {
		t.Errorf("a %d-character gist was refused: %v", MaxGistChars, err)
	}
}
