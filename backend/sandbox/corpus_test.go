package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus runs model-style Python snippets unchanged and compares their
// output with what CPython printed (testdata/corpus/*.out, generated once
// with python3). A sibling .err holds the exception CPython ended with.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.py")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 80 {
		t.Fatalf("corpus has %d snippets, want at least 80", len(files))
	}
	pass := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		code := mustRead(t, f)
		want := mustRead(t, strings.TrimSuffix(f, ".py")+".out")
		wantErr, _ := os.ReadFile(strings.TrimSuffix(f, ".py") + ".err")
		in, err := New(Options{Getwd: "/work"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := in.Exec(context.Background(), code, nil)
		ok := r.Output == want
		switch {
		case len(wantErr) > 0:
			ok = ok && r.Err != nil && strings.Contains(strings.TrimSpace(string(wantErr)), r.Err.Message)
		default:
			ok = ok && r.Err == nil
		}
		if ok {
			pass++
			continue
		}
		t.Logf("corpus %s differs:\n--- got\n%s\n--- want\n%s%s", name, r.Wire(), want, wantErr)
	}
	frac := float64(pass) / float64(len(files))
	t.Logf("corpus: %d/%d snippets (%.1f%%) run unchanged with identical output", pass, len(files), 100*frac)
	if frac < 0.90 {
		t.Errorf("corpus pass rate %.1f%% is below 90%%", 100*frac)
	}
}

// TestUnsupportedCorpus checks that Python the sandbox cannot run fails
// with a message that says what to write instead.
func TestUnsupportedCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/unsupported/*.py")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no unsupported snippets")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		t.Run(name, func(t *testing.T) {
			want := strings.TrimSpace(mustRead(t, strings.TrimSuffix(f, ".py")+".want"))
			in, err := New(Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := in.Exec(context.Background(), mustRead(t, f), nil)
			if r.Err == nil || r.Err.Phase != PhaseUnsupported {
				t.Fatalf("want an unsupported error, got %s", r.Wire())
			}
			if r.Err.Hint == "" && !strings.Contains(r.Err.Message, ":") {
				t.Errorf("no advice in %s", r.Wire())
			}
			if !strings.Contains(r.Wire(), want) {
				t.Errorf("wire does not mention %q:\n%s", want, r.Wire())
			}
		})
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
