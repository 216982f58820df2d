package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// manySessions fills a store with n sessions of one finished turn each,
// written in one transaction (as fast as the figures need; the rows are
// those StartTurn and FinishTurn write, the search index fed by its
// triggers). One turn in 100 mentions "gigawatts".
func manySessions(b *testing.B, n int) *Store {
	b.Helper()
	ctx := context.Background()
	s := openTest(b)
	err := s.write(ctx, func(tx *sql.Tx) error {
		for i := range n {
			id := fmt.Sprintf("s%06d", i)
			if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, workspace, title, model, created_at, updated_at) VALUES (?, '/w', ?, 'm', ?, ?)`,
				id, fmt.Sprintf("question %d", i), 1000+i, 1000+i); err != nil {
				return err
			}
			answer := fmt.Sprintf("The answer to question %d is in demo.go, where Add returns a + b.", i)
			if i%100 == 0 {
				answer += " The flux capacitor needs 1.21 gigawatts."
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO turns (session_id, position, request, channel, status, answer, iterations, started_at, finished_at)
				VALUES (?, 1, ?, 'cli', 'done', ?, 1, ?, ?)`, id, fmt.Sprintf("What does Add return? (%d)", i), answer, 1000+i, 1001+i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkSessionsAtScale: what `vis sessions` and `vis sessions --search`
// ask the store, at 1,000 and 10,000 one-turn sessions: the whole list,
// a search with 1 hit in 100 turns (the 50 best), and one matching every
// turn (the 50 best).
func BenchmarkSessionsAtScale(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1000, 10000} {
		s := manySessions(b, n)
		b.Run(fmt.Sprintf("list/%d", n), func(b *testing.B) {
			for b.Loop() {
				if list, err := s.ListSessions(ctx, ""); err != nil || len(list) != n {
					b.Fatal(len(list), err)
				}
			}
		})
		for _, q := range []struct{ name, query string }{{"search-rare", "gigawatts"}, {"search-common", "demo"}} {
			b.Run(fmt.Sprintf("%s/%d", q.name, n), func(b *testing.B) {
				for b.Loop() {
					if hits, err := s.Search(ctx, q.query, 50); err != nil || len(hits) == 0 {
						b.Fatal(len(hits), err)
					}
				}
			})
		}
	}
}
