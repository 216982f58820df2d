package golang

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

// The real-projects suite: pinned copies of small third-party modules
// (testdata/projects/<name>, each with its LICENSE; see the README there).
// Each test copies a project into a fresh workspace, runs the project's own
// `go test -v` for reference counts (parsed here, not by the pack), then
// calls the language tools through the facade the way the model does:
// run_tests() must match the reference, a copy made to fail must give rows
// at the failing line with its message, and format_code() must leave
// gofmt-clean files that still pass the project's own command.

// offline is the reference runs' environment: no module proxy and no
// toolchain download, so a project that needed the network would fail.
var offline = []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local"}

// project copies testdata/projects/<name> into a fresh workspace and
// returns it with a language-tools facade over the Go pack.
func project(t *testing.T, name string) (string, *langtools.Facade) {
	t.Helper()
	ws := packtest.CopyFixture(t, filepath.Join("testdata", "projects", name))
	reg := ext.NewRegistry()
	if err := reg.Register(Extension()); err != nil {
		t.Fatal(err)
	}
	env := packtest.Environment(ws)
	env.Languages = []ext.LanguageCount{{Language: "go", Files: 1}}
	tenv, _ := packtest.ToolEnv(t, ws)
	return ws, langtools.New(reg.Active(env), tenv, nil)
}

func callTool(t *testing.T, f *langtools.Facade, verb string, args ...any) map[string]any {
	t.Helper()
	res, err := f.Call(context.Background(), verb, args, nil)
	if err != nil {
		t.Fatalf("%s%v: %v", verb, args, err)
	}
	return res
}

// goRun runs argv in dir offline and returns its combined output and
// whether it exited 0.
func goRun(t *testing.T, dir string, argv ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), offline...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

var verdict = regexp.MustCompile(`(?m)^\s*--- (PASS|FAIL|SKIP): (\S+) \(`)

// counts is the reference: `go test -v` verdict lines, counting leaf tests
// (a test with subtests or fuzz seeds is counted through them).
type counts struct{ total, pass, fail, skip int }

func referenceCounts(out string) counts {
	status := map[string]string{}
	for _, m := range verdict.FindAllStringSubmatch(out, -1) {
		status[m[2]] = m[1]
	}
	var c counts
	for name, s := range status {
		leaf := true
		for other := range status {
			if strings.HasPrefix(other, name+"/") {
				leaf = false
				break
			}
		}
		if !leaf {
			continue
		}
		c.total++
		switch s {
		case "PASS":
			c.pass++
		case "FAIL":
			c.fail++
		case "SKIP":
			c.skip++
		}
	}
	return c
}

// reference runs the project's own command and fails the test unless it
// reported tests and passed (or, with failing, failed only in tests).
func reference(t *testing.T, dir string, failing bool, argv ...string) counts {
	t.Helper()
	out, ok := goRun(t, dir, argv...)
	c := referenceCounts(out)
	if c.total == 0 || ok == failing || (c.fail != 0) != failing {
		t.Fatalf("the project's own %q: exit ok %v, %+v; want it to fail %v:\n%s", strings.Join(argv, " "), ok, c, failing, out)
	}
	return c
}

func checkCounts(t *testing.T, what string, r map[string]any, want counts) {
	t.Helper()
	t.Logf("%s: reference %+v", what, want)
	got := map[string]any{"total": r["total"], "pass": r["pass"], "fail": r["fail"], "skipped": r["skipped"], "is_pass": r["is_pass"], "runner": r["runner"]}
	exp := map[string]any{"total": want.total, "pass": want.pass, "fail": want.fail, "skipped": want.skip, "is_pass": want.fail == 0, "runner": "go test"}
	if d := cmp.Diff(exp, got); d != "" {
		t.Errorf("%s (-reference +run_tests):\n%s\n%v", what, d, r["output"])
	}
}

// edit replaces old (which must occur once or more; the first is taken) in
// a workspace file and returns the 1-based line where it starts.
func edit(t *testing.T, root, rel, old, new string) int {
	t.Helper()
	p := filepath.Join(root, rel)
	b := []byte(read(t, p))
	i := strings.Index(string(b), old)
	if i < 0 {
		t.Fatalf("%s: %q not found", rel, old)
	}
	if err := os.WriteFile(p, []byte(string(b[:i])+new+string(b[i+len(old):])), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b[:i]), "\n") + 1
}

// lineAfter is the first line after line `from` of a workspace file that
// contains needle.
func lineAfter(t *testing.T, root, rel string, from int, needle string) int {
	t.Helper()
	for i, l := range strings.Split(read(t, filepath.Join(root, rel)), "\n") {
		if i+1 > from && strings.Contains(l, needle) {
			return i + 1
		}
	}
	t.Fatalf("%s: no %q after line %d", rel, needle, from)
	return 0
}

