package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// IntegrityCheck passes on a healthy file and fails on a broken reference
// and on a damaged page: a check that cannot fail would prove nothing.
func TestIntegrityCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	sess := Session{ID: NewID(), Workspace: "/w", Title: "t"}
	if err := s.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	turn, err := s.StartTurn(ctx, sess.ID, "hello", "cli")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddIteration(ctx, Iteration{TurnID: turn.ID, Status: IterationDone, Code: "print(1)", Output: "1\n"}); err != nil {
		t.Fatal(err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatalf("a healthy file: %v", err)
	}
	its, err := s.SessionIterations(ctx, sess.ID)
	if err != nil || len(its) != 1 || its[0].Output != "1\n" {
		t.Fatalf("SessionIterations = %+v, %v", its, err)
	}

	// A row whose parent is gone (written with the checks off, as a bug or
	// a hand edit would).
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `UPDATE iterations SET turn_id = 999999`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = ON`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if err := s.IntegrityCheck(ctx); err == nil || !strings.Contains(err.Error(), "iterations row") {
		t.Errorf("a dangling iteration: %v", err)
	}
	// Everything into the database file (Close leaves a small WAL).
	if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Garbage over the file's last page (the schema and the version stay
	// readable, a table's or an index's b-tree does not).
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(raw) - 4096; i < len(raw); i++ {
		raw[i] = 0xA5
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path + "-wal", path + "-shm"} {
		os.Remove(f)
	}
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("the damaged file should still open (only its last page is hit): %v", err)
	}
	defer s.Close()
	if err := s.IntegrityCheck(ctx); err == nil {
		t.Error("a damaged file passed the check")
	}
}
