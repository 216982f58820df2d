package prompt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/chat"
)

func TestWithReasoningNudge(t *testing.T) {
	sys := func(s string) chat.Message { return chat.System(s) }
	user := chat.User("do it")
	asst := chat.Message{Role: chat.RoleAssistant, Content: "ok"}
	tests := []struct {
		name string
		in   []chat.Message
		at   int
	}{
		{"after the system run, before the conversation", []chat.Message{sys("a"), sys("b"), user}, 2},
		{"later system messages stay after the conversation starts", []chat.Message{sys("a"), user, asst, sys("late")}, 1},
		{"prepended when there are no system messages", []chat.Message{user, asst}, 0},
		{"appended to an all-system list", []chat.Message{sys("a")}, 1},
		{"empty list", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]chat.Message(nil), tc.in...)
			got := WithReasoningNudge(tc.in)
			if len(got) != len(tc.in)+1 {
				t.Fatalf("got %d messages, want %d", len(got), len(tc.in)+1)
			}
			n := got[tc.at]
			if n.Role != chat.RoleSystem || tagOf(n.Content) != "REASONING-VIA-COMMENTS" {
				t.Fatalf("message %d is %s %q, want the nudge", tc.at, n.Role, tagOf(n.Content))
			}
			rest := append(append([]chat.Message(nil), got[:tc.at]...), got[tc.at+1:]...)
			if diff := cmp.Diff(before, rest); diff != "" {
				t.Errorf("other messages changed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tc.in); diff != "" {
				t.Errorf("input modified (-want +got):\n%s", diff)
			}
			if len(tc.in) > 0 && tc.in[len(tc.in)-1].Role == chat.RoleUser && got[len(got)-1].Role != chat.RoleUser {
				t.Error("user message no longer last")
			}
		})
	}
}

func TestReasoningNudgeContent(t *testing.T) {
	golden(t, "reasoning_via_comments", Block("reasoning-via-comments", ReasoningViaComments), tree{})
	for i := 1; i <= 9; i++ {
		if !strings.Contains(ReasoningViaComments, "\n"+string(rune('0'+i))+". ") {
			t.Errorf("rule %d missing", i)
		}
	}
	for _, banned := range []string{"line:hash", "anchor", "await", "gather"} {
		if strings.Contains(ReasoningViaComments, banned) {
			t.Errorf("nudge mentions %q, which our surface does not have", banned)
		}
	}
}

func TestNeedsReasoningNudge(t *testing.T) {
	tests := []struct {
		level   string
		reasons bool
		want    bool
	}{
		{"high", false, true},
		{"low", false, true},
		{"high", true, false},
		{"", false, false},
		{"none", false, false},
		{"Off", false, false},
	}
	for _, tc := range tests {
		if got := NeedsReasoningNudge(tc.level, tc.reasons); got != tc.want {
			t.Errorf("NeedsReasoningNudge(%q, %v) = %v, want %v", tc.level, tc.reasons, got, tc.want)
		}
	}
}
