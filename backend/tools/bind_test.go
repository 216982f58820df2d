package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

func call(t *testing.T, s *Set, name string, args map[string]any) (any, error) {
	t.Helper()
	for _, b := range s.bindings() {
		if b.name == name {
			return b.fn(context.Background(), args)
		}
	}
	t.Fatalf("no binding %q", name)
	return nil, nil
}

// TestBindingsContract: every tool has a doc whose first line is its
// signature, and params that match the signature, in order.
func TestBindingsContract(t *testing.T) {
	s, _ := newSet(t, nil)
	var names []string
	for _, b := range s.bindings() {
		names = append(names, b.name)
		first, _, _ := strings.Cut(b.doc, "\n")
		if !strings.HasPrefix(first, b.name+"(") || !strings.Contains(first, ") -> ") {
			t.Errorf("%s: doc first line %q is not a signature", b.name, first)
		}
		sig := first[len(b.name)+1 : strings.Index(first, ") -> ")]
		var got []string
		for _, p := range b.params {
			got = append(got, p.name)
			if p.required == strings.Contains(sig, p.name+"=") {
				t.Errorf("%s: param %s required=%v disagrees with signature %q", b.name, p.name, p.required, sig)
			}
		}
		var want []string
		for _, part := range strings.Split(sig, ", ") {
			name, _, _ := strings.Cut(part, "=")
			want = append(want, name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: params differ from signature (-sig +params):\n%s", b.name, diff)
		}
		for _, section := range []string{"Returns", "Fails", "Example:"} {
			if !strings.Contains(b.doc, section) {
				t.Errorf("%s: doc lacks %q", b.name, section)
			}
		}
	}
	if diff := cmp.Diff([]string{"ls", "cat", "grep", "glob", "write", "patch", "shell"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// TestBindingsResults: results are plain data with string keys, ints as
// int64, lists as []any; cat's dict prints as its text and note.
func TestBindingsResults(t *testing.T) {
	s, _ := newSet(t, map[string]string{"a.txt": "one\ntwo\n", "d/b.go": "package b\n"})
	cases := []struct {
		name string
		args map[string]any
		want any
	}{
		{"ls", map[string]any{"path": "d"}, map[string]any{"path": "d", "truncated": false,
			"entries": []any{map[string]any{"name": "b.go", "type": "file", "size": int64(10)}}}},
		{"cat", map[string]any{"path": "a.txt", "start": int64(2), "end": nil}, hostfn.Printed{Fields: map[string]any{"path": "a.txt",
			"start": int64(2), "end": int64(2), "total_lines": int64(2), "remaining": int64(0), "text": "2|two"}, Show: []string{"text", "note"}}},
		{"grep", map[string]any{"pattern": "two|package", "ignore_case": true}, map[string]any{"count": int64(2), "truncated": false,
			"matches": []any{
				map[string]any{"path": "a.txt", "line": int64(2), "text": "two"},
				map[string]any{"path": "d/b.go", "line": int64(1), "text": "package b"},
			}}},
		{"glob", map[string]any{"pattern": "**/*.go"}, []any{"d/b.go"}},
		{"write", map[string]any{"path": "n.txt", "content": "x\n"}, map[string]any{"path": "n.txt", "bytes": int64(2), "lines": int64(1), "created": true}},
		{"patch", map[string]any{"path": "n.txt", "start": int64(1), "new": "y"}, map[string]any{"path": "n.txt", "start": int64(1), "end": int64(1),
			"total_lines": int64(1), "diff": "--- a/n.txt\n+++ b/n.txt\n@@ -1,1 +1,1 @@\n-x\n+y", "text": "1|y"}},
		{"patch", map[string]any{"path": "n.txt", "start": int64(1), "end": int64(0), "new": "top"}, map[string]any{"path": "n.txt", "start": int64(1), "end": int64(1),
			"total_lines": int64(2), "diff": "--- a/n.txt\n+++ b/n.txt\n@@ -1,1 +1,2 @@\n+top\n y", "text": "1|top\n2|y"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := call(t, s, tc.name, tc.args)
			mustDo(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	got, err := call(t, s, "shell", map[string]any{"cmd": "echo hi; exit 3", "timeout": 10.5})
	mustDo(t, err)
	m := got.(map[string]any)
	if m["exit_code"] != int64(3) || m["output"] != "hi\n" || m["timed_out"] != false {
		t.Errorf("shell result %v", m)
	}
	if _, ok := m["duration_ms"].(int64); !ok {
		t.Errorf("duration_ms is %T", m["duration_ms"])
	}
}

func TestBindingsArgErrors(t *testing.T) {
	s, _ := newSet(t, map[string]string{"a.txt": "x\n"})
	cases := []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"cat", map[string]any{}, "cat: path is required"},
		{"cat", map[string]any{"path": int64(3)}, "cat: path must be a string, got int"},
		{"cat", map[string]any{"path": "a.txt", "start": "1"}, "cat: start must be an int, got string"},
		{"cat", map[string]any{"path": "a.txt", "start": 1.5}, "cat: start must be an int, got float"},
		{"cat", map[string]any{"path": "a.txt", "end": int64(0)}, "cat: end must be at least 1"},
		{"ls", map[string]any{"depth": true}, "ls: depth must be an int, got bool"},
		{"grep", map[string]any{"pattern": "x", "ignore_case": "yes"}, "grep: ignore_case must be True or False, got string"},
		{"grep", map[string]any{"pattern": "x", "max_results": int64(0)}, "grep: max_results must be at least 1"},
		{"glob", map[string]any{"pattern": []any{"*.go"}}, "glob: pattern must be a string, got list"},
		{"write", map[string]any{"path": "b.txt"}, "write: content is required"},
		{"patch", map[string]any{"path": "a.txt", "end": int64(2), "new": "z"}, "patch: end given without start"},
		{"patch", map[string]any{"path": "a.txt", "start": int64(0), "new": "z"}, "patch: start must be at least 1"},
		{"shell", map[string]any{"cmd": "true", "timeout": "10"}, "shell: timeout must be a number of seconds, got string"},
		{"shell", map[string]any{"cmd": "true", "timeout": int64(1 << 40)}, "shell: timeout"},
	}
	for _, tc := range cases {
		t.Run(tc.msg, func(t *testing.T) {
			_, err := call(t, s, tc.tool, tc.args)
			e := wantKind(t, err, KindInvalid)
			if !strings.HasPrefix(e.Message, tc.msg) {
				t.Errorf("message %q, want prefix %q", e.Message, tc.msg)
			}
		})
	}
	// cat with start as a whole float is accepted.
	if _, err := call(t, s, "cat", map[string]any{"path": "a.txt", "start": 1.0}); err != nil {
		t.Errorf("start=1.0: %v", err)
	}
}
