package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr(s string) *string { return &s }

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	mustDo(t, err)
	return string(b)
}

func TestWrite(t *testing.T) {
	ctx := context.Background()
	s, root := newSet(t, map[string]string{"exists.txt": "old\n", "dir/": ""})
	mustDo(t, os.Chmod(filepath.Join(root, "exists.txt"), 0o600))
	cases := []struct {
		name    string
		path    string
		content string
		want    WriteResult
	}{
		{"new file with parents", "a/b/c/new.txt", "one\ntwo\n", WriteResult{Path: "a/b/c/new.txt", Bytes: 8, Lines: 2, Created: true}},
		{"overwrite", "exists.txt", "fresh", WriteResult{Path: "exists.txt", Bytes: 5, Lines: 1}},
		{"empty content", "empty.txt", "", WriteResult{Path: "empty.txt", Created: true}},
		{"dot segments cleaned", "./x/../y.txt", "y\n", WriteResult{Path: "y.txt", Bytes: 2, Lines: 1, Created: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Write(ctx, tc.path, tc.content)
			mustDo(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if b := readFile(t, root, got.Path); b != tc.content {
				t.Errorf("file holds %q, want %q", b, tc.content)
			}
		})
	}
	if fi, _ := os.Stat(filepath.Join(root, "exists.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("overwrite changed permissions to %v", fi.Mode().Perm())
	}
	// No temp files left behind anywhere.
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if strings.Contains(filepath.Base(p), ".vis-") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
	// Failures.
	_, err := s.Write(ctx, "dir", "x")
	wantKind(t, err, KindIsDir)
	_, err = s.Write(ctx, ".", "x")
	wantKind(t, err, KindIsDir)
	_, err = s.Write(ctx, "exists.txt/child", "x")
	wantKind(t, err, KindNotDir)
	mustDo(t, os.Symlink("exists.txt", filepath.Join(root, "link.txt")))
	_, err = s.Write(ctx, "link.txt", "x")
	wantKind(t, err, KindInvalid)
	if b := readFile(t, root, "exists.txt"); b != "fresh" {
		t.Errorf("failed write through a link changed the target: %q", b)
	}
}

// TestWriteIsAtomic: a reader racing with writes sees either the old or
// the new content in full, never a prefix or a mix.
func TestWriteIsAtomic(t *testing.T) {
	ctx := context.Background()
	a := strings.Repeat("A", 1<<20)
	b := strings.Repeat("B", 1<<20)
	s, root := newSet(t, map[string]string{"f.txt": a})
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		defer close(done)
		for i := 0; i < 30; i++ {
			c := a
			if i%2 == 0 {
				c = b
			}
			if _, err := s.Write(ctx, "f.txt", c); err != nil {
				t.Error(err)
				return
			}
		}
	})
	reads, partial := 0, 0
	for {
		select {
		case <-done:
			wg.Wait()
			if partial > 0 {
				t.Errorf("reader saw %d partial writes in %d reads", partial, reads)
			}
			return
		default:
		}
		got, err := os.ReadFile(filepath.Join(root, "f.txt"))
		if err != nil {
			t.Errorf("read during write: %v", err)
			continue
		}
		reads++
		if len(got) != len(a) || (!bytes.Equal(got, []byte(a)) && !bytes.Equal(got, []byte(b))) {
			partial++
		}
	}
}

const goSrc = `package calc

func Add(a, b int) int {
	return a + b
}

func Sub(a, b int) int {
	return a - b
}

func Mul(a, b int) int {
	return a * b
}
`

