package sandbox

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// A host function's Printed result is a dict to the program and prints as
// its text: print(cat(path)) shows the lines, every dict operation sees
// the fields, and a change to a shown field shows in the next print.
func TestPrintedResultIsADictThatPrintsAsItsText(t *testing.T) {
	var passed map[string]any
	in := newInterp(t, Options{},
		hostfn.Builtin{Name: "cat", Doc: "Read.", Params: []hostfn.Param{{Name: "path", Required: true}},
			Fn: func(ctx context.Context, args map[string]any) (any, error) {
				f := map[string]any{"path": args["path"], "remaining": int64(3), "text": "1|a\n2|b"}
				if args["path"] == "long.txt" {
					f["note"] = "3 more lines: cat(path, start=3)"
				}
				return hostfn.Printed{Fields: f, Show: []string{"text", "note"}}, nil
			}},
		hostfn.Builtin{Name: "take", Doc: "Take.", Params: []hostfn.Param{{Name: "v", Required: true}},
			Fn: func(ctx context.Context, args map[string]any) (any, error) {
				passed, _ = args["v"].(map[string]any)
				return nil, nil
			}},
	)
	for _, tc := range []struct{ code, want string }{
		{"print(cat('a.txt'))", "1|a\n2|b\n"},
		{"print(cat('long.txt'))", "1|a\n2|b\n3 more lines: cat(path, start=3)\n"},
		{"r = cat('a.txt')\nprint(r['text'], r['remaining'], r.get('note'), len(r), 'text' in r)", "1|a\n2|b 3 None 3 True\n"},
		{"r = cat('a.txt')\nprint(sorted(r.keys()), [k for k in r][0])", "['path', 'remaining', 'text'] path\n"},
		{"r = cat('a.txt')\nprint(isinstance(r, dict), type(r) == dict, type(r).__name__)", "True True dict\n"},
		{"print(repr(cat('a.txt')))", "{'path': 'a.txt', 'remaining': 3, 'text': '1|a\\n2|b'}\n"},
		{"print([cat('a.txt')['path']], str(cat('a.txt')) == cat('a.txt')['text'])", "['a.txt'] True\n"},
		{"import json\nprint(json.dumps(cat('a.txt'), sort_keys=True))", `{"path": "a.txt", "remaining": 3, "text": "1|a\n2|b"}` + "\n"},
		{"r = cat('a.txt')\nr['text'] = 'changed'\nprint(r)", "changed\n"},
		{"print(f\"{cat('a.txt')}\" == '1|a\\n2|b', '%s' % cat('a.txt') == '1|a\\n2|b', '%(path)s' % cat('a.txt'))", "True True a.txt\n"},
		{"print({} == cat('a.txt'), cat('a.txt') != {})", "False True\n"},
		{"print((cat('a.txt') | {'x': 1})['x'], ({'path': 'b'} | cat('a.txt'))['path'], (cat('a.txt') | cat('long.txt'))['note'][:1])", "1 a.txt 3\n"},
		{"print(cat('a.txt') == cat('a.txt'), cat('a.txt') == cat('long.txt'), dict(cat('a.txt')) == {'path': 'a.txt', 'remaining': 3, 'text': '1|a\\n2|b'})", "True False True\n"},
		{"import copy\nc = copy.deepcopy(cat('a.txt'))\nc['text'] = 'x'\nprint(c, {**cat('a.txt')}['path'])", "x a.txt\n"},
	} {
		r := exec(t, in, tc.code)
		if r.Err != nil {
			t.Errorf("%s: %s", tc.code, r.Wire())
			continue
		}
		if r.Output != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.code, r.Output, tc.want)
		}
	}
	// Passed on to another tool it is the plain map.
	if r := exec(t, in, "take(cat('a.txt'))"); r.Err != nil {
		t.Fatal(r.Wire())
	}
	if diff := cmp.Diff(map[string]any{"path": "a.txt", "remaining": int64(3), "text": "1|a\n2|b"}, passed); diff != "" {
		t.Errorf("passed on (-want +got):\n%s", diff)
	}
}
