package cli_test

import (
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The built vis binary confines the model's shell: in the default mode a
// write in the project works and one outside is refused; --sandbox
// read-only refuses both; --sandbox full allows both.
func TestRunSandboxModes(t *testing.T) {
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
