package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// A .py file appearing in a Go workspace switches the python pack on for the
// window at once (a packs event) and for the next turn's prompt.
func TestNewFilesActivateAPackForTheNextTurn(t *testing.T) {
	llm := providertest.New(providertest.Reply{Content: []string{"one"}}, providertest.Reply{Content: []string{"two"}})
	defer llm.Close()
	e := openEngine(t, llm, t.TempDir())
	defer e.Close()
	ctx := context.Background()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module x\n\ngo 1.26\n"), 0o644)
	if got := e.Packs(ctx, ws); !slices.Equal(got, []string{"go"}) {
		t.Fatalf("packs = %v", got)
	}
	ch, stop := e.Events().Subscribe(256)
	defer stop()
	res, err := e.RunTurn(ctx, SendRequest{Workspace: ws, Text: "first"})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // the watcher starts with the session's runtime
	os.WriteFile(filepath.Join(ws, "tool.py"), []byte("print(1)\n"), 0o644)
	deadline := time.After(20 * time.Second)
	for got := false; !got; {
		select {
		case ev := <-ch:
			if p, ok := events.As[events.Packs](ev); ok {
				got = slices.Contains(p.Packs, "python")
			}
		case <-deadline:
			t.Fatal("no packs event with python after a .py file appeared")
		}
	}
	// The footer's cached answer follows the change too.
	if got := e.Packs(ctx, ws); !slices.Equal(got, []string{"go", "python"}) {
		t.Fatalf("packs after the change = %v", got)
	}
	if _, err := e.RunTurn(ctx, SendRequest{SessionID: res.SessionID, Text: "second"}); err != nil {
		t.Fatal(err)
	}
	matrix := func(i int) string {
		for _, m := range llm.Requests()[i].Messages {
			if s := fmt.Sprint(m["content"]); strings.Contains(s, "LANGUAGE TOOLS") {
				return s
			}
		}
		return ""
	}
	if m := matrix(0); strings.Contains(m, "python :") || !strings.Contains(m, "go : format_code · lint_code · run_tests\n") {
		t.Fatalf("first turn's matrix: %q", m)
	}
	if m := matrix(1); !strings.Contains(m, "python : format_code") {
		t.Fatalf("second turn's matrix lacks python: %q", m)
	}
}
