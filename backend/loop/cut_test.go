package loop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A reply cut at the output-token limit (finish_reason "length") whose
// program arguments are not complete JSON never runs, whatever the
// arguments look like; the model is told why. A complete call in a cut
// reply still runs.
func TestCutProgramsDoNotRun(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "ran")
	for _, tc := range []struct {
		name, args string
		runs       bool
	}{
		{"broken JSON", `{"code": "open('` + marker + `', 'w').write('x')\nmore = 1`, false},
		{"bare code", `print("cut here`, false},
		{"complete JSON", `{"code": "print('whole')"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, false,
				providertest.Reply{Calls: []providertest.Call{{Args: tc.args}}, Finish: "length"},
				providertest.Reply{Content: []string{"ok"}},
			)
			r.turn(context.Background(), "go", false)
			reqs := r.llm.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			fed := strings.Join(lastContent(reqs[1], 1), "\n")
			if cut := strings.Contains(fed, "cut off at the output-token limit"); cut == tc.runs {
				t.Errorf("the model was fed:\n%s", fed)
			}
			if tc.runs && !strings.Contains(fed, "whole") {
				t.Errorf("the complete program did not run:\n%s", fed)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("a cut program ran")
			}
		})
	}
}
