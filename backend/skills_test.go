package backend

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A skill's body is absent from the system prompt until a program calls
// skill(): the first request lists the skill's name and description only;
// the result of skill("pdf") carries the instructions and files, and a
// file is read from inside the skill's folder.
func TestSkillsLoadOnDemand(t *testing.T) {
	t.Parallel()
	llm := providertest.New(
		providertest.Reply{Code: "s = skill('pdf')\nprint(s['instructions'])\nprint(s['files'], s['source'])\nprint(skill('pdf', file='forms/fields.md'))"},
		providertest.Reply{Code: "skill('nope')"},
		providertest.Reply{Content: []string{"done"}},
	)
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "skills", "pdf", "SKILL.md"), "---\nname: pdf\ndescription: Fill PDF forms and merge PDFs\n---\n# PDF skill\nUse pdftk; the INSTRUCTIONS-BODY-7731 are here.\n")
	writeFile(t, filepath.Join(home, "skills", "pdf", "forms", "fields.md"), "FIELDS-FILE-4410\n")
	e := openEngine(t, llm, home)
	defer e.Close()
	res, err := e.Run(context.Background(), "", Input{Workspace: ws, Text: "fill the form"})
	if err != nil || res.Answer != "done" {
		t.Fatalf("%+v %v", res, err)
	}
	reqs := llm.Requests()
	first := string(reqs[0].Raw)
	if !strings.Contains(first, "- pdf: Fill PDF forms and merge PDFs") || !strings.Contains(first, `skill(\"name\")`) {
		t.Errorf("the first request does not list the skill:\n%s", first)
	}
	for _, banned := range []string{"INSTRUCTIONS-BODY-7731", "FIELDS-FILE-4410", "pdftk"} {
		if strings.Contains(first, banned) {
			t.Errorf("the first request carries the skill's %q before skill() was called", banned)
		}
	}
	if tools, _ := reqs[0].Body["tools"].([]any); len(tools) != 1 {
		t.Errorf("tools: %d, want python_execution alone", len(tools))
	}
	out := userMessage(reqs[1])
	for _, w := range []string{"# PDF skill\nUse pdftk; the INSTRUCTIONS-BODY-7731 are here.", `['forms/fields.md'] home`, "FIELDS-FILE-4410"} {
		if !strings.Contains(out, w) {
			t.Errorf("skill()'s output lacks %q:\n%s", w, out)
		}
	}
	if out := userMessage(reqs[2]); !strings.Contains(out, "no skill named nope") || !strings.Contains(out, "skills: pdf") {
		t.Errorf("an unknown skill's error:\n%s", out)
	}
}
