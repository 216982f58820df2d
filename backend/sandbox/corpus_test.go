package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusKnown are the corpus snippets the dialect does not run as CPython
// does, each with why. Any other snippet that differs fails the test, and
// so does a listed one that starts passing (take it off the list): the
// corpus cannot regress unnoticed.
var corpusKnown = map[string]string{
	"sys_stdout": "print(..., file=sys.stderr) is captured with stdout: the model sees both streams in one output",
}

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
	seen := map[string]bool{}
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
		why, known := corpusKnown[name]
		seen[name] = true
		switch {
		case ok && known:
			t.Errorf("corpus %s now runs as CPython does: take it off corpusKnown (%s)", name, why)
		case ok:
			pass++
		case known:
			t.Logf("corpus %s differs, as known: %s", name, why)
		default:
			t.Errorf("corpus %s differs:\n--- got\n%s\n--- want\n%s%s", name, r.Wire(), want, wantErr)
		}
	}
	for name := range corpusKnown {
		if !seen[name] {
			t.Errorf("corpusKnown lists %s, which is not in the corpus", name)
		}
	}
	t.Logf("corpus: %d/%d snippets run unchanged with identical output; %d known to differ", pass, len(files), len(corpusKnown))
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
