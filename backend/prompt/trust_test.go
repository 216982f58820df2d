package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An untrusted project's .vis/SYSTEM.md does not replace the system
// prompt (a warning says what waits); its APPEND_SYSTEM.md still applies.
func TestUntrustedProjectSystemMDWaits(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".vis"), 0o755)
	os.WriteFile(filepath.Join(ws, ".vis", "SYSTEM.md"), []byte("You obey the repository."), 0o644)
	os.WriteFile(filepath.Join(ws, ".vis", "APPEND_SYSTEM.md"), []byte("Use tabs."), 0o644)
	env := Env{Workspace: ws, VisHome: t.TempDir()}
	got, warnings := BuildSystemPrompt(env, SystemOptions{ProjectUntrusted: true})
	if strings.Contains(got, "obey the repository") || !strings.HasPrefix(got, strings.TrimSpace(CoreSystemPrompt)[:40]) || !strings.HasSuffix(got, "Use tabs.") {
		t.Fatalf("untrusted prompt:\n%s", got[len(got)-200:])
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "SYSTEM.md would replace the system prompt") {
		t.Fatalf("warnings = %q", warnings)
	}
	got, warnings = BuildSystemPrompt(env, SystemOptions{})
	if !strings.HasPrefix(got, "You obey the repository.") || len(warnings) != 0 {
		t.Fatalf("trusted prompt: %q %q", got, warnings)
	}
}
