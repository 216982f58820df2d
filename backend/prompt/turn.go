package prompt

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/chat"
)

// Statuses of a prior turn, as TurnRecap.Status.
const (
	StatusDone        = "done"
	StatusError       = "error"
	StatusCancelled   = "cancelled"
	StatusInterrupted = "interrupted"
	StatusHalted      = "halted"
)

// ranLineMax caps each `you ran:` line of the recap.
const ranLineMax = 90

// Notes closing a prior turn that produced no answer.
const (
	interruptedNote = "⚠ this turn was INTERRUPTED before it finished — you produced NO answer. The work above is unfinished; continue it."
	cancelledNote   = "<turn_cancelled>The user cancelled this turn. The programs that completed and their results still stand; do not redo settled work. Whatever was in flight was aborted. Follow the latest user request.</turn_cancelled>"
	errorNote       = "⚠ this turn ended with an ERROR before you produced an answer. The work above is unfinished; check its state before building on it."
	haltedNote      = "⚠ this turn was HALTED (a budget or stop limit) before you produced an answer. The work above is unfinished; continue it if the latest request asks for it."
)

// ReasonNoVision is the SkippedImage reason for an image the active model
// cannot see (NoVision).
const ReasonNoVision = "the active model has no vision — image not attached"

// TurnRecap is one finished prior turn of the session, for the
// CONVERSATION-SO-FAR block.
type TurnRecap struct {
	// Position is the turn's stored number (1-based); 0 means its index + 1.
	Position int
	Request  string
	// Answer is the final answer, rendered in full.
	Answer string
	// Status is StatusDone, StatusError, StatusCancelled,
	// StatusInterrupted or StatusHalted.
	Status string
	// Ran holds the source of each executed program, in order.
	Ran []string
	// RanAt holds the iteration of each Ran entry (same length), when known:
	// IterFolds need it.
	RanAt []int
	// Folded, when set, is the fold_session fold that covers this whole
	// turn: the turn renders only as that fold's FoldedTurnsLine, once,
	// where the first of its turns still in the recap would be.
	Folded *TurnFold
	// IterFolds are fold_session folds of some of this turn's iterations,
	// oldest first (the newest covering an iteration wins): their `you ran:`
	// lines become one `(folded) <gist>` line per fold.
	IterFolds []IterFold
}

// TurnFold is a fold that covers whole prior turns. The TurnRecap of each
// turn it covers points at the same TurnFold.
type TurnFold struct {
	Turns []int // positions, oldest first
	Gist  string
}

// IterFold is a fold of iterations From..To of one prior turn.
type IterFold struct {
	From, To int
	Gist     string
}

// FoldedTurnsLine is the line that stands for turns folded whole:
// `# ⋯ folded turn(s) 1, 2 · <gist>`.
func FoldedTurnsLine(f *TurnFold) string {
	nums := make([]string, len(f.Turns))
	for i, t := range f.Turns {
		nums[i] = strconv.Itoa(t)
	}
	return "# ⋯ folded turn(s) " + strings.Join(nums, ", ") + " · " + f.Gist
}

// ranLines renders the `you ran:` lines of a turn: one per program, the
// programs of a folded iteration replaced by one `(folded) <gist>` line
// per fold (consecutive ones merged); a fold that covers no program is
// listed after them unless a newer fold covers all of it.
func (t TurnRecap) ranLines() []string {
	foldOf := func(iter int) int {
		for f := len(t.IterFolds) - 1; f >= 0; f-- {
			if iter >= t.IterFolds[f].From && iter <= t.IterFolds[f].To {
				return f
			}
		}
		return -1
	}
	var out []string
	used := map[int]bool{}
	last := -1
	for j, src := range t.Ran {
		f := -1
		if j < len(t.RanAt) {
			f = foldOf(t.RanAt[j])
		}
		if f >= 0 {
			if f != last {
				out = append(out, "  (folded) "+t.IterFolds[f].Gist)
				used[f] = true
			}
			last = f
			continue
		}
		last = -1
		if l := oneLine(src, ranLineMax); l != "" {
			out = append(out, "  "+l)
		}
	}
	for f, fold := range t.IterFolds {
		if used[f] {
			continue
		}
		shadowed := false
		for g := f + 1; g < len(t.IterFolds); g++ {
			if t.IterFolds[g].From <= fold.From && fold.To <= t.IterFolds[g].To {
				shadowed = true
			}
		}
		if !shadowed {
			out = append(out, "  (folded) "+fold.Gist)
		}
	}
	return out
}

