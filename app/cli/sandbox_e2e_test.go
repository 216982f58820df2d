package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The built vis binary confines the model's shell: in the default mode a
// write in the project works and one outside is refused; --sandbox
// read-only refuses both; --sandbox full allows both.
func TestRunSandboxModes(t *testing.T) {
	t.Parallel()
	prog := func(outside string) string {
		return "a = shell('echo in > inside.txt')\nb = shell('echo out > " + outside + "/escape.txt')\nprint('exits', a['exit_code'], b['exit_code'])"
	}
	for _, tc := range []struct {
		flag string
		want string
	}{
		{"", "exits 0 1"},
		{"read-only", "exits 1 1"},
		{"full", "exits 0 0"},
	} {
		t.Run("sandbox="+tc.flag, func(t *testing.T) {
			t.Parallel()
			outside := t.TempDir()
			e := newEnv(t, providertest.Reply{Code: prog(outside)}, providertest.Reply{Content: []string{"done"}})
			args := []string{"run", "--json"}
			if tc.flag != "" {
				args = append(args, "--sandbox", tc.flag)
			}
			r := e.run("", append(args, "write both")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var printed string
			for _, l := range jsonLines(t, r.stdout) {
				if l["event"] == "form-result" {
					printed, _ = l["output"].(string)
				}
			}
			if !strings.Contains(printed, tc.want) {
				t.Fatalf("program printed %q, want %q", printed, tc.want)
			}
		})
	}
}

// An untrusted project's vis.yml cannot switch the model's tool calling
// off (the request still offers the tool) and a warning says what waits;
// with --trust-project it applies.
func TestRunTrustProject(t *testing.T) {
	t.Parallel()
	for _, trust := range []bool{false, true} {
		t.Run(map[bool]string{false: "untrusted", true: "trusted"}[trust], func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, providertest.Reply{Content: []string{"hello"}})
			// The provider from the home config, not the environment, so
			// the project's model entry has something to change.
			e.vars = []string{"VIS_HOME=" + e.home, "HOME=" + e.home, "PATH=" + os.Getenv("PATH")}
			write := func(p, text string) {
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(e.home, "config.yml"), "providers:\n  - id: local\n    base_url: "+e.llm.URL+"\n    models: [{name: fake-model}]\ndefault_provider: local\ndefault_model: fake-model\n")
			write(filepath.Join(e.ws, "vis.yml"), "providers:\n  - id: local\n    models: [{name: fake-model, tools: false}]\n")
			args := []string{"run"}
			if trust {
				args = append(args, "--trust-project")
			}
			r := e.run("", append(args, "hi")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			reqs := e.llm.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			_, offered := reqs[0].Body["tools"]
			if offered == trust {
				t.Errorf("tools offered = %v with trust %v", offered, trust)
			}
			if warned := strings.Contains(r.stderr, "until you trust the folder"); warned == trust {
				t.Errorf("stderr = %q", r.stderr)
			}
		})
	}
}

// A model's answer carrying terminal escape sequences reaches a terminal
// without them (vis run, vis show); --raw prints them as stored.
func TestControlSequencesAreStripped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, providertest.Reply{Content: []string{"\x1b]0;pwned\x07\x1b[2JDone\x1b[31m!"}}, providertest.Reply{Content: []string{"\x1b[2Jagain"}})
	r := e.run("", "run", "hi")
	if r.code != 0 || r.stdout != "Done!\n" {
		t.Fatalf("vis run printed %q (exit %d, %s)", r.stdout, r.code, r.stderr)
	}
	r = e.run("", "run", "--continue", "--raw", "hi")
	if r.stdout != "\x1b[2Jagain\n" {
		t.Fatalf("vis run --raw printed %q", r.stdout)
	}
	sessions := e.run("", "sessions", "--json")
	id := ""
	if i := strings.Index(sessions.stdout, `"id":`); i >= 0 {
		rest := strings.TrimLeft(sessions.stdout[i+5:], ` "`)
		id = rest[:strings.IndexByte(rest, '"')]
	}
	show := e.run("", "show", id)
	if show.code != 0 || strings.ContainsRune(show.stdout, 0x1b) || !strings.Contains(show.stdout, "Done!") {
		t.Fatalf("vis show printed %q (exit %d)", show.stdout, show.code)
	}
	if raw := e.run("", "show", "--raw", id); !strings.ContainsRune(raw.stdout, 0x1b) {
		t.Fatalf("vis show --raw dropped the sequences")
	}
}
