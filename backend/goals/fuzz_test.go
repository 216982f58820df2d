package goals

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzParseCommand: the parser never panics; what it accepts is a valid
// command that round-trips through Command.String; what it (or Apply)
// refuses is a *CommandError ending with the usage line and leaves the
// stored goal exactly as it was.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		"", "Fix it", "--budget 40 Fix it", "Fix it --budget 40", "—budget 3 x", "–budget 3 x",
		"word—budget 100", "--budget 40 -- Keep \"quotes\"\nand newlines", "-- Keep --budget 100",
		"--budget 3 -- —pause", `Explain "--budget 100"`, "--pause", "—resume", "--cancel", "--clear",
		"--pause now", "--budget 3 Fix --budget 4", "--budget 0 x", "--budget -1 x", "--budget many x",
		"--budget 1.5 x", "--budget 9007199254740992 x", "Fix --budget", "--unknown", "--", "— x",
		"x \xff --budget 2", "\u00a0--budget\u00a02\u00a0x", "--budget 3\u2028x",
	} {
		f.Add(s)
	}
	ctx := context.Background()
	st := openStore(f, filepath.Join(f.TempDir(), "vis.db"))
	sid := newSession(f, st)
	c := &clock{t: t0} // a fixed clock: Get is stable between two reads
	svc := New(st, Options{Now: c.Now})
	if _, err := svc.Set(ctx, sid, "seed goal", ptr(3)); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cmd, perr := ParseCommand(text)
		if perr != nil {
			var re *RefusedError
			if !errors.As(perr, &re) || re.Message == "" {
				t.Fatalf("parse error %v (%T) is not a refusal", perr, perr)
			}
		} else {
			switch cmd.Action {
			case ActionShow, ActionPause, ActionResume, ActionCancel, ActionClear:
				if cmd.Objective != "" || cmd.Budget != nil {
					t.Fatalf("%q: %+v", text, cmd)
				}
			case ActionSet:
				n := utf8.RuneCountInString(cmd.Objective)
				if n < 1 || n > MaxObjectiveChars || strings.TrimSpace(cmd.Objective) != cmd.Objective {
					t.Fatalf("%q: objective %q", text, cmd.Objective)
				}
				if cmd.Budget != nil && (*cmd.Budget < 1 || *cmd.Budget > MaxBudget) {
					t.Fatalf("%q: budget %d", text, *cmd.Budget)
				}
				again, err := ParseCommand(cmd.String())
				if err != nil || !cmp.Equal(cmd, again) {
					t.Fatalf("%q → %+v; canonical %q → %+v, %v", text, cmd, cmd.String(), again, err)
				}
			default:
				t.Fatalf("%q: action %q", text, cmd.Action)
			}
		}

		before, _, err := svc.Get(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Slash(ctx, sid, text)
		if perr != nil && err == nil {
			t.Fatalf("%q: Slash accepted what ParseCommand refused", text)
		}
		if err == nil {
			return
		}
		var ce *CommandError
		if !errors.As(err, &ce) || !strings.HasSuffix(err.Error(), "\n"+Usage) {
			t.Fatalf("%q: error %v (%T) is not a command error with the usage line", text, err, err)
		}
		after, _, err := svc.Get(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before, after); diff != "" {
			t.Fatalf("%q: a refused command changed the goal (-before +after):\n%s", text, diff)
		}
	})
}
