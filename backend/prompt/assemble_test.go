package prompt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/chat"
)

func sampleFragments() []Fragment {
	return []Fragment{
		{Name: "git", Text: "\n    `git_status()` returns {\"branch\", \"dirty\"}.\n\n\n\n    Prefer it over `shell(\"git status\")`.\n"},
		{Name: "languages", Builtin: true, Text: "Language tools: go (format_code, lint_code, run_tests)."},
		{Name: "empty", Text: "   "},
	}
}

// scenario builds the stable prefix and the first messages of one turn.
type scenario struct {
	name    string
	channel string
	files   map[string]string // relative to the tree root
	system  SystemOptions
	input   UserInput
	nudge   bool // a reasoning level was asked of a model without native reasoning
}

func (sc scenario) assemble(t *testing.T, tr tree) ([]chat.Message, []string) {
	t.Helper()
	stable, warnings := StableMessages(tr.env(sc.channel), StableOptions{
		System:       sc.system,
		Fragments:    sampleFragments(),
		SessionBlock: SessionBlock(sampleSession()),
	})
	msgs := InitialMessages(stable, sc.input)
	if sc.nudge {
		msgs = WithReasoningNudge(msgs)
	}
	return msgs, warnings
}

func scenarios() []scenario {
	ask := UserInput{Text: "Make TestCheckout pass."}
	return []scenario{
		{name: "turn_desktop", channel: ChannelDesktop, input: ask},
		{name: "turn_cli", channel: ChannelCLI, input: ask},
		{
			name: "turn_agents_chain", channel: ChannelDesktop, input: ask,
			files: map[string]string{
				"home/ada/.vis/AGENTS.md":     "Answer in British English.",
				"AGENTS.md":                   "Monorepo: never edit vendor/.",
				"home/ada/src/CLAUDE.md":      "Use make, not go build.",
				"home/ada/src/shop/AGENTS.md": "Run `go test ./...` before finishing.",
				"home/ada/src/shop/CLAUDE.md": "SHADOWED by AGENTS.md",
			},
		},
		{
			name: "turn_system_override", channel: ChannelDesktop, input: ask,
			system: SystemOptions{Addendum: "Caller addendum: keep answers under 200 words."},
			files: map[string]string{
				"home/ada/.vis/SYSTEM.md":          "HOME SYSTEM.md (loses to the workspace one)",
				"home/ada/src/shop/.vis/SYSTEM.md": "You are the shop's release bot. Only touch files under release/.",
			},
		},
		{
			name: "turn_append_files", channel: ChannelDesktop, input: ask,
			system: SystemOptions{Addendum: "Caller addendum.", ConfigText: "Config: use tabs in Makefiles."},
			files: map[string]string{
				"home/ada/.vis/APPEND_SYSTEM.md":          "Home append: sign answers with —V.",
				"home/ada/src/shop/.vis/APPEND_SYSTEM.md": "Workspace append: the staging DB is read-only.",
			},
		},
		{
			name: "turn_second_with_recap", channel: ChannelDesktop,
			input: UserInput{Text: "continue", Previous: recapTurns()},
		},
		{name: "turn_weak_model_nudge", channel: ChannelCLI, input: ask, nudge: true},
		{
			name: "turn_images", channel: ChannelDesktop,
			input: UserInput{
				Text:    "The checkout button is misaligned, see the screenshots.",
				Images:  []Image{png1, jpg2},
				Skipped: []SkippedImage{{Path: "/home/ada/big.png", Reason: "31.0 MB exceeds the 25 MB attachment limit"}},
			},
		},
	}
}

func TestAssembledTurnsGolden(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			tr := newTree(t)
			for rel, c := range sc.files {
				tr.write(t, rel, c)
			}
			msgs, warnings := sc.assemble(t, tr)
			if len(warnings) > 0 {
				t.Errorf("warnings: %q", warnings)
			}
			golden(t, sc.name, dump(msgs), tr)
			for i, c := range contents(msgs) {
				if strings.Contains(c, "\n\n\n") {
					t.Errorf("message %d holds a triple newline", i+1)
				}
			}
		})
	}
}