func TestPatchSnippet(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name     string
		old, new string
		want     string // whole file after
		start    int
		end      int
	}{
		{"one line", "\treturn a - b\n", "\treturn b - a\n",
			strings.Replace(goSrc, "a - b", "b - a", 1), 8, 8},
		{"part of a line", "a * b", "a*b",
			strings.Replace(goSrc, "a * b", "a*b", 1), 12, 12},
		{"multi-line to more lines", "func Mul(a, b int) int {\n\treturn a * b\n}\n", "func Mul(a, b int) int {\n\tr := a * b\n\treturn r\n}\n",
			strings.Replace(goSrc, "\treturn a * b\n", "\tr := a * b\n\treturn r\n", 1), 12, 13},
		{"delete lines", "func Sub(a, b int) int {\n\treturn a - b\n}\n\n", "",
			strings.Replace(goSrc, "func Sub(a, b int) int {\n\treturn a - b\n}\n\n", "", 1), 7, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, root := newSet(t, map[string]string{"calc.go": goSrc})
			r, err := s.Patch(ctx, "calc.go", PatchRequest{Old: ptr(tc.old), New: ptr(tc.new)})
			mustDo(t, err)
			if got := readFile(t, root, "calc.go"); got != tc.want {
				t.Errorf("file after patch:\n%s\nwant:\n%s", got, tc.want)
			}
			if r.Start != tc.start || r.End != tc.end || r.TotalLines != strings.Count(tc.want, "\n") {
				t.Errorf("range %d-%d of %d, want %d-%d", r.Start, r.End, r.TotalLines, tc.start, tc.end)
			}
			// Fresh numbered text matches what cat would show now.
			c, err := s.Cat(ctx, "calc.go", 1, 0)
			mustDo(t, err)
			if !strings.Contains(c.Text, r.Text) {
				t.Errorf("patch text is not a window of the new file:\n%s", r.Text)
			}
		})
	}
}

func TestPatchGolden(t *testing.T) {
	ctx := context.Background()
	s, _ := newSet(t, map[string]string{"calc.go": goSrc})
	r, err := s.Patch(ctx, "calc.go", PatchRequest{Old: ptr("\treturn a - b\n"), New: ptr("\tdiff := a - b\n\treturn diff\n")})
	mustDo(t, err)
	checkGolden(t, "patch_snippet.txt", r.Diff+"\n---- text ----\n"+r.Text+"\n")

	_, err = s.Patch(ctx, "calc.go", PatchRequest{Old: ptr("func Mul(a, b int) int {\n  return a * b\n}"), New: ptr("x")})
	e := wantKind(t, err, KindNoMatch)
	checkGolden(t, "patch_nomatch_whitespace.txt", e.Message+"\nhint: "+e.Hint+"\n")

	_, err = s.Patch(ctx, "calc.go", PatchRequest{Old: ptr("func Div(a, b int) int {\n\treturn a / b\n}"), New: ptr("x")})
	e = wantKind(t, err, KindNoMatch)
	checkGolden(t, "patch_nomatch_similar.txt", e.Message+"\nhint: "+e.Hint+"\n")
}

func TestPatchSnippetFailures(t *testing.T) {
	ctx := context.Background()
	s, root := newSet(t, map[string]string{"calc.go": goSrc, "bin": "a\x00b"})
	cases := []struct {
		name string
		path string
		req  PatchRequest
		kind Kind
		msg  string // in Message
		hint string // in Hint
	}{
		{"ambiguous lists lines", "calc.go", PatchRequest{Old: ptr("int {\n"), New: ptr("int{\n")}, KindAmbiguous,
			"occurs 3 times in calc.go (starting at lines 3, 7, 11)", "more surrounding lines"},
		{"missing shows nearest", "calc.go", PatchRequest{Old: ptr("\treturn a + c\n"), New: ptr("x")}, KindNoMatch,
			"4|\treturn a + b", "copy old exactly"},
		{"line-number prefix copied", "calc.go", PatchRequest{Old: ptr("4|\treturn a + b"), New: ptr("x")}, KindNoMatch,
			"not found", "line-number prefix"},
		{"nothing similar", "calc.go", PatchRequest{Old: ptr("zzzzqqqq"), New: ptr("x")}, KindNoMatch,
			"No line resembles it", ""},
		{"no new", "calc.go", PatchRequest{Old: ptr("a")}, KindInvalid, "new is required", ""},
		{"empty old", "calc.go", PatchRequest{Old: ptr(""), New: ptr("x")}, KindInvalid, "old is empty", ""},
		{"both modes", "calc.go", PatchRequest{Old: ptr("a"), New: ptr("x"), Start: 1, End: 1}, KindInvalid, "both", ""},
		{"neither mode", "calc.go", PatchRequest{New: ptr("x")}, KindInvalid, "give old", ""},
		{"no change", "calc.go", PatchRequest{Old: ptr("a * b"), New: ptr("a * b")}, KindInvalid, "unchanged", ""},
		{"missing file", "nope.go", PatchRequest{Old: ptr("a"), New: ptr("b")}, KindNotFound, "no such file", "write(\"nope.go\""},
		{"binary", "bin", PatchRequest{Old: ptr("a"), New: ptr("b")}, KindBinary, "binary", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Patch(ctx, tc.path, tc.req)
			e := wantKind(t, err, tc.kind)
			if !strings.Contains(e.Message, tc.msg) {
				t.Errorf("message %q lacks %q", e.Message, tc.msg)
			}
			if !strings.Contains(e.Hint, tc.hint) {
				t.Errorf("hint %q lacks %q", e.Hint, tc.hint)
			}
		})
	}
	if got := readFile(t, root, "calc.go"); got != goSrc {
		t.Error("a failed patch changed the file")
	}
}

