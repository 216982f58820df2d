package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/visdesktop/vis/backend"
	"github.com/visdesktop/vis/backend/store"
)

// `vis diff` and `vis undo`: a turn's checkpoint diff, and putting the
// files back as they were before it (issue 18).

const diffUsage = `  vis diff [--workspace DIR] [--session ID | --continue] [--turn N | --all] [--stat] [--raw] [--json]
                           print what a turn changed in the workspace's files as a unified diff
                           (default: the latest turn that changed files of the workspace's latest
                           session); --stat prints one line per file; --all: every file the
                           session's turns changed, with those turns and the net change (the net
                           diff of each file, or with --stat one line per file)
  vis undo [--workspace DIR] [--session ID | --continue] [--turn N] [--force | --rest] [--json]
                           put the files a turn changed back as they were before it (recorded as a
                           turn of its own: undo that turn to redo); refuses with exit 1 and the
                           files changed since the turn unless --force (overwrite them) or --rest
                           (leave them, undo the others)
`

// turnFlags are the flags vis diff and vis undo share.
type turnFlags struct {
	workspace, session *string
	cont, asJSON       *bool
	turn               *int
}

func addTurnFlags(fs *flag.FlagSet) turnFlags {
	return turnFlags{
		workspace: fs.String("workspace", "", "project folder (default: current directory)"),
		session:   fs.String("session", "", "the session"),
		cont:      fs.Bool("continue", false, "the workspace's most recent session (the default)"),
		turn:      fs.Int("turn", 0, "the turn's number (default: the latest turn that changed files)"),
		asJSON:    fs.Bool("json", false, "print JSON"),
	}
}

// open parses the shared flags' meaning: the engine and the session.
func (tf turnFlags) open(ctx context.Context, env Env, cmd string, pos []string) (*backend.Engine, string, int) {
	if len(pos) > 0 {
		fmt.Fprintf(env.Stderr, "%s: unexpected %q\n", cmd, strings.Join(pos, " "))
		return nil, "", ExitUsage
	}
	if *tf.session != "" && *tf.cont {
		fmt.Fprintf(env.Stderr, "%s: --session and --continue exclude each other\n", cmd)
		return nil, "", ExitUsage
	}
	if *tf.turn < 0 {
		fmt.Fprintf(env.Stderr, "%s: --turn must be a turn's number (1 or more)\n", cmd)
		return nil, "", ExitUsage
	}
	ws, ok := workspaceArg(env, cmd, *tf.workspace)
	if !ok {
		return nil, "", ExitUsage
	}
	eng, code := openEngine(ctx, env, runOpts{})
	if eng == nil {
		return nil, "", code
	}
	sid := *tf.session
	if sid == "" {
		if sid, code = latestSession(ctx, eng, env, cmd, ws); sid == "" {
			eng.Close()
			return nil, "", code
		}
	}
	return eng, sid, ExitOK
}

// turnErr prints a failure of vis diff/undo and returns its exit code.
func turnErr(env Env, cmd string, err error) int {
	fmt.Fprintf(env.Stderr, "%s: %v\n", cmd, err)
	if errors.Is(err, store.ErrNotFound) {
		return ExitUsage
	}
	return ExitError
}

func cmdDiff(ctx context.Context, args []string, env Env) int {
	fs := newFlags("diff", env)
	tf := addTurnFlags(fs)
	stat := fs.Bool("stat", false, "one line per file: status, path, +added -deleted")
	raw := fs.Bool("raw", false, "print file contents' terminal control sequences as they are")
	all := fs.Bool("all", false, "every file the session changed: its turns and net change")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return ExitUsage
	}
	if *all && *tf.turn != 0 {
		fmt.Fprintln(env.Stderr, "vis diff: --all and --turn exclude each other")
		return ExitUsage
	}
	eng, sid, code := tf.open(ctx, env, "vis diff", pos)
	if eng == nil {
		return code
	}
	defer eng.Close()
	if *all {
		return diffAll(ctx, env, eng, sid, *stat, *tf.asJSON, *raw)
	}
	d, err := eng.TurnDiff(ctx, sid, *tf.turn, !*stat)
	if err != nil {
		return turnErr(env, "vis diff", err)
	}
	if *tf.asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(d); err != nil {
			return ExitError
		}
		return ExitOK
	}
	var out io.Writer = env.Stdout
	if !*raw {
		out = safeWriter{env.Stdout}
	}
	printDiff(out, d, *stat)
	return ExitOK
}

// printDiff writes a turn's diff: a header line, then per file its stat
// line (--stat) or its unified diff.
func printDiff(w io.Writer, d backend.TurnDiff, stat bool) {
	fmt.Fprintf(w, "Turn %d: %s\n", d.Turn, figures(len(d.Files), d.Added, d.Deleted))
	if d.UndoOf != 0 {
		fmt.Fprintf(w, "(it undid turn %d)\n", d.UndoOf)
	}
	if d.UndoneBy != 0 {
		fmt.Fprintf(w, "(undone by turn %d)\n", d.UndoneBy)
	}
	for _, f := range d.Files {
		name := f.Path
		if f.OldPath != "" {
			name = f.OldPath + " → " + f.Path
		}
		if stat || f.Patch == "" {
			line := fmt.Sprintf("%-9s %s", f.Status, name)
			switch {
			case f.TooLarge:
				line += fmt.Sprintf("  (too large to keep: %d bytes)", f.Size)
			case f.Binary:
				line += "  (binary)"
			default:
				line += fmt.Sprintf("  +%d -%d", f.Added, f.Deleted)
			}
			if f.OldMode != "" || f.NewMode != "" {
				line += fmt.Sprintf("  mode %s → %s", orNone(f.OldMode), orNone(f.NewMode))
			}
			fmt.Fprintln(w, line)
			continue
		}
		fmt.Fprint(w, f.Patch)
		if !strings.HasSuffix(f.Patch, "\n") {
			fmt.Fprintln(w)
		}
		if f.PatchClipped {
			fmt.Fprintf(w, "… (the diff of %s is clipped)\n", f.Path)
		}
	}
}

