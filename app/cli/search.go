package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/visdesktop/vis/backend"
)

// searchLimit is the most hits `vis sessions --search` prints (the
// window's search shows as many).
const searchLimit = 50

// printSearch prints the turns, in every workspace unless one is given,
// whose request or answer match query: the window's search
// (Engine.Search over the store's full-text index). A hit's snippet marks
// the matches with « ». Plain text is one line a hit; --json is the list.
func printSearch(ctx context.Context, eng *backend.Engine, env Env, query, workspace string, asJSON bool) int {
	hits, err := eng.Search(ctx, query, searchLimit)
	if err != nil {
		fmt.Fprintln(env.Stderr, "vis sessions --search:", err)
		return ExitError
	}
	if workspace != "" {
		if abs, err := filepath.Abs(workspace); err == nil {
			workspace = abs
		}
		kept := hits[:0]
		for _, h := range hits {
			if h.Workspace == workspace {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	if asJSON {
		if hits == nil {
			hits = []backend.SearchHit{}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(hits)
		return ExitOK
	}
	if len(hits) == 0 {
		fmt.Fprintf(env.Stderr, "vis sessions --search: no turn matches %q\n", query)
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTURN\tWORKSPACE\tTITLE\tMATCH")
	for _, h := range hits {
		snippet := strings.Join(strings.Fields(h.Snippet), " ")
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", h.SessionID, h.Turn, termSafe(h.Workspace), termSafe(h.Title), termSafe(snippet))
	}
	tw.Flush()
	return ExitOK
}
