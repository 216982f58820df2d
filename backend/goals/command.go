package goals

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Usage is the `/goal` usage line, printed after every error of a command.
const Usage = "Use /goal [--budget N] [--] <objective> or /goal <objective> --budget N (N loop iterations), or /goal --pause, --resume, --cancel or --clear alone; /goal alone shows the goal."

// Actions of a Command besides the controls (ActionPause, ActionResume,
// ActionCancel, ActionClear).
const (
	ActionShow = "show"
	ActionSet  = "set"
)

// Command is a parsed `/goal` command.
type Command struct {
	Action    string // ActionShow, ActionSet, ActionPause, ActionResume, ActionCancel or ActionClear
	Objective string // ActionSet: trimmed, 1–8192 characters
	Budget    *int64 // ActionSet: nil = no goal-specific limit
}

// String is the command's canonical argument text (what follows `/goal`);
// ParseCommand(c.String()) returns c.
func (c Command) String() string {
	switch c.Action {
	case ActionShow:
		return ""
	case ActionSet:
		if c.Budget != nil {
			return fmt.Sprintf("--budget %d -- %s", *c.Budget, c.Objective)
		}
		return "-- " + c.Objective
	}
	return "--" + c.Action
}

// CutCommand reports whether input is a `/goal` command and returns the
// argument text after `/goal` (untrimmed, so quotes and newlines survive).
func CutCommand(input string) (args string, ok bool) {
	s := strings.TrimLeftFunc(input, unicode.IsSpace)
	if len(s) < len("/goal") || !strings.EqualFold(s[:len("/goal")], "/goal") {
		return "", false
	}
	rest := s[len("/goal"):] // any case: /GOAL is /goal
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && !unicode.IsSpace(r) {
		return "", false // "/goals", "/goal:"
	}
	return rest, true
}

// ParseCommand parses the raw text after `/goal` (spec §6.5):
//
//   - empty: show the goal;
//   - --pause, --resume, --cancel or --clear as the whole argument: a control;
//   - --budget N before the objective, or after it (preceded by whitespace),
//     once; N is 1…2^53−1 loop iterations;
//   - a leading `--` (before or after --budget N) ends the flags: the rest is
//     the objective, verbatim;
//   - the smart dashes — and – stand for -- in recognized flags; an unknown
//     --flag at the start is an error, while a word after a smart dash is
//     objective text. The objective itself is never rewritten: quotes,
//     newlines and dashes in it stay as typed (only its ends are trimmed).
//
// Errors are *RefusedError.
func ParseCommand(text string) (Command, error) {
	raw := strings.TrimSpace(text)
	if raw == "" {
		return Command{Action: ActionShow}, nil
	}
	var budget *int64
	rest := raw
	literal := false
flags:
	for {
		tok, after := nextToken(rest)
		name, isFlag := flagName(tok)
		if !isFlag {
			break
		}
		switch name {
		case "":
			rest, literal = trimLeft(after), true
			break flags
		case "budget":
			if budget != nil {
				return Command{}, errBudgetTwice
			}
			b, err := parseBudget(nextTokenOnly(trimLeft(after)))
			if err != nil {
				return Command{}, err
			}
			budget = &b
			_, rest = nextToken(trimLeft(after))
			rest = trimLeft(rest)
		case ActionPause, ActionResume, ActionCancel, ActionClear:
			if tok != raw {
				return Command{}, refuse("%s takes nothing else: use /goal %s alone.", tok, tok)
			}
			return Command{Action: name}, nil
		default:
			if strings.HasPrefix(tok, "--") {
				return Command{}, refuse("Unknown flag %s.", tok)
			}
			break flags // a smart dash before a word is objective text
		}
	}
	if !literal {
		obj, b, found, err := trailingBudget(rest)
		if err != nil {
			return Command{}, err
		}
		if found {
			if budget != nil {
				return Command{}, errBudgetTwice
			}
			budget, rest = &b, obj
		}
	}
	objective := strings.TrimSpace(rest)
	if objective == "" {
		return Command{}, refuse("The goal needs an objective.")
	}
	if err := checkObjective(objective); err != nil {
		return Command{}, err
	}
	return Command{Action: ActionSet, Objective: objective, Budget: budget}, nil
}

var errBudgetTwice = &RefusedError{Message: "Specify --budget only once, before or after the objective."}

// flagName recognizes a flag token: "--name", or "—name"/"–name" with an
// iOS smart dash. A bare dash marker ("--", "—", "–") has the name "".
func flagName(tok string) (string, bool) {
	for _, p := range []string{"--", "—", "–"} {
		if name, ok := strings.CutPrefix(tok, p); ok {
			return strings.ToLower(name), true // --CANCEL is --cancel
		}
	}
	return "", false
}

