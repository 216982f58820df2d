package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

func TestResultRecordsToolCalls(t *testing.T) {
	in, err := New(Options{}, []hostfn.Builtin{
		{Name: "echo", Doc: "echo(x)", Params: []hostfn.Param{{Name: "x", Required: true}}, Fn: func(_ context.Context, a map[string]any) (any, error) { return a["x"], nil }},
		{Name: "boom", Doc: "boom()", Fn: func(context.Context, map[string]any) (any, error) { return nil, errors.New("broke") }},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := in.Exec(context.Background(), "echo('a\\nb')\necho(x='"+strings.Repeat("z", 100)+"')\nboom()", nil)
	if len(r.Tools) != 3 {
		t.Fatalf("tools = %+v", r.Tools)
	}
	if r.Tools[0].Name != "echo" || r.Tools[0].Args != "x='a⏎b'" || r.Tools[0].Error != "" {
		t.Fatalf("first = %+v", r.Tools[0])
	}
	if len([]rune(r.Tools[1].Args)) != len("x=")+60 || !strings.HasPrefix(r.Tools[1].Args, "x='zzz") || !strings.HasSuffix(r.Tools[1].Args, "...") {
		t.Fatalf("long argument not cut: %q", r.Tools[1].Args)
	}
	if r.Tools[2].Name != "boom" || r.Tools[2].Error != "broke" {
		t.Fatalf("failed call = %+v", r.Tools[2])
	}
	if r2 := in.Exec(context.Background(), "print(1)", nil); len(r2.Tools) != 0 {
		t.Fatalf("calls leaked into the next block: %+v", r2.Tools)
	}
}

func TestSummarizeArgsReadsLikeTheCall(t *testing.T) {
	got := SummarizeArgs(map[string]any{hostfn.VarArgs: []any{"python", map[string]any{"code": "sum(i*i for i in range(101))", "n": int64(2)}}, "timeout": nil, "ok": true})
	want := "'python', {'code': 'sum(i*i for i in range(101))', 'n': 2}, ok=True, timeout=None"
	if got != want {
		t.Fatalf("SummarizeArgs = %q\nwant            %q", got, want)
	}
}