// unindent strips the leading tabs of every line of the function that
// starts with head in a workspace file.
func unindent(t *testing.T, root, rel, head string) {
	t.Helper()
	src := read(t, filepath.Join(root, rel))
	i := strings.Index(src, head)
	j := strings.Index(src[i:], "\n}\n")
	if i < 0 || j < 0 {
		t.Fatalf("%s: no function %q", rel, head)
	}
	body := src[i : i+j]
	flat := regexp.MustCompile(`(?m)^\t+`).ReplaceAllString(body, "")
	if flat == body {
		t.Fatalf("%s: %q has no indented lines", rel, head)
	}
	edit(t, root, rel, body, flat)
}

func rowFor(t *testing.T, r map[string]any, test string) map[string]any {
	t.Helper()
	fs, _ := r["failures"].([]any)
	for _, f := range fs {
		if m, _ := f.(map[string]any); m["test"] == test {
			return m
		}
	}
	t.Fatalf("no failure row for %s in %v", test, r["failures"])
	return nil
}

func formattedFiles(t *testing.T, r map[string]any) []string {
	t.Helper()
	var out []string
	fs, _ := r["files"].([]any)
	for _, f := range fs {
		out = append(out, f.(map[string]any)["file"].(string))
	}
	return out
}

// gofmtL is what gofmt -l reports for the project's .go files outside
// testdata, relative to dir.
func gofmtL(t *testing.T, dir string, files ...string) []string {
	t.Helper()
	out, ok := goRun(t, dir, append([]string{"gofmt", "-l"}, files...)...)
	if !ok {
		t.Fatalf("gofmt -l: %s", out)
	}
	list := strings.Fields(out)
	slices.Sort(list)
	return list
}

// semver (MIT): one package at the module root, table tests with t.Run
// subtests and fuzz targets whose seed corpus runs as subtests; its
// Makefile's test target is `go test -v`.
func TestRealProjectSemver(t *testing.T) {
	t.Parallel()
	own := []string{"go", "test", "-v", "-count=1"}

	t.Run("passes", func(t *testing.T) {
		t.Parallel()
		ws, f := project(t, "semver")
		want := reference(t, ws, false, own...)
		checkCounts(t, "run_tests()", callTool(t, f, langtools.VerbTest), want)
	})

	t.Run("made to fail", func(t *testing.T) {
		t.Parallel()
		ws, f := project(t, "semver")
		// a table row inside a t.Run subtest, caught by a t.Fatalf below it
		row := edit(t, ws, "version_test.go", `{"01.1.1", false}, // A leading 0`, `{"01.1.1", true}, // A leading 0`)
		subLine := lineAfter(t, ws, "version_test.go", row, `t.Fatalf("expected error for version`)
		// a top-level test's t.Error
		cond := edit(t, ws, "version_test.go", "if v.Minor() != 2 {", "if v.Minor() != 3 {")
		want := reference(t, ws, true, own...)
		if want.fail != 2 {
			t.Fatalf("the project's own command failed %d tests, want the 2 edited", want.fail)
		}
		r := callTool(t, f, langtools.VerbTest)
		checkCounts(t, "failing copy", r, want)
		for _, tc := range []struct {
			test string
			line int
			msg  string
		}{
			{"TestNewVersion/With_loose_NewVersion", subLine, "expected error for version: 01.1.1"},
			{"TestParts", cond + 1, "Minor() returning wrong value"},
		} {
			got := rowFor(t, r, tc.test)
			exp := map[string]any{"test": tc.test, "type": "fail", "file": "version_test.go", "line": tc.line, "message": "version_test.go:" + strconv.Itoa(tc.line) + ": " + tc.msg}
			if d := cmp.Diff(exp, got); d != "" {
				t.Errorf("row %s (-want +got):\n%s", tc.test, d)
			}
		}
		if fs := r["failures"].([]any); len(fs) != 2 {
			t.Errorf("failures = %v; want the two rows only (a parent of a failed subtest is no row)", fs)
		}
	})

	t.Run("format_code", func(t *testing.T) {
		t.Parallel()
		ws, f := project(t, "semver")
		original := read(t, filepath.Join(ws, "collection.go"))
		unindent(t, ws, "collection.go", "func (c Collection) Swap(")
		if got := gofmtL(t, ws, "."); !cmp.Equal(got, []string{"collection.go"}) {
			t.Fatalf("before: gofmt -l = %v", got)
		}
		r := callTool(t, f, langtools.VerbFormat)
		if got := formattedFiles(t, r); !cmp.Equal(got, []string{"collection.go"}) || r["formatter"] != "gofmt" {
			t.Errorf("format_code() = %v; want collection.go changed", r)
		}
		if read(t, filepath.Join(ws, "collection.go")) != original {
			t.Errorf("collection.go is not upstream's formatting again:\n%s", read(t, filepath.Join(ws, "collection.go")))
		}
		if got := gofmtL(t, ws, "."); len(got) != 0 {
			t.Errorf("after format_code(): gofmt -l = %v", got)
		}
		reference(t, ws, false, own...)
	})
}

