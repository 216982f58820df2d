package store

import (
	"context"
	"strings"
	"testing"
)

// A turn's prompt comes back byte for byte, its messages stored once
// however many turns send them; a prompt that is not compact JSON (or not
// an array of objects) is kept whole.
func TestTurnPromptsShareTheirMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	system := `{"role":"system","content":"SYSTEM-PROMPT \u003cbig\u003e \"rules\" é"}`
	prompts := []string{
		`[` + system + `,{"role":"user","content":"first"}]`,
		`[` + system + `,{"role":"user","content":"second"}]`,
		`[` + system + `,{"role":"user","content":"first"}]`,
		`[]`,
		`[ {"role":"user","content":"spaced"} ]`,
		`[1,{"role":"user"}]`,
	}
	var ids []int64
	for i, p := range prompts {
		sess := mustSession(t, s, "/w", "t")
		turn := mustTurn(t, s, sess.ID, "q")
		if i == 0 || i == 1 { // the session block names its session: shared all the same
			p = strings.Replace(p, `"first"`, `"session = {\"id\": \"`+sess.ID+`\"}"`, 1)
			p = strings.Replace(p, `"second"`, `"session = {\"id\": \"`+sess.ID+`\"}"`, 1)
			prompts[i] = p
		}
		if err := s.SetTurnPrompt(ctx, turn.ID, p); err != nil {
			t.Fatalf("prompt %d: %v", i, err)
		}
		ids = append(ids, turn.ID)
	}
	for i, id := range ids {
		got, err := s.GetTurn(ctx, id)
		if err != nil || got.PromptJSON != prompts[i] {
			t.Errorf("prompt %d = %q, %v; want %q", i, got.PromptJSON, err, prompts[i])
		}
	}
	var blocks, whole int
	s.db.QueryRowContext(ctx, `SELECT count(*) FROM prompt_blocks`).Scan(&blocks)
	s.db.QueryRowContext(ctx, `SELECT count(*) FROM turns WHERE prompt_json != ''`).Scan(&whole)
	if blocks != 3 || whole != 2 {
		t.Errorf("%d blocks and %d whole prompts stored, want 3 (system, the session block, first) and 2", blocks, whole)
	}
	// Set again (the loop stores a folded recap's prompt over the first).
	if err := s.SetTurnPrompt(ctx, ids[4], prompts[1]); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTurn(ctx, ids[4]); got.PromptJSON != prompts[1] {
		t.Errorf("a prompt set twice reads %q", got.PromptJSON)
	}
	if err := s.SetTurnPrompt(ctx, 9999, prompts[0]); err == nil {
		t.Error("a prompt for an absent turn was accepted")
	}
	// A lost block is an error, not a shorter prompt.
	s.db.ExecContext(ctx, `DELETE FROM prompt_blocks WHERE text LIKE '%first%'`)
	if _, err := s.GetTurn(ctx, ids[2]); err == nil {
		t.Error("a prompt with a missing message read without error")
	}
}

// A forked session's copied turn shows the prompt as it was sent, in the
// parent session: with the parent's id, not the fork's.
func TestForkedTurnKeepsItsPrompt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	parent := mustSession(t, s, "/w", "t")
	turn := mustTurn(t, s, parent.ID, "q")
	prompt := `[{"role":"system","content":"session = {\"id\": \"` + parent.ID + `\"}"},{"role":"user","content":"q"}]`
	if err := s.SetTurnPrompt(ctx, turn.ID, prompt); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTurn(ctx, turn.ID, TurnOutcome{Status: TurnDone, Answer: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.ForkSession(ctx, parent.ID, 1, Session{ID: NewID(), Workspace: "/w"}); err != nil {
		t.Fatal(err)
	}
	var copied int64
	if err := s.db.QueryRowContext(ctx, `SELECT max(id) FROM turns`).Scan(&copied); err != nil || copied == turn.ID {
		t.Fatalf("no copied turn (%v)", err)
	}
	if got, err := s.GetTurn(ctx, copied); err != nil || got.PromptJSON != prompt {
		t.Errorf("the fork's copy of the turn reads %q, %v; want %q", got.PromptJSON, err, prompt)
	}
}
