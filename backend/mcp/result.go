package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// toPlain turns a decoded JSON value (or anything JSON-marshalable) into
// the sandbox's plain kinds: nil, bool, int64 (a JSON number with no
// fraction that fits), float64, string, []any, map[string]any.
func toPlain(v any) any {
	if v == nil {
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return string(raw)
	}
	return numbers(out)
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
		return x
	}
	return v
}

// Image is an image a tool returned, handed to the Set's OnImage (the
// engine attaches it to the conversation like the person's images).
type Image struct {
	MIME string
	Data []byte
	From string // the function: mcp.<server>.<tool>
}

// Value is what a program gets from a tool's result: the structured
// content when there is one (as dicts, lists and scalars), else the text
// parts (one string, or a list of strings when several). An image part is
// handed to onImage, whose sentence (attached or why not) becomes the
// part's note string; without onImage the note says it is not shown. An
// audio part becomes a note string (its type and size), a resource link or
// an embedded resource a dict with its uri (and text when it has some). No
// content is None. A result with isError is a *hostfn.ToolError carrying
// the server's message.
func Value(fn string, res *sdk.CallToolResult) (any, error) { return ValueWith(fn, res, nil) }

// ValueWith is Value with images handed to onImage.
func ValueWith(fn string, res *sdk.CallToolResult, onImage func(Image) string) (any, error) {
	if res.IsError {
		msg := strings.TrimSpace(strings.Join(texts(res.Content), "\n"))
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		return nil, &hostfn.ToolError{Message: fn + ": " + msg, Hint: fmt.Sprintf("the MCP server answered with an error; doc(%q) shows the parameters", docName(fn))}
	}
	if res.StructuredContent != nil {
		return toPlain(res.StructuredContent), nil
	}
	var parts []any
	for _, c := range res.Content {
		switch x := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, x.Text)
		case *sdk.ImageContent:
			what := "not shown (images are not attached here)"
			if onImage != nil {
				what = onImage(Image{MIME: x.MIMEType, Data: x.Data, From: fn})
			}
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes, from %s: %s]", x.MIMEType, len(x.Data), fn, what))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes, from %s: not shown]", x.MIMEType, len(x.Data), fn))
		case *sdk.ResourceLink:
			parts = append(parts, map[string]any{"type": "resource_link", "uri": x.URI, "name": x.Name, "mime_type": x.MIMEType, "description": x.Description})
		case *sdk.EmbeddedResource:
			m := map[string]any{"type": "resource"}
			if x.Resource != nil {
				m["uri"], m["mime_type"] = x.Resource.URI, x.Resource.MIMEType
				if x.Resource.Text != "" {
					m["text"] = x.Resource.Text
				}
				if len(x.Resource.Blob) > 0 {
					m["bytes"] = int64(len(x.Resource.Blob))
				}
			}
			parts = append(parts, m)
		default:
			parts = append(parts, fmt.Sprintf("[%T content: not shown]", c))
		}
	}
	switch len(parts) {
	case 0:
		return nil, nil
	case 1:
		return parts[0], nil
	}
	return parts, nil
}

func texts(cs []sdk.Content) []string {
	var out []string
	for _, c := range cs {
		if t, ok := c.(*sdk.TextContent); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// docName is "mcp.<server>" of "mcp.<server>.<tool>".
func docName(fn string) string {
	if i := strings.LastIndexByte(fn, '.'); i > 0 {
		return fn[:i]
	}
	return fn
}
