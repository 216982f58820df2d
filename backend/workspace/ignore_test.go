package workspace

import (
	"testing"
	"testing/fstest"
)

// TestIgnoreSingleFile checks one root .gitignore against git's documented
// semantics (gitignore(5)); expectations were written from the manual and
// cross-checked with `git check-ignore` where marked.
func TestIgnoreSingleFile(t *testing.T) {
	type probe struct {
		path  string
		isDir bool
		want  bool
	}
	cases := []struct {
		name   string
		ignore string
		probes []probe
	}{
		{"basename anywhere", "*.log\n", []probe{
			{"a.log", false, true},
			{"deep/dir/b.log", false, true},
			{"a.log.txt", false, false},
			{"logs", true, false},
		}},
		{"plain name matches files and dirs at any depth", "build\n", []probe{
			{"build", true, true},
			{"build", false, true},
			{"src/build", true, true},
			{"src/build/out.o", false, true}, // inside an ignored dir
			{"builder", true, false},
		}},
		{"dir-only", "tmp/\n", []probe{
			{"tmp", true, true},
			{"tmp", false, false},
			{"a/tmp", true, true},
			{"a/tmp/x.txt", false, true},
		}},
		{"anchored with leading slash", "/todo.txt\n", []probe{
			{"todo.txt", false, true},
			{"sub/todo.txt", false, false},
		}},
		{"inner slash anchors", "doc/frotz\n", []probe{
			{"doc/frotz", false, true},
			{"a/doc/frotz", false, false},
		}},
		{"star does not cross slash", "doc/*.txt\n", []probe{
			{"doc/notes.txt", false, true},
			{"doc/server/arch.txt", false, false},
		}},
		{"leading double star", "**/foo\n", []probe{
			{"foo", false, true},
			{"a/b/foo", false, true},
			{"a/foo/x", false, true},
			{"foobar", false, false},
		}},
		{"leading double star with dir", "**/foo/bar\n", []probe{
			{"foo/bar", false, true},
			{"x/y/foo/bar", false, true},
			{"foo/x/bar", false, false},
		}},
		{"trailing double star", "abc/**\n", []probe{
			{"abc", true, false},
			{"abc/x", false, true},
			{"abc/x/y/z", false, true},
		}},
		{"middle double star", "a/**/b\n", []probe{
			{"a/b", false, true},
			{"a/x/b", false, true},
			{"a/x/y/b", false, true},
			{"a/x/c", false, false},
		}},
		{"double star inside a segment is a star", "a**z\n", []probe{
			{"abcz", false, true},
			{"ab/cz", false, false},
		}},
		{"negation re-includes", "*.log\n!keep.log\n", []probe{
			{"x.log", false, true},
			{"keep.log", false, false},
			{"sub/keep.log", false, false},
		}},
		{"last match wins", "!keep.log\n*.log\n", []probe{
			{"keep.log", false, true},
		}},
		{"negation cannot rescue a file in an ignored dir", "out/\n!out/keep.txt\n", []probe{
			{"out/keep.txt", false, true},
		}},
		{"re-include under double-star dir contents", "abc/**\n!abc/keep.txt\n", []probe{
			{"abc/keep.txt", false, false},
			{"abc/other.txt", false, true},
		}},
		{"character classes", "*.py[co]\nfile[0-9].txt\n[!a]x\ny[^b]\nz[[:digit:]]\n", []probe{
			{"m.pyc", false, true},
			{"m.pyo", false, true},
			{"m.py", false, false},
			{"file7.txt", false, true},
			{"fileA.txt", false, false},
			{"bx", false, true},
			{"ax", false, false},
			{"yc", false, true},
			{"yb", false, false},
			{"z5", false, true},
			{"zz", false, false},
		}},
		{"question mark", "?.c\n", []probe{
			{"a.c", false, true},
			{"ab.c", false, false},
		}},
		{"comments blanks and escapes", "# comment\n\n\\#hash\n\\!bang\nspace\\ \ntrail   \n", []probe{
			{"# comment", false, false},
			{"#hash", false, true},
			{"!bang", false, true},
			{"space ", false, true},
			{"trail", false, true},
		}},
		{"crlf line endings", "*.tmp\r\nx/\r\n", []probe{
			{"a.tmp", false, true},
			{"x", true, true},
		}},
		{"malformed class is skipped, rest applies", "[abc\n*.o\n", []probe{
			{"[abc", false, false},
			{"a.o", false, true},
		}},
		{".git always ignored", "", []probe{
			{".git", true, true},
			{".git/config", false, true},
			{"sub/.git", false, true},
			{".gitignore", false, false},
			{".github", true, false},
		}},
		{"root is never ignored", "*\n", []probe{
			{".", true, false},
			{"anything", false, true},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ig := NewIgnore(fstest.MapFS{".gitignore": {Data: []byte(tc.ignore)}})
			for _, p := range tc.probes {
				if got := ig.Ignored(p.path, p.isDir); got != p.want {
					t.Errorf("Ignored(%q, dir=%v) = %v, want %v", p.path, p.isDir, got, p.want)
				}
			}
		})
	}
}

