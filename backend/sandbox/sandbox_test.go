package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

func newInterp(t testing.TB, opts Options, builtins ...hostfn.Builtin) *Interp {
	t.Helper()
	in, err := New(opts, builtins)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func exec(t testing.TB, in *Interp, code string) Result {
	t.Helper()
	return in.Exec(context.Background(), code, nil)
}

func TestPrintCapture(t *testing.T) {
	in := newInterp(t, Options{})
	r := exec(t, in, `print("a", "b", sep="-", end="!")
print(1, 2.5, None, True, [1, "x"], {"k": (1,)})
print()
print("x", sep=None, end=None)`)
	want := "a-b!1 2.5 None True [1, 'x'] {'k': (1,)}\n\nx\n"
	if r.Err != nil || r.Output != want {
		t.Fatalf("got %q err %v, want %q", r.Output, r.Err, want)
	}
}

func TestGlobalsPersistAcrossExec(t *testing.T) {
	in := newInterp(t, Options{})
	steps := []struct{ code, want string }{
		{"import re\ncount = 1\nitems = []\ndef add(x):\n    items.append(x)\n    return len(items)", ""},
		{"count += 1\nadd('a')\nadd('b')\nprint(count, items)", "2 ['a', 'b']\n"},
		{"print(re.sub('a', 'A', 'banana'), add('c'))", "bAnAnA 3\n"},
	}
	for i, s := range steps {
		r := exec(t, in, s.code)
		if r.Err != nil || r.Output != s.want {
			t.Fatalf("block %d: got %q err %v, want %q", i, r.Output, r.Err, s.want)
		}
	}
}

func TestSessionFrozenAndRebuilt(t *testing.T) {
	in := newInterp(t, Options{})
	r := in.Exec(context.Background(), `print(session["turn"], session["workspace"]["root"])`,
		map[string]any{"turn": 1, "workspace": map[string]any{"root": "/w"}})
	if r.Err != nil || r.Output != "1 /w\n" {
		t.Fatalf("read session: %q %v", r.Output, r.Err)
	}
	for _, code := range []string{`session["turn"] = 9`, `session["workspace"]["root"] = "/x"`} {
		r = in.Exec(context.Background(), code, map[string]any{"turn": 1, "workspace": map[string]any{"root": "/w"}})
		if r.Err == nil || !strings.Contains(r.Err.Hint, "host-owned") || !strings.Contains(r.Err.Hint, "rebuilt before every block") {
			t.Fatalf("write %q: want a host-owned hint, got %s", code, r.Wire())
		}
	}
	r = in.Exec(context.Background(), `print(session["turn"])`, map[string]any{"turn": 2})
	if r.Output != "2\n" {
		t.Fatalf("session not rebuilt: %q", r.Wire())
	}
}

func TestStepLimit(t *testing.T) {
	in := newInterp(t, Options{MaxSteps: 10_000})
	r := exec(t, in, "print('before')\nn = 0\nwhile True:\n    n += 1")
	if r.Err == nil || r.Err.Phase != PhaseLimit {
		t.Fatalf("want limit error, got %s", r.Wire())
	}
	if r.Output != "before\n" {
		t.Errorf("partial output lost: %q", r.Output)
	}
	// the interpreter stays usable
	if r := exec(t, in, "print(n > 0)"); r.Output != "True\n" {
		t.Errorf("after limit: %s", r.Wire())
	}
}

func TestWallLimit(t *testing.T) {
	in := newInterp(t, Options{WallLimit: 50 * time.Millisecond})
	r := exec(t, in, "while True:\n    pass")
	if r.Err == nil || r.Err.Phase != PhaseTimeout {
		t.Fatalf("want timeout, got %s", r.Wire())
	}
}

func TestCancelInfiniteLoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	in2 := newInterp(t, Options{}, hostfn.Builtin{Name: "ready", Fn: func(ctx context.Context, args map[string]any) (any, error) {
		close(started)
		return nil, nil
	}})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-started
		cancel()
	}()
	r := in2.Exec(ctx, "print('go')\nready()\nwhile True:\n    pass", nil)
	wg.Wait()
	if r.Err == nil || r.Err.Phase != PhaseCancelled || r.Output != "go\n" {
		t.Fatalf("want cancelled with partial output, got %s", r.Wire())
	}
}

