package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/internal/fixture"
)

var write = fixture.Write // a file and its folders (internal/fixture)

// Home and project skills: a trusted project's skill replaces the home's
// of the same name; bad folders are skipped with a warning; the summary
// carries names and descriptions, never instructions; instructions and
// files are read from the folder when asked, and only from inside it.
func TestLoadAndRead(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, "skills", "pdf", "SKILL.md"), "---\nname: pdf\ndescription: Fill PDF forms\n  and merge files.\n---\n# PDF\nRun scripts/fill.py SECRET-BODY.\n")
	write(t, filepath.Join(home, "skills", "pdf", "scripts", "fill.py"), "print('fill')\n")
	write(t, filepath.Join(home, "skills", "pdf", "reference.md"), "ref\n")
	write(t, filepath.Join(home, "skills", "pdf", ".cache", "x"), "hidden")
	write(t, filepath.Join(home, "skills", "release", "SKILL.md"), "---\ndescription: Cut a release\n---\nhome body")
	write(t, filepath.Join(home, "skills", "Bad_Name", "SKILL.md"), "---\ndescription: x\n---\n")
	write(t, filepath.Join(home, "skills", "nodesc", "SKILL.md"), "---\nname: nodesc\n---\nbody")
	write(t, filepath.Join(home, "skills", "notaskill", "README.md"), "x")
	write(t, filepath.Join(home, "outside.txt"), "outside")
	write(t, filepath.Join(ws, ".vis", "skills", "rel", "SKILL.md"), "---\nname: release\ndescription: The project's release steps\n---\nproject body")

	type row struct{ Name, Desc, Source string }
	rows := func(ss []Skill) []row {
		var out []row
		for _, s := range ss {
			out = append(out, row{s.Name, s.Description, s.Source})
		}
		return out
	}
	got, warnings := Load(home, ws, false)
	if diff := cmp.Diff([]row{{"pdf", "Fill PDF forms and merge files.", SourceHome}, {"release", "Cut a release", SourceHome}}, rows(got)); diff != "" {
		t.Errorf("untrusted (-want +got):\n%s", diff)
	}
	all := strings.Join(warnings, "\n")
	if len(warnings) != 2 || !strings.Contains(all, "Bad_Name skipped: name") || !strings.Contains(all, "nodesc skipped:") {
		t.Errorf("warnings: %q", warnings)
	}
	got, _ = Load(home, ws, true)
	if diff := cmp.Diff([]row{{"pdf", "Fill PDF forms and merge files.", SourceHome}, {"release", "The project's release steps", SourceProject}}, rows(got)); diff != "" {
		t.Errorf("trusted (-want +got):\n%s", diff)
	}
	sum := Summary(got)
	if !strings.Contains(sum, "- pdf: Fill PDF forms and merge files.\n") || !strings.Contains(sum, "- release: The project's release steps\n") || strings.Contains(sum, "SECRET-BODY") {
		t.Errorf("summary:\n%s", sum)
	}
	if Summary(nil) != "" {
		t.Error("no skills, yet a summary")
	}

	pdf, _ := Find(got, "pdf")
	if body, err := pdf.Instructions(); err != nil || body != "# PDF\nRun scripts/fill.py SECRET-BODY." {
		t.Errorf("instructions = %q, %v", body, err)
	}
	files, trunc, err := pdf.Files()
	if diff := cmp.Diff([]string{"reference.md", "scripts/fill.py"}, files); diff != "" || trunc || err != nil {
		t.Errorf("files (-want +got):\n%s (truncated %v, err %v)", diff, trunc, err)
	}
	if text, err := pdf.ReadFile("scripts/fill.py"); err != nil || text != "print('fill')\n" {
		t.Errorf("ReadFile = %q, %v", text, err)
	}
	for _, bad := range []string{"../../outside.txt", "/etc/passwd", "", "missing.md"} {
		if text, err := pdf.ReadFile(bad); err == nil {
			t.Errorf("ReadFile(%q) = %q, want an error", bad, text)
		}
	}
	// a symlink out of the folder is refused too
	if err := os.Symlink(filepath.Join(home, "outside.txt"), filepath.Join(pdf.Dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if text, err := pdf.ReadFile("link.txt"); err == nil {
		t.Errorf("ReadFile through a symlink out = %q", text)
	}
}
