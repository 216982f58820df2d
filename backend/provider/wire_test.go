package provider_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
	"github.com/visdesktop/vis/internal/golden"
)

// wireConversation is a turn of n iterations with every kind of message
// the loop sends: system blocks, a multimodal user message, assistant
// messages with content and several tool calls, tool results (one empty,
// which goes out as "(no output)"), text that JSON escapes (quotes,
// backslashes, <>&, U+2028, control characters, non-ASCII).
func wireConversation(n int) []chat.Message {
	msgs := []chat.Message{
		chat.System("SYSTEM-PROMPT\nYou are <Vis> & friends; \"quote\" \\ back\u2028line"),
		chat.System("PROJECT-INSTRUCTIONS\n```python\nsession = {\"id\": \"s\"}\n```\n"),
		{Role: chat.RoleUser, Parts: []chat.Part{
			{Type: "image_url", ImageURL: "data:image/png;base64,iVBORw0KGgo="},
			{Type: "text", Text: ";; -- CURRENT-USER-MESSAGE --\nRename add → sum, tab\there\x01"},
		}},
	}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("call_%d", i)
		a := chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: id, Name: "python_execution",
			Arguments: fmt.Sprintf(`{"code":"print(cat('f%d.txt')['text'])"}`, i)}}}
		if i%2 == 0 {
			a.Content = "Let me look <b>closer</b> & check."
			a.ToolCalls = append(a.ToolCalls, chat.ToolCall{ID: id + "b", Name: "python_execution", Arguments: `{"code":"x = 1"}`})
		}
		msgs = append(msgs, a)
		for _, tc := range a.ToolCalls {
			out := fmt.Sprintf("# t1/i%d\n     1│ line of file %d: \"é\" <tag> & \\n\n\nsession[\"scope\"][\"iter\"] = %d", i, i, i+1)
			if strings.HasSuffix(tc.ID, "b") {
				out = ""
			}
			msgs = append(msgs, chat.Message{Role: chat.RoleTool, ToolCallID: tc.ID, Content: out})
		}
	}
	return msgs
}

// requestBodies sends the conversation's requests as a turn sends them
// (after each iteration the messages grow) through one cache, and returns
// the bodies the server received.
func requestBodies(t *testing.T, iters int, mod func(*provider.Config), req provider.Request) [][]byte {
	t.Helper()
	llm := providertest.New()
	defer llm.Close()
	llm.SetDynamic(func(providertest.Recorded) providertest.Reply { return providertest.Reply{Content: []string{"ok"}} })
	c := newClient(t, llm.URL, mod)
	all := wireConversation(iters)
	cuts := []int{3}
	for i, m := range all {
		if m.Role == chat.RoleTool && (i+1 == len(all) || all[i+1].Role != chat.RoleTool) {
			cuts = append(cuts, i+1)
		}
	}
	for _, n := range cuts {
		r := req
		r.Messages = all[:n]
		if _, err := c.Stream(context.Background(), r, nil); err != nil {
			t.Fatal(err)
		}
	}
	var out [][]byte
	for _, r := range llm.Requests() {
		out = append(out, r.Raw)
	}
	return out
}

// The request bodies are byte for byte what they were when go-openai
// marshalled each request whole (the goldens were written by that code):
// with tools, max_tokens and reasoning_effort; for a reasoning-family model
// without tools; and with OpenRouter's cache_control breakpoints.
func TestRequestBodiesGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		mod  func(*provider.Config)
		req  provider.Request
	}{
		{"tools", func(*provider.Config) {}, provider.Request{MaxTokens: 1000, ReasoningEffort: "high"}},
		{"notools_o3", func(c *provider.Config) { c.Model, c.NoTools = "o3-mini", true }, provider.Request{MaxTokens: 500}},
		{"cache_control", func(c *provider.Config) { c.Model, c.CacheControl = "anthropic/claude-sonnet-4", true }, provider.Request{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bodies := requestBodies(t, 4, c.mod, c.req)
			// Through one cache, as a turn sends them, the bodies are the
			// same bytes.
			cached := c.req
			cached.Cache = &provider.MessageCache{}
			for i, b := range requestBodies(t, 4, c.mod, cached) {
				if !bytes.Equal(b, bodies[i]) {
					t.Fatalf("request %d through the cache differs from the one without:\n%s\n%s", i+1, b, bodies[i])
				}
			}
			if cached.Cache.Len() != len(wireConversation(4)) {
				t.Errorf("the cache holds %d messages, want %d", cached.Cache.Len(), len(wireConversation(4)))
			}
			got := append(bytes.Join(bodies, []byte("\n")), '\n')
			golden.Check(t, filepath.Join("testdata", "request_"+c.name+".golden"), got)
		})
	}
}

// A message rewritten in the history (a fold, a compaction; even in place,
// in a shared parts or calls slice) goes out as it is now, not as the cache
// saw it first.
func TestMessageCacheSeesRewrites(t *testing.T) {
	llm := providertest.New()
	defer llm.Close()
	llm.SetDynamic(func(providertest.Recorded) providertest.Reply { return providertest.Reply{Content: []string{"ok"}} })
	c := newClient(t, llm.URL)
	msgs := wireConversation(3)
	cache := &provider.MessageCache{}
	send := func(r provider.Request) []byte {
		t.Helper()
		if _, err := c.Stream(context.Background(), r, nil); err != nil {
			t.Fatal(err)
		}
		reqs := llm.Requests()
		return reqs[len(reqs)-1].Raw
	}
	send(provider.Request{Messages: msgs, Cache: cache})
	msgs[4].Content = "# ⋯ folded t1/i1 · gist"            // a new string
	msgs[2].Parts[1].Text = "rewritten in place"           // the same slice
	msgs[3].ToolCalls[0].Arguments = `{"code":"print(2)"}` // the same slice
	msgs = append(msgs[:5:5], msgs[7:]...)                 // iteration 2 folded away
	got := send(provider.Request{Messages: msgs, Cache: cache})
	want := send(provider.Request{Messages: msgs})
	if !bytes.Equal(got, want) {
		t.Fatalf("through the cache:\n%s\nmarshalled whole:\n%s", got, want)
	}
	for _, s := range []string{"folded t1/i1", "rewritten in place", `print(2)`} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("the request lacks the rewrite %q", s)
		}
	}
}
