// Package golden keeps a test's expected output in a file (a golden file,
// usually under the package's testdata/) and compares each run against it.
// `go test ./pkg -update` rewrites the files with what the run produced,
// for a person to review in the diff before committing.
//
// It is imported by test files only. Update is the one -update flag of the
// test binaries; Check is safe to call from parallel tests as long as each
// names its own file.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Update is -update: rewrite the golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite the golden files with this run's output")

// Check compares got with the file at path (relative to the test's package
// directory). Under -update it first writes got there, creating the folder.
// A missing file or a difference fails the test naming the file, the first
// line that differs and how to rewrite it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs from this run (go test -update rewrites it if the change is intended):\n%s", path, d)
	}
}

// CheckString is Check for text.
func CheckString(t testing.TB, path, got string) {
	t.Helper()
	Check(t, path, []byte(got))
}

// Diff is "" when want and got are equal, else the first line where they
// part with a few lines of context before it, and both line counts. Long
// lines (a JSON request a line) are cut to a window around the first byte
// that differs.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	col := 0
	if i < len(w) && i < len(g) {
		for col < len(w[i]) && col < len(g[i]) && w[i][col] == g[i][col] {
			col++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d, byte %d (want %d lines, got %d)\n", i+1, col+1, len(w), len(g))
	for j := max(0, i-3); j < i; j++ {
		fmt.Fprintf(&b, "  %s\n", clip(w[j], 0))
	}
	for j := i; j < min(len(w), i+5); j++ {
		fmt.Fprintf(&b, "- %s\n", clip(w[j], col))
	}
	for j := i; j < min(len(g), i+5); j++ {
		fmt.Fprintf(&b, "+ %s\n", clip(g[j], col))
	}
	return b.String()
}

// clip shows at most 200 bytes of a line, from 40 before col.
func clip(line string, col int) string {
	from := max(0, min(col-40, len(line)))
	out := line[from:]
	if len(out) > 200 {
		out = out[:200] + "…"
	}
	if from > 0 {
		out = "…" + out
	}
	return out
}
