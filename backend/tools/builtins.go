package tools

import (
	"context"
	"errors"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// Builtins returns the tools bound for the Starlark sandbox: ls, cat, grep,
// glob, write, patch and shell, in that order. A tool failure meant for the
// model comes back as *hostfn.ToolError (message and hint); cancellation
// comes back as an error wrapping ctx.Err().
func (s *Set) Builtins() []hostfn.Builtin {
	bs := s.bindings()
	out := make([]hostfn.Builtin, 0, len(bs))
	for _, b := range bs {
		params := make([]hostfn.Param, len(b.params))
		for i, p := range b.params {
			params[i] = hostfn.Param{Name: p.name, Required: p.required}
		}
		fn := b.fn
		out = append(out, hostfn.Builtin{
			Name:   b.name,
			Doc:    b.doc,
			Params: params,
			Fn: func(ctx context.Context, args map[string]any) (any, error) {
				v, err := fn(ctx, args)
				if err != nil {
					return nil, toToolError(err)
				}
				return v, nil
			},
		})
	}
	return out
}

// toToolError converts an *Error into the sandbox's ToolError and leaves
// other errors (cancellation) as they are.
func toToolError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return &hostfn.ToolError{Message: e.Message, Hint: e.Hint}
	}
	return err
}
