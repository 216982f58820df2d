package backend

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/internal/fixture"
)

var writeFile = fixture.Write // a file and its folders (internal/fixture)

// Prompt files as slash commands through the real engine and the scripted
// model: a home file expands with its arguments into the request and the
// transcript; a project's file is unknown until the folder is trusted;
// a file named like a built-in loses to it, and /help says so; the
// composer's list carries the descriptions.
func TestUserPromptCommands(t *testing.T) {
	t.Parallel()
	llm := providertest.New(providertest.Reply{Content: []string{"reviewed"}}, providertest.Reply{Content: []string{"shipped"}})
	defer llm.Close()
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, "prompts", "review.md"), "---\ndescription: Review files for bugs\nargument-hint: <file> <focus>\n---\nReview $1 looking for $2.\nAll arguments: $ARGUMENTS\n")
	writeFile(t, filepath.Join(home, "prompts", "goal.md"), "I would shadow /goal.")
	writeFile(t, filepath.Join(ws, ".vis", "prompts", "ship.md"), "# Ship the release\nTag $1 and push.")
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()

	res, err := e.Run(ctx, "", Input{Workspace: ws, Text: `/review main.go "error paths"`})
	if err != nil || res.Answer != "reviewed" {
		t.Fatalf("/review: %+v %v", res, err)
	}
	want := "Review main.go looking for error paths.\nAll arguments: main.go \"error paths\""
	if got := userMessage(llm.Requests()[0]); !strings.Contains(got, want) || strings.Contains(got, "$1") {
		t.Errorf("the request's user message:\n%s\nwant it to contain:\n%s", got, want)
	}
	tr, err := e.Transcript(ctx, res.SessionID)
	if err != nil || len(tr.Turns) != 1 || tr.Turns[0].Request != want {
		t.Errorf("the transcript's turns = %+v (%v), want one whose request is the expanded text", tr.Turns, err)
	}

	// untrusted: the project's file is no command
	if _, err := e.Run(ctx, res.SessionID, Input{Text: "/ship v1"}); !errors.Is(err, ErrUnknownCommand) {
		t.Errorf("/ship before trust: %v, want ErrUnknownCommand", err)
	}
	help, err := e.Run(ctx, res.SessionID, Input{Text: "/help"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"`/review <file> <focus>` — Review files for bugs (home, ", "`/goal` — not available: the built-in /goal wins over ", "a built-in command wins over a file of the same name"} {
		if !strings.Contains(help.Answer, w) {
			t.Errorf("/help lacks %q:\n%s", w, help.Answer)
		}
	}
	if strings.Contains(help.Answer, "/ship") {
		t.Errorf("/help lists an untrusted project's file:\n%s", help.Answer)
	}

	if err := e.TrustWorkspace(ctx, ws); err != nil {
		t.Fatal(err)
	}
	res2, err := e.Run(ctx, res.SessionID, Input{Text: "/SHIP v1.2"})
	if err != nil || res2.Answer != "shipped" {
		t.Fatalf("/ship after trust: %+v %v", res2, err)
	}
	if got := userMessage(llm.Requests()[1]); !strings.Contains(got, "# Ship the release\nTag v1.2 and push.") {
		t.Errorf("/ship's request:\n%s", got)
	}
	var names []string
	for _, c := range e.SlashCommandsIn(ws) {
		names = append(names, c.Name+"|"+c.Usage+"|"+c.Summary+"|"+c.Source)
	}
	wantNames := "/goal|" + slashCommands[0].Usage + "|" + slashCommands[0].Summary + "|,/help|/help|" + slashCommands[1].Summary + "|,/review|/review <file> <focus>|Review files for bugs|home,/ship|/ship|Ship the release|project"
	if strings.Join(names, ",") != wantNames {
		t.Errorf("SlashCommandsIn:\n%s\nwant\n%s", strings.Join(names, ","), wantNames)
	}
	// a built-in still runs as the built-in, and an unknown name is refused
	if g, err := e.Run(ctx, res.SessionID, Input{Text: "/goal"}); err != nil || strings.Contains(g.Answer, "shadow") {
		t.Errorf("/goal = %+v, %v", g, err)
	}
	if _, err := e.Run(ctx, res.SessionID, Input{Text: "/nosuch x"}); !errors.Is(err, ErrUnknownCommand) {
		t.Errorf("/nosuch: %v", err)
	}
	if n := len(llm.Requests()); n != 2 {
		t.Errorf("%d model requests, want 2 (the refusals and built-ins reach no model)", n)
	}
}