// ConversationSoFar renders every prior turn oldest to newest (spec §2.6) as
// `user asked:` / `you ran:` / `you answered:` sections under
// `# ── turn <n> ──`, wrapped in a CONVERSATION-SO-FAR block. Answers are
// never truncated; each program is one line, whitespace collapsed, capped at
// 90 characters. A turn without an answer that was interrupted, cancelled,
// errored or halted ends with a note saying so (the cancelled one is the
// `<turn_cancelled>…</turn_cancelled>` marker). Turns with no request, no
// programs and no answer are left out. "" when nothing is left.
func ConversationSoFar(turns []TurnRecap) string {
	return FoldedConversationSoFar(turns, RecapFold{})
}

// RecapFold is how much of CONVERSATION-SO-FAR gives way to fit the
// context window, in the order it gives way: first the programs of the
// oldest Programs prior turns (each turn's `you ran:` lines become one
// ProgramsFoldedLine; its request and answer stay), then the oldest
// Answers turns' requests and answers keep their heads (RecapHeadChars
// each, a ShortenedLine saying how much was cut: every turn and every
// answer is still there), and only when that does not fit either, the
// oldest Drop prior turns whole (one DroppedTurnsLine).
type RecapFold struct {
	Programs int
	Answers  int
	Drop     int
}

// RecapHeadChars is how many characters of a request or an answer a turn
// shortened to fit the context window keeps.
const RecapHeadChars = 400

// ShortenedLine follows a request or answer cut to its head to fit the
// context window: how much of it is kept.
func ShortenedLine(kept, total int) string {
	return fmt.Sprintf("  (⋯ shortened to fit the context window: %d of %d characters kept)", kept, total)
}

// headOf is s cut to about n characters, at the last line break or space
// of the cut's last fifth when there is one, with a ShortenedLine; s itself
// when it is no longer than n characters.
func headOf(s string, n int) string {
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s
	}
	cut := 0
	for i := range s {
		if cut == n {
			cut = i
			break
		}
		cut++
	}
	head := s[:cut]
	if k := strings.LastIndexAny(head, "\n "); k > len(head)*4/5 {
		head = head[:k]
	}
	head = strings.TrimRight(head, " \n")
	return head + "\n" + ShortenedLine(utf8.RuneCountInString(head), total)
}

// ProgramsFoldedLine stands for a prior turn's n programs when they were
// folded to fit the context window.
func ProgramsFoldedLine(n int) string {
	return fmt.Sprintf("  (%d program(s) folded to fit the context window)", n)
}

// DroppedTurnsLine is the line that stands for the oldest prior turns when
// they were dropped from CONVERSATION-SO-FAR to fit the context window:
// `# ⋯ dropped turn(s) 1–4 to fit the context window` (one number when
// first == last).
func DroppedTurnsLine(first, last int) string {
	span := strconv.Itoa(first)
	if last != first {
		span += "–" + strconv.Itoa(last)
	}
	return "# ⋯ dropped turn(s) " + span + " to fit the context window"
}

