package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// IntegrityCheck runs SQLite's own checks of the whole file: PRAGMA
// integrity_check (pages, indexes, the FTS tables' shadow tables) must say
// "ok" and PRAGMA foreign_key_check must find no row. It returns nil or an
// error listing what they found; it writes nothing. The regression tests of
// faults (a killed process, a hostile program, a broken provider) and the
// soak run call it after the fault.
//
// It checks through a connection of its own, opened for the check: a
// pooled connection that has read the search index before other
// connections wrote to it can keep FTS5's cached view of the index and
// report "fts5: corruption found" for a file that is sound (seen 1 run in
// 4 under the fault tests; a fresh connection, and searches on the pooled
// one, found nothing wrong).
func (s *Store) IntegrityCheck(ctx context.Context) error {
	db, err := sql.Open("sqlite", dsn(s.path))
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var problems []string
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return fmt.Errorf("integrity check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	fk, err := db.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	for fk.Next() {
		var table, parent string
		var rowid, id any
		if err := fk.Scan(&table, &rowid, &parent, &id); err != nil {
			fk.Close()
			return fmt.Errorf("foreign key check: %w", err)
		}
		problems = append(problems, fmt.Sprintf("%s row %v refers to a missing %s", table, rowid, parent))
	}
	if err := errors.Join(fk.Err(), fk.Close()); err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("database %s is damaged: %s", s.path, strings.Join(problems, "; "))
	}
	return nil
}

// SessionIterations lists every stored iteration of the session's turns,
// turn by turn in order (as ListIterations reads them): what a test compares
// before and after a fault to prove the settled history did not change.
func (s *Store) SessionIterations(ctx context.Context, sessionID string) ([]Iteration, error) {
	turns, err := s.ListTurns(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var out []Iteration
	for _, t := range turns {
		its, err := s.ListIterations(ctx, t.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, its...)
	}
	return out, nil
}
