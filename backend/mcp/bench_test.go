package mcp_test

import (
	"context"
	"testing"
	"time"

	"github.com/visdesktop/vis/backend/mcp"
)

// BenchmarkCall: one mcp.<server>.add(a=, b=) from a Starlark block, the
// server already up (schema check, JSON-RPC round trip, result
// conversion), over stdio and over Streamable HTTP on loopback.
func BenchmarkCall(b *testing.B) {
	f := newFixture(b)
	for _, srv := range []string{"test_srv", "web"} {
		b.Run(srv, func(b *testing.B) {
			code := "mcp." + srv + ".add(a=1, b=2)"
			if r := f.run(b, code, time.Minute); r.Err != nil {
				b.Fatal(r.Err.Message)
			}
			b.ResetTimer()
			for range b.N {
				if r := f.run(b, code, time.Minute); r.Err != nil {
					b.Fatal(r.Err.Message)
				}
			}
		})
	}
}

// BenchmarkStart: starting the stdio server, the handshake and listing
// its tools (what the first call of a session pays).
func BenchmarkStart(b *testing.B) {
	bin := testServer(b)
	for range b.N {
		s := mcp.NewServer(mcp.Config{Name: "s", Command: bin}, b.TempDir())
		if _, err := s.Tools(context.Background()); err != nil {
			b.Fatal(err)
		}
		_ = s.Stop(context.Background())
	}
}
