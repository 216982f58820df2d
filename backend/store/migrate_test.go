package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/internal/golden"
)

// schema dumps the database's schema: every table, index, trigger and view.
func schema(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "-- %s %s\n%s\n\n", typ, name, text)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSchemaGolden keeps the full schema in testdata/schema.golden, so a
// review sees every schema change; go test -run SchemaGolden -update rewrites it.
func TestSchemaGolden(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	got := schema(t, s.db)
	golden.CheckString(t, filepath.Join("testdata", "schema.golden"), got)
}

// fixture writes, with plain SQL of the schema at version v, one row into
// every table that version has.
func fixture(t *testing.T, db *sql.DB, v int) {
	t.Helper()
	var stmts []string
	if v >= 1 {
		stmts = append(stmts,
			`INSERT INTO sessions (id, workspace, title, model, created_at, updated_at) VALUES ('s1', '/old', 'Old session', 'm', 1000, 2000)`,
			`INSERT INTO turns (id, session_id, position, request, channel, status, answer, iterations, input_tokens, prompt_json, started_at, finished_at, duration_ms)
			 VALUES (7, 's1', 1, 'ancient request', 'cli', 'done', 'ancient answer', 1, 42, '[{"role":"user","content":"ancient request"}]', 1000, 1500, 500)`,
			`INSERT INTO iterations (id, turn_id, position, status, code, appended_json, started_at, finished_at)
			 VALUES (70, 7, 1, 'done', 'print(1)', '[{"role":"assistant","content":"ancient answer"}]', 1000, 1400)`,
			`INSERT INTO attachments (session_id, turn_id, media_type, size_bytes, bytes, created_at) VALUES ('s1', 7, 'image/png', 3, x'010203', 1000)`,
		)
	}
	if v >= 3 {
		stmts = append(stmts,
			`INSERT INTO goals (session_id, goal_id, objective, status, iterations_used, version, revision, created_at, updated_at)
			 VALUES ('s1', 'g1', 'ship it', 'paused', 4, 2, 5, 1000, 1800)`)
	}
	if v >= 6 {
		stmts = append(stmts,
			`INSERT INTO turns (id, session_id, position, request, status, iterations, prompt_json, started_at)
			 VALUES (8, 's1', 2, 'compacted', 'done', 1, '[]', 1600)`,
			`INSERT INTO iterations (id, turn_id, position, status, request_json, started_at, finished_at)
			 VALUES (80, 8, 1, 'done', '[{"role":"user","content":"stub"}]', 1600, 1700)`)
	}
	if v >= 11 {
		stmts = append(stmts, `UPDATE sessions SET sandbox_mode = 'read-only' WHERE id = 's1'`)
	}
	if v >= 7 {
		stmts = append(stmts,
			`INSERT INTO folds (session_id, key, spans_json, gist, created_at)
			 VALUES ('s1', 't1', '[{"turn":1,"from":0,"to":0}]', 'the ancient work', 1800)`)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("fixture at version %d: %v\n%s", v, err, q)
		}
	}
}