func figures(files, added, deleted int) string {
	s := "s"
	if files == 1 {
		s = ""
	}
	return fmt.Sprintf("%d file%s changed +%d -%d", files, s, added, deleted)
}

func orNone(m string) string {
	if m == "" {
		return "-"
	}
	return m
}

func cmdUndo(ctx context.Context, args []string, env Env) int {
	fs := newFlags("undo", env)
	tf := addTurnFlags(fs)
	force := fs.Bool("force", false, "also restore files changed since the turn (their later changes are lost, but kept in the undo's checkpoint)")
	rest := fs.Bool("rest", false, "leave files changed since the turn as they are and restore the others")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return ExitUsage
	}
	if *force && *rest {
		fmt.Fprintln(env.Stderr, "vis undo: --force and --rest exclude each other")
		return ExitUsage
	}
	eng, sid, code := tf.open(ctx, env, "vis undo", pos)
	if eng == nil {
		return code
	}
	defer eng.Close()
	mode := backend.UndoRefuse
	switch {
	case *force:
		mode = backend.UndoOverwrite
	case *rest:
		mode = backend.UndoRest
	}
	u, err := eng.UndoTurn(ctx, sid, *tf.turn, mode)
	var ce *backend.ConflictError
	if errors.As(err, &ce) {
		if *tf.asJSON {
			_ = json.NewEncoder(env.Stdout).Encode(map[string]any{"error": "conflict", "conflicts": ce.Files})
		}
		fmt.Fprintln(env.Stderr, "vis undo: nothing was undone: these files changed since the turn:")
		for _, f := range ce.Files {
			fmt.Fprintln(env.Stderr, "  "+termSafe(f))
		}
		fmt.Fprintln(env.Stderr, "use --force to overwrite them, or --rest to undo the other files")
		return ExitError
	}
	if err != nil {
		return turnErr(env, "vis undo", err)
	}
	if *tf.asJSON {
		if err := json.NewEncoder(env.Stdout).Encode(u); err != nil {
			return ExitError
		}
		return ExitOK
	}
	w := safeWriter{env.Stdout}
	fmt.Fprintf(w, "Undid turn %d as turn %d (undo turn %d to redo it).\n", u.Turn, u.UndoTurn, u.UndoTurn)
	for _, p := range u.Restored {
		fmt.Fprintln(w, "restored  "+p)
	}
	for _, p := range u.Removed {
		fmt.Fprintln(w, "removed   "+p)
	}
	for _, p := range u.Skipped {
		fmt.Fprintln(w, "left      "+p+"  (changed since the turn)")
	}
	for _, p := range u.NotRestored {
		fmt.Fprintln(w, "not restored "+p+"  (too large to have been kept)")
	}
	return ExitOK
}

// diffAll prints every file the session's turns changed: a header, then
// per file its net status, figures and turns (--stat), or those and its net
// diff.
func diffAll(ctx context.Context, env Env, eng *backend.Engine, sid string, stat, asJSON, raw bool) int {
	sc, err := eng.SessionChanges(ctx, sid)
	if err != nil {
		return turnErr(env, "vis diff", err)
	}
	if asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sc); err != nil {
			return ExitError
		}
		return ExitOK
	}
	var w io.Writer = env.Stdout
	if !raw {
		w = safeWriter{env.Stdout}
	}
	if len(sc.Files) == 0 {
		fmt.Fprintf(w, "Session %s: no turn has changed files\n", sid)
		return ExitOK
	}
	plural := "s"
	if len(sc.Files) == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "Session %s, turns %d-%d: %d file%s touched, net +%d -%d\n", sid, sc.From, sc.To, len(sc.Files), plural, sc.Added, sc.Deleted)
	for _, f := range sc.Files {
		name := f.Path
		if f.OldPath != "" {
			name = f.OldPath + " → " + f.Path
		}
		line := fmt.Sprintf("%-9s %s", f.Status, name)
		switch {
		case f.Status == backend.StatusUnchanged:
		case f.Binary:
			line += "  (binary)"
		default:
			line += fmt.Sprintf("  +%d -%d", f.Added, f.Deleted)
		}
		ts := make([]string, len(f.Turns))
		for i, t := range f.Turns {
			ts[i] = fmt.Sprint(t)
		}
		fmt.Fprintf(w, "%s  (turns %s)\n", line, strings.Join(ts, ", "))
		if stat || f.Status == backend.StatusUnchanged {
			continue
		}
		fc, err := eng.SessionFileDiff(ctx, sid, f.Path)
		if err != nil {
			return turnErr(env, "vis diff", err)
		}
		if fc.Patch != "" && !fc.Binary {
			fmt.Fprint(w, fc.Patch)
			if !strings.HasSuffix(fc.Patch, "\n") {
				fmt.Fprintln(w)
			}
		}
	}
	return ExitOK
}