// go-spew (ISC): the package lives in spew/ (no go.mod upstream; ours is
// minimal), with Example tests, build tags (unsafe vs safe) and a testdata
// folder. Its CI ran `go test -v -race -tags safe ./spew` (we drop -race).
func TestRealProjectGoSpew(t *testing.T) {
	t.Parallel()
	own := []string{"go", "test", "-v", "-count=1", "-tags", "safe", "./spew"}
	tagged := map[string]any{"args": []any{"-tags", "safe"}}

	t.Run("passes", func(t *testing.T) {
		t.Parallel()
		ws, f := project(t, "go-spew")
		// the default build (the tagged one is counted in "made to fail")
		want := reference(t, ws, false, "go", "test", "-v", "-count=1", "./...")
		checkCounts(t, "run_tests()", callTool(t, f, langtools.VerbTest), want)
	})

	t.Run("made to fail", func(t *testing.T) {
		t.Parallel()
		ws, f := project(t, "go-spew")
		line := edit(t, ws, "spew/example_test.go", "\t// ppui8: <**>5\n", "\t// ppui8: <**>6\n")
		want := reference(t, ws, true, own...)
		if want.fail != 1 {
			t.Fatalf("the project's own command failed %d tests, want the edited example", want.fail)
		}
		r := callTool(t, f, langtools.VerbTest, "go", tagged)
		checkCounts(t, `run_tests("go", {"args": ["-tags", "safe"]})`, r, want)
		got := rowFor(t, r, "ExamplePrintf")
		// an Example prints got/want without a position: the row points at
		// its Output comment
		exp := map[string]any{"test": "ExamplePrintf", "type": "fail", "file": "spew/example_test.go", "line": line - 1,
			"message": "got:\nppui8: <**>5\ncircular: {1 <*>{1 <*><shown>}}\nwant:\nppui8: <**>6\ncircular: {1 <*>{1 <*><shown>}}"}
		if d := cmp.Diff(exp, got); d != "" {
			t.Errorf("row (-want +got):\n%s", d)
		}
		if l := strings.Split(read(t, filepath.Join(ws, "spew/example_test.go")), "\n")[line-2]; strings.TrimSpace(l) != "// Output:" {
			t.Errorf("line %d is %q, not the Output comment", line-1, l)
		}
	})

	t.Run("format_code", func(t *testing.T) {
		t.Parallel()
		ws, f := project(t, "go-spew")
		original := read(t, filepath.Join(ws, "spew/common.go"))
		unindent(t, ws, "spew/common.go", "func printHexPtr(")
		unindent(t, ws, "spew/format.go", "func (f *formatState) unpackValue(")
		// a file under testdata, unformatted too, must be left alone
		unindent(t, ws, "spew/testdata/dumpcgo.go", "func GetCgoCharPointer(")
		cgo := read(t, filepath.Join(ws, "spew/testdata/dumpcgo.go"))
		before, _ := filepath.Glob(filepath.Join(ws, "spew", "*.go"))
		want := gofmtL(t, ws, before...)
		for i := range want {
			want[i], _ = filepath.Rel(ws, want[i])
		}
		if !cmp.Equal(want, []string{"spew/common.go", "spew/format.go"}) {
			t.Fatalf("before: gofmt -l = %v", want)
		}
		r := callTool(t, f, langtools.VerbFormat)
		if got := formattedFiles(t, r); !cmp.Equal(got, want) {
			t.Errorf("format_code() changed %v; gofmt -l listed %v", got, want)
		}
		if got := gofmtL(t, ws, before...); len(got) != 0 {
			t.Errorf("after format_code(): gofmt -l = %v", got)
		}
		if read(t, filepath.Join(ws, "spew/common.go")) != original {
			t.Error("spew/common.go is not upstream's formatting again")
		}
		if read(t, filepath.Join(ws, "spew/testdata/dumpcgo.go")) != cgo {
			t.Error("format_code() formatted a file under testdata")
		}
		reference(t, ws, false, own...)
		reference(t, ws, false, "go", "test", "-v", "-count=1", "./...")
	})
}
