package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func lines(n int, format string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, format+"\n", i)
	}
	return b.String()
}

func TestCatWindows(t *testing.T) {
	ctx := context.Background()
	s, _ := newSet(t, map[string]string{
		"ten.txt":    lines(10, "line %d"),
		"big.txt":    lines(2500, "row %d"),
		"nonl.txt":   "a\nb",
		"crlf.txt":   "one\r\ntwo\r\n",
		"empty.txt":  "",
		"unicode.md": "héllo → wörld\n",
	})
	cases := []struct {
		name       string
		path       string
		start, end int
		want       CatResult // Text checked separately when wantText != ""
		wantText   string
	}{
		{"whole small file", "ten.txt", 1, 0,
			CatResult{Path: "ten.txt", Start: 1, End: 10, TotalLines: 10}, ""},
		{"middle window", "ten.txt", 3, 5,
			CatResult{Path: "ten.txt", Start: 3, End: 5, TotalLines: 10, Remaining: 5,
				Note: `5 more lines (6-10); continue with cat("ten.txt", start=6)`},
			"3|line 3\n4|line 4\n5|line 5"},
		{"end past EOF is clamped", "ten.txt", 9, 99,
			CatResult{Path: "ten.txt", Start: 9, End: 10, TotalLines: 10},
			" 9|line 9\n10|line 10"},
		{"default window caps at 2000", "big.txt", 1, 0,
			CatResult{Path: "big.txt", Start: 1, End: 2000, TotalLines: 2500, Remaining: 500,
				Note: `500 more lines (2001-2500); continue with cat("big.txt", start=2001)`}, ""},
		{"explicit huge window is capped too", "big.txt", 100, 2500,
			CatResult{Path: "big.txt", Start: 100, End: 2099, TotalLines: 2500, Remaining: 401,
				Note: `401 more lines (2100-2500); continue with cat("big.txt", start=2100)`}, ""},
		{"continue to the end", "big.txt", 2001, 0,
			CatResult{Path: "big.txt", Start: 2001, End: 2500, TotalLines: 2500}, ""},
		{"no trailing newline", "nonl.txt", 1, 0,
			CatResult{Path: "nonl.txt", Start: 1, End: 2, TotalLines: 2}, "1|a\n2|b"},
		{"crlf shown without \\r", "crlf.txt", 1, 0,
			CatResult{Path: "crlf.txt", Start: 1, End: 2, TotalLines: 2}, "1|one\n2|two"},
		{"empty file", "empty.txt", 1, 0,
			CatResult{Path: "empty.txt", Start: 1, End: 0, Note: "the file is empty"}, ""},
		{"unicode", "unicode.md", 1, 1,
			CatResult{Path: "unicode.md", Start: 1, End: 1, TotalLines: 1}, "1|héllo → wörld"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Cat(ctx, tc.path, tc.start, tc.end)
			mustDo(t, err)
			text := got.Text
			got.Text = ""
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tc.wantText != "" && text != tc.wantText {
				t.Errorf("text = %q, want %q", text, tc.wantText)
			}
			// Every shown line is numbered, one per line of the window.
			if got.End >= got.Start {
				rows := strings.Split(text, "\n")
				if len(rows) != got.End-got.Start+1 {
					t.Fatalf("%d rows for lines %d-%d", len(rows), got.Start, got.End)
				}
				if want := fmt.Sprintf("%d|", got.End); !strings.HasPrefix(rows[len(rows)-1], want) {
					t.Errorf("last row %q does not start with %q", rows[len(rows)-1], want)
				}
				// The gutter is as wide as the last number shown, on every row.
				for i, row := range rows {
					if want := fmt.Sprintf("%*d|", len(fmt.Sprint(got.End)), got.Start+i); !strings.HasPrefix(row, want) {
						t.Fatalf("row %d %q does not start with %q", i, row, want)
					}
				}
			}
		})
	}
}

func TestCatGolden(t *testing.T) {
	s, _ := newSet(t, map[string]string{"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"})
	r, err := s.Cat(context.Background(), "main.go", 1, 0)
	mustDo(t, err)
	checkGolden(t, "cat_main.txt", r.Text)
}

