package prompt

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBuildSystemPromptPrecedence(t *testing.T) {
	core := strings.TrimSpace(CoreSystemPrompt)
	tests := []struct {
		name  string
		files map[string]string // relative to the tree root; "ws/" and "vh/" prefixes expanded
		opts  SystemOptions
		want  []string // the parts, in order
	}{
		{
			name: "core only",
			want: []string{core},
		},
		{
			name: "addendum after core, normalized",
			opts: SystemOptions{Addendum: "\n    Prefer tabs.\n\n\n\n    Never use panics.\n"},
			want: []string{core, "Prefer tabs.\n\nNever use panics."},
		},
		{
			name: "config string appended after the addendum",
			opts: SystemOptions{Addendum: "ADD", ConfigText: "CFG"},
			want: []string{core, "ADD", "CFG"},
		},
		{
			name: "config replace form becomes the base",
			opts: SystemOptions{Addendum: "ADD", ConfigText: "CFG BASE", ConfigReplace: true},
			want: []string{"CFG BASE", "ADD"},
		},
		{
			name:  "home SYSTEM.md beats config replace, which is then dropped",
			files: map[string]string{"vh/SYSTEM.md": "HOME BASE"},
			opts:  SystemOptions{ConfigText: "CFG BASE", ConfigReplace: true},
			want:  []string{"HOME BASE"},
		},
		{
			name:  "workspace SYSTEM.md beats home SYSTEM.md",
			files: map[string]string{"vh/SYSTEM.md": "HOME BASE", "ws/SYSTEM.md": "WS BASE"},
			opts:  SystemOptions{Addendum: "ADD", ConfigText: "CFG"},
			want:  []string{"WS BASE", "ADD", "CFG"},
		},
		{
			name:  "append files after everything, home first, workspace nearest",
			files: map[string]string{"vh/APPEND_SYSTEM.md": "HOME APPEND", "ws/APPEND_SYSTEM.md": "WS APPEND"},
			opts:  SystemOptions{Addendum: "ADD", ConfigText: "CFG"},
			want:  []string{core, "ADD", "CFG", "HOME APPEND", "WS APPEND"},
		},
		{
			name:  "appends still follow a replaced base",
			files: map[string]string{"ws/SYSTEM.md": "WS BASE", "ws/APPEND_SYSTEM.md": "WS APPEND"},
			want:  []string{"WS BASE", "WS APPEND"},
		},
		{
			name:  "blank SYSTEM.md is ignored",
			files: map[string]string{"ws/SYSTEM.md": "  \n\n"},
			want:  []string{core},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			for rel, content := range tc.files {
				rel = strings.Replace(rel, "ws/", "home/ada/src/shop/.vis/", 1)
				rel = strings.Replace(rel, "vh/", "home/ada/.vis/", 1)
				tr.write(t, rel, content)
			}
			got, _ := BuildSystemPrompt(tr.env(ChannelDesktop), tc.opts)
			if diff := cmp.Diff(strings.Join(tc.want, "\n\n"), got); diff != "" {
				t.Errorf("system prompt (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildSystemPromptWarnsOnBadFiles(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/.vis/APPEND_SYSTEM.md", "\n \n")
	// A directory where a file is expected cannot be read.
	if err := os.MkdirAll(filepath.Join(tr.ws, ".vis", "SYSTEM.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, warnings := BuildSystemPrompt(tr.env(ChannelDesktop), SystemOptions{})
	if got != strings.TrimSpace(CoreSystemPrompt) {
		t.Errorf("bad files changed the prompt:\n%s", got)
	}
	if len(warnings) != 2 {
		t.Fatalf("warnings = %q, want 2 (unreadable SYSTEM.md, blank APPEND_SYSTEM.md)", warnings)
	}
	if !strings.Contains(warnings[0], "SYSTEM.md") || !strings.Contains(warnings[1], "blank") {
		t.Errorf("warnings do not name the files and reasons: %q", warnings)
	}
}

func TestBuildSystemPromptWithoutPaths(t *testing.T) {
	got, warnings := BuildSystemPrompt(Env{}, SystemOptions{Addendum: "x"})
	if want := strings.TrimSpace(CoreSystemPrompt) + "\n\nx"; got != want || warnings != nil {
		t.Errorf("got %q, %q", got, warnings)
	}
}

func TestCoreSystemPromptSize(t *testing.T) {
	n := len(CoreSystemPrompt)
	if n < 6000 || n > 9500 {
		t.Errorf("CoreSystemPrompt is %d bytes; keep it around 6–9 KB", n)
	}
}

// The prompt names only python_execution as a provider tool, and every
// function it shows being called exists in our sandbox.
func TestCoreSystemPromptNamesOnlyOurSurface(t *testing.T) {
	known := map[string]bool{
		"python_execution": true,
		"ls":               true, "cat": true, "grep": true, "glob": true, "write": true, "patch": true,
		"shell": true, "doc": true, "apropos": true, "defs": true, "print": true, "fold_session": true,
	}
	p := CoreSystemPrompt
	for _, m := range regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_.]*)\\(").FindAllStringSubmatch(p, -1) {
		if !known[m[1]] {
			t.Errorf("core prompt calls %s(), which is not a sandbox function", m[1])
		}
	}
	for _, banned := range []string{"session_fold", "struct_patch", "gather", "await", "repl_eval", "run_tests", "`rg`", "line:hash"} {
		if strings.Contains(p, banned) {
			t.Errorf("core prompt mentions %q, which our surface does not have", banned)
		}
	}
	toolRe := regexp.MustCompile("(?i)(?:only|one) tool[^.]*`([a-z_]+)`")
	m := toolRe.FindStringSubmatch(p)
	if m == nil || m[1] != "python_execution" {
		t.Errorf("core prompt does not say its one tool is python_execution (match %q)", m)
	}
}

// The core prompt steers edits to cat/patch, searches to grep, processes to
// shell, paths to the session root, helpers to defs (spec §11).
func TestCoreSystemPromptSteersTheSurface(t *testing.T) {
	for _, want := range []string{
		"cat(path, start=1, end=None)",
		"patch(path, old=..., new=...)",
		"patch(path, start=..., end=..., new=...)",
		"grep(pattern",
		"shell(cmd, timeout=120)",
		`session["workspace"]["root"]`,
		"defs()",
		"no `try`/`except`, no `class`, no `with`",
		"Only `print()` output comes back",
		"Globals persist",
		"runtime (program output, test runs) > source code > docs and comments > assumption",
		"make NO tool call",
	} {
		if !strings.Contains(CoreSystemPrompt, want) {
			t.Errorf("core prompt lacks %q", want)
		}
	}
}
