package userprompts

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/internal/fixture"
)

func TestExpand(t *testing.T) {
	for _, c := range []struct {
		body, args, want string
	}{
		{"Review $ARGUMENTS please.", "  a.go b.go ", "Review a.go b.go please."},
		{"Compare $1 with $2; then $3.", `old.go "new file.go"`, "Compare old.go with new file.go; then ."},
		{"$2 before $1, all: $ARGUMENTS", `x 'y z'`, "y z before x, all: x 'y z'"},
		{"No placeholders.", "extra words", "No placeholders.\n\nextra words"},
		{"No placeholders.", "", "No placeholders."},
		{"$10 is $1 then 0", "a", "a0 is a then 0"},
		{"cost $5", "", "cost "},
	} {
		if got := (Prompt{Body: c.body}).Expand(c.args); got != c.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", c.body, c.args, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b\tc ", []string{"a", "b", "c"}},
		{`"a b" 'c d' e`, []string{"a b", "c d", "e"}},
		{`a\ b "" c`, []string{"a b", "", "c"}},
		{`it's`, []string{"its"}},
	} {
		if diff := cmp.Diff(c.want, Words(c.in)); diff != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", c.in, diff)
		}
	}
}

var write = fixture.Write // a file and its folders (internal/fixture)

// Home and project folders: the project's file replaces the home's of the
// same name only when trusted; descriptions from front matter, else the
// first line; bad files are skipped with a warning naming them.
func TestLoad(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, "prompts", "review.md"), "---\ndescription: Review the diff\nargument-hint: <files>\n---\nReview $ARGUMENTS.\n")
	write(t, filepath.Join(home, "prompts", "Explain.md"), "\n# Explain the code\n\nExplain $1.\n")
	write(t, filepath.Join(home, "prompts", "2bad.md"), "x")
	write(t, filepath.Join(home, "prompts", "broken.md"), "---\ndescription: [unclosed\n---\nbody")
	write(t, filepath.Join(home, "prompts", "notes.txt"), "not a prompt")
	write(t, filepath.Join(home, "prompts", "sub", "deep.md"), "not read")
	write(t, filepath.Join(ws, ".vis", "prompts", "review.md"), "---\ndescription: The project's review\n---\nProject review of $1")
	write(t, filepath.Join(ws, ".vis", "prompts", "ship.md"), "Ship it.")

	type row struct{ Name, Desc, Usage, Source, Body string }
	rows := func(ps []Prompt) []row {
		var out []row
		for _, p := range ps {
			out = append(out, row{p.Name, p.Description, p.Usage(), p.Source, p.Body})
		}
		return out
	}
	untrusted, warnings := Load(home, ws, false)
	want := []row{
		{"explain", "Explain the code", "/explain", SourceHome, "# Explain the code\n\nExplain $1."},
		{"review", "Review the diff", "/review <files>", SourceHome, "Review $ARGUMENTS."},
	}
	if diff := cmp.Diff(want, rows(untrusted)); diff != "" {
		t.Errorf("untrusted (-want +got):\n%s", diff)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0]+warnings[1], "2bad.md skipped") || !strings.Contains(warnings[0]+warnings[1], "broken.md skipped: front matter") {
		t.Errorf("warnings: %q", warnings)
	}
	trusted, _ := Load(home, ws, true)
	want = []row{
		{"explain", "Explain the code", "/explain", SourceHome, "# Explain the code\n\nExplain $1."},
		{"review", "The project's review", "/review", SourceProject, "Project review of $1"},
		{"ship", "Ship it.", "/ship", SourceProject, "Ship it."},
	}
	if diff := cmp.Diff(want, rows(trusted)); diff != "" {
		t.Errorf("trusted (-want +got):\n%s", diff)
	}
	if p, ok := Find(trusted, "/Review"); !ok || p.Expand("a.go b") != "Project review of a.go" {
		t.Errorf("Find /Review = %+v, %v", p, ok)
	}
	if _, ok := Find(trusted, "deep"); ok {
		t.Error("a subfolder's file became a command")
	}
}
