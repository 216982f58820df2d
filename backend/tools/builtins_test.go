package tools

import (
	"context"
	"errors"
	"testing"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// TestBuiltinsAdapter: tools come out as sandbox builtins with their
// params, and model-facing failures as *hostfn.ToolError with a hint.
func TestBuiltinsAdapter(t *testing.T) {
	s, _ := newSet(t, map[string]string{"a.txt": "x\n"})
	bs := s.Builtins()
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
		if b.Doc == "" || b.Fn == nil {
			t.Errorf("%s: empty doc or fn", b.Name)
		}
	}
	if len(bs) != 7 || bs[1].Name != "cat" || bs[1].Params[0] != (hostfn.Param{Name: "path", Required: true}) {
		t.Fatalf("builtins %v, cat params %+v", names, bs[1].Params)
	}
	_, err := bs[1].Fn(context.Background(), map[string]any{"path": "nope"})
	var te *hostfn.ToolError
	if !errors.As(err, &te) || te.Message == "" || te.Hint == "" {
		t.Fatalf("failure: %T %v, want *hostfn.ToolError with a hint", err, err)
	}
	v, err := bs[1].Fn(context.Background(), map[string]any{"path": "a.txt"})
	if err != nil || v.(hostfn.Printed).Fields["text"] != "1|x" {
		t.Fatalf("cat via builtin: %v, %v", v, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = bs[6].Fn(ctx, map[string]any{"cmd": "true"})
	if !errors.Is(err, context.Canceled) || errors.As(err, &te) {
		t.Errorf("cancelled shell: %T %v, want a plain context.Canceled", err, err)
	}
}
