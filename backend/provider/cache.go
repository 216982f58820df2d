package provider

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Prompt caching. OpenAI, DeepSeek and Gemini cache a repeated prompt
// prefix by themselves; Anthropic's models cache only what the request
// marks. Through OpenRouter a request marks it with `cache_control`: at the
// top level (OpenRouter puts the breakpoint on the last cacheable block, so
// each request's whole prefix is written for the next one) and on the last
// system message's text (the system prompt, shared by every turn). The loop
// keeps each request a byte-exact prefix of the next, which is what makes
// the cache hit. Only for OpenRouter: a strict OpenAI-compatible server
// rejects fields it does not know.

// WantsCacheControl reports whether requests to baseURL for model should
// carry cache_control breakpoints: an Anthropic model behind OpenRouter.
func WantsCacheControl(baseURL, model string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host != "openrouter.ai" && !strings.HasSuffix(host, ".openrouter.ai") {
		return false
	}
	m := strings.ToLower(model)
	return strings.HasPrefix(m, "anthropic/") || strings.Contains(m, "claude")
}

var ephemeral = map[string]any{"type": "ephemeral"}

// withCacheControl rewrites a chat-completions JSON body with the
// breakpoints; a body it cannot read is returned unchanged.
func withCacheControl(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var req map[string]any
	if dec.Decode(&req) != nil {
		return body
	}
	msgs, _ := req["messages"].([]any)
	last := -1
	for i, m := range msgs {
		if mm, _ := m.(map[string]any); mm != nil && mm["role"] == "system" {
			last = i
		}
	}
	if last >= 0 {
		m := msgs[last].(map[string]any)
		switch c := m["content"].(type) {
		case string:
			m["content"] = []any{map[string]any{"type": "text", "text": c, "cache_control": ephemeral}}
		case []any:
			for i := len(c) - 1; i >= 0; i-- {
				if p, _ := c[i].(map[string]any); p != nil && p["type"] == "text" {
					p["cache_control"] = ephemeral
					break
				}
			}
		}
	}
	req["cache_control"] = ephemeral
	out, err := json.Marshal(req)
	if err != nil {
		return body
	}
	return out
}

// markCache applies withCacheControl to a request's body.
func markCache(req *http.Request) {
	if req.Body == nil || req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions") {
		return
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		req.Body = io.NopCloser(bytes.NewReader(nil))
		return
	}
	body = withCacheControl(body)
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
}
