package golang

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/packs/packtest"
)

func TestMain(m *testing.M) { os.Exit(packtest.Main(m)) }

// fixture copies testdata/fixture into a temporary workspace.
func fixture(t *testing.T) (string, ext.ToolEnv) {
	t.Helper()
	dir := packtest.CopyFixture(t, "testdata/fixture")
	env, _ := packtest.ToolEnv(t, dir)
	return dir, env
}

func call(dir string, opts map[string]any) ext.Call {
	if opts == nil {
		opts = map[string]any{}
	}
	return ext.Call{Language: "go", Opts: opts, Cwd: dir}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestActivation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"go.mod at the root", map[string]string{"go.mod": "module x\n"}, true},
		{"go files without go.mod", map[string]string{"main.go": "package main\n"}, false},
		{"go.mod only in a subfolder", map[string]string{"sub/go.mod": "module x\n"}, false},
		{"empty", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			packtest.WriteFiles(t, dir, tc.files)
			e := Extension()
			got, err := e.Activate(packtest.Environment(dir))
			if err != nil || got != tc.want {
				t.Fatalf("Activate = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestExtensionShape(t *testing.T) {
	e := Extension()
	if e.Kind != "language" || len(e.LanguageTools) != 1 {
		t.Fatalf("extension = %+v", e)
	}
	lt := e.LanguageTools[0]
	if lt.Language != "go" || !cmp.Equal(lt.Aliases, []string{"golang"}) {
		t.Fatalf("language %q aliases %v", lt.Language, lt.Aliases)
	}
	if lt.Format == nil || lt.Lint == nil || lt.Test == nil {
		t.Fatal("format, lint and test handlers must be set")
	}
}

func TestNoREPL(t *testing.T) {
	lt := Extension().LanguageTools[0]
	if lt.Eval != nil || lt.Repl != nil {
		t.Fatal("the go pack offers a REPL; the capability matrix would list repl_eval/repl_start for go")
	}
}

func TestFormatSnippet(t *testing.T) {
	dir := t.TempDir()
	env, _ := packtest.ToolEnv(t, dir)
	ugly := "package p\nfunc  F( )int{\nreturn 1}\n"
	neat := "package p\n\nfunc F() int {\n\treturn 1\n}\n"
	for _, tc := range []struct {
		name string
		opts map[string]any
		want map[string]any
	}{
		{"unformatted", map[string]any{"code": ugly}, map[string]any{"changed": true, "delta": len(neat) - len(ugly), "chars": len(neat), "formatter": "gofmt"}},
		{"already formatted", map[string]any{"code": neat}, map[string]any{"changed": false, "delta": 0, "chars": len(neat), "formatter": "gofmt"}},
		{"bare string is source", map[string]any{"arg": ugly}, map[string]any{"changed": true, "delta": len(neat) - len(ugly), "chars": len(neat), "formatter": "gofmt"}},
		{"blank paths ignored for a snippet", map[string]any{"code": ugly, "paths": []any{" "}}, map[string]any{"changed": true, "delta": len(neat) - len(ugly), "chars": len(neat), "formatter": "gofmt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Format(context.Background(), env, call(dir, tc.opts))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got.Value()); d != "" {
				t.Fatalf("result (-want +got):\n%s", d)
			}
		})
	}
	if _, err := Format(context.Background(), env, call(dir, map[string]any{"code": "package p\nfunc {"})); err == nil || !strings.Contains(err.Error(), "cannot parse") {
		t.Fatalf("syntax error = %v", err)
	}
}

func TestFormatPathsInPlace(t *testing.T) {
	dir, env := fixture(t)
	calcBefore := read(t, filepath.Join(dir, "calc/calc.go"))
	uglyBefore := read(t, filepath.Join(dir, "ugly/ugly.go"))
	got, err := Format(context.Background(), env, call(dir, map[string]any{"paths": []any{"ugly", "calc/calc.go"}}))
	if err != nil {
		t.Fatal(err)
	}
	after := read(t, filepath.Join(dir, "ugly/ugly.go"))
	want := map[string]any{"formatter": "gofmt", "checked": 2, "changed": 1, "files": []any{
		map[string]any{"file": "ugly/ugly.go", "changed": true, "delta": len(after) - len(uglyBefore)},
	}}
	if d := cmp.Diff(want, got.Value()); d != "" {
		t.Fatalf("result (-want +got):\n%s", d)
	}
	if after != "package ugly\n\nfunc Ugly() int {\n\treturn 1\n}\n" {
		t.Fatalf("ugly.go not formatted:\n%s", after)
	}
	if read(t, filepath.Join(dir, "calc/calc.go")) != calcBefore {
		t.Fatal("a formatted file changed")
	}
	again, err := Format(context.Background(), env, call(dir, map[string]any{"paths": []any{"ugly"}}))
	if err != nil || again.Value()["changed"] != 0 {
		t.Fatalf("second format = %v, %v; want nothing changed", again, err)
	}
}

func TestFormatDefaultIsTheModule(t *testing.T) {
	dir, env := fixture(t)
	packtest.WriteFiles(t, dir, map[string]string{"testdata/skip.go": "package  skip\n"})
	got, err := Format(context.Background(), env, call(dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got.Value()["changed"] != 1 || got.Value()["checked"] != 4 {
		t.Fatalf("default format = %v; want ugly.go changed of the module's 4 files", got)
	}
	if read(t, filepath.Join(dir, "testdata/skip.go")) != "package  skip\n" {
		t.Fatal("testdata was formatted")
	}
}

func TestFormatRefusals(t *testing.T) {
	dir, env := fixture(t)
	before := read(t, filepath.Join(dir, "ugly/ugly.go"))
	for _, tc := range []struct {
		name string
		opts map[string]any
		want string
	}{
		{"code and paths", map[string]any{"code": "package p\nfunc  F(){}\n", "paths": []any{"ugly"}}, "code OR paths"},
		{"code and path", map[string]any{"code": "package p\nfunc  F(){}\n", "path": "ugly/ugly.go"}, "code OR paths"},
		{"outside the workspace", map[string]any{"paths": []any{"../"}}, "outside the workspace"},
		{"missing path", map[string]any{"paths": []any{"nope"}}, "no such file"},
		{"not a go file", map[string]any{"paths": []any{"go.mod"}}, "not a .go file"},
		{"paths not strings", map[string]any{"paths": []any{1}}, "must be strings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Format(context.Background(), env, call(dir, tc.opts))
			if !errors.Is(err, ErrBadArgs) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want ErrBadArgs with %q", err, tc.want)
			}
			if read(t, filepath.Join(dir, "ugly/ugly.go")) != before {
				t.Fatal("a refused call changed a file")
			}
		})
	}
}

func TestLint(t *testing.T) {
	dir, env := fixture(t)
	got, err := Lint(context.Background(), env, call(dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"findings": []map[string]any{{"file": "vetme/vetme.go", "row": 7, "col": 2, "level": "warning", "type": "assign", "message": "self-assignment of n", "provider": "go vet"}},
		"counts":   map[string]any{"error": 0, "warning": 1},
		"total":    1, "clean": false, "provider": "go vet",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("lint (-want +got):\n%s", d)
	}
	clean, err := Lint(context.Background(), env, call(dir, map[string]any{"paths": []any{"calc/calc_test.go"}}))
	if err != nil || clean["clean"] != true || clean["total"] != 0 {
		t.Fatalf("lint calc = %v, %v; want clean", clean, err)
	}
}

func TestLintTypeErrorAndSnippet(t *testing.T) {
	dir, env := fixture(t)
	packtest.WriteFiles(t, dir, map[string]string{"broken/broken.go": "package broken\n\nfunc Bad() int { return \"s\" }\n"})
	got, err := Lint(context.Background(), env, call(dir, map[string]any{"paths": []any{"broken"}}))
	if err != nil {
		t.Fatal(err)
	}
	fs := got["findings"].([]map[string]any)
	if len(fs) != 1 || fs[0]["level"] != "error" || fs[0]["file"] != "broken/broken.go" || fs[0]["row"] != 3 || !strings.Contains(fs[0]["message"].(string), "cannot use") {
		t.Fatalf("type error findings = %v", fs)
	}
	if got["counts"].(map[string]any)["error"] != 1 {
		t.Fatalf("counts = %v", got["counts"])
	}

	snip, err := Lint(context.Background(), env, call(dir, map[string]any{"code": "import \"fmt\"\n\nfunc F() string { return fmt.Sprintf(\"%d\", \"x\") }\n"}))
	if err != nil {
		t.Fatal(err)
	}
	sf := snip["findings"].([]map[string]any)
	if len(sf) != 1 || sf[0]["type"] != "printf" || sf[0]["row"] != 3 || sf[0]["file"] != "code" {
		t.Fatalf("snippet findings = %v", sf)
	}
}

func TestTestArgv(t *testing.T) {
	dir, _ := fixture(t)
	for _, tc := range []struct {
		name string
		sel  []string
		want []string
		err  string
	}{
		{"nothing runs the module", nil, []string{"go", "test", "-json", "./..."}, ""},
		{"a directory", []string{"calc"}, []string{"go", "test", "-json", "./calc"}, ""},
		{"a file selects its package", []string{"calc/calc_test.go"}, []string{"go", "test", "-json", "./calc"}, ""},
		{"recursive", []string{"./..."}, []string{"go", "test", "-json", "./..."}, ""},
		{"node ids become one -run", []string{"calc/calc_test.go::TestAdd", "calc::TestSub"}, []string{"go", "test", "-json", "-run", "^(TestAdd|TestSub)$", "./calc"}, ""},
		{"pathless id runs everywhere", []string{"::TestAdd"}, []string{"go", "test", "-json", "-run", "^(TestAdd)$", "./..."}, ""},
		{"one subtest splits by level", []string{"calc::TestTable/large"}, []string{"go", "test", "-json", "-run", "^TestTable$/^large$", "./calc"}, ""},
		{"names are quoted", []string{"::Test.X"}, []string{"go", "test", "-json", "-run", `^(Test\.X)$`, "./..."}, ""},
		{"empty name refused", []string{"calc::"}, nil, "names no test"},
		{"outside refused", []string{"../x::TestA"}, nil, "outside the workspace"},
		{"args go before the packages", []string{"calc::TestAdd"}, []string{"go", "test", "-json", "-run", "^(TestAdd)$", "-count=1", "-v", "./calc"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var args []string
			if strings.HasPrefix(tc.name, "args") {
				args = []string{"-count=1", "-v"}
			}
			got, err := TestArgv(dir, dir, tc.sel, args...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v; want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("argv (-want +got):\n%s", d)
			}
		})
	}
}

func TestRunTests(t *testing.T) {
	dir, env := fixture(t)
	got, err := Test(context.Background(), env, call(dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]any{"is_pass": got["is_pass"], "total": got["total"], "pass": got["pass"], "fail": got["fail"], "skipped": got["skipped"], "timed_out": got["timed_out"]}
	if d := cmp.Diff(map[string]any{"is_pass": false, "total": 5, "pass": 3, "fail": 1, "skipped": 1, "timed_out": false}, counts); d != "" {
		t.Fatalf("counts (-want +got):\n%s\noutput:\n%s", d, got["output"])
	}
	fs := got["failures"].([]map[string]any)
	if len(fs) != 1 {
		t.Fatalf("failures = %v", fs)
	}
	if fs[0]["test"] != "TestSub" || fs[0]["type"] != "fail" || fs[0]["file"] != "calc/calc_test.go" || fs[0]["line"] != 13 || fs[0]["message"] != "calc_test.go:13: Sub(5, 3) = 8, want 2" {
		t.Fatalf("failure = %v", fs[0])
	}
	if !strings.Contains(got["output"].(string), "--- FAIL: TestSub") {
		t.Fatalf("output lacks the failure:\n%s", got["output"])
	}
}

func TestRunTestsNodeIDs(t *testing.T) {
	dir, env := fixture(t)
	for _, tc := range []struct {
		name string
		opts map[string]any
		want map[string]any
	}{
		{"two ids", map[string]any{"paths": []any{"calc/calc_test.go::TestAdd", "::TestSkipped"}}, map[string]any{"is_pass": true, "total": 2, "pass": 1, "fail": 0, "skipped": 1}},
		{"one subtest", map[string]any{"paths": []any{"calc::TestTable/large"}}, map[string]any{"is_pass": true, "total": 1, "pass": 1, "fail": 0, "skipped": 0}},
		{"a bare string path", map[string]any{"arg": "vetme"}, map[string]any{"is_pass": false, "total": 0, "pass": 0, "fail": 0, "skipped": 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Test(context.Background(), env, call(dir, tc.opts))
			if err != nil {
				t.Fatal(err)
			}
			counts := map[string]any{"is_pass": got["is_pass"], "total": got["total"], "pass": got["pass"], "fail": got["fail"], "skipped": got["skipped"]}
			if d := cmp.Diff(tc.want, counts); d != "" {
				t.Fatalf("counts (-want +got):\n%s\n%v", d, got)
			}
		})
	}
	miss, err := Test(context.Background(), env, call(dir, map[string]any{"paths": []any{"::TestNope"}}))
	if err != nil {
		t.Fatal(err)
	}
	if miss["is_pass"] != false || !strings.Contains(miss["error"].(string), "no test matched ::TestNope") {
		t.Fatalf("unmatched id = %v; want an error, not a silent 0/0", miss)
	}
}

func TestRunTestsBuildFailure(t *testing.T) {
	dir, env := fixture(t)
	packtest.WriteFiles(t, dir, map[string]string{
		"broken/broken.go":      "package broken\n\nfunc Bad() int { return \"s\" }\n",
		"broken/broken_test.go": "package broken\n\nimport \"testing\"\n\nfunc TestBad(t *testing.T) { Bad() }\n",
	})
	got, err := Test(context.Background(), env, call(dir, map[string]any{"paths": []any{"broken"}}))
	if err != nil {
		t.Fatal(err)
	}
	if got["is_pass"] != false || !strings.Contains(got["error"].(string), "build failed: example.com/fixture/broken") {
		t.Fatalf("build failure = %v", got)
	}
	for _, k := range []string{"total", "pass", "fail", "skipped"} {
		if v, ok := got[k]; ok {
			t.Fatalf("%s = %v after a build failure; want absent", k, v)
		}
	}
	fs := got["failures"].([]map[string]any)
	if len(fs) != 1 || fs[0]["type"] != "error" || fs[0]["file"] != "broken/broken.go" || fs[0]["line"] != 3 || !strings.Contains(fs[0]["message"].(string), "cannot use \"s\"") {
		t.Fatalf("failures = %v", fs)
	}
}

func TestRunTestsTimeout(t *testing.T) {
	dir, env := fixture(t)
	packtest.WriteFiles(t, dir, map[string]string{
		"hang/hang_test.go": "package hang\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestAPasses(t *testing.T) {}\n\nfunc TestBFails(t *testing.T) {\n\tt.Error(\"b is wrong\")\n}\n\nfunc TestHang(t *testing.T) {\n\tos.WriteFile(\"started\", nil, 0o644)\n\tselect {}\n}\n",
	})
	// Compile first, so the short budget below ends the hanging test and not the build.
	if _, err := Test(context.Background(), env, call(dir, map[string]any{"paths": []any{"hang::TestNothing"}})); err != nil {
		t.Fatal(err)
	}
	ctx, liveLines := packtest.LiveLines(context.Background())
	got, err := Test(ctx, env, call(dir, map[string]any{"paths": []any{"hang"}, "timeout_ms": 3000}))
	if err != nil {
		t.Fatal(err)
	}
	if got["timed_out"] != true || got["is_pass"] != false {
		t.Fatalf("hung run = %v", got)
	}
	// Killed, it still returns what had finished.
	if got["pass"] != 1 || got["fail"] != 1 {
		t.Errorf("rows kept on kill: pass %v fail %v\n%v", got["pass"], got["fail"], got["failures"])
	}
	if f, _ := got["failures"].([]map[string]any); len(f) != 1 || f[0]["test"] != "TestBFails" || !strings.Contains(fmt.Sprint(f[0]["message"]), "b is wrong") {
		t.Errorf("failure rows = %#v", got["failures"])
	}
	// The live view saw go test's own lines, not its JSON.
	shown := liveLines()
	if !strings.Contains(shown, "--- PASS: TestAPasses") || !strings.Contains(shown, "--- FAIL: TestBFails") || strings.Contains(shown, `"Action"`) || strings.Contains(shown, "=== RUN") {
		t.Errorf("live lines:\n%s", shown)
	}
	if _, err := os.Stat(filepath.Join(dir, "hang", "started")); err == nil {
		if un, _ := got["unfinished"].([]string); !cmp.Equal(un, []string{"TestHang"}) {
			t.Fatalf("unfinished = %v; want TestHang", got["unfinished"])
		}
	}
}

// TestEnvArgsReachTheChild: a call's env is in the go test process's
// environment and its args on go test's command line; gofmt and go vet get
// theirs too.
func TestEnvArgsReachTheChild(t *testing.T) {
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"go.mod": "module envargs\n\ngo 1.22\n",
		"e/e_test.go": `package e

import (
	"os"
	"testing"
)

func TestSeesEnv(t *testing.T) {
	if got := os.Getenv("VIS_GO_MARK"); got != "marked" {
		t.Fatalf("VIS_GO_MARK = %q", got)
	}
}

func TestOther(t *testing.T) {}
`,
		"s/s.go": "package s\n\ntype T struct{ A int }\n\nvar V = []T{T{1}}\n",
	})
	env, _ := packtest.ToolEnv(t, dir)
	opts := map[string]any{"env": map[string]any{"VIS_GO_MARK": "marked"}, "args": []any{"-run", "^TestSeesEnv$", "-count=1"}}
	got, err := Test(context.Background(), env, call(dir, opts))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]any{"is_pass": got["is_pass"], "total": got["total"], "pass": got["pass"], "fail": got["fail"]}
	if d := cmp.Diff(map[string]any{"is_pass": true, "total": 1, "pass": 1, "fail": 0}, counts); d != "" {
		t.Fatalf("env and args (-want +got):\n%s\n%s", d, got["output"])
	}
	got, err = Test(context.Background(), env, call(dir, map[string]any{"args": []any{"-run", "^TestSeesEnv$", "-count=1"}}))
	if err != nil {
		t.Fatal(err)
	}
	if got["is_pass"] != false || got["fail"] != 1 {
		t.Fatalf("without env = %v", got)
	}
	// gofmt -s simplifies the composite literal only when args carry -s.
	plain, err := Format(context.Background(), env, call(dir, map[string]any{"paths": []any{"s"}}))
	if err != nil || len(plain.Files) != 0 {
		t.Fatalf("gofmt without -s = %+v, %v; want nothing changed", plain, err)
	}
	simple, err := Format(context.Background(), env, call(dir, map[string]any{"paths": []any{"s"}, "args": []any{"-s"}}))
	if err != nil || len(simple.Files) != 1 || simple.Files[0].Delta != -1 {
		t.Fatalf("gofmt -s = %+v, %v; want s/s.go one character shorter", simple, err)
	}
	if b := read(t, filepath.Join(dir, "s/s.go")); !strings.Contains(b, "[]T{{1}}") {
		t.Fatalf("s.go = %q", b)
	}
	// go vet takes its analyzer flags from args: -printf=false still vets.
	if _, err := Lint(context.Background(), env, call(dir, map[string]any{"args": []any{"-printf=false"}, "env": map[string]any{"GOFLAGS": "-mod=mod"}})); err != nil {
		t.Fatalf("lint with args: %v", err)
	}
	if _, err := Lint(context.Background(), env, call(dir, map[string]any{"args": []any{"-no-such-flag"}})); err == nil {
		t.Fatal("go vet with an unknown flag: no error, so args did not reach it")
	}
}

