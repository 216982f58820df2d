package store

import (
	"context"
	"errors"
	"testing"
)

// The permission mode chosen in the window is kept with the session,
// survives a reopen, is cleared by "", and nothing else gets in.
func TestSessionMode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t)
	if err := s.CreateSession(ctx, Session{ID: "s1", Workspace: "/w"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(ctx, "s1")
	if err != nil || got.Mode != "" {
		t.Fatalf("new session Mode = %q, %v; want none chosen", got.Mode, err)
	}
	for _, m := range []string{"read-only", "full", "workspace", ""} {
		if err := s.SetSessionMode(ctx, "s1", m); err != nil {
			t.Fatalf("SetSessionMode(%q): %v", m, err)
		}
		got, err := s.GetSession(ctx, "s1")
		if err != nil || got.Mode != m {
			t.Errorf("after SetSessionMode(%q): Mode = %q, %v", m, got.Mode, err)
		}
		list, err := s.ListSessions(ctx, "/w")
		if err != nil || len(list) != 1 || list[0].Mode != m {
			t.Errorf("ListSessions after SetSessionMode(%q) = %+v, %v", m, list, err)
		}
	}
	if err := s.SetSessionMode(ctx, "s1", "yolo"); err == nil {
		t.Error("SetSessionMode(yolo) succeeded")
	}
	if err := s.SetSessionMode(ctx, "nope", "full"); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetSessionMode of an unknown session = %v; want ErrNotFound", err)
	}
	// The column's CHECK holds even for a write that bypasses the method.
	if _, err := s.db.ExecContext(ctx, `UPDATE sessions SET sandbox_mode = 'yolo' WHERE id = 's1'`); err == nil {
		t.Error("the schema took sandbox_mode 'yolo'")
	}
}
