package backend

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/provider/providertest"
)

// CallOutput pages a clipped program's kept output; the keep cap from
// config.yml applies and both byte counts say so; a short output comes
// from the record; an unknown call is ErrNotFound.
func TestCallOutput(t *testing.T) {
	t.Parallel()
	// ~490 KB printed, kept to the 256 KiB minimum.
	long := `for i in range(20000):\n    print('row %05d ' % (i + 1) + '.' * 14)`
	llm := providertest.New(
		providertest.Reply{Calls: []providertest.Call{{Args: `{"code":"print('short')"}`}, {Args: `{"code":"` + long + `"}`}}},
		providertest.Reply{Content: []string{"done"}},
	)
	defer llm.Close()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yml"), []byte("sandbox: {keep_output_bytes: 262144}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, llm, home)
	defer e.Close()
	ctx := context.Background()
	res, err := e.RunTurn(ctx, SendRequest{Workspace: t.TempDir(), Text: "go"})
	if err != nil {
		t.Fatal(err)
	}
	const total, kept = 20000 * 25, 262144 / 25 * 25 // whole rows: the cap cuts mid-row, pages end at lines

	var all strings.Builder
	off, pages := 0, 0
	for {
		p, err := e.CallOutput(ctx, res.SessionID, 1, 1, 1, off, 100_000)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != total || p.Kept != 262144 {
			t.Fatalf("page at %d: kept %d of %d, want 262144 of %d", off, p.Kept, p.Total, total)
		}
		all.WriteString(p.Text)
		off, pages = p.Next, pages+1
		if p.Done {
			break
		}
	}
	got := all.String()
	if len(got) != 262144 || pages != 3 || !strings.HasPrefix(got, "row 00001 ") || !strings.Contains(got[kept-25:], "row 10485 ") {
		t.Errorf("kept %d bytes in %d pages, ends %q", len(got), pages, got[len(got)-40:])
	}

	p, err := e.CallOutput(ctx, res.SessionID, 1, 1, 0, 0, 0)
	if err != nil || p.Text != "short\n" || !p.Done || p.Total != 6 || p.Kept != 6 {
		t.Errorf("short output = %+v, %v", p, err)
	}
	if _, err := e.CallOutput(ctx, res.SessionID, 1, 1, 2, 0, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("a third call: %v", err)
	}
	if _, err := e.CallOutput(ctx, "nope", 1, 1, 0, 0, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown session: %v", err)
	}
}