// TestFailureRowsPointAtTheFailingLine runs a real go test on a module in
// a temporary workspace whose package sits below the workspace root: each
// row has the workspace-relative _test.go file, the line of the failing
// call, its message, and a test name that selects exactly that test when
// passed back.
func TestFailureRowsPointAtTheFailingLine(t *testing.T) {
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/rows\n\ngo 1.21\n",
		"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b + 1 }\n",
		"calc/calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Errorf("Add(1, 2) = %d, want 3\nsecond line", got)
	}
	t.Error("another")
}

func TestTable(t *testing.T) {
	for _, c := range []struct{ name string; want int }{{"small case", 1}, {"big case", 100}} {
		t.Run(c.name, func(t *testing.T) {
			if Add(0, 0) != c.want {
				t.Fatalf("case %s: want %d", c.name, c.want)
			}
		})
	}
}

func TestFine(t *testing.T) {}
`,
	})
	env, _ := packtest.ToolEnv(t, dir)
	got, err := Test(context.Background(), env, call(dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string]any{}
	for _, r := range got["failures"].([]map[string]any) {
		rows[r["test"].(string)] = r
	}
	want := map[string]map[string]any{
		"TestAdd": {"test": "TestAdd", "type": "fail", "file": "calc/calc_test.go", "line": 7,
			"message": "calc_test.go:7: Add(1, 2) = 4, want 3\n    second line"},
		"TestTable/big_case": {"test": "TestTable/big_case", "type": "fail", "file": "calc/calc_test.go", "line": 16,
			"message": "calc_test.go:16: case big case: want 100"},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Fatalf("rows (-want +got):\n%s\noutput:\n%s", d, got["output"])
	}

	for _, name := range []string{"TestTable/big_case", "::TestTable/big_case", "calc/calc_test.go::TestTable/big_case"} {
		again, err := Test(context.Background(), env, call(dir, map[string]any{"paths": []any{name}}))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if again["total"] != 1 || again["fail"] != 1 || len(again["failures"].([]map[string]any)) != 1 ||
			again["failures"].([]map[string]any)[0]["test"] != "TestTable/big_case" {
			t.Fatalf("%s passed back ran %v", name, again)
		}
	}
}

// TestCompileErrorRowInASubdirModule: go runs in a module below the
// workspace root (cwd), prints paths relative to that cwd, and the row's
// file is still workspace-relative, with the line and the compiler's text.
func TestCompileErrorRowInASubdirModule(t *testing.T) {
	dir := t.TempDir()
	packtest.WriteFiles(t, dir, map[string]string{
		"svc/go.mod":          "module example.com/svc\n\ngo 1.21\n",
		"svc/lib/lib.go":      "package lib\n\nfunc F() int {\n\treturn x\n}\n",
		"svc/lib/lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
	})
	env, _ := packtest.ToolEnv(t, dir)
	got, err := Test(context.Background(), env, call(filepath.Join(dir, "svc"), nil))
	if err != nil {
		t.Fatal(err)
	}
	fs := got["failures"].([]map[string]any)
	if got["is_pass"] != false || len(fs) != 1 || fs[0]["type"] != "error" || fs[0]["file"] != "svc/lib/lib.go" || fs[0]["line"] != 4 ||
		!strings.Contains(fs[0]["message"].(string), "undefined: x") {
		t.Fatalf("compile error = %v", got)
	}
}