func TestCatFailures(t *testing.T) {
	ctx := context.Background()
	bin := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	s, root := newSet(t, map[string]string{"a.txt": "x\ny\n", "dir/": ""})
	mustDo(t, os.WriteFile(filepath.Join(root, "img.png"), bin, 0o644))
	mustDo(t, os.WriteFile(filepath.Join(root, "late-nul.txt"), append([]byte(strings.Repeat("text\n", 5000)), 0), 0o644))
	old := maxFileBytes
	maxFileBytes = 64 << 10
	mustDo(t, os.WriteFile(filepath.Join(root, "huge.log"), []byte(strings.Repeat("z", 128<<10)), 0o644))
	t.Cleanup(func() { maxFileBytes = old })
	cases := []struct {
		name       string
		path       string
		start, end int
		kind       Kind
		msg        string
	}{
		{"binary", "img.png", 1, 0, KindBinary, "img.png is a binary file (NUL byte at offset 8)"},
		{"NUL deep in file", "late-nul.txt", 1, 0, KindBinary, "binary"},
		{"missing", "nope.txt", 1, 0, KindNotFound, "no such file"},
		{"directory", "dir", 1, 0, KindIsDir, "is a directory"},
		{"root", ".", 1, 0, KindIsDir, "directory"},
		{"start 0", "a.txt", 0, 0, KindInvalid, "start must be at least 1"},
		{"start past end", "a.txt", 5, 0, KindInvalid, "past the end of a.txt (2 lines)"},
		{"end before start", "a.txt", 2, 1, KindInvalid, "before start"},
		{"too large", "huge.log", 1, 0, KindTooLarge, "huge.log is 128.0 KiB, more than the 64.0 KiB this tool reads"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Cat(ctx, tc.path, tc.start, tc.end)
			e := wantKind(t, err, tc.kind)
			if !strings.Contains(e.Message, tc.msg) {
				t.Errorf("message %q does not contain %q", e.Message, tc.msg)
			}
		})
	}
}

func TestCatTruncatesLongLines(t *testing.T) {
	s, _ := newSet(t, map[string]string{"min.js": strings.Repeat("é", 3000) + "\n"})
	r, err := s.Cat(context.Background(), "min.js", 1, 0)
	mustDo(t, err)
	if !strings.Contains(r.Text, "… [line truncated: 4000 more bytes]") {
		t.Errorf("long line not truncated as expected: ...%s", r.Text[len(r.Text)-60:])
	}
	if !strings.HasPrefix(r.Text, "1|éé") || strings.ContainsRune(r.Text, '\uFFFD') {
		t.Error("truncation broke a UTF-8 character")
	}
}

