package prompt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
	goldenfile "github.com/visdesktop/vis/internal/golden"
)

// tree is a fake filesystem for one test: a canonical temp root holding a
// user home with $VIS_HOME inside it and a workspace two levels below home.
type tree struct {
	root, home, visHome, ws string
}

func newTree(t testing.TB) tree {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The AGENTS.md chain walks up to "/": a guidance file above the temp
	// dir would leak into every golden file.
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		for _, n := range []string{"AGENTS.md", "CLAUDE.md"} {
			if _, err := os.Stat(filepath.Join(d, n)); err == nil {
				t.Fatalf("stray %s above the test temp dir (in %s); point TMPDIR elsewhere", n, d)
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	tr := tree{
		root:    root,
		home:    filepath.Join(root, "home", "ada"),
		visHome: filepath.Join(root, "home", "ada", ".vis"),
		ws:      filepath.Join(root, "home", "ada", "src", "shop"),
	}
	for _, d := range []string{tr.visHome, filepath.Join(tr.ws, ".vis")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func (tr tree) env(channel string) Env {
	return Env{Workspace: tr.ws, VisHome: tr.visHome, UserHome: tr.home, Channel: channel}
}

// write creates path (relative to the tree root) with content.
func (tr tree) write(t testing.TB, rel, content string) string {
	t.Helper()
	p := filepath.Join(tr.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// golden compares got with testdata/<name>.golden, rewriting it under
// -update. The temp root is replaced by $TMP so files are machine-neutral.
func golden(t *testing.T, name, got string, tr tree) {
	t.Helper()
	if tr.root != "" {
		got = strings.ReplaceAll(got, tr.root, "$TMP")
	}
	goldenfile.CheckString(t, filepath.Join("testdata", name+".golden"), got)
}

// dump renders a message list as the provider would receive it, in order.
func dump(msgs []chat.Message) string {
	var b strings.Builder
	for i, m := range msgs {
		if len(m.Parts) == 0 {
			fmt.Fprintf(&b, "==== message %d: %s ====\n%s", i+1, m.Role, m.Content)
		} else {
			fmt.Fprintf(&b, "==== message %d: %s, %d parts ====\n", i+1, m.Role, len(m.Parts))
			for _, p := range m.Parts {
				switch p.Type {
				case "image_url":
					u := p.ImageURL
					if len(u) > 40 {
						u = fmt.Sprintf("%s… (%d chars)", u[:40], len(p.ImageURL))
					}
					fmt.Fprintf(&b, "[image_url] %s\n", u)
				default:
					fmt.Fprintf(&b, "[%s]\n%s", p.Type, p.Text)
				}
			}
		}
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// contents returns the text of each message.
func contents(msgs []chat.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Text()
	}
	return out
}

// tagOf returns the tag of a block message ("SYSTEM-PROMPT"), or "" when the
// message does not start with a block header.
func tagOf(content string) string {
	if !strings.HasPrefix(content, ";; -- ") {
		return ""
	}
	line, _, _ := strings.Cut(content, "\n")
	return strings.TrimSuffix(strings.TrimPrefix(line, ";; -- "), " --")
}

func tags(msgs []chat.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = tagOf(m.Text())
		if out[i] == "" {
			out[i] = "(untagged " + m.Role + ")"
		}
	}
	return out
}