// FoldedConversationSoFar renders CONVERSATION-SO-FAR like ConversationSoFar
// with fold applied: the `you ran:` lines of the oldest fold.Programs turns
// replaced by one ProgramsFoldedLine each, the requests and answers of the
// oldest fold.Answers turns cut to their heads, and the oldest fold.Drop turns
// replaced by one DroppedTurnsLine naming their positions (a last resort:
// it drops answers). Counts <= 0 fold nothing; counts beyond len(turns)
// fold them all. Turns folded by fold_session render as their fold's line
// (TurnRecap.Folded, IterFolds) either way.
func FoldedConversationSoFar(turns []TurnRecap, fold RecapFold) string {
	drop := min(max(fold.Drop, 0), len(turns))
	var sections []string
	if drop > 0 {
		sections = append(sections, DroppedTurnsLine(recapPosition(turns, 0), recapPosition(turns, drop-1)))
	}
	folded := map[*TurnFold]bool{}
	for i, t := range turns {
		if i < drop {
			continue
		}
		if t.Folded != nil {
			if !folded[t.Folded] {
				folded[t.Folded] = true
				sections = append(sections, FoldedTurnsLine(t.Folded))
			}
			continue
		}
		req := strings.TrimSpace(t.Request)
		ans := strings.TrimSpace(t.Answer)
		ran := t.ranLines()
		if len(t.Ran) > 0 && i < fold.Programs {
			ran = []string{ProgramsFoldedLine(len(t.Ran))}
		}
		if i < fold.Answers {
			req, ans = headOf(req, RecapHeadChars), headOf(ans, RecapHeadChars)
		}
		if req == "" && ans == "" && len(ran) == 0 {
			continue
		}
		lines := []string{"# ── turn " + strconv.Itoa(recapPosition(turns, i)) + " ──"}
		if req != "" {
			lines = append(lines, "user asked:", req)
		}
		if len(ran) > 0 {
			lines = append(lines, "you ran:")
			lines = append(lines, ran...)
		}
		if ans != "" {
			lines = append(lines, "you answered:", ans)
		} else {
			switch t.Status {
			case StatusInterrupted:
				lines = append(lines, interruptedNote)
			case StatusCancelled:
				lines = append(lines, cancelledNote)
			case StatusError:
				lines = append(lines, errorNote)
			case StatusHalted:
				lines = append(lines, haltedNote)
			}
		}
		sections = append(sections, strings.Join(lines, "\n"))
	}
	return Block("conversation-so-far", strings.Join(sections, "\n\n"))
}

// recapPosition is the number of turns[i]: its Position, else i + 1.
func recapPosition(turns []TurnRecap, i int) int {
	if n := turns[i].Position; n > 0 {
		return n
	}
	return i + 1
}

// Image is one image attached to the user message. DataURL is the
// `data:<mime>;base64,…` URL sent to the provider.
type Image struct {
	Path    string
	MIME    string
	Size    int64
	DataURL string
}

// SkippedImage is an image named in the manifest but not sent, with why.
type SkippedImage struct {
	Path   string
	Reason string
}

// UserInput is the user side of one turn.
type UserInput struct {
	Text     string
	Previous []TurnRecap
	// Fold is how much of Previous gives way to fit the model's window
	// (FoldedConversationSoFar): programs first, whole turns last. The
	// zero value renders every turn in full.
	Fold    RecapFold
	Images  []Image
	Skipped []SkippedImage
	// SessionDelta is what changed in the `session` dict since the model last
	// saw it (the standing block plus the deltas of earlier turns, which the
	// recap does not carry): `session[...] = ...` lines.
	SessionDelta []string
}

// NoVision returns in with every attached image moved to Skipped with
// ReasonNoVision, for a model that cannot see images: no image part is sent
// and the manifest tells the model it cannot see them.
func NoVision(in UserInput) UserInput {
	out := in
	out.Images = nil
	out.Skipped = make([]SkippedImage, 0, len(in.Images)+len(in.Skipped))
	for _, im := range in.Images {
		out.Skipped = append(out.Skipped, SkippedImage{Path: im.Path, Reason: ReasonNoVision})
	}
	out.Skipped = append(out.Skipped, in.Skipped...)
	return out
}

