// Command server is mcptest's server over stdio: it writes "mcptest
// ready" and its environment's MCPTEST_* variables to stderr, appends
// calls to $MCPTEST_CALLLOG, and serves until stdin closes.
package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/visdesktop/vis/backend/mcp/mcptest"
)

func main() {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MCPTEST_") {
			env = append(env, kv)
		}
	}
	sort.Strings(env)
	fmt.Fprintf(os.Stderr, "mcptest ready pid=%d %s\n", os.Getpid(), strings.Join(env, " "))
	s := mcptest.New(&mcptest.CallLog{Path: os.Getenv("MCPTEST_CALLLOG")})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
		os.Exit(1)
	}
}
