package pylib

import (
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// An Env's builtins index and slice strings by code point and leave other
// values to Starlark; its modules refuse what the sandbox lacks with advice.
func TestEnv(t *testing.T) {
	e := New("/work", nil)
	b := e.Builtins()
	th := &starlark.Thread{Name: "test"}
	call := func(name string, args ...starlark.Value) starlark.Value {
		t.Helper()
		v, err := starlark.Call(th, b[name], args, nil)
		if err != nil {
			t.Fatalf("%s%v: %v", name, args, err)
		}
		return v
	}
	s := starlark.String("h€llo👋")
	none := starlark.None
	for _, tt := range []struct {
		got  starlark.Value
		want string
	}{
		{call("len", s), "6"},
		{call("len", starlark.NewList([]starlark.Value{s})), "1"},
		{call("__ix", s, starlark.MakeInt(1)), `"€"`},
		{call("__ix", s, starlark.MakeInt(-1)), `"👋"`},
		{call("__sl", s, starlark.MakeInt(1), starlark.MakeInt(3), none), `"€l"`},
		{call("__sl", s, none, none, starlark.MakeInt(-2)), `"👋l€"`},
		{call("__sl", starlark.String("abcdef"), starlark.MakeInt(1), none, starlark.MakeInt(2)), `"bdf"`},
		{call("__ix", starlark.NewList([]starlark.Value{starlark.MakeInt(7)}), starlark.MakeInt(0)), "7"},
	} {
		if tt.got.String() != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
	if _, err := starlark.Call(th, b["__ix"], starlark.Tuple{s, starlark.MakeInt(6)}, nil); err == nil || !strings.Contains(err.Error(), "string index 6 out of range [-6:5]") {
		t.Errorf("out of range: %v", err)
	}
	if b["Counter"] == nil || b["defaultdict"] == nil {
		t.Error("Counter and defaultdict are not builtins")
	}
	_, err := e.Module("numpy")
	var ui *UnsupportedImportError
	if !errors.As(err, &ui) || ui.Hint == "" {
		t.Errorf("import numpy: %v", err)
	}
	if m, err := e.Module("os.path"); err != nil || m == nil {
		t.Errorf("import os.path: %v %v", m, err)
	}
}

func TestIsIdentifier(t *testing.T) {
	for s, want := range map[string]bool{"a1": true, "_x": true, "héllo": true, "日本": true, "1a": false, "a-b": false, "": false, "a b": false} {
		if got := isIdentifier(s); got != want {
			t.Errorf("isIdentifier(%q) = %v, want %v", s, got, want)
		}
	}
}