// InitialMessages returns the messages that open a turn (spec §2.3): the
// stable messages, then one user message whose text is, joined by blank
// lines, CONVERSATION-SO-FAR (when there are prior turns), SESSION-DELTA
// (when the session dict moved since the model saw it), CURRENT-USER-MESSAGE
// and ATTACHED-IMAGES (when images are attached or skipped). With images the
// message carries Parts: one image_url part per image first, the text part
// last; without, it is a plain Content string. A blank Text gives no user
// message at all: images cannot ride alone. An image whose DataURL is not a
// data: URL is not sent and is listed as skipped instead.
func InitialMessages(stable []chat.Message, in UserInput) []chat.Message {
	msgs := make([]chat.Message, 0, len(stable)+1)
	msgs = append(msgs, stable...)
	if strings.TrimSpace(in.Text) == "" {
		return msgs
	}
	var images []Image
	skipped := make([]SkippedImage, 0, len(in.Skipped))
	for _, im := range in.Images {
		if !strings.HasPrefix(im.DataURL, "data:") {
			skipped = append(skipped, SkippedImage{Path: im.Path, Reason: "no image data was prepared — image not attached"})
			continue
		}
		images = append(images, im)
	}
	skipped = append(skipped, in.Skipped...)

	text := joinNonBlank("\n",
		FoldedConversationSoFar(in.Previous, in.Fold),
		Block("session-delta", strings.Join(in.SessionDelta, "\n")),
		Block("current-user-message", trimBlankLines(in.Text)),
		ImagesManifest(images, skipped),
	)
	if len(images) == 0 {
		return append(msgs, chat.User(text))
	}
	parts := make([]chat.Part, 0, len(images)+1)
	for _, im := range images {
		parts = append(parts, chat.Part{Type: "image_url", ImageURL: im.DataURL})
	}
	parts = append(parts, chat.Part{Type: "text", Text: text})
	return append(msgs, chat.Message{Role: chat.RoleUser, Parts: parts})
}

// ImagesManifest renders the ATTACHED-IMAGES block (spec §2.7): a directive,
// then `- image <i>: <path> (<mime>, <size>) — attached to this message` for
// each attached image and `- <path> — NOT attached: <reason>` for each
// skipped one. With any image attached the directive says the model can see
// them; with none attached and some skipped for lack of vision it says the
// model cannot. "" when both lists are empty.
func ImagesManifest(images []Image, skipped []SkippedImage) string {
	if len(images) == 0 && len(skipped) == 0 {
		return ""
	}
	var b strings.Builder
	if len(images) > 0 {
		b.WriteString("You can SEE these images: they ride this message as image blocks, so look at them directly. " +
			"Do not try to read an image file with `cat` or `shell` to learn what it shows; that gives bytes, never meaning.\n\n")
	} else {
		for _, s := range skipped {
			if s.Reason == ReasonNoVision {
				b.WriteString("The active model has NO vision: the images below are NOT attached and you canNOT see them. " +
					"The files are real, but your tools cannot show their pixels; do not guess what they show. " +
					"Say that a vision-capable model is needed for their content, and use their paths and names only.\n\n")
				break
			}
		}
	}
	var rows []string
	for i, im := range images {
		rows = append(rows, fmt.Sprintf("- image %d: %s (%s, %s) — attached to this message", i+1, im.Path, im.MIME, SizeLabel(im.Size)))
	}
	for _, s := range skipped {
		rows = append(rows, fmt.Sprintf("- %s — NOT attached: %s", s.Path, s.Reason))
	}
	b.WriteString(strings.Join(rows, "\n"))
	return Block("attached-images", b.String())
}

// SizeLabel renders a byte count for people: "512 B", "12.3 KB", "4.0 MB"
// (1 KB = 1024 bytes).
func SizeLabel(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return fmt.Sprintf("%.1f KB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1f MB", float64(n)/(k*k))
	default:
		return fmt.Sprintf("%.1f GB", float64(n)/(k*k*k))
	}
}

// trimBlankLines drops leading blank lines and trailing whitespace, keeping
// the first line's indentation.
func trimBlankLines(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			return s
		}
		s = s[i+1:]
	}
}
