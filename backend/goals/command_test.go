package goals

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/internal/golden"
)

func TestParseCommand(t *testing.T) {
	set := func(objective string, budget *int64) Command {
		return Command{Action: ActionSet, Objective: objective, Budget: budget}
	}
	budgetErr := func(tok string) string {
		return `Goal iteration budget must be an integer from 1 to 9007199254740991 loop iterations, not "` + tok + `".`
	}
	tests := []struct {
		name, in string
		want     Command
		err      string
	}{
		{"empty shows", "", Command{Action: ActionShow}, ""},
		{"blank shows", "  \n\t ", Command{Action: ActionShow}, ""},
		{"objective", "  Fix the flaky test  ", set("Fix the flaky test", nil), ""},
		{"budget before", "--budget 40 Fix it", set("Fix it", ptr(40)), ""},
		{"budget after", "Fix it --budget 40", set("Fix it", ptr(40)), ""},
		{"budget after a newline", "Fix it\n--budget 40\n", set("Fix it", ptr(40)), ""},
		{"budget before, newlines", "--budget\n40\nFix it", set("Fix it", ptr(40)), ""},
		{"leading zeros", "--budget 007 x", set("x", ptr(7)), ""},
		{"largest budget", "--budget 9007199254740991 x", set("x", ptr(MaxBudget)), ""},
		{"em dash budget", "—budget 3 Fix it", set("Fix it", ptr(3)), ""},
		{"en dash budget", "–budget 3 Fix it", set("Fix it", ptr(3)), ""},
		{"em dash budget after", "Fix it —budget 3", set("Fix it", ptr(3)), ""},
		{"glued smart dash is text", "word—budget 100", set("word—budget 100", nil), ""},
		{"glued smart dash after text", "Fix it word—budget 100", set("Fix it word—budget 100", nil), ""},
		{"glued double dash is text", "Fix it--budget 100", set("Fix it--budget 100", nil), ""},
		{"budget in the middle is text", "Fix --budget 40 now", set("Fix --budget 40 now", nil), ""},
		{"quotes and newlines kept", "--budget 40 -- Keep \"quotes\"\nand newlines", set("Keep \"quotes\"\nand newlines", ptr(40)), ""},
		{"-- keeps flags as text", "-- Keep --budget 100", set("Keep --budget 100", nil), ""},
		{"budget then --", "--budget 3 -- Keep --budget 100", set("Keep --budget 100", ptr(3)), ""},
		{"-- keeps smart dashes", "--budget 3 -- —pause", set("—pause", ptr(3)), ""},
		{"-- keeps control flags", "-- --pause", set("--pause", nil), ""},
		{"em dash as --", "— --cancel the job", set("--cancel the job", nil), ""},
		{"double-quoted flag is text", `Explain "--budget 100"`, set(`Explain "--budget 100"`, nil), ""},
		{"single-quoted flag is text", `Explain '--budget' 100`, set(`Explain '--budget' 100`, nil), ""},
		{"smart dashes in the objective", "Use – and — freely —really", set("Use – and — freely —really", nil), ""},
		{"unknown smart-dash word is text", "—fix the parser", set("—fix the parser", nil), ""},
		{"control later is text", "Fix it --pause", set("Fix it --pause", nil), ""},
		{"pause", "--pause", Command{Action: ActionPause}, ""},
		{"resume", "  --resume\n", Command{Action: ActionResume}, ""},
		{"cancel", "--cancel", Command{Action: ActionCancel}, ""},
		{"clear", "--clear", Command{Action: ActionClear}, ""},
		{"em dash pause", "—pause", Command{Action: ActionPause}, ""},
		{"en dash clear", "–clear", Command{Action: ActionClear}, ""},

		{"control with text", "--pause now", Command{}, "--pause takes nothing else: use /goal --pause alone."},
		{"control after budget", "--budget 3 --pause", Command{}, "--pause takes nothing else: use /goal --pause alone."},
		{"smart control with text", "—cancel it all", Command{}, "—cancel takes nothing else: use /goal —cancel alone."},
		{"budget twice before", "--budget 3 --budget 4 Fix", Command{}, errBudgetTwice.Message},
		{"budget before and after", "--budget 3 Fix it --budget 4", Command{}, errBudgetTwice.Message},
		{"budget 0", "--budget 0 work", Command{}, budgetErr("0")},
		{"budget -1", "--budget -1 work", Command{}, budgetErr("-1")},
		{"budget many", "--budget many work", Command{}, budgetErr("many")},
		{"budget 1.5", "--budget 1.5 work", Command{}, budgetErr("1.5")},
		{"budget 2^53", "--budget 9007199254740992 work", Command{}, budgetErr("9007199254740992")},
		{"budget overflows int64", "--budget 999999999999999999999 work", Command{}, budgetErr("999999999999999999999")},
		{"budget full-width digit", "--budget ５ work", Command{}, budgetErr("５")},
		{"budget 0 after", "Fix it --budget 0", Command{}, budgetErr("0")},
		{"budget word after", "Fix it --budget many", Command{}, budgetErr("many")},
		{"budget missing after", "Fix it --budget", Command{}, errBudgetMissing.Message},
		{"budget missing", "--budget", Command{}, errBudgetMissing.Message},
		{"budget without objective", "--budget 5", Command{}, "The goal needs an objective."},
		{"budget and -- without objective", "--budget 5 --", Command{}, "The goal needs an objective."},
		{"-- alone", "--", Command{}, "The goal needs an objective."},
		{"unknown flag", "--unknown", Command{}, "Unknown flag --unknown."},
		{"unknown flag with text", "--verbose Fix it", Command{}, "Unknown flag --verbose."},
		{"budget=", "--budget=3 Fix", Command{}, "Unknown flag --budget=3."},
		{"too long", strings.Repeat("x", MaxObjectiveChars+1), Command{}, "Goal objective must contain 1–8192 characters."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseCommand(tc.in)
			if tc.err != "" {
				if got := refusal(t, err); got != tc.err {
					t.Errorf("error %q, want %q", got, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			again, err := ParseCommand(got.String())
			if err != nil {
				t.Fatalf("canonical %q: %v", got.String(), err)
			}
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("ParseCommand(%q) (-want +got):\n%s", got.String(), diff)
			}
		})
	}
}

func TestCutCommand(t *testing.T) {
	tests := []struct {
		in, args string
		ok       bool
	}{
		{"/goal", "", true},
		{"/goal --pause", " --pause", true},
		{"  /goal\nFix it", "\nFix it", true},
		{"/goals", "", false},
		{"/goal:x", "", false},
		{"goal x", "", false},
		{"Fix /goal x", "", false},
	}
	for _, tc := range tests {
		args, ok := CutCommand(tc.in)
		if args != tc.args || ok != tc.ok {
			t.Errorf("CutCommand(%q) = %q, %v; want %q, %v", tc.in, args, ok, tc.args, tc.ok)
		}
	}
}

func TestSlash(t *testing.T) {
	e := newEnv(t)
	r, err := e.svc.Slash(e.ctx, e.sid, "")
	if err != nil || r.Run || r.Title != "No goal" || r.Text != ErrNoGoal.Message {
		t.Fatalf("show without a goal = %+v, %v", r, err)
	}
	steps := []struct {
		text, title string
		run         bool
	}{
		{"--budget 40 -- Keep \"quotes\"\nand newlines", "Goal: active", true},
		{"", "Goal: active", false},
		{"--pause", "Goal: paused", false},
		{"—resume", "Goal: active", true},
		{"--cancel", "Goal: cancelled", false},
		{"Next thing --budget 2", "Goal: active", true},
		{"--clear", "No goal", false},
		{"--clear", "No goal", false},
		{"", "No goal", false},
	}
	for _, st := range steps {
		r, err := e.svc.Slash(e.ctx, e.sid, st.text)
		if err != nil {
			t.Fatalf("/goal %s: %v", st.text, err)
		}
		if r.Title != st.title || r.Run != st.run || r.Text != Render(r.Goal) {
			t.Errorf("/goal %s: title %q run %v; want %q %v", st.text, r.Title, r.Run, st.title, st.run)
		}
		if st.text == steps[0].text {
			g := e.get()
			if g.Objective != "Keep \"quotes\"\nand newlines" || *g.IterationBudget != 40 {
				t.Errorf("stored %q budget %d", g.Objective, *g.IterationBudget)
			}
		}
	}
}

// TestSlashErrorsChangeNothing: every malformed or refused command is a
// *CommandError ending with the usage line, and the stored goal stays.
func TestSlashErrorsChangeNothing(t *testing.T) {
	e := newEnv(t)
	for _, text := range []string{"--pause", "--resume", "--cancel", "--budget 3"} {
		_, err := e.svc.Slash(e.ctx, e.sid, text)
		var ce *CommandError
		if !errors.As(err, &ce) {
			t.Fatalf("/goal %s without a goal: %v", text, err)
		}
	}
	if _, ok, _ := e.svc.Get(e.ctx, e.sid); ok {
		t.Fatal("a failed command created a goal")
	}
	e.set("Finish the port", ptr(10))
	e.model(StatusComplete)
	before := e.get()
	writes := len(e.revisions())
	for _, tc := range []struct{ text, msg string }{
		{"--pause", "Cannot pause a complete goal."},
		{"--resume", "Cannot resume a complete goal."},
		{"--budget 0 Start over", `Goal iteration budget must be an integer from 1 to 9007199254740991 loop iterations, not "0".`},
		{"--budget 3 Start over --budget 4", errBudgetTwice.Message},
		{"--unknown", "Unknown flag --unknown."},
		{"--clear now", "--clear takes nothing else: use /goal --clear alone."},
		{"Start over --budget", errBudgetMissing.Message},
	} {
		_, err := e.svc.Slash(e.ctx, e.sid, tc.text)
		var ce *CommandError
		if !errors.As(err, &ce) {
			t.Fatalf("/goal %s: %v (%T), want a CommandError", tc.text, err, err)
		}
		if want := tc.msg + "\n" + Usage; err.Error() != want {
			t.Errorf("/goal %s: %q, want %q", tc.text, err.Error(), want)
		}
		var re *RefusedError
		if !errors.As(err, &re) || re.Message != tc.msg {
			t.Errorf("/goal %s: unwrapped refusal %v", tc.text, re)
		}
	}
	if diff := cmp.Diff(before, e.get()); diff != "" {
		t.Errorf("failed commands changed the goal (-before +after):\n%s", diff)
	}
	if len(e.revisions()) != writes {
		t.Error("failed commands wrote")
	}
}

func TestRenderGolden(t *testing.T) {
	at := time.UnixMilli(1_780_000_000_000)
	goals := []Goal{
		{},
		{ID: "01jgoal", Objective: "Make the flaky test pass\nand keep the API", Status: StatusActive, IterationBudget: ptr(40),
			IterationsUsed: 12, TokensUsed: 48_213, TimeUsedMs: 65_400, Version: 3, Revision: 17, Created: at, Updated: at},
		{ID: "01jgoal2", Objective: "Port the parser", Status: StatusBudgetLimited, IterationBudget: ptr(3), IterationsUsed: 3, TokensUsed: 900,
			TimeUsedMs: 3_723_000, Version: 2, Revision: 5},
		{ID: "01jgoal3", Objective: "Port the parser", Status: StatusPaused, TimeUsedMs: 400, Version: 2, Revision: 2},
		{ID: "01jgoal4", Objective: "gone", Status: StatusCleared, Version: 2, Revision: 9},
	}
	var b strings.Builder
	for _, g := range goals {
		b.WriteString(Render(g))
		b.WriteString("\n---\n")
	}
	golden.CheckString(t, filepath.Join("testdata", "render.golden"), b.String())
}

// Upper-case commands and flags mean the same as lower-case ones; they
// used to be a silent no-op (`/GOAL --cancel` showed the goal, exit 0).
func TestCommandIsCaseInsensitive(t *testing.T) {
	args, ok := CutCommand("/GOAL --CANCEL")
	if !ok {
		t.Fatal("/GOAL is not a goal command")
	}
	c, err := ParseCommand(args)
	if err != nil || c.Action != ActionCancel {
		t.Fatalf("/GOAL --CANCEL = %+v, %v", c, err)
	}
	if _, ok := CutCommand("/Goals"); ok {
		t.Fatal("/Goals is not /goal")
	}
}