func TestCancelBlockingBuiltin(t *testing.T) {
	started := make(chan struct{})
	var sawCancel bool
	in := newInterp(t, Options{}, hostfn.Builtin{
		Name: "shell", Doc: "Run a command.", Params: []hostfn.Param{{Name: "cmd", Required: true}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			close(started)
			<-ctx.Done()
			sawCancel = true
			return nil, ctx.Err()
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	r := in.Exec(ctx, `shell("sleep 100")`, nil)
	if !sawCancel || r.Err == nil || r.Err.Phase != PhaseCancelled {
		t.Fatalf("want the builtin's ctx cancelled and phase cancelled, got %s", r.Wire())
	}
}

func TestTimeSleepHonoursCancel(t *testing.T) {
	in := newInterp(t, Options{WallLimit: 30 * time.Millisecond})
	r := exec(t, in, "import time\ntime.sleep(60)")
	if r.Err == nil || r.Err.Phase != PhaseTimeout {
		t.Fatalf("want timeout, got %s", r.Wire())
	}
}

func TestOutputClipping(t *testing.T) {
	in := newInterp(t, Options{OutputLimit: 10})
	r := exec(t, in, `print("0123456789abcdef")`)
	if !r.Clipped || r.Output != "0123456789" {
		t.Fatalf("clip: %q clipped=%v", r.Output, r.Clipped)
	}
	want := "0123456789\n# ⋯ output clipped at 10/17 chars — narrow next time"
	if got := r.Wire(); got != want {
		t.Errorf("wire:\n%s\nwant:\n%s", got, want)
	}
}

// The person's copy keeps far more than the model's, up to the block's
// KeepOutput bytes, cut at a rune boundary, and the byte count says how
// much was printed in all.
func TestOutputKept(t *testing.T) {
	tests := []struct {
		name, code  string
		keep        int
		wantKept    string
		wantBytes   int
		wantClipped bool // the model's copy
		wantKeptCut bool
	}{
		{"short", `print("abc")`, 0, "abc\n", 4, false, false},
		{"model clipped, kept whole", `print("0123456789abcdef")`, 0, "0123456789abcdef\n", 17, true, false},
		{"kept cut too", `print("0123456789abcdef")`, 12, "0123456789ab", 17, true, true},
		{"kept cut at a rune", `print("0123456789ééé")`, 13, "0123456789é", 17, true, true},
		{"many prints", "for i in range(5000):\n    print('line %d' % (i + 1))", 0, "", 0, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := newInterp(t, Options{OutputLimit: 10})
			r := in.ExecWith(context.Background(), tt.code, nil, Limits{KeepOutput: tt.keep})
			if r.Err != nil {
				t.Fatal(r.Wire())
			}
			if tt.name == "many prints" {
				var b strings.Builder
				for i := 1; i <= 5000; i++ {
					fmt.Fprintf(&b, "line %d\n", i)
				}
				tt.wantKept, tt.wantBytes = b.String(), b.Len()
			}
			if r.Kept != tt.wantKept || r.Bytes != tt.wantBytes || r.Clipped != tt.wantClipped || r.KeptClipped != tt.wantKeptCut {
				t.Errorf("kept %d bytes (%.20q…) of %d, clipped %v, kept cut %v; want %d of %d, %v, %v",
					len(r.Kept), r.Kept, r.Bytes, r.Clipped, r.KeptClipped, len(tt.wantKept), tt.wantBytes, tt.wantClipped, tt.wantKeptCut)
			}
			if len([]rune(r.Output)) > 10 {
				t.Errorf("the model's copy grew: %q", r.Output)
			}
		})
	}
}

func TestWireNoOutput(t *testing.T) {
	in := newInterp(t, Options{})
	if got := exec(t, in, "x = 1").Wire(); got != NoOutputHint {
		t.Errorf("got %q", got)
	}
}

func TestErrorRendering(t *testing.T) {
	tests := []struct {
		name, code, wire string
	}{
		{"runtime line and partial output", "print('start')\nx = {}\n\ny = x['missing']",
			"start\n✗ runtime error: KeyError: 'missing' (line 4)\nhint: use d.get(key, default) or check `key in d` first"},
		{"raise", "print(1)\nraise ValueError(f\"bad {2}\")",
			"1\n✗ runtime error: ValueError: bad 2 (line 2)"},
		{"error inside helper reports the failing line", "def f(x):\n    return x + 1\n\nf('a')",
			"✗ runtime error: TypeError: unsupported operand type(s) for +: 'str' and 'int' (line 2)\nhint: convert with str(x) first, or use an f-string"},
		{"syntax line", "x = 1\ny = (\n", ""},
		{"undefined python builtin", "x = 1\nprint(globals())",
			"✗ runtime error: NameError: name 'globals' is not defined (nothing in this block ran) (line 2)\nhint: there is no globals(); names defined in earlier blocks are simply in scope"},
		{"missing string method", "s = 'abc'\ns.translate({})",
			"✗ runtime error: AttributeError: 'str' object has no attribute 'translate' (line 2)\nhint: use replace() in a loop, or a comprehension over the characters"},
		{"unsupported import", "import requests",
			"✗ unsupported error: module 'requests' is not available in this sandbox (line 1)\nhint: there is no network access from Python; use shell('curl ...') when the task allows it"},
		{"regex lookahead", "import re\nre.search(r'a(?=b)', 'ab')",
			"✗ runtime error: re: lookahead (?=...) is not supported by this sandbox's regex engine (RE2) in 'a(?=b)' (line 2)\nhint: RE2 has no lookaround or backreferences: match more loosely and filter in code, or use capture groups"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := newInterp(t, Options{})
			r := exec(t, in, tt.code)
			if r.Err == nil {
				t.Fatalf("no error: %s", r.Wire())
			}
			if tt.wire == "" {
				if r.Err.Phase != PhaseSyntax || r.Err.Line == 0 {
					t.Errorf("want a syntax error with a line, got %s", r.Wire())
				}
				return
			}
			if diff := cmp.Diff(tt.wire, r.Wire()); diff != "" {
				t.Errorf("wire (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolErrors(t *testing.T) {
	in := newInterp(t, Options{}, hostfn.Builtin{
		Name: "cat", Doc: "Read a file.", Params: []hostfn.Param{{Name: "path", Required: true}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			if args["path"] == "missing.txt" {
				return nil, &hostfn.ToolError{Message: "no such file: missing.txt", Hint: "list files with ls()"}
			}
			return nil, errors.New("disk on fire")
		},
	})
	r := exec(t, in, "print('a')\ncat('missing.txt')\nprint('never')")
	want := "a\n✗ tool error: cat: no such file: missing.txt (line 2)\nhint: list files with ls()"
	if diff := cmp.Diff(want, r.Wire()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	r = exec(t, in, "cat('x')")
	if r.Err == nil || r.Err.Phase != PhaseTool || r.Err.Message != "cat: disk on fire" {
		t.Errorf("plain error: %s", r.Wire())
	}
}

func TestBuiltinArgBinding(t *testing.T) {
	var got map[string]any
	var events []string
	in := newInterp(t, Options{Hooks: Hooks{
		OnToolStart: func(name string, args map[string]any) { events = append(events, "start "+name) },
		OnToolEnd:   func(name string, d time.Duration, err error) { events = append(events, "end "+name) },
	}}, hostfn.Builtin{
		Name: "grep", Doc: "Search files.\nLonger text.", Params: []hostfn.Param{{Name: "pattern", Required: true}, {Name: "path"}, {Name: "limit"}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) {
			got = args
			return []map[string]any{{"path": "a.go", "line": 3}}, nil
		},
	})
	r := exec(t, in, "hits = grep('TODO', limit=5)\nprint(hits[0]['path'], hits[0]['line'])")
	if r.Err != nil || r.Output != "a.go 3\n" {
		t.Fatalf("call: %s", r.Wire())
	}
	if diff := cmp.Diff(map[string]any{"pattern": "TODO", "limit": int64(5)}, got); diff != "" {
		t.Errorf("bound args (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"start grep", "end grep"}, events); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	for code, want := range map[string]string{
		"grep()":                 "grep missing required argument 'pattern'; signature: grep(pattern, path=…, limit=…)",
		"grep('a', nope=1)":      "grep got an unexpected keyword argument 'nope'; signature: grep(pattern, path=…, limit=…)",
		"grep('a', 'b', 1, 2)":   "grep takes at most 3 positional arguments (4 given); signature: grep(pattern, path=…, limit=…)",
		"grep('a', pattern='b')": "grep got multiple values for argument 'pattern'; signature: grep(pattern, path=…, limit=…)",
		"grep(lambda: 1)":        "grep: argument pattern: cannot pass a function to a tool (use str, int, float, bool, None, list or dict)",
	} {
		got = nil
		r := exec(t, in, code)
		if r.Err == nil || r.Err.Message != want {
			t.Errorf("%s: got %s", code, r.Wire())
		}
		if got != nil {
			t.Errorf("%s: Fn ran despite bad arguments", code)
		}
	}
}

func TestDocAproposDefs(t *testing.T) {
	in := newInterp(t, Options{}, hostfn.Builtin{
		Name: "grep", Doc: "Search file contents with a regex.\nReturns a list of hits.", Params: []hostfn.Param{{Name: "pattern", Required: true}},
		Fn: func(ctx context.Context, args map[string]any) (any, error) { return nil, nil },
	})
	r := exec(t, in, "doc('grep')")
	if want := "grep(pattern)\nSearch file contents with a regex.\nReturns a list of hits.\n"; r.Output != want {
		t.Errorf("doc(grep): %q", r.Output)
	}
	r = exec(t, in, "print(doc())")
	if !strings.Contains(r.Output, "grep(pattern) — Search file contents with a regex.") || !strings.Contains(r.Output, "json") {
		t.Errorf("doc(): %q", r.Output)
	}
	r = exec(t, in, "print(apropos('REGEX'))")
	if !strings.Contains(r.Output, "grep — Search file contents with a regex.") || !strings.Contains(r.Output, "module re") {
		t.Errorf("apropos: %q", r.Output)
	}
	r = exec(t, in, "print(defs())")
	if r.Output != "(no helpers defined yet)\n" {
		t.Errorf("defs empty: %q", r.Output)
	}
	exec(t, in, "def area(w, h=1):\n    \"\"\"Area of a rectangle.\n\n    More.\"\"\"\n    return w * h")
	r = exec(t, in, "print(defs())\nprint(defs('area'))\nprint(doc('area') == defs('area'))")
	want := "area(w, h=1) — Area of a rectangle.\ndef area(w, h=1):\n    \"\"\"Area of a rectangle.\n\n    More.\"\"\"\n    return w * h\nTrue\n"
	if diff := cmp.Diff(want, r.Output); diff != "" || r.Err != nil {
		t.Errorf("defs (-want +got):\n%s\n%v", diff, r.Err)
	}
	if got := in.Defs(); len(got) != 1 || got[0].Signature != "area(w, h=1)" || got[0].Doc != "Area of a rectangle." {
		t.Errorf("Defs(): %+v", got)
	}
}

func TestDefsPersistAcrossInterps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sandbox", "s1.py")
	a := newInterp(t, Options{DefsPath: path})
	r := exec(t, a, "import json\nfrom os.path import join\n\ndef describe(d):\n    \"\"\"JSON of d.\"\"\"\n    return json.dumps(d, sort_keys=True)\n\ndef where(x):\n    return join('root', x)\n\nunused = 1")
	if r.Err != nil {
		t.Fatal(r.Wire())
	}
	// redefinition wins
	exec(t, a, "def where(x):\n    return join('ROOT', x)")
	b := newInterp(t, Options{DefsPath: path}, hostfn.Builtin{Name: "grep", Fn: func(ctx context.Context, args map[string]any) (any, error) { return "tool", nil }})
	if err := b.RestoreError(); err != nil {
		t.Fatal(err)
	}
	r = exec(t, b, "print(describe({'b': 1, 'a': 2}), where('x'))\nprint(defs())")
	want := "{\"a\": 2, \"b\": 1} ROOT/x\ndescribe(d) — JSON of d. (restored)\nwhere(x) (restored)\n"
	if diff := cmp.Diff(want, r.Output); diff != "" || r.Err != nil {
		t.Fatalf("restored (-want +got):\n%s\n%s", diff, r.Wire())
	}
	// a helper that collides with a host builtin is not restored
	c := newInterp(t, Options{DefsPath: path})
	exec(t, c, "def grep(x):\n    return 'mine'")
	d := newInterp(t, Options{DefsPath: path}, hostfn.Builtin{Name: "grep", Params: []hostfn.Param{{Name: "x"}}, Fn: func(ctx context.Context, args map[string]any) (any, error) { return "tool", nil }})
	if r := exec(t, d, "print(grep('x'))"); r.Output != "tool\n" {
		t.Errorf("builtin shadowed by restored def: %s", r.Wire())
	}
	// no helpers left -> file removed
	e := newInterp(t, Options{DefsPath: filepath.Join(dir, "empty.py")})
	exec(t, e, "x = 1")
	if _, err := os.Stat(filepath.Join(dir, "empty.py")); !os.IsNotExist(err) {
		t.Errorf("defs file written without helpers: %v", err)
	}
}

func TestOSPathAndGetwd(t *testing.T) {
	in := newInterp(t, Options{Getwd: "/ws", PathInfo: func(p string) (bool, bool) {
		switch p {
		case "src":
			return true, true
		case "go.mod":
			return true, false
		}
		return false, false
	}})
	r := exec(t, in, "import os\nprint(os.getcwd(), os.path.abspath('a/../b'), os.path.relpath('/ws/x/y'))\nprint(os.path.isdir('src'), os.path.isfile('go.mod'), os.path.exists('nope'), os.path.isfile('src'))")
	want := "/ws /ws/b x/y\nTrue True False False\n"
	if r.Output != want || r.Err != nil {
		t.Errorf("got %s", r.Wire())
	}
}

// An f-string field spanning lines gives CPython's text, and an error
// after it names the line the model wrote it on.
func TestFStringFieldOverLines(t *testing.T) {
	in := newInterp(t, Options{})
	r := exec(t, in, "a = f\"\"\"{1!r:\n>5}\"\"\"\nb = f\"\"\"{1\n=}\"\"\"\nprint(repr(a), repr(b))\nint(\"x\")")
	if want := "'\\n\\n\\n\\n1' '1\\n=1'\n"; r.Output != want {
		t.Errorf("output %q, want %q (CPython's); err %+v", r.Output, want, r.Err)
	}
	if r.Err == nil || r.Err.Line != 6 {
		t.Errorf("err = %+v, want it on line 6", r.Err)
	}
}

// Annotations over continuation lines go and their lines stay: the program
// runs, and an error after it names the line the model wrote it on.
func TestAnnotationsOverContinuationLines(t *testing.T) {
	in := newInterp(t, Options{})
	r := exec(t, in, "def f(a: \\\n  int = 1) -> \\\n  int:\n    return a\nx: \\\n  int = f()\nprint(x, (x is\n not None))\nint(\"x\")")
	if r.Output != "1 True\n" || r.Err == nil || r.Err.Line != 9 {
		t.Errorf("output %q, err %+v; want \"1 True\\n\" and an error on line 9", r.Output, r.Err)
	}
}

// Strings joined over lines with comments between them, as the last
// operand of a chained comparison: the comments do not hide the code after
// them when the comparison is rewritten.
func TestChainedComparisonOverCommentedStrings(t *testing.T) {
	in := newInterp(t, Options{})
	r := exec(t, in, "x = (\"a\" < \"b\" < # c\n  \"c\"  # d\n  \"d\")\nprint(x)\nint(\"x\")")
	if r.Output != "True\n" || r.Err == nil || r.Err.Line != 5 {
		t.Errorf("output %q, err %+v; want \"True\\n\" and an error on line 5", r.Output, r.Err)
	}
}

// Generator expressions nested in each other's brackets run as in CPython.
func TestNestedGeneratorExpressionsRun(t *testing.T) {
	in := newInterp(t, Options{})
	r := exec(t, in, "x = (sum(y for y in z) for z in [[1, 2], [3]])\nprint(list(x), max(len(s) for s in (u.strip() for u in ['a ', ' bc'])))")
	if r.Err != nil || r.Output != "[3, 3] 2\n" {
		t.Errorf("output %q, err %+v; want \"[3, 3] 2\\n\"", r.Output, r.Err)
	}
}

// A self-documenting field over lines with a spec over lines: CPython's
// text, and the lines after it keep their numbers.
func TestFStringSelfDocOverLines(t *testing.T) {
	in := newInterp(t, Options{})
	r := exec(t, in, "x = f\"\"\"{(1 +\n 2)=:\n>4}\"\"\"\nprint(repr(x))\nint(\"x\")")
	if want := "'(1 +\\n 2)=\\n\\n\\n3'\n"; r.Output != want || r.Err == nil || r.Err.Line != 5 {
		t.Errorf("output %q, err %+v; want %q and an error on line 5", r.Output, r.Err, want)
	}
}

// A chained comparison over lines keeps what each line holds: a
// multi-line string operand keeps its text, a continuation stays one, and
// an error after it names its line. A multi-line string as a middle operand
// is refused on its line (it would have to be written twice), never
// compared as other text.
func TestChainedComparisonOverLines(t *testing.T) {
	in := newInterp(t, Options{})
	r := exec(t, in, "s = \"\"\"\nc\"\"\"\nx = (\"a\" < \"b\" < \"\"\"\nc\"\"\")\ny = 1 < 2 \\\n< 3\nprint(x, y)\nint(\"x\")")
	if r.Output != "False True\n" || r.Err == nil || r.Err.Line != 8 {
		t.Errorf("output %q, err %+v; want \"False True\\n\" (CPython's) and an error on line 8", r.Output, r.Err)
	}
	r = exec(t, in, "print(1)\nprint(s < \"\"\"\nc\"\"\" <= s)")
	if r.Err == nil || r.Err.Phase != "syntax" || r.Err.Line != 3 {
		t.Errorf("middle operand over lines: output %q, err %+v; want a syntax error on line 3 (the second operator's)", r.Output, r.Err)
	}
}