// The stable prefix is in the exact send order of seed 000.
func TestStableMessageOrder(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/src/shop/AGENTS.md", "rules")
	env := tr.env(ChannelCLI)
	msgs, _ := StableMessages(env, StableOptions{Fragments: sampleFragments(), SessionBlock: SessionBlock(sampleSession())})
	want := []string{"SYSTEM-PROMPT", "CLI-AUTONOMOUS", "PROJECT-INSTRUCTIONS", "TURN-SYSTEM-CONTEXT", "(untagged system)"}
	if diff := cmp.Diff(want, tags(msgs)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	for _, m := range msgs {
		if m.Role != chat.RoleSystem {
			t.Errorf("stable message with role %s", m.Role)
		}
	}
	if !strings.HasPrefix(msgs[4].Content, "```python\n") {
		t.Errorf("session block not the last stable message: %.40q", msgs[4].Content)
	}

	env.Channel = ChannelDesktop
	msgs, _ = StableMessages(env, StableOptions{})
	want = []string{"SYSTEM-PROMPT", "PROJECT-INSTRUCTIONS", "TURN-SYSTEM-CONTEXT"}
	if diff := cmp.Diff(want, tags(msgs)); diff != "" {
		t.Errorf("blank parts not dropped (-want +got):\n%s", diff)
	}
}

func TestCLIAutonomousOnlyOnCLI(t *testing.T) {
	for _, ch := range []string{ChannelCLI, ChannelDesktop, "", "tui", "web"} {
		msgs, _ := StableMessages(Env{Channel: ch}, StableOptions{})
		text := StableText(msgs)
		has := strings.Contains(text, ";; -- CLI-AUTONOMOUS --") && strings.Contains(text, "NON-INTERACTIVE ONE-SHOT RUN")
		if has != (ch == ChannelCLI) {
			t.Errorf("channel %q: CLI-AUTONOMOUS present = %v", ch, has)
		}
	}
}

func TestProjectInstructionsInStablePrefix(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/src/shop/AGENTS.md", "Use table tests.")
	msgs, _ := StableMessages(tr.env(ChannelDesktop), StableOptions{})
	tg := tags(msgs)
	sp, pi := -1, -1
	for i, x := range tg {
		switch x {
		case "SYSTEM-PROMPT":
			sp = i
		case "PROJECT-INSTRUCTIONS":
			pi = i
		}
	}
	if sp < 0 || pi < 0 || sp > pi {
		t.Fatalf("SYSTEM-PROMPT must precede PROJECT-INSTRUCTIONS: %v", tg)
	}
	c := msgs[pi].Content
	for _, want := range []string{"Use table tests.", "— ~/src/shop/AGENTS.md", "CORE wins on conflict"} {
		if !strings.Contains(c, want) {
			t.Errorf("PROJECT-INSTRUCTIONS lacks %q", want)
		}
	}
}

func TestAddendumAndExtensionTextNormalized(t *testing.T) {
	msgs, _ := StableMessages(Env{}, StableOptions{
		System:    SystemOptions{Addendum: "\n\n   one\n\n\n\n   two\n\n\n"},
		Fragments: sampleFragments(),
		Shims:     "a\n\n\n\nb",
	})
	for _, c := range contents(msgs) {
		if strings.Contains(c, "\n\n\n") {
			t.Errorf("triple newline survived in:\n%s", c)
		}
	}
	text := strings.Join(contents(msgs), "")
	for _, want := range []string{"one\n\ntwo", "Prefer it over", ";; -- EXTENSION git --\n`git_status()`", ";; -- SANDBOX-SHIMS --\na\n\nb\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("stable text lacks %q", want)
		}
	}
	if strings.Contains(text, "EXTENSION empty") {
		t.Error("a blank fragment got a header")
	}
}

func TestTurnSystemContext(t *testing.T) {
	got := TurnSystemContext(sampleFragments(), DefaultShims)
	golden(t, "turn_system_context", got, tree{})
	// Built-in fragments first and bare.
	ext := strings.Index(got, ";; -- EXTENSIONS --\nLanguage tools:")
	git := strings.Index(got, ";; -- EXTENSION git --")
	if ext < 0 || git < ext {
		t.Errorf("builtin fragment not first and bare:\n%s", got)
	}
	if strings.Count(got, ";; -- TURN-SYSTEM-CONTEXT --") != 1 {
		t.Error("want exactly one TURN-SYSTEM-CONTEXT")
	}
	if TurnSystemContext(nil, "") != "" {
		t.Error("nothing to say should give no block")
	}
	onlyShims := TurnSystemContext(nil, "x")
	if strings.Contains(onlyShims, "EXTENSIONS") || !strings.Contains(onlyShims, ";; -- SANDBOX-SHIMS --\nx\n") {
		t.Errorf("shims-only context wrong:\n%s", onlyShims)
	}
}

// Assembling the same input twice gives byte-identical messages.
func TestAssemblyIsDeterministic(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/.vis/AGENTS.md", "global")
	tr.write(t, "home/ada/src/shop/AGENTS.md", "local")
	sc := scenarios()[len(scenarios())-1]
	sc.input.Previous = recapTurns()
	first, _ := sc.assemble(t, tr)
	for i := 0; i < 5; i++ {
		again, _ := sc.assemble(t, tr)
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("run %d differs (-first +again):\n%s", i+2, diff)
		}
	}
}

// The stable prefix does not change from one turn to the next, so the
// provider's prompt cache keeps the whole system part across turns.
func TestStablePrefixSurvivesTurns(t *testing.T) {
	tr := newTree(t)
	tr.write(t, "home/ada/src/shop/AGENTS.md", "local")
	stable, _ := StableMessages(tr.env(ChannelDesktop), StableOptions{Fragments: sampleFragments(), SessionBlock: SessionBlock(sampleSession())})
	turns := recapTurns()
	t3 := InitialMessages(stable, UserInput{Text: "third", Previous: turns[:2]})
	t4 := InitialMessages(stable, UserInput{Text: "fourth", Previous: turns[:3]})
	n := len(stable)
	if diff := cmp.Diff(t3[:n], t4[:n]); diff != "" {
		t.Errorf("stable prefix changed between turns:\n%s", diff)
	}
	if len(t3) != n+1 || len(t4) != n+1 {
		t.Fatalf("want stable + one user message, got %d and %d", len(t3), len(t4))
	}
	if !strings.Contains(t4[n].Content, "Also update the changelog.") || strings.Contains(t3[n].Content, "Also update the changelog.") {
		t.Error("recap does not follow the prior turns given")
	}
}