func TestPatchLineRange(t *testing.T) {
	ctx := context.Background()
	base := "one\ntwo\nthree\nfour\nfive\n"
	cases := []struct {
		name       string
		content    string
		start, end int
		new        string
		want       string
		rs, re     int
	}{
		{"replace one line", base, 2, 2, "TWO", "one\nTWO\nthree\nfour\nfive\n", 2, 2},
		{"replace range with more lines", base, 2, 3, "a\nb\nc\n", "one\na\nb\nc\nfour\nfive\n", 2, 4},
		{"delete range", base, 2, 4, "", "one\nfive\n", 2, 1},
		{"insert before line 1", base, 1, 0, "zero", "zero\none\ntwo\nthree\nfour\nfive\n", 1, 1},
		{"insert in the middle", base, 3, 2, "2.5", "one\ntwo\n2.5\nthree\nfour\nfive\n", 3, 3},
		{"append", base, 6, 5, "six\n", base + "six\n", 6, 6},
		{"last line without newline", "a\nb", 2, 2, "B", "a\nB", 2, 2},
		{"crlf kept", "a\r\nb\r\nc\r\n", 2, 2, "x\ny", "a\r\nx\r\ny\r\nc\r\n", 2, 3},
		{"empty file", "", 1, 0, "first", "first\n", 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, root := newSet(t, map[string]string{"f.txt": tc.content})
			_, err := s.Cat(ctx, "f.txt", 1, 0)
			mustDo(t, err)
			r, err := s.Patch(ctx, "f.txt", PatchRequest{New: ptr(tc.new), Start: tc.start, End: tc.end})
			mustDo(t, err)
			if got := readFile(t, root, "f.txt"); got != tc.want {
				t.Errorf("file = %q, want %q", got, tc.want)
			}
			if r.Start != tc.rs || r.End != tc.re {
				t.Errorf("result range %d-%d, want %d-%d\n%s", r.Start, r.End, tc.rs, tc.re, r.Diff)
			}
		})
	}
}

