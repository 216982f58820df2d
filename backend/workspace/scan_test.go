package workspace

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScanCountsLanguagesByExtension(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a.py", "b.py", "pkg/c.py", "main.go", "web/app.TS", "web/x.tsx", "data.json", "d2.json", "d3.json", "d4.json", "README", "Makefile"} {
		write(t, root, f, "x")
	}
	write(t, root, ".gitignore", "gen/\n")
	write(t, root, "gen/g1.go", "x")
	write(t, root, "gen/g2.go", "x")
	write(t, root, "node_modules/m/i.js", "x")
	write(t, root, ".venv/lib/site.py", "x")
	s, err := ScanDir(context.Background(), root, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []LanguageCount{{"json", 4}, {"python", 3}, {"typescript", 2}, {"go", 1}}
	if diff := cmp.Diff(want, s.Languages); diff != "" {
		t.Errorf("languages (-want +got):\n%s", diff)
	}
	if s.Primary() != "json" || s.Truncated {
		t.Errorf("primary %q truncated %v", s.Primary(), s.Truncated)
	}
	tests := []struct {
		exts []string
		want bool
	}{
		{[]string{".py"}, true}, {[]string{"py"}, true}, {[]string{".ts"}, true}, {[]string{".TSX"}, true},
		{[]string{".js"}, false}, {[]string{".js", ".go"}, true}, {nil, false},
	}
	for _, tt := range tests {
		if got := s.HasExt(tt.exts...); got != tt.want {
			t.Errorf("HasExt(%v) = %v", tt.exts, got)
		}
	}
	for rel, want := range map[string]bool{"main.go": true, "pkg": true, "gen/g1.go": true, "nope.py": false, "../x": false, "/etc/passwd": false} {
		if got := s.Exists(rel); got != want {
			t.Errorf("Exists(%q) = %v", rel, got)
		}
	}
	if got := LanguageOf("x/y.CLJC"); got != "clojure" {
		t.Errorf("LanguageOf = %q", got)
	}
}

func TestScanIsBounded(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 50; i++ {
		write(t, root, fmt.Sprintf("f%02d.go", i), "x")
	}
	write(t, root, "zzz.py", "x") // visited last: beyond the bound
	s, err := ScanDir(context.Background(), root, 20)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Truncated || s.Entries != 20 || len(s.Files) != 20 || s.HasExt(".py") {
		t.Errorf("bounded scan: truncated=%v entries=%d files=%d py=%v", s.Truncated, s.Entries, len(s.Files), s.HasExt(".py"))
	}
	if _, err := ScanDir(context.Background(), root+"/missing", 0); err == nil {
		t.Error("scan of a missing root: no error")
	}
}
