package python

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/langtools"
)

// A suite whose third test hangs: killed at its timeout, run_tests still
// returns the two that finished, for pytest (interrupted, it writes its
// report) and unittest (-c; the hung test never ends, so its progress
// line is read).
const hangingSuite = `import os, time, unittest

class T(unittest.TestCase):
    def test_a(self):
        pass

    def test_b(self):
        self.assertEqual(1, 2)

    def test_c(self):
        open(os.path.join(os.path.dirname(__file__), "started"), "w").close()
        time.sleep(600)
`

func TestKilledRunKeepsItsRows(t *testing.T) {
	t.Parallel()
	for _, runner := range []string{"pytest", "unittest"} {
		t.Run(runner, func(t *testing.T) {
			t.Parallel()
			opts := Options{}
			if runner == "pytest" {
				opts.Interpreter = []string{pytestPython(t)}
			}
			// The budget must outlast the runner's start and the first two
			// tests; on a machine too busy for that (pytest's imports alone
			// took 6 s beside other test binaries), the run is repeated with
			// twice the budget: what is checked is the rows of a run killed
			// in the hanging test, not how fast the runner starts.
			var w *world
			var r map[string]any
			for budget := 3000; ; budget *= 2 {
				w = newWorld(t, opts)
				writeFile(t, w.ws, "test_hang.py", hangingSuite)
				r = w.call(t, langtools.VerbTest, "python", map[string]any{"runner": runner, "timeout_ms": budget})
				if _, err := os.Stat(filepath.Join(w.ws, "started")); err == nil {
					break
				}
				if budget >= 48000 {
					t.Fatalf("the hanging test never started within %d ms\n%v", budget, r["output"])
				}
				t.Logf("the hanging test had not started after %d ms; again with %d ms", budget, 2*budget)
			}
			if r["timed_out"] != true || r["is_pass"] != false {
				t.Fatalf("timed_out %v is_pass %v", r["timed_out"], r["is_pass"])
			}
			if r["pass"] != 1 || r["fail"] != 1 {
				t.Fatalf("rows kept on kill: total %v pass %v fail %v\n%v", r["total"], r["pass"], r["fail"], r["output"])
			}
			f := row(t, r, "test_b")
			if runner == "pytest" {
				if f["file"] != "test_hang.py" || f["line"] != 8 || !strings.Contains(f["message"].(string), "1 != 2") {
					t.Errorf("pytest row = %v", f)
				}
			} else if f["type"] != "fail" || !strings.Contains(f["message"].(string), "killed at the timeout") {
				t.Errorf("unittest row = %v", f)
			}
		})
	}
}