func TestPatchStale(t *testing.T) {
	ctx := context.Background()
	s, root := newSet(t, map[string]string{"f.txt": "a\nb\nc\n"})
	edit := PatchRequest{New: ptr("B"), Start: 2, End: 2}

	// Never read: stale.
	_, err := s.Patch(ctx, "f.txt", edit)
	e := wantKind(t, err, KindStale)
	if !strings.Contains(e.Message, "STALE") || !strings.Contains(e.Hint, `cat("f.txt")`) {
		t.Errorf("stale error not explained: %v", e)
	}
	// Read, then changed behind our back: stale.
	_, err = s.Cat(ctx, "f.txt", 1, 0)
	mustDo(t, err)
	mustDo(t, os.WriteFile(filepath.Join(root, "f.txt"), []byte("new\na\nb\nc\n"), 0o644))
	_, err = s.Patch(ctx, "f.txt", edit)
	e = wantKind(t, err, KindStale)
	if !strings.Contains(e.Message, "changed since you last read") || !strings.Contains(e.Hint, "cat") {
		t.Errorf("stale error not explained: %v", e)
	}
	if got := readFile(t, root, "f.txt"); got != "new\na\nb\nc\n" {
		t.Errorf("stale patch wrote: %q", got)
	}
	// Read again: fine; and chained line edits need no re-read.
	_, err = s.Cat(ctx, "f.txt", 2, 3)
	mustDo(t, err)
	_, err = s.Patch(ctx, "f.txt", PatchRequest{New: ptr("A"), Start: 2, End: 2})
	mustDo(t, err)
	_, err = s.Patch(ctx, "f.txt", PatchRequest{New: ptr("C"), Start: 4, End: 4})
	mustDo(t, err)
	if got := readFile(t, root, "f.txt"); got != "new\nA\nb\nC\n" {
		t.Errorf("file = %q", got)
	}
	// write() counts as reading; a snippet patch never needs a read.
	s2, _ := newSet(t, map[string]string{"g.txt": "x\ny\n"})
	_, err = s2.Patch(ctx, "g.txt", PatchRequest{Old: ptr("y"), New: ptr("Y")})
	mustDo(t, err)
	_, err = s2.Patch(ctx, "g.txt", PatchRequest{New: ptr("X"), Start: 1, End: 1})
	mustDo(t, err) // the snippet patch recorded what it wrote
	_, err = s2.Write(ctx, "h.txt", "1\n2\n")
	mustDo(t, err)
	_, err = s2.Patch(ctx, "h.txt", PatchRequest{New: ptr("two"), Start: 2, End: 2})
	mustDo(t, err)

	// Out of range.
	for _, rng := range [][2]int{{0, 1}, {5, 5}, {2, 7}, {3, 1}} {
		_, err = s.Patch(ctx, "f.txt", PatchRequest{New: ptr("z"), Start: rng[0], End: rng[1]})
		if rng[0] == 0 {
			wantKind(t, err, KindInvalid) // start 0 means "no line mode", and no old either
			continue
		}
		e := wantKind(t, err, KindInvalid)
		if !strings.Contains(e.Hint, "f.txt has 4 lines") {
			t.Errorf("range %v: hint %q", rng, e.Hint)
		}
	}
}

func TestPatchCRLFSnippet(t *testing.T) {
	s, root := newSet(t, map[string]string{"w.txt": "a\r\nb\r\nc\r\n"})
	_, err := s.Patch(context.Background(), "w.txt", PatchRequest{Old: ptr("a\nb\n"), New: ptr("A\nB\n")})
	mustDo(t, err)
	if got := readFile(t, root, "w.txt"); got != "A\r\nB\r\nc\r\n" {
		t.Errorf("file = %q", got)
	}
}

// TestConcurrentTools: the sandbox may run tools in parallel (gather);
// edits of different files through one Set do not interfere.
func TestConcurrentTools(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for i := range 8 {
		files[fmt.Sprintf("f%d.txt", i)] = "a\nb\nc\n"
	}
	s, root := newSet(t, files)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			p := fmt.Sprintf("f%d.txt", i)
			if _, err := s.Cat(ctx, p, 1, 0); err != nil {
				t.Error(err)
				return
			}
			for line := 1; line <= 3; line++ {
				if _, err := s.Patch(ctx, p, PatchRequest{New: ptr(fmt.Sprintf("%d%d", i, line)), Start: line, End: line}); err != nil {
					t.Error(err)
				}
			}
			if _, err := s.Grep(ctx, "\\d", GrepOptions{}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range 8 {
		want := fmt.Sprintf("%d1\n%d2\n%d3\n", i, i, i)
		if got := readFile(t, root, fmt.Sprintf("f%d.txt", i)); got != want {
			t.Errorf("f%d.txt = %q, want %q", i, got, want)
		}
	}
}