// TestMigrateFromEveryVersion builds a database at each earlier schema
// version with data in it, opens it with this build and checks that the data
// is intact, searchable, and the schema is the same as a fresh database's.
func TestMigrateFromEveryVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	latest := openTest(t)
	fresh := schema(t, latest.db)
	// The fixture's newest rows fit the current schema, so the next
	// migration's from_N case starts from valid data.
	fixture(t, latest.db, len(embedded))
	for k := 0; k < len(embedded); k++ {
		t.Run(fmt.Sprintf("from_%d", k), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "vis.db")
			old, err := openWith(ctx, path, embedded[:k])
			if err != nil {
				t.Fatal(err)
			}
			if v, _ := old.SchemaVersion(ctx); v != k {
				t.Fatalf("built version %d, want %d", v, k)
			}
			fixture(t, old.db, k)
			if err := old.Close(); err != nil {
				t.Fatal(err)
			}

			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if v, err := s.SchemaVersion(ctx); err != nil || v != len(embedded) {
				t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, len(embedded))
			}
			if diff := cmp.Diff(fresh, schema(t, s.db)); diff != "" {
				t.Errorf("migrated schema differs from a fresh one (-fresh +migrated):\n%s", diff)
			}
			if k == 0 {
				return
			}
			sess, err := s.GetSession(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			wantTurns := 1
			if k >= 6 {
				wantTurns = 2
			}
			wantMode := ""
			if k >= 11 {
				wantMode = "read-only"
			}
			if sess.Title != "Old session" || sess.Turns != wantTurns || sess.Updated.UnixMilli() != 2000 || sess.Mode != wantMode {
				t.Errorf("session after migration = %+v", sess)
			}
			turn, err := s.GetTurn(ctx, 7)
			if err != nil {
				t.Fatal(err)
			}
			if turn.Answer != "ancient answer" || turn.Usage.InputTokens != 42 || turn.DurationMs != 500 {
				t.Errorf("turn after migration = %+v", turn)
			}
			if turn, err := s.GetTurn(ctx, 7); err != nil || turn.PromptJSON != `[{"role":"user","content":"ancient request"}]` {
				t.Errorf("turn prompt after migration = %q, %v", turn.PromptJSON, err)
			}
			its, err := s.ListIterations(ctx, 7)
			if err != nil || len(its) != 1 || its[0].Code != "print(1)" || its[0].AppendedJSON != `[{"role":"assistant","content":"ancient answer"}]` {
				t.Errorf("iterations after migration = %+v, %v", its, err)
			}
			// A turn from before requests were recorded reads as the prompt
			// plus what its iterations appended.
			if pos, req, err := s.RecordedRequest(ctx, 7, 1); err != nil || pos != 0 || req != "" {
				t.Errorf("RecordedRequest of an old turn = %d, %q, %v; want none", pos, req, err)
			}
			if k >= 6 {
				if pos, req, err := s.RecordedRequest(ctx, 8, 1); err != nil || pos != 1 || req != `[{"role":"user","content":"stub"}]` {
					t.Errorf("RecordedRequest after migration = %d, %q, %v", pos, req, err)
				}
			}
			atts, err := s.ListAttachments(ctx, "s1", 7)
			if err != nil || len(atts) != 1 {
				t.Fatalf("attachments after migration = %+v, %v", atts, err)
			}
			if a, err := s.GetAttachment(ctx, atts[0].ID); err != nil || !bytes.Equal(a.Bytes, []byte{1, 2, 3}) {
				t.Errorf("attachment bytes after migration = %v, %v", a.Bytes, err)
			}
			// Turns written before search existed are found.
			hits, err := s.Search(ctx, "ancient", 10)
			if err != nil || len(hits) != 1 || hits[0].SessionID != "s1" {
				t.Errorf("Search(ancient) after migration = %+v, %v", hits, err)
			}
			ftsIntact(t, s)
			if k >= 3 {
				g, err := s.GetGoal(ctx, "s1")
				if err != nil || g.Objective != "ship it" || g.Revision != 5 {
					t.Errorf("goal after migration = %+v, %v", g, err)
				}
			}
			folds, err := s.ListFolds(ctx, "s1")
			wantFolds := 0
			if k >= 7 {
				wantFolds = 1
			}
			if err != nil || len(folds) != wantFolds || (k >= 7 && (folds[0].Gist != "the ancient work" || !folds[0].Spans[0].Whole())) {
				t.Errorf("folds after migration = %+v, %v", folds, err)
			}
			// The migrated database takes new writes.
			nt, err := s.StartTurn(ctx, "s1", "new", "cli")
			if err != nil {
				t.Fatalf("StartTurn after migration: %v", err)
			}
			if _, err := s.AddIteration(ctx, Iteration{TurnID: nt.ID, Status: IterationDone, RequestJSON: `[{"role":"user","content":"new"}]`}); err != nil {
				t.Fatalf("AddIteration with a request after migration: %v", err)
			}
			if pos, req, err := s.RecordedRequest(ctx, nt.ID, 1); err != nil || pos != 1 || req != `[{"role":"user","content":"new"}]` {
				t.Errorf("RecordedRequest of a new turn after migration = %d, %q, %v", pos, req, err)
			}
			if _, err := s.AddFold(ctx, Fold{SessionID: "s1", Key: "t2", Spans: []FoldSpan{{Turn: 2}}, Gist: "new fold"}); err != nil {
				t.Errorf("AddFold after migration: %v", err)
			}
		})
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mustSession(t, s, "/w", "from the future")
	newer := len(embedded) + 1
	if _, err := s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", newer)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`CREATE TABLE future_things (x)`); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	_, err = Open(ctx, path)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a newer database = %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{fmt.Sprint(newer), fmt.Sprint(len(embedded)), path} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the refused database file changed")
	}
	// A build that knows the newer version still finds everything.
	future := append(embedded[:len(embedded):len(embedded)], migration{newer, "future.sql", "SELECT 1"})
	s2, err := openWith(ctx, path, future)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	list, err := s2.ListSessions(ctx, "")
	if err != nil || len(list) != 1 || list[0].Title != "from the future" {
		t.Errorf("sessions after refused open = %+v, %v", list, err)
	}
}

func TestFailedMigrationRollsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vis.db")
	bad := append(embedded[:1:1], migration{2, "0002_bad.sql",
		"CREATE TABLE half_done (a);\nINSERT INTO no_such_table VALUES (1);"})
	if _, err := openWith(ctx, path, bad); err == nil || !strings.Contains(err.Error(), "0002_bad.sql") {
		t.Fatalf("open with a failing migration = %v, want an error naming it", err)
	}
	s, err := openWith(ctx, path, embedded[:1])
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.SchemaVersion(ctx); v != 1 {
		t.Errorf("version after failed step = %d, want 1 (the good step kept)", v)
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'half_done'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("half of the failed migration stayed (%d, %v)", n, err)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("the real migrations after a failed one: %v", err)
	}
	s.Close()
}

func TestLoadMigrations(t *testing.T) {
	t.Parallel()
	sql := &fstest.MapFile{Data: []byte("SELECT 1;")}
	tests := []struct {
		name    string
		files   fstest.MapFS
		want    []int
		wantErr string
	}{
		{"ordered", fstest.MapFS{"m/0001_a.sql": sql, "m/0002_b.sql": sql, "m/README": sql}, []int{1, 2}, ""},
		{"gap", fstest.MapFS{"m/0001_a.sql": sql, "m/0003_c.sql": sql}, nil, "expected version 2"},
		{"not starting at 1", fstest.MapFS{"m/0002_b.sql": sql}, nil, "expected version 1"},
		{"bad name", fstest.MapFS{"m/init.sql": sql}, nil, "NNNN_description.sql"},
		{"empty", fstest.MapFS{"m/README": sql}, nil, "no migrations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			migs, err := loadMigrations(tt.files, "m")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, m := range migs {
				got = append(got, m.version)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
		})
	}
}