func TestLs(t *testing.T) {
	ctx := context.Background()
	s, root := newSet(t, map[string]string{
		".gitignore":        "node_modules/\n*.log\n",
		"README.md":         "hello\n",
		"debug.log":         "x",
		"src/main.go":       "package main\n",
		"src/util/u.go":     "package util\n",
		"node_modules/m.js": "x",
		"empty/":            "",
	})
	mustDo(t, os.Symlink("README.md", filepath.Join(root, "readme-link")))
	cases := []struct {
		name  string
		path  string
		depth int
		want  LsResult
	}{
		{"root depth 1", ".", 1, LsResult{Path: ".", Entries: []Entry{
			{".gitignore", "file", 20}, {"README.md", "file", 6}, {"empty", "dir", 0},
			{"readme-link", "symlink", 0}, {"src", "dir", 0},
		}}},
		{"src depth 2", "src", 2, LsResult{Path: "src", Entries: []Entry{
			{"main.go", "file", 13}, {"util", "dir", 0}, {"util/u.go", "file", 13},
		}}},
		{"file", "src/main.go", 1, LsResult{Path: "src/main.go", Entries: []Entry{{"main.go", "file", 13}}}},
		{"ignored dir named explicitly", "node_modules", 1, LsResult{Path: "node_modules",
			Entries: []Entry{{"m.js", "file", 1}},
			Note:    "node_modules is ignored by .gitignore; listed because you asked for it"}},
		{"empty dir", "empty", 1, LsResult{Path: "empty", Entries: []Entry{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Ls(ctx, tc.path, tc.depth)
			mustDo(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := s.Ls(ctx, "missing", 1)
	wantKind(t, err, KindNotFound)
	_, err = s.Ls(ctx, ".", 0)
	wantKind(t, err, KindInvalid)
}

func TestLsCap(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("f%02d", i)] = ""
	}
	s, _ := newSet(t, files)
	old := maxLsEntries
	maxLsEntries = 10
	t.Cleanup(func() { maxLsEntries = old })
	r, err := s.Ls(context.Background(), ".", 1)
	mustDo(t, err)
	if len(r.Entries) != 10 || !r.Truncated || !strings.Contains(r.Note, "stopped after 10 entries") {
		t.Errorf("got %d entries, truncated=%v, note=%q", len(r.Entries), r.Truncated, r.Note)
	}
}

func TestGrep(t *testing.T) {
	ctx := context.Background()
	s, root := newSet(t, map[string]string{
		".gitignore":             "build/\n*.gen.go\n",
		"main.go":                "package main\n\nfunc main() {\n\tTODO()\n}\n",
		"util.go":                "package main\n// todo: lower\nfunc TODO() {}\n",
		"x.gen.go":               "TODO generated\n",
		"build/out.txt":          "TODO built\n",
		"pkg/.gitignore":         "secret/\n!keep.gen.go\n",
		"pkg/a.txt":              "alpha TODO\n",
		"pkg/keep.gen.go":        "TODO kept\n",
		"pkg/secret/s.txt":       "TODO hidden\n",
		"pkg/deep/b.txt":         "beta TODO\r\n",
		"docs/guide.md":          "# TODO (docs)\n",
		".git/config":            "TODO in git\n",
		"pkg/deep/nested/c.json": "{\"TODO\": 1}\n",
	})
	mustDo(t, os.WriteFile(filepath.Join(root, "bin.dat"), []byte("TODO\x00binary"), 0o644))
	type m = GrepMatch
	cases := []struct {
		name    string
		pattern string
		opt     GrepOptions
		want    []GrepMatch
		trunc   bool
	}{
		{"nested gitignore, binary, .git skipped", "TODO", GrepOptions{}, []m{
			{"docs/guide.md", 1, "# TODO (docs)"},
			{"main.go", 4, "\tTODO()"},
			{"pkg/a.txt", 1, "alpha TODO"},
			{"pkg/deep/b.txt", 1, "beta TODO"},
			{"pkg/deep/nested/c.json", 1, `{"TODO": 1}`},
			{"pkg/keep.gen.go", 1, "TODO kept"},
			{"util.go", 3, "func TODO() {}"},
		}, false},
		{"ignore case", "todo", GrepOptions{Path: "util.go", IgnoreCase: true}, []m{
			{"util.go", 2, "// todo: lower"}, {"util.go", 3, "func TODO() {}"},
		}, false},
		{"case sensitive by default", "todo", GrepOptions{Path: "util.go"}, []m{
			{"util.go", 2, "// todo: lower"},
		}, false},
		{"glob on base name", "TODO", GrepOptions{Glob: "*.txt"}, []m{
			{"pkg/a.txt", 1, "alpha TODO"}, {"pkg/deep/b.txt", 1, "beta TODO"},
		}, false},
		{"glob with path", "TODO", GrepOptions{Glob: "pkg/**/*.json"}, []m{
			{"pkg/deep/nested/c.json", 1, `{"TODO": 1}`},
		}, false},
		{"subdirectory", "TODO", GrepOptions{Path: "pkg/deep"}, []m{
			{"pkg/deep/b.txt", 1, "beta TODO"}, {"pkg/deep/nested/c.json", 1, `{"TODO": 1}`},
		}, false},
		{"max results truncates", "TODO", GrepOptions{MaxResults: 2}, []m{
			{"docs/guide.md", 1, "# TODO (docs)"}, {"main.go", 4, "\tTODO()"},
		}, true},
		{"regex", `^func \w+\(\)`, GrepOptions{}, []m{
			{"main.go", 3, "func main() {"}, {"util.go", 3, "func TODO() {}"},
		}, false},
		{"explicitly named ignored dir is searched", "TODO", GrepOptions{Path: "build"}, []m{
			{"build/out.txt", 1, "TODO built"},
		}, false},
		{"$ matches before \\r\\n", `TODO$`, GrepOptions{Path: "pkg"}, []m{
			{"pkg/a.txt", 1, "alpha TODO"}, {"pkg/deep/b.txt", 1, "beta TODO"},
		}, false},
		{"no match", "NOPE", GrepOptions{}, []m{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Grep(ctx, tc.pattern, tc.opt)
			mustDo(t, err)
			if diff := cmp.Diff(tc.want, got.Matches); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
			if got.Count != len(tc.want) || got.Truncated != tc.trunc {
				t.Errorf("count=%d truncated=%v, want %d %v", got.Count, got.Truncated, len(tc.want), tc.trunc)
			}
		})
	}
}

func TestGrepFailuresAndLimits(t *testing.T) {
	ctx := context.Background()
	s, root := newSet(t, map[string]string{"a.txt": "x\n"})
	_, err := s.Grep(ctx, "(unclosed", GrepOptions{})
	e := wantKind(t, err, KindInvalid)
	if !strings.Contains(e.Message, "missing closing )") || !strings.Contains(e.Hint, "RE2") {
		t.Errorf("bad regex error not explained: %v", e)
	}
	_, err = s.Grep(ctx, `(?<=x)y`, GrepOptions{})
	wantKind(t, err, KindInvalid)
	_, err = s.Grep(ctx, "", GrepOptions{})
	wantKind(t, err, KindInvalid)
	_, err = s.Grep(ctx, "x", GrepOptions{Glob: "[oops"})
	wantKind(t, err, KindInvalid)
	_, err = s.Grep(ctx, "x", GrepOptions{MaxResults: 5000})
	wantKind(t, err, KindInvalid)
	_, err = s.Grep(ctx, "x", GrepOptions{Path: "missing"})
	wantKind(t, err, KindNotFound)

	old := maxGrepFile
	maxGrepFile = 100
	t.Cleanup(func() { maxGrepFile = old })
	mustDo(t, os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("x\n", 100)), 0o644))
	r, err := s.Grep(ctx, "x", GrepOptions{})
	mustDo(t, err)
	if diff := cmp.Diff([]string{"big.txt"}, r.SkippedLarge); diff != "" || r.Count != 1 {
		t.Errorf("huge file not skipped and reported: count=%d %s", r.Count, diff)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Grep(cctx, "x", GrepOptions{}); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("cancelled grep: err = %v", err)
	}
}

func TestGlob(t *testing.T) {
	ctx := context.Background()
	s, _ := newSet(t, map[string]string{
		".gitignore":           "vendor/\n",
		"main.go":              "",
		"a-b/x.go":             "",
		"a/x.go":               "",
		"a/b/y_test.go":        "",
		"a/b/z.txt":            "",
		"vendor/v.go":          "",
		"docs/readme.md":       "",
		".git/hooks/pre.go":    "",
		"a/b/c/deep_test.go":   "",
		"node/lib/index.d.ts":  "",
		"node/lib/sub/x.d.ts":  "",
		"node/lib/sub/y.d.tsx": "",
	})
	cases := []struct {
		pattern string
		want    []string
	}{
		{"*.go", []string{"main.go"}},
		{"**/*.go", []string{"a-b/x.go", "a/b/c/deep_test.go", "a/b/y_test.go", "a/x.go", "main.go"}},
		{"**/*_test.go", []string{"a/b/c/deep_test.go", "a/b/y_test.go"}},
		{"a/**", []string{"a/b", "a/b/c", "a/b/c/deep_test.go", "a/b/y_test.go", "a/b/z.txt", "a/x.go"}},
		{"a/*/*.txt", []string{"a/b/z.txt"}},
		{"node/**/*.d.ts", []string{"node/lib/index.d.ts", "node/lib/sub/x.d.ts"}},
		{"vendor/*.go", []string{"vendor/v.go"}},                             // named explicitly
		{"*", []string{".gitignore", "a", "a-b", "docs", "main.go", "node"}}, // dot files match
		{"nothing/**", []string{}},
		{"[ad]*/*", []string{"a-b/x.go", "a/b", "a/x.go", "docs/readme.md"}},
	}
	for _, tc := range cases {
		t.Run(tc.pattern, func(t *testing.T) {
			got, err := s.Glob(ctx, tc.pattern)
			mustDo(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := s.Glob(ctx, "[bad")
	wantKind(t, err, KindInvalid)
	old := maxGlobResults
	maxGlobResults = 3
	t.Cleanup(func() { maxGlobResults = old })
	_, err = s.Glob(ctx, "**")
	wantKind(t, err, KindTooLarge)
}
