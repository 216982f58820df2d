package prompt

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// pythonEval runs program with the real python3 and returns its stdout.
func pythonEval(t *testing.T, program string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(py, "-c", program).CombinedOutput()
	if err != nil {
		t.Fatalf("python3 failed: %v\n%s\nprogram:\n%s", err, out, program)
	}
	return strings.TrimSpace(string(out))
}

// unfence strips the ```python fence of a session block.
func unfence(block string) string {
	s := strings.TrimPrefix(block, "```python\n")
	return strings.TrimSuffix(s, "```\n")
}

func goJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const dumpSession = "\nimport json\nprint(json.dumps(session, sort_keys=True, separators=(',', ':'), ensure_ascii=False))\n"

// The session block is valid Python that evaluates to the same data.
func TestSessionBlockIsPython(t *testing.T) {
	s := sampleSession()
	s["tricky"] = []any{"quote\" back\\slash", "new\nline\ttab", "it's", "ünï — ✓", "\x01", nil, true, 3, -7}
	got := pythonEval(t, unfence(SessionBlock(s))+dumpSession)
	if want := goJSON(t, s); got != want {
		t.Errorf("python read back\n%s\nwant\n%s", got, want)
	}
}

// Applying the delta lines to the old dict in Python yields the new one.
func TestSessionDeltaReplaysInPython(t *testing.T) {
	old := sampleSession()
	new := sampleSession()
	new["turn"] = 3
	new["scope"] = map[string]any{"turn": 3, "iter": 1, "next_form": 1}
	delete(new, "custom")
	new["utilization"] = map[string]any{"saturation": 41, "headroom_tokens": 70000}
	env := new["env"].(map[string]any)
	env["extensions"] = map[string]any{"active_count": 2, "aliases": []any{"go", "git"}}
	delete(env["host"].(map[string]any), "shell")
	new["goal_status"] = map[string]any{"status": "active", "objective": "ship \"v2\""}

	lines := SessionDelta(old, new)
	if len(lines) == 0 {
		t.Fatal("no delta for a changed session")
	}
	program := unfence(SessionBlock(old)) + "\n" + strings.Join(lines, "\n") + dumpSession
	if got, want := pythonEval(t, program), goJSON(t, new); got != want {
		t.Errorf("replayed delta\n%s\ngives\n%s\nwant\n%s", strings.Join(lines, "\n"), got, want)
	}
}
