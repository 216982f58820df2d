// Package chat holds the leaf value types shared by the provider, the prompt
// assembler and the loop: messages in OpenAI chat shape, tool calls and usage.
// It has no behaviour beyond small constructors and imports nothing of ours.
package chat

// Roles of a chat message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one provider message. Content carries plain text; when Parts is
// non-empty the message is multimodal and Content is ignored on the wire
// (image parts first, the text part last, as seed 000 requires).
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	Parts      []Part     `json:"parts,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Reasoning is the model's native thinking for an assistant message. It is
	// kept for the transcript; providers that do not accept it back drop it.
	Reasoning string `json:"reasoning,omitempty"`
}

// Part is one block of a multimodal user message.
type Part struct {
	Type     string `json:"type"` // "text" or "image_url"
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"` // data:<mime>;base64,...
}

// ToolCall is one function call requested by the model. Arguments is the raw
// JSON text as the model produced it.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage counts tokens of one request, or a sum of several.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CachedTokens    int `json:"cached_tokens,omitempty"`
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// Add returns u + o.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:     u.InputTokens + o.InputTokens,
		OutputTokens:    u.OutputTokens + o.OutputTokens,
		CachedTokens:    u.CachedTokens + o.CachedTokens,
		ReasoningTokens: u.ReasoningTokens + o.ReasoningTokens,
	}
}

// System returns a system message.
func System(text string) Message { return Message{Role: RoleSystem, Content: text} }

// User returns a text user message.
func User(text string) Message { return Message{Role: RoleUser, Content: text} }

// Text returns the message's text: Content, or the joined text parts.
func (m Message) Text() string {
	if len(m.Parts) == 0 {
		return m.Content
	}
	s := ""
	for _, p := range m.Parts {
		if p.Type == "text" {
			if s != "" {
				s += "\n"
			}
			s += p.Text
		}
	}
	return s
}
