package prompt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/chat"
)

func recapTurns() []TurnRecap {
	return []TurnRecap{
		{
			Position: 1,
			Request:  "Why does TestCheckout fail?",
			Status:   StatusDone,
			Ran: []string{
				"r = grep(\"func TestCheckout\", glob=\"*_test.go\")\nfor m in r[\"matches\"]:\n    print(m[\"path\"], m[\"line\"])",
				"out = shell(\"go test ./cart/ -run TestCheckout -count=1 -v 2>&1 | tail -40 && echo and-a-very-long-tail-that-goes-past-ninety\")\nprint(out[\"output\"])",
			},
			Answer: "`Checkout` rounds the VAT before summing.\n\n- `cart/total.go:41` rounds each line.\n- The test expects rounding once, at the end.",
		},
		{
			Position: 2,
			Request:  "Fix it and run the whole suite.",
			Status:   StatusInterrupted,
			Ran:      []string{"patch(\"cart/total.go\", old=\"round(v)\", new=\"v\")"},
		},
		{
			Position: 3,
			Request:  "Also update the changelog.",
			Status:   StatusCancelled,
			Ran:      []string{"print(cat(\"CHANGELOG.md\", end=20)[\"text\"])"},
		},
		{Position: 4, Status: StatusDone}, // empty: left out
	}
}

func TestConversationSoFarGolden(t *testing.T) {
	got := ConversationSoFar(recapTurns())
	golden(t, "conversation_so_far", got, tree{})
	if strings.Contains(got, "turn 4") {
		t.Error("an empty turn was rendered")
	}
	if ConversationSoFar(nil) != "" {
		t.Error("no turns should give no block")
	}
}

func TestConversationSoFarRules(t *testing.T) {
	longAnswer := strings.Repeat("every word of the answer matters ", 2000) + "THE END"
	tests := []struct {
		name    string
		turns   []TurnRecap
		want    []string
		notWant []string
	}{
		{
			name:  "answers are rendered in full",
			turns: []TurnRecap{{Request: "explain", Answer: longAnswer, Status: StatusDone}},
			want:  []string{"THE END", "# ── turn 1 ──", "user asked:\nexplain\nyou answered:\n"},
		},
		{
			name:    "cancelled turn keeps settled work and the marker, not the interrupted warning",
			turns:   []TurnRecap{{Position: 1, Request: "inspect and fix", Status: StatusCancelled, Ran: []string{"cat(src)"}}},
			want:    []string{"  cat(src)", "<turn_cancelled>", "</turn_cancelled>", "do not redo settled work"},
			notWant: []string{"INTERRUPTED"},
		},
		{
			name:  "interrupted turn warns the work is unfinished",
			turns: []TurnRecap{{Position: 5, Request: "refactor", Status: StatusInterrupted}},
			want:  []string{"# ── turn 5 ──", "INTERRUPTED before it finished", "NO answer", "continue it"},
		},
		{
			name:    "an answered turn carries no warning whatever its status",
			turns:   []TurnRecap{{Request: "q", Answer: "a", Status: StatusHalted}},
			notWant: []string{"⚠", "turn_cancelled"},
		},
		{
			name:  "error and halted turns without answer say so",
			turns: []TurnRecap{{Request: "a", Status: StatusError}, {Request: "b", Status: StatusHalted}},
			want:  []string{"ended with an ERROR", "was HALTED"},
		},
		{
			name:  "positions default to order",
			turns: []TurnRecap{{Request: "a"}, {Request: "b"}},
			want:  []string{"# ── turn 1 ──\nuser asked:\na", "# ── turn 2 ──\nuser asked:\nb"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ConversationSoFar(tc.turns)
			if !strings.HasPrefix(got, ";; -- CONVERSATION-SO-FAR --\n") {
				t.Fatalf("not a CONVERSATION-SO-FAR block:\n%.200s", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("has %q", w)
				}
			}
			if strings.Contains(got, "\n\n\n") {
				t.Error("triple newline in recap")
			}
		})
	}
}

