package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFrontMatter(t *testing.T) {
	for _, c := range []struct {
		name, in string
		fields   map[string]string
		body     string
		err      bool
	}{
		{"none", "# Title\nbody", map[string]string{}, "# Title\nbody", false},
		{"fields", "---\nname: pdf\ndescription: >\n  Fill PDF\n  forms.\ntags: [a, b]\n---\nBody\n", map[string]string{"name": "pdf", "description": "Fill PDF forms.", "tags": "- a\n- b"}, "Body\n", false},
		{"crlf and bom", "\ufeff---\r\ndescription: d\r\n---\r\nx", map[string]string{"description": "d"}, "x", false},
		{"empty matter", "---\n---\nx", map[string]string{}, "x", false},
		{"no closing rule", "---\nnot yaml: [\n", map[string]string{}, "---\nnot yaml: [\n", false},
		{"bad yaml", "---\ndescription: [x\n---\n", nil, "", true},
		{"closing at end", "---\nname: a\n---", map[string]string{"name": "a"}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, body, err := FrontMatter(c.in)
			if (err != nil) != c.err {
				t.Fatalf("err = %v", err)
			}
			if c.err {
				return
			}
			if diff := cmp.Diff(c.fields, f); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			if body != c.body {
				t.Errorf("body = %q, want %q", body, c.body)
			}
		})
	}
}
