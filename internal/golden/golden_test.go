package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	if d := Diff("a\nb\n", "a\nb\n"); d != "" {
		t.Errorf("equal texts: Diff = %q, want empty", d)
	}
	d := Diff("a\nb\nc\n", "a\nB\nc\n")
	for _, want := range []string{"first difference at line 2", "  a\n", "- b\n", "+ B\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("Diff lacks %q:\n%s", want, d)
		}
	}
	if d := Diff("a\n", "a\nextra\n"); !strings.Contains(d, "+ extra") {
		t.Errorf("a longer got is shown:\n%s", d)
	}
	long := strings.Repeat("x", 1000)
	d = Diff(long+"A"+long, long+"B"+long)
	for _, want := range []string{"line 1, byte 1001", "- …" + strings.Repeat("x", 40) + "A", "+ …" + strings.Repeat("x", 40) + "B"} {
		if !strings.Contains(d, want) {
			t.Errorf("a long line's diff lacks %q:\n%s", want, d)
		}
	}
	if len(d) > 600 {
		t.Errorf("a long line's diff is %d bytes, want it cut", len(d))
	}
}

// fakeT records what Check reports without failing the real test.
type fakeT struct {
	testing.TB
	errors, fatals []string
}

func (f *fakeT) Helper()                        {}
func (f *fakeT) Errorf(format string, a ...any) { f.errors = append(f.errors, format) }
func (f *fakeT) Fatalf(format string, a ...any) { f.fatals = append(f.fatals, format); panic(f) }
func (f *fakeT) Fatal(a ...any)                 { f.fatals = append(f.fatals, "fatal"); panic(f) }

func check(f *fakeT, path string, got []byte) {
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
	}()
	Check(f, path, got)
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testdata", "x.golden")
	f := &fakeT{TB: t}
	check(f, path, []byte("one\n"))
	if len(f.fatals) != 1 {
		t.Fatalf("a missing golden file: fatals %q, want one", f.fatals)
	}

	*Update = true
	f = &fakeT{TB: t}
	check(f, path, []byte("one\n"))
	*Update = false
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\n" || len(f.errors)+len(f.fatals) != 0 {
		t.Fatalf("-update wrote %q, %v (reports %q %q)", b, err, f.errors, f.fatals)
	}

	f = &fakeT{TB: t}
	check(f, path, []byte("one\n"))
	if len(f.errors)+len(f.fatals) != 0 {
		t.Errorf("an equal run failed: %q %q", f.errors, f.fatals)
	}
	check(f, path, []byte("two\n"))
	if len(f.errors) != 1 {
		t.Errorf("a different run: errors %q, want one", f.errors)
	}
}