func TestConversationSoFarRanLinesCapped(t *testing.T) {
	got := ConversationSoFar(recapTurns())
	_, after, _ := strings.Cut(got, "you ran:\n")
	for _, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		if n := len([]rune(strings.TrimPrefix(l, "  "))); n > 90 {
			t.Errorf("ran line of %d chars: %q", n, l)
		}
		if strings.Contains(l, "\n") || strings.Contains(l, "    ") {
			t.Errorf("ran line not collapsed: %q", l)
		}
	}
}

var png1 = Image{Path: "/home/ada/shot.png", MIME: "image/png", Size: 12595, DataURL: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="}
var jpg2 = Image{Path: "~/Desktop/error dialog.jpg", MIME: "image/jpeg", Size: 2 * 1024 * 1024, DataURL: "data:image/jpeg;base64,/9j/4AAQSkZJRg=="}

func TestInitialMessagesTextOnly(t *testing.T) {
	stable := []chat.Message{chat.System(";; -- SYSTEM-PROMPT --\nx\n")}
	msgs := InitialMessages(stable, UserInput{Text: "  \nRename Foo to Bar\n\n"})
	if len(msgs) != 2 {
		t.Fatalf("got %d messages, want stable + 1 user", len(msgs))
	}
	u := msgs[1]
	if u.Role != chat.RoleUser || u.Parts != nil {
		t.Fatalf("text-only user message should be a plain string, got %+v", u)
	}
	if want := ";; -- CURRENT-USER-MESSAGE --\nRename Foo to Bar\n"; u.Content != want {
		t.Errorf("content = %q, want %q", u.Content, want)
	}
	if strings.Contains(u.Content, "ATTACHED-IMAGES") || strings.Contains(u.Content, "CONVERSATION-SO-FAR") {
		t.Error("text-only first turn carries extra blocks")
	}
}

// What moved in the session dict since the model last saw it rides between
// the recap and the request.
func TestInitialMessagesSessionDelta(t *testing.T) {
	msgs := InitialMessages(nil, UserInput{Text: "go on", Previous: []TurnRecap{{Request: "start a REPL", Answer: "started"}},
		SessionDelta: []string{`session["resources"] = [{"id": "pyrepl:~/p"}]`, `del session["x"]`}})
	got := msgs[0].Content
	want := ";; -- SESSION-DELTA --\nsession[\"resources\"] = [{\"id\": \"pyrepl:~/p\"}]\ndel session[\"x\"]\n\n;; -- CURRENT-USER-MESSAGE --\ngo on\n"
	if !strings.HasPrefix(got, ";; -- CONVERSATION-SO-FAR --\n") || !strings.HasSuffix(got, want) {
		t.Errorf("content =\n%s\nwant it to end with\n%s", got, want)
	}
}

func TestInitialMessagesNoUserContent(t *testing.T) {
	stable := []chat.Message{chat.System("s")}
	for _, in := range []UserInput{
		{},
		{Text: " \n "},
		{Images: []Image{png1}, Previous: recapTurns()}, // images cannot ride alone
	} {
		got := InitialMessages(stable, in)
		if diff := cmp.Diff(stable, got); diff != "" {
			t.Errorf("input %+v: (-want +got):\n%s", in, diff)
		}
	}
}

func TestInitialMessagesWithImages(t *testing.T) {
	in := UserInput{
		Text:    "What is wrong in these screenshots?",
		Images:  []Image{png1, jpg2, {Path: "/tmp/empty.png", MIME: "image/png", Size: 10}},
		Skipped: []SkippedImage{{Path: "/tmp/huge.png", Reason: "31.0 MB exceeds the 25 MB attachment limit"}, {Path: "/tmp/bad.gif", Reason: "could not be decoded"}},
	}
	msgs := InitialMessages(nil, in)
	if len(msgs) != 1 {
		t.Fatalf("got %d messages", len(msgs))
	}
	u := msgs[0]
	var kinds []string
	for _, p := range u.Parts {
		kinds = append(kinds, p.Type)
	}
	if diff := cmp.Diff([]string{"image_url", "image_url", "text"}, kinds); diff != "" {
		t.Fatalf("parts (-want +got):\n%s", diff)
	}
	if u.Parts[0].ImageURL != png1.DataURL || u.Parts[1].ImageURL != jpg2.DataURL {
		t.Error("image parts are not the data URLs, in order")
	}
	text := u.Parts[2].Text
	for _, want := range []string{
		"- image 1: /home/ada/shot.png (image/png, 12.3 KB) — attached to this message",
		"- image 2: ~/Desktop/error dialog.jpg (image/jpeg, 2.0 MB) — attached to this message",
		"- /tmp/empty.png — NOT attached: no image data was prepared",
		"- /tmp/huge.png — NOT attached: 31.0 MB exceeds",
		"- /tmp/bad.gif — NOT attached: could not be decoded",
		"You can SEE these images",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	cur := strings.Index(text, "CURRENT-USER-MESSAGE")
	att := strings.Index(text, "ATTACHED-IMAGES")
	if cur < 0 || att < cur {
		t.Error("ATTACHED-IMAGES must follow CURRENT-USER-MESSAGE")
	}
}

func TestInitialMessagesNoVision(t *testing.T) {
	in := NoVision(UserInput{Text: "look", Images: []Image{png1}, Skipped: []SkippedImage{{Path: "/x.bmp", Reason: "could not be decoded"}}})
	msgs := InitialMessages(nil, in)
	u := msgs[0]
	if u.Parts != nil {
		t.Fatalf("a text-only model got image parts: %+v", u.Parts)
	}
	for _, want := range []string{
		"- /home/ada/shot.png — NOT attached: " + ReasonNoVision,
		"- /x.bmp — NOT attached: could not be decoded",
		"NO vision",
	} {
		if !strings.Contains(u.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, u.Content)
		}
	}
	if strings.Contains(u.Content, "You can SEE") {
		t.Error("blind model told it can see")
	}
}

func TestImagesManifest(t *testing.T) {
	if ImagesManifest(nil, nil) != "" {
		t.Error("empty manifest should give no block")
	}
	got := ImagesManifest([]Image{png1, jpg2}, []SkippedImage{{Path: "/tmp/nine.png", Reason: "attachment limit of 8 images per message reached"}})
	golden(t, "images_manifest", got, tree{})
	skippedOnly := ImagesManifest(nil, []SkippedImage{{Path: "/a.png", Reason: "could not be decoded"}})
	if strings.Contains(skippedOnly, "SEE") || strings.Contains(skippedOnly, "NO vision") {
		t.Errorf("skipped-only manifest carries a vision directive:\n%s", skippedOnly)
	}
}

func TestSizeLabel(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KB"}, {12595, "12.3 KB"},
		{5 * 1024 * 1024, "5.0 MB"}, {3 << 30, "3.0 GB"},
	}
	for _, tc := range tests {
		if got := SizeLabel(tc.n); got != tc.want {
			t.Errorf("SizeLabel(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// Shortening the oldest turns keeps each request's and answer's head, cut
// at a space near the cut, and says how much was kept; short ones and the
// newer turns render unchanged.
func TestFoldedConversationSoFarShortensAnswers(t *testing.T) {
	long := strings.Repeat("word ", 200) // 1,000 characters
	turns := []TurnRecap{
		{Position: 1, Request: "tiny", Answer: long + "end", Status: StatusDone},
		{Position: 2, Request: long, Answer: "short answer", Status: StatusDone},
		{Position: 3, Request: "third", Answer: long + "é end", Status: StatusDone},
	}
	got := FoldedConversationSoFar(turns, RecapFold{Answers: 2})
	head := strings.TrimSpace(strings.Repeat("word ", RecapHeadChars/5))
	want := ";; -- CONVERSATION-SO-FAR --\n" +
		"# ── turn 1 ──\nuser asked:\ntiny\nyou answered:\n" + head + "\n" + ShortenedLine(len(head), 1003) + "\n\n" +
		"# ── turn 2 ──\nuser asked:\n" + head + "\n" + ShortenedLine(len(head), 999) + "\nyou answered:\nshort answer\n\n" +
		"# ── turn 3 ──\nuser asked:\nthird\nyou answered:\n" + long + "é end\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("two of three shortened (-want +got):\n%s", diff)
	}
	// Characters, not bytes: a head of multi-byte text is cut between runes.
	if h := headOf(strings.Repeat("é", 500), 400); !strings.HasPrefix(h, strings.Repeat("é", 400)+"\n") || !strings.Contains(h, "400 of 500 characters kept") {
		t.Errorf("head of multi-byte text = %.60q…", h)
	}
}

// Dropping the oldest turns to fit the context window leaves one line that
// names them; the newer turns and the current request render unchanged.
func TestFoldedConversationSoFar(t *testing.T) {
	turns := []TurnRecap{
		{Position: 1, Request: "first", Answer: "one", Status: StatusDone},
		{Position: 2, Request: "second", Answer: "two", Status: StatusDone},
		{Position: 3, Request: "third", Ran: []string{"print(3)"}, Answer: "three", Status: StatusDone},
	}
	want := ";; -- CONVERSATION-SO-FAR --\n" +
		"# ⋯ dropped turn(s) 1–2 to fit the context window\n" +
		"\n" +
		"# ── turn 3 ──\n" +
		"user asked:\n" +
		"third\n" +
		"you ran:\n" +
		"  print(3)\n" +
		"you answered:\n" +
		"three\n"
	if diff := cmp.Diff(want, FoldedConversationSoFar(turns, RecapFold{Drop: 2})); diff != "" {
		t.Errorf("two of three dropped (-want +got):\n%s", diff)
	}
	if got := FoldedConversationSoFar(turns, RecapFold{Drop: 1}); !strings.HasPrefix(got, ";; -- CONVERSATION-SO-FAR --\n# ⋯ dropped turn(s) 1 to fit the context window\n\n# ── turn 2 ──\n") {
		t.Errorf("one dropped:\n%s", got)
	}
	if got, want := FoldedConversationSoFar(turns, RecapFold{Programs: 9, Drop: 9}), ";; -- CONVERSATION-SO-FAR --\n# ⋯ dropped turn(s) 1–3 to fit the context window\n"; got != want {
		t.Errorf("all dropped = %q, want %q", got, want)
	}
	if FoldedConversationSoFar(turns, RecapFold{}) != ConversationSoFar(turns) || FoldedConversationSoFar(turns, RecapFold{Programs: -1, Drop: -1}) != ConversationSoFar(turns) {
		t.Error("dropping nothing changed the recap")
	}
	msgs := InitialMessages([]chat.Message{chat.System("S")}, UserInput{Text: "now this", Previous: turns, Fold: RecapFold{Drop: 2}})
	user := msgs[len(msgs)-1].Content
	if !strings.HasPrefix(user, want) || !strings.HasSuffix(user, ";; -- CURRENT-USER-MESSAGE --\nnow this\n") || strings.Contains(user, "first") {
		t.Errorf("initial user message with two turns dropped:\n%s", user)
	}
}

// Folding programs to fit the context window keeps every request and
// every answer: only the oldest turns' `you ran:` lines give way, one line
// each saying how many programs were folded.
func TestFoldedConversationSoFarPrograms(t *testing.T) {
	turns := []TurnRecap{
		{Position: 1, Request: "first", Ran: []string{"print(1)", "print(11)"}, Answer: "one", Status: StatusDone},
		{Position: 2, Request: "second", Answer: "two", Status: StatusDone},
		{Position: 3, Request: "third", Ran: []string{"print(3)"}, Status: StatusInterrupted},
		{Position: 4, Request: "fourth", Ran: []string{"print(4)"}, Answer: "four", Status: StatusDone},
	}
	want := Block("conversation-so-far", strings.Join([]string{
		"# ── turn 1 ──\nuser asked:\nfirst\nyou ran:\n" + ProgramsFoldedLine(2) + "\nyou answered:\none",
		"# ── turn 2 ──\nuser asked:\nsecond\nyou answered:\ntwo",
		"# ── turn 3 ──\nuser asked:\nthird\nyou ran:\n" + ProgramsFoldedLine(1) + "\n" + interruptedNote,
		"# ── turn 4 ──\nuser asked:\nfourth\nyou ran:\n  print(4)\nyou answered:\nfour",
	}, "\n\n"))
	got := FoldedConversationSoFar(turns, RecapFold{Programs: 3})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("programs of three turns folded (-want +got):\n%s", diff)
	}
	if !strings.Contains(ProgramsFoldedLine(2), "2 program(s) folded") {
		t.Errorf("ProgramsFoldedLine(2) = %q", ProgramsFoldedLine(2))
	}
	if all := FoldedConversationSoFar(turns, RecapFold{Programs: 9}); strings.Contains(all, "print(") || strings.Count(all, "you answered:") != 3 {
		t.Errorf("every program folded:\n%s", all)
	}
}

// Folds (fold_session): whole turns become one `# ⋯ folded turn(s)` line
// where the first of them would be; folded iterations of a turn become one
// `(folded) <gist>` line in place of their `you ran:` lines; the rest of
// the recap is untouched.
func TestConversationSoFarFolds(t *testing.T) {
	both := &TurnFold{Turns: []int{1, 3}, Gist: "VAT rounding found in cart/total.go:41; changelog read"}
	turns := recapTurns()
	turns[0].Folded, turns[2].Folded = both, both
	turns[1].Ran = []string{"print(1)", "patch(\"cart/total.go\", old=\"round(v)\", new=\"v\")", "print(3)", "print(4)"}
	turns[1].RanAt = []int{1, 2, 4, 5}
	turns[1].IterFolds = []IterFold{{From: 1, To: 2, Gist: "old gist"}, {From: 1, To: 3, Gist: "patched total.go: round once"}, {From: 5, To: 6, Gist: "ran the suite: green"}}
	turns = append(turns, TurnRecap{Position: 5, Request: "and then?", Answer: "done", Status: StatusDone,
		IterFolds: []IterFold{{From: 1, To: 1, Gist: "an answer-only iteration"}}})
	got := ConversationSoFar(turns)
	want := Block("conversation-so-far", strings.Join([]string{
		"# ⋯ folded turn(s) 1, 3 · VAT rounding found in cart/total.go:41; changelog read",
		"# ── turn 2 ──\nuser asked:\nFix it and run the whole suite.\nyou ran:\n  (folded) patched total.go: round once\n  print(3)\n  (folded) ran the suite: green\n" + interruptedNote,
		"# ── turn 5 ──\nuser asked:\nand then?\nyou ran:\n  (folded) an answer-only iteration\nyou answered:\ndone",
	}, "\n\n"))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("folded recap (-want +got):\n%s", diff)
	}
	// Dropping turn 1 keeps the fold's line: turn 3 is still in the recap.
	dropped := FoldedConversationSoFar(turns, RecapFold{Drop: 1})
	if !strings.Contains(dropped, "# ⋯ dropped turn(s) 1 to fit") || strings.Count(dropped, "# ⋯ folded turn(s) 1, 3") != 1 {
		t.Errorf("recap with turn 1 dropped:\n%s", dropped)
	}
	if all := FoldedConversationSoFar(turns[:3], RecapFold{Drop: 3}); strings.Contains(all, "folded") {
		t.Errorf("a fold of dropped turns survived:\n%s", all)
	}
}
