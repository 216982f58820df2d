package sandbox

import (
	"context"
	"strings"
	"testing"
)

// Values that would recurse until Go's stack overflows (a fatal error no
// recover catches, ending the whole app with every session in it) come
// back as errors the program sees.
func TestDeepAndCyclicValuesAreErrorsNotCrashes(t *testing.T) {
	echo := Builtin{Name: "echo", Params: []Param{{Name: "value"}}, Fn: func(ctx context.Context, a map[string]any) (any, error) { return "ok", nil }}
	in, err := New(Options{}, []Builtin{echo})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, code, want string }{
		{"a list containing itself", "a = []\na.append(a)\necho(a)", "contains itself"},
		{"a dict containing itself", "d = {}\nd['x'] = d\necho(d)", "contains itself"},
		{"a million levels", "x = []\nfor i in range(1000000):\n    x = [x]\necho(x)", "more than 200 levels"},
		{"json three million levels", "import json\njson.loads('[' * 3000000 + ']' * 3000000)", "RecursionError"},
		{"json.dumps of a cycle", "import json\na = []\na.append(a)\njson.dumps(a)", "circular reference"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := in.Exec(context.Background(), tc.code, nil)
			if r.Err == nil || !strings.Contains(r.Err.Message, tc.want) {
				t.Fatalf("err = %+v, want one saying %q", r.Err, tc.want)
			}
		})
	}
	// Shallow data still passes, and Python's own depth limit for JSON holds.
	if r := in.Exec(context.Background(), "import json\necho(json.loads('[' * 150 + ']' * 150))\nprint(len(json.loads('[' * 999 + ']' * 999)))", nil); r.Err != nil || r.Output != "1\n" {
		t.Fatalf("shallow data: %q %+v", r.Output, r.Err)
	}
}
