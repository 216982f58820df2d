package provider

import (
	"bytes"
	"encoding/json"
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/visdesktop/vis/backend/chat"
)

// The request body, built from each message's JSON computed once.
//
// A turn sends its history again with every request, and the history only
// grows (request k is a byte-exact prefix of request k+1): marshalling all
// of it for every request made the JSON encoder the largest cost of a long
// turn. The body is therefore assembled here: each message is converted to
// go-openai's ChatCompletionMessage and marshalled by encoding/json exactly
// as go-openai would marshal it inside the request (so the bytes are the
// same), kept in the turn's MessageCache, and the request's own fields are
// marshalled by encoding/json around an empty "messages" array that the
// cached messages are spliced into. go-openai still sends the request (its
// headers, errors and stream reader); the doer hands the transport this
// body in place of the one go-openai marshalled from a request whose
// messages were left empty (attempt.body).

// MessageCache keeps the wire JSON of a conversation's messages between
// requests. Entry i is reused while message i is the same message (same
// role, text, parts, tool calls and id; comparing strings that share their
// bytes costs nothing); a message that changed (a fold or a compaction
// rewrote it) is marshalled again. The zero value is ready; a nil cache
// marshals every message. Not safe for concurrent use: one conversation
// (a turn) owns it.
type MessageCache struct {
	entries []wireEntry
}

type wireEntry struct {
	msg  chat.Message
	json []byte
}

// Len reports how many messages the cache holds (for tests and figures).
func (mc *MessageCache) Len() int {
	if mc == nil {
		return 0
	}
	return len(mc.entries)
}

// sameMessage reports whether a and b go out as the same wire message
// (Reasoning is never sent).
func sameMessage(a, b *chat.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID ||
		len(a.Parts) != len(b.Parts) || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.Parts {
		if a.Parts[i] != b.Parts[i] {
			return false
		}
	}
	for i := range a.ToolCalls {
		if a.ToolCalls[i] != b.ToolCalls[i] {
			return false
		}
	}
	return true
}

// encode returns message i's wire JSON, from the cache when message i is
// unchanged.
func (mc *MessageCache) encode(i int, m *chat.Message, c *Client) ([]byte, *Error) {
	if mc != nil && i < len(mc.entries) && sameMessage(&mc.entries[i].msg, m) {
		return mc.entries[i].json, nil
	}
	om, err := c.wireMessage(i, m)
	if err != nil {
		return nil, err
	}
	b, merr := json.Marshal(om)
	if merr != nil {
		return nil, c.badRequest("message %d: %v", i, merr)
	}
	if mc != nil {
		e := wireEntry{msg: *m, json: b}
		// The entry keeps its own copies of the slices: a caller that
		// rewrites a message's parts or calls in place must not leave a
		// stale entry that still compares equal.
		e.msg.Parts = append([]chat.Part(nil), m.Parts...)
		e.msg.ToolCalls = append([]chat.ToolCall(nil), m.ToolCalls...)
		if i < len(mc.entries) {
			mc.entries[i] = e
		} else {
			mc.entries = append(mc.entries, e)
		}
	}
	return b, nil
}

func (c *Client) badRequest(format string, args ...any) *Error {
	return &Error{Kind: KindBadRequest, Endpoint: c.cfg.BaseURL, Model: c.cfg.Model,
		Message: fmt.Sprintf(format, args...)}
}

// wireMessage maps message i onto go-openai's message.
func (c *Client) wireMessage(i int, m *chat.Message) (openai.ChatCompletionMessage, *Error) {
	om := openai.ChatCompletionMessage{Role: m.Role}
	switch m.Role {
	case chat.RoleSystem:
		om.Content = m.Content
	case chat.RoleUser:
		if len(m.Parts) == 0 {
			om.Content = m.Content
			break
		}
		for j, p := range m.Parts {
			switch p.Type {
			case "text":
				om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{
					Type: openai.ChatMessagePartTypeText, Text: p.Text})
			case "image_url":
				om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{
					Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: p.ImageURL}})
			default:
				return om, c.badRequest("message %d part %d: unknown part type %q", i, j, p.Type)
			}
		}
	case chat.RoleAssistant:
		om.Content = m.Content
		for _, tc := range m.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{
				ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments},
			})
		}
	case chat.RoleTool:
		if m.ToolCallID == "" {
			return om, c.badRequest("message %d: tool result without tool_call_id", i)
		}
		om.ToolCallID = m.ToolCallID
		om.Content = m.Content
		if om.Content == "" {
			// go-openai omits empty content and OpenAI rejects a tool
			// message without it.
			om.Content = "(no output)"
		}
	default:
		return om, c.badRequest("message %d: unknown role %q", i, m.Role)
	}
	return om, nil
}

// requestBody marshals creq (whose Messages must be empty) with msgs, the
// messages' wire JSON, as its "messages": the bytes json.Marshal gives for
// creq carrying those messages.
func requestBody(creq openai.ChatCompletionRequest, msgs [][]byte) ([]byte, error) {
	creq.Messages = []openai.ChatCompletionMessage{}
	shell, err := json.Marshal(creq)
	if err != nil {
		return nil, err
	}
	// "model" is the struct's first field and "messages" its second: the
	// shell starts {"model":<model>,"messages":[].
	model, err := json.Marshal(creq.Model)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 0, len(model)+24)
	head = append(append(append(head, `{"model":`...), model...), `,"messages":[`...)
	if !bytes.HasPrefix(shell, head) || len(shell) <= len(head) || shell[len(head)] != ']' {
		return nil, fmt.Errorf("unexpected request shape %.80q", shell)
	}
	n := len(shell) + len(msgs)
	for _, m := range msgs {
		n += len(m)
	}
	body := make([]byte, 0, n)
	body = append(body, head...)
	for i, m := range msgs {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, m...)
	}
	return append(body, shell[len(head):]...), nil
}

// WireMessages returns msgs as a request body carries them: the JSON of its
// "messages" array, byte for byte (for checks of what was sent, such as the
// prompt inspector's).
func (c *Client) WireMessages(msgs []chat.Message) ([]byte, error) {
	out := []byte{'['}
	for i := range msgs {
		b, err := (*MessageCache)(nil).encode(i, &msgs[i], c)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, ']'), nil
}
