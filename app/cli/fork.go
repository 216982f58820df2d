package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/visdesktop/vis/backend"
)

// `vis fork`: a new session holding copies of a session's first turns
// (backend.Fork), to try another instruction from there; the original is
// unchanged. `vis run --session NEW ...` continues the fork.

const forkUsage = `  vis fork [--workspace DIR] [--session ID | --continue] --turn N [--json]
                           a new session with copies of turns 1..N of the session (0: none), the
                           original unchanged; prints the new session's id (continue it with
                           vis run --session ID); it starts with a fresh sandbox and no REPLs, and
                           the files stay as they are now
`

func cmdFork(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("fork", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() { fmt.Fprint(env.Stderr, "Usage:\n"+forkUsage) }
	workspace := fs.String("workspace", "", "project folder (default: current directory)")
	session := fs.String("session", "", "the session to fork")
	cont := fs.Bool("continue", false, "the workspace's most recent session (the default)")
	turn := fs.Int("turn", -1, "keep turns 1..N")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if *turn < 0 {
		fmt.Fprintln(env.Stderr, "fork: --turn N is required: the new session keeps turns 1..N (0: none)")
		return ExitUsage
	}
	none := 0 // --turn means something else here: checked above
	eng, sid, code := turnFlags{workspace: workspace, session: session, cont: cont, asJSON: asJSON, turn: &none}.open(ctx, env, "fork", fs.Args())
	if eng == nil {
		return code
	}
	defer eng.Close()
	info, err := eng.Fork(ctx, sid, *turn)
	if err != nil {
		if errors.Is(err, backend.ErrNotFound) {
			fmt.Fprintf(env.Stderr, "fork: no session %s\n", sid)
		} else {
			fmt.Fprintln(env.Stderr, "fork:", err)
		}
		return ExitError
	}
	if *asJSON {
		b, _ := json.Marshal(info)
		fmt.Fprintln(env.Stdout, string(b))
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, info.ID)
	return ExitOK
}