// TestIgnoreNested checks precedence across nested .gitignore files and
// .git/info/exclude.
func TestIgnoreNested(t *testing.T) {
	fsys := fstest.MapFS{
		".git/info/exclude":  {Data: []byte("secret.txt\n*.bak\n")},
		".gitignore":         {Data: []byte("*.log\n/root-only\n!*.bak\nignored/\n")},
		"a/.gitignore":       {Data: []byte("!important.log\n/local\ngen/\n")},
		"a/b/.gitignore":     {Data: []byte("*.txt\n")},
		"c/.gitignore":       {Data: []byte("/sub/x\n")},
		"a/b/c/d/.gitignore": {Data: []byte("!*.txt\n")},
		"ignored/.gitignore": {Data: []byte("!*\n")},
	}
	ig := NewIgnore(fsys)
	cases := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"x.log", false, true},
		{"a/x.log", false, true},
		{"a/important.log", false, false}, // deeper file re-includes
		{"important.log", false, true},    // but only below a/
		{"root-only", false, true},
		{"a/root-only", false, false},
		{"a/local", false, true},
		{"local", false, false},
		{"a/x/local", false, false}, // anchored to a/
		{"a/gen", true, true},
		{"a/deep/gen/f.go", false, true},
		{"gen", true, false},
		{"a/b/notes.txt", false, true},
		{"a/notes.txt", false, false},
		{"a/b/c/d/notes.txt", false, false}, // deepest file wins
		{"a/b/c/notes.txt", false, true},
		{"c/sub/x", false, true},
		{"c/other/sub/x", false, false},
		{"secret.txt", false, true}, // info/exclude
		{"a/secret.txt", false, true},
		{"old.bak", false, false},         // .gitignore outranks info/exclude
		{"ignored/anything", false, true}, // ignored dir: its own !* cannot apply
	}
	for _, tc := range cases {
		if got := ig.Ignored(tc.path, tc.isDir); got != tc.want {
			t.Errorf("Ignored(%q, dir=%v) = %v, want %v", tc.path, tc.isDir, got, tc.want)
		}
	}
}

func TestGlob(t *testing.T) {
	cases := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"*.go", "main.go", true},
		{"*.go", "cmd/main.go", false},
		{"**/*.go", "main.go", true},
		{"**/*.go", "a/b/c.go", true},
		{"src/**/*.go", "src/x.go", true},
		{"src/**/*.go", "src/a/b/x.go", true},
		{"src/**/*.go", "other/x.go", false},
		{"src/**", "src/a/b", true},
		{"src/**", "src", false},
		{"./src/*.ts", "src/a.ts", true},
		{"a?c", "abc", true},
		{"[ab]*", "banana", true},
		{"[!ab]*", "banana", false},
		{"**", "x/y", true},
		{"a/**/**/b", "a/b", true},
	}
	for _, tc := range cases {
		g, err := CompileGlob(tc.pattern)
		if err != nil {
			t.Fatalf("CompileGlob(%q): %v", tc.pattern, err)
		}
		if got := g.Match(tc.path); got != tc.want {
			t.Errorf("Glob(%q).Match(%q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

func TestGlobBaseAndPruning(t *testing.T) {
	cases := []struct {
		pattern string
		base    string
		under   map[string]bool
	}{
		{"src/pkg/**/*.go", "src/pkg", map[string]bool{"src": true, "src/pkg/x": true, "lib": false}},
		{"*.go", ".", map[string]bool{"src": false}},
		{"**/*.go", ".", map[string]bool{"a/b/c": true}},
		{"a/*/c.txt", "a", map[string]bool{"a": true, "a/x": true, "a/x/c.txt": false, "b": false}},
	}
	for _, tc := range cases {
		g, err := CompileGlob(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Base(); got != tc.base {
			t.Errorf("Glob(%q).Base() = %q, want %q", tc.pattern, got, tc.base)
		}
		for dir, want := range tc.under {
			if got := g.CanMatchUnder(dir); got != want {
				t.Errorf("Glob(%q).CanMatchUnder(%q) = %v, want %v", tc.pattern, dir, got, want)
			}
		}
	}
}

func TestCompileGlobErrors(t *testing.T) {
	for _, p := range []string{"", "/", "[abc", `x\`, "a/[z-"} {
		if _, err := CompileGlob(p); err == nil {
			t.Errorf("CompileGlob(%q) succeeded, want ErrBadPattern", p)
		}
	}
}
