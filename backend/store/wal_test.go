package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Close leaves a small WAL as it is (no checkpoint, no fsyncs on the way
// out) and the next open reads what it holds; a WAL larger than
// walCloseLimit is checkpointed and truncated.
func TestCloseLeavesSmallWAL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	sess := Session{ID: NewID(), Workspace: "/w", Title: "kept in the WAL"}
	if err := s.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path + "-wal")
	if err != nil || st.Size() == 0 {
		t.Fatalf("after Close the WAL is %v, %v; want it left with the session in it (SQLite checkpointed on close)", st, err)
	}

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(ctx, sess.ID)
	if err != nil || got.Title != sess.Title {
		t.Fatalf("reopened: %+v, %v", got, err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	// More than walCloseLimit in one transaction: SQLite's auto-checkpoint
	// copies it into the database, but the WAL file keeps its size.
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE big (b BLOB)`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO big SELECT randomblob(1 << 20) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5)`); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() <= walCloseLimit {
		t.Fatalf("the WAL after 5 MiB: %v, %v; want more than %d bytes", st, err, walCloseLimit)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path + "-wal"); err == nil && st.Size() != 0 {
		t.Fatalf("a WAL of more than %d bytes is %d bytes after Close; want it checkpointed and truncated", walCloseLimit, st.Size())
	}
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM big`).Scan(&n); err != nil || n != 5 {
		t.Fatalf("rows after the checkpoint: %d, %v", n, err)
	}
	if got, err := s.GetSession(ctx, sess.ID); err != nil || !strings.Contains(got.Title, "WAL") {
		t.Fatalf("session after the checkpoint: %+v, %v", got, err)
	}
}
