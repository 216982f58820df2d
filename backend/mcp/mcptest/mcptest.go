// Package mcptest is a small MCP server for the test suite, built on the
// official SDK: add(a, b) with an input schema, describe(name) returning
// structured content, fail() returning isError, hang() blocking until the
// call is cancelled, image() returning an image part and two texts. Every
// call is appended to the call log (one line "name {json arguments}")
// before it runs, so a test can prove a refused call never reached it.
// The stdio binary is ./server; tests serve the same tools over
// Streamable HTTP with the SDK's handler.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PNG is the image image() returns: a real 2×2 PNG (red, green, blue,
// white), so it passes the engine's image intake.
var PNG = func() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	img.Set(1, 0, color.NRGBA{0, 255, 0, 255})
	img.Set(0, 1, color.NRGBA{0, 0, 255, 255})
	img.Set(1, 1, color.NRGBA{255, 255, 255, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// CallLog records calls (safe for concurrent use); Path, when set, gets
// every line appended too.
type CallLog struct {
	Path  string
	mu    sync.Mutex
	lines []string
}

func (l *CallLog) add(name string, args json.RawMessage) {
	line := name + " " + string(args)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	if l.Path != "" {
		if f, err := os.OpenFile(l.Path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintln(f, line)
			f.Close()
		}
	}
}

// Lines returns the calls so far.
func (l *CallLog) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// New returns the test server; calls go to log.
func New(log *CallLog) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, nil)
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	s.AddTool(&mcp.Tool{
		Name:        "add",
		Description: "Add two integers.\nReturns their sum as text.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"a": map[string]any{"type": "integer", "description": "the first addend"},
				"b": map[string]any{"type": "integer", "description": "the second addend"},
			},
			"required":             []any{"a", "b"},
			"additionalProperties": false,
		},
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		log.add("add", req.Params.Arguments)
		var in struct{ A, B int64 }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return &mcp.CallToolResult{IsError: true, Content: text("bad arguments: " + err.Error())}, nil
		}
		return &mcp.CallToolResult{Content: text(fmt.Sprint(in.A + in.B))}, nil
	})
	s.AddTool(&mcp.Tool{
		Name:        "describe",
		Description: "Describe a thing as structured content.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":  map[string]any{"type": "string"},
				"color": map[string]any{"type": "string", "enum": []any{"red", "green"}},
			},
			"required": []any{"name"},
		},
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		log.add("describe", req.Params.Arguments)
		var in struct{ Name, Color string }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		out := map[string]any{"name": in.Name, "length": len(in.Name), "tags": []any{"a", "b"}, "ratio": 0.5, "nested": map[string]any{"ok": true}}
		if in.Color != "" {
			out["color"] = in.Color
		}
		raw, _ := json.Marshal(out)
		return &mcp.CallToolResult{Content: text(string(raw)), StructuredContent: out}, nil
	})
	s.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails.", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			log.add("fail", req.Params.Arguments)
			return &mcp.CallToolResult{IsError: true, Content: text("the widget is broken")}, nil
		})
	s.AddTool(&mcp.Tool{Name: "hang", Description: "Blocks until cancelled.", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			log.add("hang", req.Params.Arguments)
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "image", Description: "Returns two texts and an image.", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			log.add("image", req.Params.Arguments)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "one"}, &mcp.ImageContent{MIMEType: "image/png", Data: PNG}, &mcp.TextContent{Text: "two"}}}, nil
		})
	return s
}
