package store

import (
	"context"
	"fmt"
	"os"
)

// SizeAfterCheckpoint copies the WAL into the database file (a TRUNCATE
// checkpoint) and returns the bytes the database then takes on disk, its
// WAL included: what a store costs at rest, for the figures of
// docs/PERFORMANCE.md.
func (s *Store) SizeAfterCheckpoint(ctx context.Context) (int64, error) {
	if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return 0, fmt.Errorf("checkpoint: %w", err)
	}
	var n int64
	for _, p := range []string{s.path, s.path + "-wal"} {
		fi, err := os.Stat(p)
		if err == nil {
			n += fi.Size()
		}
	}
	return n, nil
}
