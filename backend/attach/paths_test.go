package attach

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPathsInText(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "project")
	home := filepath.Join(root, "home")
	files := []string{
		"project/shot.png",
		"project/docs/diagram.JPG",
		"project/my shot.png",
		"project/a(1).jpeg",
		"home/Desktop/Screen Shot 2026-01-02 at 10.00.00.png",
		"home/pic.webp",
		"elsewhere/logo.gif",
		"elsewhere/scan.bmp",
		"project/notes.txt",
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, "dir.png"), 0o755); err != nil { // a directory with an image name
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "shot.png"), filepath.Join(ws, "link.png")); err != nil {
		t.Fatal(err)
	}
	abs := func(f string) string { return filepath.Join(root, f) }

	tests := []struct {
		name string
		text string
		want []string
	}{
		{"no image ending", "please fix the login bug in auth.go", nil},
		{"relative to the workspace", "look at shot.png please", []string{abs("project/shot.png")}},
		{"subdirectory, upper-case ending", "see docs/diagram.JPG.", []string{abs("project/docs/diagram.JPG")}},
		{"absolute", "compare " + abs("elsewhere/logo.gif") + ", and", []string{abs("elsewhere/logo.gif")}},
		{"tilde", "the one in ~/pic.webp!", []string{abs("home/pic.webp")}},
		{"double-quoted with spaces", `what is "` + abs("home/Desktop/Screen Shot 2026-01-02 at 10.00.00.png") + `" showing?`,
			[]string{abs("home/Desktop/Screen Shot 2026-01-02 at 10.00.00.png")}},
		{"single-quoted relative", "open 'my shot.png' now", []string{abs("project/my shot.png")}},
		{"backtick-quoted", "open `my shot.png`", []string{abs("project/my shot.png")}},
		{"escaped spaces from a terminal drop", `~/Desktop/Screen\ Shot\ 2026-01-02\ at\ 10.00.00.png is the error`,
			[]string{abs("home/Desktop/Screen Shot 2026-01-02 at 10.00.00.png")}},
		{"escaped parentheses", `a\(1\).jpeg`, []string{abs("project/a(1).jpeg")}},
		{"file URL with percent escapes", "file://" + strings.ReplaceAll(abs("project/my shot.png"), " ", "%20"), []string{abs("project/my shot.png")}},
		{"edge punctuation", "(shot.png), [docs/diagram.JPG]; <" + abs("elsewhere/scan.bmp") + ">",
			[]string{abs("project/shot.png"), abs("project/docs/diagram.JPG"), abs("elsewhere/scan.bmp")}},
		{"markdown image", "![the bug](shot.png)", []string{abs("project/shot.png")}},
		{"mention", "@shot.png", []string{abs("project/shot.png")}},
		{"same file three ways, once", "shot.png ./shot.png docs/../shot.png " + abs("project/shot.png"), []string{abs("project/shot.png")}},
		{"a symlink and its target, once", "link.png shot.png", []string{abs("project/link.png")}},
		{"order of mention", "~/pic.webp then shot.png", []string{abs("home/pic.webp"), abs("project/shot.png")}},
		{"missing file dropped", "what about missing.png and shot.png", []string{abs("project/shot.png")}},
		{"directory dropped", "dir.png", nil},
		{"web URL ignored", "like https://example.com/shot.png", nil},
		{"bare extension ignored", "convert it to .png", nil},
		{"apostrophe inside a word", "don't open shot.png, it's stale", []string{abs("project/shot.png")}},
		{"quoted prose around a path", `he said "look at shot.png first"`, []string{abs("project/shot.png")}},
		{"unclosed quote", `"shot.png`, []string{abs("project/shot.png")}},
		{"newlines and tabs", "first:\n\tshot.png\nsecond:\t~/pic.webp", []string{abs("project/shot.png"), abs("home/pic.webp")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PathsInText(tt.text, ws, home)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PathsInText(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestPathsInTextWithoutRoots(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.png")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := PathsInText("a.png ~/a.png "+p, "", "")
	if diff := cmp.Diff([]string{p}, got); diff != "" {
		t.Errorf("without workspace or home only absolute paths count (-want +got):\n%s", diff)
	}
}

func BenchmarkPathsInTextNoImage(b *testing.B) {
	text := strings.Repeat("Refactor the session loader so that it streams rows instead of loading them all. ", 50)
	for b.Loop() {
		if PathsInText(text, "/w", "/h") != nil {
			b.Fatal("found a path")
		}
	}
}
