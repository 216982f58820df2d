package store

import (
	"context"
	"os"
	"reflect"
	"strconv"
	"unsafe"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// walCloseLimit is the WAL size above which Close checkpoints it.
//
// By default SQLite's last connection to close a WAL database copies the
// WAL into the database and deletes it: a checkpoint with two fsyncs (WAL,
// then database). That was most of a `vis run`'s exit after the answer
// (~26 ms of ~45 ms, issue 17). Skipping it loses nothing: a WAL left
// behind is read by the next open (its frames are checksummed, a torn tail
// is ignored), and SQLite checkpoints on its own every 1,000 pages
// (wal_autocheckpoint) while writing. What the exit's fsync gave was the
// last commits' durability against a power cut in the seconds before the
// kernel writes them back: under synchronous=NORMAL a running process
// never had that either. So every connection is opened with
// SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, and Close checkpoints only a WAL
// larger than this (truncating it), which bounds what the next open reads
// to rebuild its index: at most about one auto-checkpoint's worth.
const walCloseLimit = 4 << 20

// walCloseBusyMS bounds how long Close's checkpoint waits for another
// process's reader or writer (the window while `vis run` exits): a busy
// checkpoint is skipped, the WAL stays for a later one.
const walCloseBusyMS = 100

func init() { sqlite.RegisterConnectionHook(noCheckpointOnClose) }

// noCkptArgs is sqlite3_db_config's variadic part for
// SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE as the driver's C-to-Go code reads it
// (8-byte slots): on = 1, and no int* to report the setting back. It lives
// in static memory (never moved or freed) and is only read.
var noCkptArgs = [2]int64{1, 0}

// noCheckpointOnClose sets SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on a new
// connection of the modernc driver, which has no exported call for
// sqlite3_db_config: it reads the connection's handle and its libc thread
// state (the driver's unexported fields db and tls) by reflection and calls
// the library's sqlite3_db_config with them. Where the driver's shape is not
// the one expected (a new version) it changes nothing, and SQLite
// checkpoints on close as before; TestCloseLeavesSmallWAL then fails.
func noCheckpointOnClose(c sqlite.ExecQuerierContext, _ string) error {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	db, tls := v.Elem().FieldByName("db"), v.Elem().FieldByName("tls")
	fn := reflect.ValueOf(sqlite3.Xsqlite3_db_config)
	ft := fn.Type()
	if !db.IsValid() || db.Kind() != reflect.Uintptr || db.Uint() == 0 || !tls.IsValid() || tls.Kind() != reflect.Pointer || tls.IsNil() ||
		ft.NumIn() != 4 || ft.In(0) != tls.Type() || ft.In(1).Kind() != reflect.Uintptr || ft.In(2).Kind() != reflect.Int32 ||
		ft.In(3).Kind() != reflect.Uintptr || ft.NumOut() != 1 {
		return nil
	}
	// A usable copy of the unexported pointer (reflect refuses to pass a
	// value read from an unexported field otherwise).
	tlsArg := reflect.NewAt(tls.Type(), unsafe.Pointer(tls.UnsafeAddr())).Elem()
	fn.Call([]reflect.Value{
		tlsArg,
		reflect.ValueOf(uintptr(db.Uint())).Convert(ft.In(1)),
		reflect.ValueOf(int32(sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE)).Convert(ft.In(2)),
		reflect.ValueOf(uintptr(unsafe.Pointer(&noCkptArgs))).Convert(ft.In(3)),
	})
	return nil
}

// checkpointLargeWAL checkpoints and truncates the WAL when it is larger
// than walCloseLimit; it waits at most walCloseBusyMS for other processes.
// Errors are dropped: the WAL is then simply left for a later checkpoint.
func (s *Store) checkpointLargeWAL() {
	st, err := os.Stat(s.path + "-wal")
	if err != nil || st.Size() <= walCloseLimit {
		return
	}
	ctx := context.Background()
	c, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.Itoa(walCloseBusyMS)); err != nil {
		return
	}
	_, _ = c.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
}
