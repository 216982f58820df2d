package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/confine"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A hostile program's shell commands: writes outside the workspace, reads
// of a protected file and of Vis's own database are refused in the default
// mode; inside the workspace they work; the model is told the mode. With
// the full-access override the same program escapes.
func TestShellIsConfinedToTheWorkspace(t *testing.T) {
	confine.SkipWithoutLandlock(t)
	for _, mode := range []confine.Mode{"", confine.Full} {
		t.Run("mode="+string(mode), func(t *testing.T) {
			root := t.TempDir()
			home, ws, outside := filepath.Join(root, "home"), filepath.Join(root, "ws"), filepath.Join(root, "outside")
			secret := filepath.Join(root, "keys", "id_ed25519")
			for _, d := range []string{home, ws, outside, filepath.Dir(secret)} {
				os.MkdirAll(d, 0o755)
			}
			os.WriteFile(secret, []byte("PRIVATE"), 0o600)
			os.WriteFile(filepath.Join(home, "config.yml"), []byte("permissions:\n  protected: ["+filepath.Dir(secret)+"]\n"), 0o644)
			code := fmt.Sprintf(`r1 = shell('echo ok > inside.txt && cat inside.txt')
r2 = shell('echo x > %s/escape.txt')
r3 = shell('cat %s')
r4 = shell('head -c 6 %s/desktop/vis.db')
print("results", r1['exit_code'], r2['exit_code'], r3['exit_code'], r4['exit_code'])
print("leaked" if 'PRIVATE' in r3['output'] or 'SQLite' in r4['output'] else "kept")
print("sandbox", session['sandbox']['mode'], session['sandbox']['confined'])
r5 = shell('env')
print("env leaked" if 'sk-test-key' in r5['output'] else "env kept", session['env']['hidden'])`, outside, secret, home)
			llm := providertest.New(providertest.Reply{Code: code}, providertest.Reply{Content: []string{"done"}})
			defer llm.Close()
			t.Setenv("VIS_API_KEY", "sk-test-key") // what the engine's own children inherit
			e := openEngine(t, llm, home)
			e.modeOverride = mode
			defer e.Close()
			ch, stop := e.Events().Subscribe(4096)
			defer stop()
			if _, err := e.RunTurn(context.Background(), SendRequest{Workspace: ws, Text: "go"}); err != nil {
				t.Fatal(err)
			}
			out := payload[events.FormResult](t, waitFor(t, ch, events.PhaseFormResult)).Output
			if b, _ := os.ReadFile(filepath.Join(ws, "inside.txt")); string(b) != "ok\n" {
				t.Errorf("inside the workspace: %q", b)
			}
			if !strings.Contains(out, "env kept") || !strings.Contains(out, "'VIS_API_KEY'") {
				t.Errorf("the key reached the shell, or the model was not told:\n%s", out)
			}
			_, escaped := os.Stat(filepath.Join(outside, "escape.txt"))
			if mode == confine.Full {
				if escaped != nil || !strings.Contains(out, "results 0 0 0 0") || !strings.Contains(out, "leaked") || !strings.Contains(out, "sandbox full False") {
					t.Errorf("full access should reach everything:\n%s", out)
				}
				return
			}
			if escaped == nil || !strings.Contains(out, "results 0 1 1 1") || !strings.Contains(out, "kept") || !strings.Contains(out, "sandbox workspace True") {
				t.Errorf("confined program:\n%s (escaped: %v)", out, escaped == nil)
			}
		})
	}
}

// A REPL the model starts does not see the key either, and is confined
// like the shell.
func TestREPLIsConfinedAndKeyless(t *testing.T) {
	confine.SkipWithoutLandlock(t)
	root := t.TempDir()
	home, ws, outside := filepath.Join(root, "home"), filepath.Join(root, "ws"), filepath.Join(root, "outside")
	for _, d := range []string{home, ws, outside} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(ws, "main.py"), []byte("print('hi')\n"), 0o644)
	code := fmt.Sprintf(`repl_start('python')
r = repl_eval('python', {'code': "import os\nos.environ.get('VIS_API_KEY', 'absent')"})
w = repl_eval('python', {'code': "open('%s', 'w').write('x')"})
print('repl', r['value'], 'write ok' if w['ok'] else 'write refused')`, filepath.Join(outside, "escape.txt"))
	llm := providertest.New(providertest.Reply{Code: code}, providertest.Reply{Content: []string{"done"}})
	defer llm.Close()
	t.Setenv("VIS_API_KEY", "sk-test-key")
	e := openEngine(t, llm, home)
	defer e.Close()
	ch, stop := e.Events().Subscribe(4096)
	defer stop()
	if _, err := e.RunTurn(context.Background(), SendRequest{Workspace: ws, Text: "go"}); err != nil {
		t.Fatal(err)
	}
	fr := payload[events.FormResult](t, waitFor(t, ch, events.PhaseFormResult))
	out := fr.Output
	if fr.Error != nil {
		out += "\nerror: " + fr.Error.Message
	}
	if !strings.Contains(out, "repl 'absent' write refused") {
		t.Errorf("REPL: %s", out)
	}
	if _, err := os.Stat(filepath.Join(outside, "escape.txt")); err == nil {
		t.Error("the REPL wrote outside the workspace")
	}
}