// trailingBudget finds "<objective><space>--budget N" at the end of s.
func trailingBudget(s string) (objective string, budget int64, found bool, err error) {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, 0, false, nil
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	last, before := s[i+size:], strings.TrimRightFunc(s[:i], unicode.IsSpace)
	if name, ok := flagName(last); ok && name == "budget" {
		return "", 0, false, errBudgetMissing
	}
	j := strings.LastIndexFunc(before, unicode.IsSpace)
	if j < 0 {
		return s, 0, false, nil
	}
	_, size = utf8.DecodeRuneInString(before[j:])
	if name, ok := flagName(before[j+size:]); !ok || name != "budget" {
		return s, 0, false, nil
	}
	b, err := parseBudget(last)
	if err != nil {
		return "", 0, false, err
	}
	return before[:j], b, true, nil
}

var errBudgetMissing = &RefusedError{Message: "--budget needs a number of loop iterations."}

func parseBudget(tok string) (int64, error) {
	if tok == "" {
		return 0, errBudgetMissing
	}
	bad := refuse("Goal iteration budget must be an integer from 1 to %d loop iterations, not %q.", int64(MaxBudget), tok)
	for _, r := range tok {
		if r < '0' || r > '9' {
			return 0, bad
		}
	}
	n, err := strconv.ParseInt(tok, 10, 64)
	if err != nil || n < 1 || n > MaxBudget {
		return 0, bad
	}
	return n, nil
}

// nextToken splits s (left-trimmed) at its first whitespace.
func nextToken(s string) (tok, rest string) {
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

func nextTokenOnly(s string) string { tok, _ := nextToken(s); return tok }

func trimLeft(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) }

// CommandError is the error of a `/goal` command: a parse error or a
// refusal. Its text is the reason, then the Usage line. The stored goal is
// unchanged.
type CommandError struct{ Err error }

func (e *CommandError) Error() string { return e.Err.Error() + "\n" + Usage }
func (e *CommandError) Unwrap() error { return e.Err }

// Result is the outcome of a `/goal` command.
type Result struct {
	Command Command
	Goal    Goal   // the goal afterwards (zero when the session has none)
	Title   string // "Goal: <status>", or "No goal"
	Text    string // Render(Goal): the summary to print
	// Run: the command set or resumed an active goal; the caller starts a
	// normal turn whose user message is the raw `/goal …` text (so the
	// objective lands in the transcript). Show and the other controls make
	// no model call.
	Run bool
}

// Apply executes a parsed command on the session's goal. Refusals are
// *CommandError and leave the stored goal unchanged; store failures are
// returned wrapped, as they are.
func (s *Service) Apply(ctx context.Context, sessionID string, c Command) (Result, error) {
	var g Goal
	var err error
	switch c.Action {
	case ActionShow:
		g, _, err = s.Get(ctx, sessionID)
	case ActionSet:
		g, err = s.Set(ctx, sessionID, c.Objective, c.Budget)
	case ActionPause, ActionResume, ActionCancel, ActionClear:
		g, err = s.Control(ctx, sessionID, c.Action)
	default:
		err = refuse("Unknown /goal action %q.", c.Action)
	}
	var re *RefusedError
	if errors.As(err, &re) {
		return Result{}, &CommandError{Err: err}
	}
	if err != nil {
		return Result{}, err
	}
	r := Result{Command: c, Goal: g, Text: Render(g), Title: "No goal"}
	if g.Status != "" && !g.Hidden() {
		r.Title = "Goal: " + g.Status
	}
	r.Run = (c.Action == ActionSet || c.Action == ActionResume) && g.Status == StatusActive
	return r, nil
}

// Slash parses the text after `/goal` and applies it (see ParseCommand and
// Apply). Parse errors are *CommandError too.
func (s *Service) Slash(ctx context.Context, sessionID, text string) (Result, error) {
	c, err := ParseCommand(text)
	if err != nil {
		return Result{}, &CommandError{Err: err}
	}
	return s.Apply(ctx, sessionID, c)
}

// StatusLabel is a status in the words a person reads everywhere (the
// window's goal panel and footer use the same mapping, frontend
// lib/goal.ts statusLabel): budget_limited is "budget spent"; the other
// statuses are their own words.
func StatusLabel(status string) string {
	if status == StatusBudgetLimited {
		return "budget spent"
	}
	return status
}

// Render is a human-readable multi-line summary of g, for `/goal` without
// an argument and the CLI. Times are as recorded in g.
func Render(g Goal) string {
	if g.Status == "" || g.Hidden() {
		return ErrNoGoal.Message
	}
	var b strings.Builder
	lines := strings.Split(g.Objective, "\n")
	fmt.Fprintf(&b, "Goal: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(&b, "      %s\n", l)
	}
	fmt.Fprintf(&b, "Status: %s\n", StatusLabel(g.Status))
	if g.IterationBudget != nil {
		fmt.Fprintf(&b, "Iterations: %d of %d\n", g.IterationsUsed, *g.IterationBudget)
	} else {
		fmt.Fprintf(&b, "Iterations: %d (no budget)\n", g.IterationsUsed)
	}
	fmt.Fprintf(&b, "Tokens: %d\n", g.TokensUsed)
	fmt.Fprintf(&b, "Active time: %s\n", (time.Duration(g.TimeUsedMs) * time.Millisecond).Round(time.Second))
	fmt.Fprintf(&b, "Id: %s (version %d, revision %d)", g.ID, g.Version, g.Revision)
	return b.String()
}
