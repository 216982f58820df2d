package sandbox

import (
	"context"
	"time"

	"github.com/visdesktop/vis/backend/sandbox/hostfn"
)

// The host-function types live in the leaf package hostfn, which tool
// packages import instead of this one. These names keep code written
// against sandbox.X compiling while issue 20 moves it over.

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.Builtin.
type Builtin = hostfn.Builtin

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.Param.
type Param = hostfn.Param

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.ToolError.
type ToolError = hostfn.ToolError

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.Namespace.
type Namespace = hostfn.Namespace

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.Grant.
type Grant = hostfn.Grant

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.VarArgs.
const VarArgs = hostfn.VarArgs

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.ExtendDeadline.
func ExtendDeadline(ctx context.Context, want time.Duration) Grant {
	return hostfn.ExtendDeadline(ctx, want)
}

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.RefusedBySandbox.
func RefusedBySandbox(ctx context.Context, why string) { hostfn.RefusedBySandbox(ctx, why) }

// Deprecated: transition alias, removed at the end of issue 20; use hostfn.AskedPerson.
func AskedPerson(ctx context.Context, answer string) { hostfn.AskedPerson(ctx, answer) }
