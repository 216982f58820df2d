package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// An unknown --sandbox mode is a usage error that names the modes.
func TestRunRefusesAnUnknownSandboxMode(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return map[string]string{"VIS_HOME": home}[k] },
		Getwd:  func() (string, error) { return ws, nil }}
	code := Run(context.Background(), []string{"run", "--sandbox", "yolo", "hello"}, env)
	if code != ExitUsage || !strings.Contains(errb.String(), "read-only, workspace or full") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
