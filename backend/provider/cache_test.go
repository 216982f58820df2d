package provider_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/provider"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

func TestWantsCacheControl(t *testing.T) {
	for _, tt := range []struct {
		base, model string
		want        bool
	}{
		{"https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4", true},
		{"https://openrouter.ai/api/v1", "anthropic/claude-3.5-haiku", true},
		{"https://eu.openrouter.ai/api/v1", "anthropic/claude-opus-4", true},
		{"https://openrouter.ai/api/v1", "openai/gpt-5", false},
		{"https://api.openai.com/v1", "claude-sonnet-4", false}, // a strict server rejects unknown fields
		{"http://localhost:4000/v1", "anthropic/claude-sonnet-4", false},
		{"https://openrouter.ai.evil.example/v1", "anthropic/claude-sonnet-4", false},
		{"::bad", "anthropic/claude-sonnet-4", false},
	} {
		if got := provider.WantsCacheControl(tt.base, tt.model); got != tt.want {
			t.Errorf("WantsCacheControl(%q, %q) = %v, want %v", tt.base, tt.model, got, tt.want)
		}
	}
}

// With CacheControl the request carries the top-level breakpoint and one on
// the system prompt's text, which becomes a text part; everything else is
// sent as before, and the reply streams as usual. Without it nothing changes.
func TestCacheControlMarksTheRequest(t *testing.T) {
	for _, on := range []bool{true, false} {
		srv := providertest.New(providertest.Reply{Status: 500}, providertest.Reply{Content: []string{"cached"}})
		c := newClient(t, srv.URL, func(cfg *provider.Config) { cfg.CacheControl = on })
		resp, err := c.Stream(context.Background(), provider.Request{Messages: []chat.Message{
			chat.System("You are Vis."), chat.System("```python\nsession = {}\n```"), chat.User("hi"),
		}}, nil)
		srv.Close()
		if err != nil || resp.Content != "cached" {
			t.Fatalf("on=%v: %+v %v", on, resp, err)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 {
			t.Fatalf("on=%v: %d requests, want the 500 and its retry", on, len(reqs))
		}
		for i, r := range reqs {
			cc, has := r.Body["cache_control"]
			if has != on {
				t.Fatalf("on=%v request %d: cache_control present = %v", on, i, has)
			}
			first, last := r.Messages[0], r.Messages[1]
			if !on {
				if last["content"] != "```python\nsession = {}\n```" {
					t.Errorf("off: system content changed: %v", last["content"])
				}
				continue
			}
			if d := cmp.Diff(map[string]any{"type": "ephemeral"}, cc); d != "" {
				t.Errorf("top-level cache_control (-want +got):\n%s", d)
			}
			if first["content"] != "You are Vis." || r.Messages[2]["content"] != "hi" {
				t.Errorf("other messages changed: %v", r.Messages)
			}
			want := []any{map[string]any{"type": "text", "text": "```python\nsession = {}\n```", "cache_control": map[string]any{"type": "ephemeral"}}}
			if d := cmp.Diff(want, last["content"]); d != "" {
				t.Errorf("last system message (-want +got):\n%s", d)
			}
		}
	}
}
