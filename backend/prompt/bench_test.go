package prompt

import "testing"

// BenchmarkAssembleTurn measures one full turn assembly: reading the prompt
// files and the AGENTS.md chain, building the stable prefix and the user
// message with a three-turn recap.
func BenchmarkAssembleTurn(b *testing.B) {
	tr := newTree(b)
	tr.write(b, "home/ada/.vis/AGENTS.md", "global")
	tr.write(b, "home/ada/src/shop/AGENTS.md", "local")
	tr.write(b, "home/ada/src/shop/.vis/APPEND_SYSTEM.md", "append")
	session := SessionBlock(sampleSession())
	in := UserInput{Text: "continue", Previous: recapTurns()}
	b.ReportAllocs()
	for b.Loop() {
		stable, _ := StableMessages(tr.env(ChannelDesktop), StableOptions{Fragments: sampleFragments(), SessionBlock: session})
		_ = InitialMessages(stable, in)
	}
}

// BenchmarkSessionDelta measures the per-iteration diff of a realistic
// session dict with two changed leaves.
func BenchmarkSessionDelta(b *testing.B) {
	old := sampleSession()
	new := sampleSession()
	new["scope"] = map[string]any{"turn": 2, "iter": 2, "next_form": 1}
	new["utilization"] = map[string]any{"saturation": 12}
	b.ReportAllocs()
	for b.Loop() {
		_ = SessionDelta(old, new)
	}
}
