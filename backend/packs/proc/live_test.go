package proc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/live"
)

// A child's lines reach the ctx's live sink while it runs: the child waits
// for a file the test writes only after the sink saw its first line.
func TestChildOutputStreamsToTheLiveSink(t *testing.T) {
	for name, run := range map[string]func(ctx context.Context, dir string, argv []string) (string, error){
		"RunEnv": func(ctx context.Context, dir string, argv []string) (string, error) {
			r, err := RunEnv(ctx, dir, time.Minute, "", nil, argv...)
			return r.Stdout + r.Stderr, err
		},
		"Exec": func(ctx context.Context, dir string, argv []string) (string, error) {
			r, err := Exec(ctx, argv, dir, "", time.Minute, nil)
			return r.Stdout + r.Stderr, err
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			gate := filepath.Join(dir, "gate")
			var mu sync.Mutex
			var lines []string
			ctx := live.With(context.Background(), func(l string) {
				mu.Lock()
				lines = append(lines, l)
				mu.Unlock()
				if l == "first" {
					_ = os.WriteFile(gate, nil, 0o644)
				}
			})
			script := `echo first; while [ ! -e gate ]; do sleep 0.05; done; echo second >&2; printf tail`
			out, err := run(ctx, dir, []string{"sh", "-c", script})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "first\n") || !strings.Contains(out, "second\n") {
				t.Fatalf("captured output = %q", out)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(lines, "|") != "first|second|tail" {
				t.Fatalf("live lines = %q", lines)
			}
		})
	}
}
