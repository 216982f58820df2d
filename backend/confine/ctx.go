package confine

import (
	"context"
	"os"
)

type ctxKey struct{}

// With returns ctx carrying p: the children started under it (the shell
// tool, the packs' processes and REPLs) run confined by p.
func With(ctx context.Context, p Policy) context.Context {
	return context.WithValue(ctx, ctxKey{}, p)
}

// From returns ctx's policy, if any.
func From(ctx context.Context) (Policy, bool) {
	p, ok := ctx.Value(ctxKey{}).(Policy)
	return p, ok
}

// CommandCtx is argv wrapped by ctx's policy; argv itself when ctx has
// none (a person's own !cmd, tests, the CLI's tools).
func CommandCtx(ctx context.Context, argv []string) ([]string, error) {
	p, ok := From(ctx)
	if !ok {
		return argv, nil
	}
	return p.Command(argv)
}

// TempDir is where a tool makes files a confined child must write (a
// test runner's report): the policy's TempDir, created, when ctx has a
// policy that names one; else "" (os.MkdirTemp's default).
func TempDir(ctx context.Context) string {
	p, ok := From(ctx)
	if !ok || p.TempDir == "" || p.Mode == Full {
		return ""
	}
	if err := os.MkdirAll(p.TempDir, 0o700); err != nil {
		return ""
	}
	return p.TempDir
}
