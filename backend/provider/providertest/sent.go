package providertest

import (
	"fmt"

	"github.com/visdesktop/vis/backend/chat"
)

// Sent is one message reduced to what a provider receives of it, so a
// recorded wire message and a chat.Message (the engine's, or the store's)
// compare field by field: role, content or parts, tool call id, calls.
type Sent struct {
	Role, Content, ToolCallID string
	Parts, Calls              []string
}

// SentFromWire reduces one recorded wire message (Recorded.Messages).
func SentFromWire(m map[string]any) Sent {
	w := Sent{Role: fmt.Sprint(m["role"])}
	switch c := m["content"].(type) {
	case string:
		w.Content = c
	case []any:
		for _, p := range c {
			pm, _ := p.(map[string]any)
			if iu, ok := pm["image_url"].(map[string]any); ok {
				w.Parts = append(w.Parts, "image:"+fmt.Sprint(iu["url"]))
			} else {
				w.Parts = append(w.Parts, "text:"+fmt.Sprint(pm["text"]))
			}
		}
	}
	if id, ok := m["tool_call_id"].(string); ok {
		w.ToolCallID = id
	}
	calls, _ := m["tool_calls"].([]any)
	for _, c := range calls {
		cm, _ := c.(map[string]any)
		f, _ := cm["function"].(map[string]any)
		w.Calls = append(w.Calls, fmt.Sprintf("%v|%v|%v", cm["id"], f["name"], f["arguments"]))
	}
	return w
}

// SentFromChat reduces a chat.Message as the provider client would send it
// (an empty tool result goes out as "(no output)").
func SentFromChat(m chat.Message) Sent {
	w := Sent{Role: m.Role, ToolCallID: m.ToolCallID}
	if len(m.Parts) > 0 {
		for _, p := range m.Parts {
			if p.Type == "image_url" {
				w.Parts = append(w.Parts, "image:"+p.ImageURL)
			} else {
				w.Parts = append(w.Parts, "text:"+p.Text)
			}
		}
	} else {
		w.Content = m.Content
		if m.Role == chat.RoleTool && w.Content == "" {
			w.Content = "(no output)"
		}
	}
	for _, c := range m.ToolCalls {
		w.Calls = append(w.Calls, fmt.Sprintf("%s|%s|%s", c.ID, c.Name, c.Arguments))
	}
	return w
}
