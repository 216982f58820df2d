package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// A namespace's groups are asked on every use, its members are builtins
// called through the usual path (a call record, hooks), an unknown group
// or member is an error naming what exists, and doc() reaches Describe
// with the block's ctx.
func TestNamespace(t *testing.T) {
	groups := []string{"alpha"}
	var started []string
	ns := hostfn.Namespace{
		Name:   "ext",
		Doc:    "Extension functions.",
		Groups: func() []string { return groups },
		Member: func(group, member string) (hostfn.Builtin, error) {
			if member == "missing" {
				return hostfn.Builtin{}, fmt.Errorf("%s has no %s", group, member)
			}
			return hostfn.Builtin{Name: "ext." + group + "." + member, Variadic: true, Fn: func(ctx context.Context, args map[string]any) (any, error) {
				return map[string]any{"group": group, "member": member, "pos": args[hostfn.VarArgs], "k": args["k"]}, nil
			}}, nil
		},
		Describe: func(ctx context.Context, path string) (string, bool) {
			if ctx.Err() != nil {
				return "", false
			}
			return "about " + path, path == "alpha" || path == "beta"
		},
	}
	in, err := New(Options{Namespaces: []hostfn.Namespace{ns}, Hooks: Hooks{OnToolStart: func(name string, _ map[string]any) { started = append(started, name) }}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := in.Exec(context.Background(), `print(ext.alpha.run(1, k="v"))
print(doc("ext.alpha"))
print(doc("ext"))`, nil)
	if r.Err != nil {
		t.Fatalf("%+v", r.Err)
	}
	want := "{\"group\": \"alpha\", \"k\": \"v\", \"member\": \"run\", \"pos\": [1]}\nabout alpha\nExtension functions.\nGroups: alpha\n"
	if strings.ReplaceAll(r.Output, "'", "\"") != want {
		t.Errorf("output %q, want %q", r.Output, want)
	}
	if len(r.Tools) != 1 || r.Tools[0].Name != "ext.alpha.run" || len(started) != 1 {
		t.Errorf("call records %+v, hooks %q", r.Tools, started)
	}
	for code, msg := range map[string]string{
		`ext.beta.run()`:      `ext has no "beta" (known: alpha)`,
		`ext.alpha.missing()`: `alpha has no missing`,
	} {
		if r := in.Exec(context.Background(), code, nil); r.Err == nil || !strings.Contains(r.Err.Message, msg) {
			t.Errorf("%s: %+v, want %q", code, r.Err, msg)
		}
	}
	groups = append(groups, "beta") // a new group is seen at the next use
	if r := in.Exec(context.Background(), `print(ext.beta.x()["group"])`, nil); r.Err != nil || r.Output != "beta\n" {
		t.Errorf("new group: %q %+v", r.Output, r.Err)
	}
	if _, err := New(Options{Namespaces: []hostfn.Namespace{{Name: "doc", Member: ns.Member}}}, nil); err == nil {
		t.Error("a namespace shadowing doc() was accepted")
	}
}
