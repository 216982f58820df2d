// Package store persists sessions, turns, iterations, attachments, goals and
// folds in one SQLite file (modernc.org/sqlite, pure Go; this is the only package that
// imports it).
//
// Contract:
//
//   - Open creates the parent directory and the file, sets the pragmas in the
//     DSN (WAL journal, foreign keys on, busy_timeout 5000 ms, synchronous
//     NORMAL) and applies the embedded migrations (migrations/NNNN_*.sql), each
//     in its own transaction, keyed on PRAGMA user_version. A file written by a
//     newer build (user_version above the highest migration known here) is
//     refused with ErrSchemaTooNew and left untouched.
//   - Timestamps are stored as unix milliseconds; times read back carry
//     millisecond precision.
//   - Every write method commits on its own before it returns: a turn that is
//     cut off by a crash keeps every iteration already added, and the next
//     process turns it into an "interrupted" turn with InterruptRunning.
//   - Absent rows are reported with errors that wrap ErrNotFound.
//   - The messages sent for each request of a turn are kept without
//     repetition: the turn's prompt, what each iteration appended, and, only
//     for an iteration whose request the loop compacted to fit the context
//     window, that request in full (see Iteration for the rule that rebuilds
//     any iteration's request, and RecordedRequest).
//   - Close does not checkpoint a WAL of up to 4 MiB (walCloseLimit): it is
//     left for the next open, which reads it, so a process exits without the
//     checkpoint's fsyncs; a larger one is checkpointed and truncated.
//
// Concurrency: a *Store is safe for concurrent use by any number of
// goroutines. It holds one *sql.DB of at most 8 connections. Reads run in
// parallel (WAL lets readers proceed while a write is in progress). Writes are
// serialised inside the process by a one-slot semaphore (waiting for it
// honours ctx), and each write transaction starts with BEGIN IMMEDIATE, so two
// writers never deadlock on a lock upgrade; another process writing to the
// same file is waited for up to busy_timeout. Positions (turn n of a session,
// iteration n of a turn) are assigned inside the insert's transaction, so
// concurrent inserts never produce duplicates.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is wrapped by every error that reports an absent session, turn,
// attachment or goal.
var ErrNotFound = errors.New("not found")

// ErrSchemaTooNew is returned by Open when the file was written by a newer
// build whose schema this build does not know. The file is left untouched.
var ErrSchemaTooNew = errors.New("database schema is newer than this build")

// maxConns bounds the connection pool: one writer plus parallel readers.
const maxConns = 8

// Store is an open database. See the package comment for its concurrency
// contract.
type Store struct {
	db    *sql.DB
	path  string
	wsem  chan struct{}    // one slot: the in-process writer
	now   func() time.Time // the clock; tests replace it
	known int              // highest schema version of this build
	stmts sync.Map         // query text → *sql.Stmt (prepared.go)
}

// Open opens (creating when absent) the database at path and migrates it to
// the newest schema.
func Open(ctx context.Context, path string) (*Store, error) {
	return openWith(ctx, path, embedded)
}

// private makes the database readable by its owner only, its folder too:
// it holds every prompt, program and answer. A new file is created 0600
// (SQLite gives its -wal and -shm files the database's mode); an older
// 0644 one, and its journal files, are tightened.
func private(abs string) error {
	if err := os.Chmod(filepath.Dir(abs), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(abs, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{abs, abs + "-wal", abs + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

func openWith(ctx context.Context, path string, migs []migration) (*Store, error) {
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := private(abs); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	db, err := sql.Open("sqlite", dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	// Readers run in parallel; keep their connections (each runs the DSN
	// pragmas when it opens) instead of reopening them.
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	s := &Store{
		db:    db,
		path:  abs,
		wsem:  make(chan struct{}, 1),
		now:   time.Now,
		known: len(migs),
	}
	if err := s.migrate(ctx, migs); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	return s, nil
}

// dsn builds the driver's connection string: a file: URI (so that '?', '#'
// and '%' in a path cannot be mistaken for URI syntax) with the pragmas every
// pooled connection runs when it opens.
func dsn(abs string) string {
	p := filepath.ToSlash(abs)
	if filepath.VolumeName(abs) != "" { // Windows: file:/C:/...
		p = "/" + p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	return "file:" + strings.Join(segs, "/") + "?" + q.Encode()
}

// Close closes the database. Calls after Close fail. The WAL is left for
// the next open unless it is larger than walCloseLimit (see wal.go: no
// checkpoint and its fsyncs on the way out of every `vis run`).
func (s *Store) Close() error {
	s.checkpointLargeWAL()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	return nil
}

// Path is the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// write runs fn in one write transaction and commits it. Writers of this
// process take turns; waiting for the turn ends with ctx.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	select {
	case s.wsem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.wsem }()
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (see dsn)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// ms converts a time to stored unix milliseconds; the zero time is 0.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMs converts stored unix milliseconds back; 0 and NULL are the zero time.
func fromMs(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

func fromNullMs(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMs(v.Int64)
}

func nullMs(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

// affected reports ErrNotFound (wrapped with what) when res changed no row.
func affected(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}

// isForeignKey reports whether err is SQLite's foreign key constraint failure,
// which here always means the parent row (session, turn) is absent.
func isForeignKey(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}
