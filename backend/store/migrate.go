package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one schema step: applying it moves user_version from
// version-1 to version.
type migration struct {
	version int
	name    string
	sql     string
}

// embedded holds the migrations compiled into this build, in order. A
// malformed set (a gap, a duplicate, a bad name) is a build defect and
// panics at start-up; TestEmbeddedMigrations guards it.
var embedded = mustLoad(migrationFS, "migrations")

func mustLoad(fsys fs.FS, dir string) []migration {
	m, err := loadMigrations(fsys, dir)
	if err != nil {
		panic(err)
	}
	return m
}

// loadMigrations reads dir/NNNN_name.sql files; versions must run 1..n.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var out []migration
	for _, e := range entries { // ReadDir sorts by name
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", name)
		}
		if v != len(out)+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", name, len(out)+1)
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		out = append(out, migration{version: v, name: name, sql: string(b)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no migrations in %s", dir)
	}
	return out, nil
}

// SchemaVersion is the schema version (PRAGMA user_version) of the open
// database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	return userVersion(ctx, s.db)
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func userVersion(ctx context.Context, q querier) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// migrate applies every migration above the file's version, each in its own
// transaction together with its user_version bump. The version is read again
// inside each write transaction, so two processes opening the same new file
// at once do not both apply a step.
func (s *Store) migrate(ctx context.Context, migs []migration) error {
	cur, err := userVersion(ctx, s.db)
	if err != nil {
		return err
	}
	if cur > len(migs) {
		return fmt.Errorf("schema version %d, this build knows up to %d; use a newer Vis Desktop: %w",
			cur, len(migs), ErrSchemaTooNew)
	}
	for _, m := range migs[cur:] {
		err := s.write(ctx, func(tx *sql.Tx) error {
			v, err := userVersion(ctx, tx)
			if err != nil {
				return err
			}
			if v >= m.version {
				return nil // applied meanwhile by another process
			}
			if v != m.version-1 {
				return fmt.Errorf("schema version %d, cannot apply %s", v, m.name)
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			// PRAGMA takes no bound parameters; the version is our own int.
			_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate to %s: %w", m.name, err)
		}
	}
	return nil
}
