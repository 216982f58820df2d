package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/confine"
)

// Which failed commands the shell marks as refused by the sandbox: only
// confined ones, not full mode, and in workspace mode not a refusal that
// names a path inside the workspace.
func TestSandboxRefusal(t *testing.T) {
	confine.SkipWithoutLandlock(t)
	ws := "/w/proj"
	denied := "bash: line 1: /home/u/x.txt: Permission denied\n"
	tests := []struct {
		name string
		mode confine.Mode // "" = no policy on the ctx
		r    ShellResult
		want string // a part of the sentence; "" = not marked
	}{
		{"outside the workspace", confine.Workspace, ShellResult{ExitCode: 1, Output: denied}, "workspace mode: bash: line 1: /home/u/x.txt: Permission denied"},
		{"not confined", "", ShellResult{ExitCode: 1, Output: denied}, ""},
		{"full mode", confine.Full, ShellResult{ExitCode: 1, Output: denied}, ""},
		{"it succeeded", confine.Workspace, ShellResult{ExitCode: 0, Output: denied}, ""},
		{"other failure", confine.Workspace, ShellResult{ExitCode: 2, Output: "no such file\n"}, ""},
		{"inside the workspace", confine.Workspace, ShellResult{ExitCode: 1, Output: "touch: cannot touch '/w/proj/a': Permission denied\n"}, ""},
		{"inside, read-only", confine.ReadOnly, ShellResult{ExitCode: 1, Output: "touch: cannot touch '/w/proj/a': Permission denied\n"}, "read-only mode: touch"},
		{"read-only file system", confine.Workspace, ShellResult{ExitCode: 1, Output: "cp: /usr/x: Read-only file system\n"}, "Read-only file system"},
		{"the helper refused", confine.Workspace, ShellResult{ExitCode: 126, Output: "vis sandbox: landlock: oops\n"}, "could not start"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.mode != "" {
				ctx = confine.With(ctx, confine.Policy{Mode: tc.mode, Workspace: ws})
			}
			got := sandboxRefusal(ctx, ws, tc.r)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("sandboxRefusal = %q; want one containing %q", got, tc.want)
			}
		})
	}
}
