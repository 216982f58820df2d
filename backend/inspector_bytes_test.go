package backend

import (
	"bytes"
	"context"
	"testing"

	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The prompt inspector rebuilds each request from the store (the turn's
// prompt, kept as shared blocks, plus what each iteration appended): sent
// through the provider's wire encoding, every rebuilt request is the
// "messages" array the fake LLM received, byte for byte — over two turns
// of two sessions, so the second turn's and the second session's prompts
// come from blocks stored by earlier turns.
func TestInspectedRequestsAreTheBytesSent(t *testing.T) {
	t.Parallel()
	llm := providertest.New()
	defer llm.Close()
	catScript(llm, 3)
	e := openEngineTB(t, llm, t.TempDir())
	defer e.Close()
	client, err := provider.New(provider.Config{BaseURL: llm.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ws := catWorkspace(t)
	ctx := context.Background()
	var checked int
	for _, session := range []string{"", ""} {
		for turn := 1; turn <= 2; turn++ {
			before := len(llm.Requests())
			res, err := e.RunTurn(ctx, SendRequest{SessionID: session, Workspace: ws, Text: "Read demo.go <again> & again."})
			if err != nil || res.Status != "done" {
				t.Fatalf("turn: %+v %v", res, err)
			}
			session = res.SessionID
			reqs := llm.Requests()[before:]
			for k, r := range reqs {
				msgs, _, err := e.sentMessages(ctx, session, res.Turn, k+1)
				if err != nil {
					t.Fatal(err)
				}
				got, err := client.WireMessages(msgs)
				if err != nil {
					t.Fatal(err)
				}
				start := bytes.Index(r.Raw, []byte(`"messages":`)) + len(`"messages":`)
				end := bytes.Index(r.Raw, []byte(`,"stream":`))
				if want := r.Raw[start:end]; !bytes.Equal(got, want) {
					t.Fatalf("turn %d request %d: the inspector's %d bytes differ from the %d sent:\n%s\n%s", res.Turn, k+1, len(got), len(want), got, want)
				}
				checked++
			}
		}
	}
	if checked != 16 {
		t.Errorf("%d requests compared, want 16", checked)
	}
}
