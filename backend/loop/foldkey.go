package loop

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/visdesktop/vis/backend/store"
)

// Fold keys (spec §1.1, §2.10 item 6) name settled work for
// fold_session(key, gist):
//
//	t2          turn 2, whole (its request and answer included)
//	t2/i5       iteration 5 of turn 2
//	t2/i1-i9    iterations 1..9 of turn 2
//	t1-t3       turns 1..3; t1/i4-t2/i2 runs across turns
//	-t2/i9      everything up to and including t2/i9
//	t2/i5-      everything from t2/i5 up to the newest settled iteration
//	t1, t3/i2   a comma union of any of these
//
// A legacy `/fK` form suffix (t2/i5/f1) is accepted and names its
// iteration. Only settled work folds: every iteration of a finished turn,
// and the iterations of the running turn before the running one. A finished
// turn all of whose iterations a key covers is folded whole.

// FoldGrammar is the key grammar in one line, for refusals and doc().
const FoldGrammar = `t2 (a turn), t2/i5 (an iteration), t2/i1-i9 (a range), t1-t3 (turns), -t2/i9 (everything up to), t2/i5- (everything from), and comma unions such as "t1, t3/i2-i4"`

// MaxGistChars bounds a fold's gist.
const MaxGistChars = 500

// ErrFoldKey is wrapped by every refusal of a fold key or gist.
var ErrFoldKey = errors.New("fold_session refused")

// SettledTurn is a finished turn and how many iterations it has.
type SettledTurn struct {
	Turn, Iters int
}

// Settled is the work of a session a fold key can name: its finished turns
// and the running turn, whose iterations before Running are settled.
type Settled struct {
	Turns   []SettledTurn // finished turns, by position
	Current int           // the running turn's position (0: none)
	Running int           // the running iteration of Current
}

// Range describes the settled work for a refusal: "t1–t3 and t4/i1–i5
// are settled".
func (s Settled) Range() string {
	var parts []string
	if n := len(s.Turns); n == 1 {
		parts = append(parts, fmt.Sprintf("t%d", s.Turns[0].Turn))
	} else if n > 1 {
		parts = append(parts, fmt.Sprintf("t%d–t%d", s.Turns[0].Turn, s.Turns[n-1].Turn))
	}
	if s.Current > 0 && s.Running > 2 {
		parts = append(parts, fmt.Sprintf("t%d/i1–i%d", s.Current, s.Running-1))
	} else if s.Current > 0 && s.Running == 2 {
		parts = append(parts, fmt.Sprintf("t%d/i1", s.Current))
	}
	running := ""
	if s.Current > 0 && s.Running > 0 {
		running = fmt.Sprintf("; t%d/i%d is running", s.Current, s.Running)
	}
	switch len(parts) {
	case 0:
		return "nothing is settled yet" + running
	case 1:
		return parts[0] + " is settled" + running
	}
	return strings.Join(parts, " and ") + " are settled" + running
}

// pos is a point in the session's work: iteration Iter of turn Turn.
// Iter 0 is the turn's start (before its first iteration, where its request
// is) and math.MaxInt its end (where its answer is).
type pos struct{ turn, iter int }

func (a pos) less(b pos) bool {
	return a.turn < b.turn || (a.turn == b.turn && a.iter < b.iter)
}

const (
	turnStart = 0
	turnEnd   = math.MaxInt
)

// point is a parsed `tN` or `tN/iM`; iter 0 = the whole turn.
type point struct{ turn, iter int }

func (p point) String() string {
	if p.iter == 0 {
		return fmt.Sprintf("t%d", p.turn)
	}
	return fmt.Sprintf("t%d/i%d", p.turn, p.iter)
}

// keyItem is one comma-separated part of a key: the work from lo to hi.
// openLo / openHi mark `-B` and `A-`.
type keyItem struct {
	text           string
	lo, hi         point
	openLo, openHi bool
}

// FoldKey is a parsed fold key.
type FoldKey struct {
	items []keyItem
}

var (
	pointRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^t(\d+)(?:/i(\d+)(?:/f\d+)?)?$`) })
	iterRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^i(\d+)(?:/f\d+)?$`) })
)

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFoldKey, fmt.Sprintf(format, args...))
}

func parsePoint(s string) (point, bool) {
	m := pointRe().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return point{}, false
	}
	t, err := strconv.Atoi(m[1])
	if err != nil || t < 1 {
		return point{}, false
	}
	p := point{turn: t}
	if m[2] != "" {
		i, err := strconv.Atoi(m[2])
		if err != nil || i < 1 {
			return point{}, false
		}
		p.iter = i
	}
	return p, true
}

// ParseFoldKey parses a fold key (see FoldGrammar). Whitespace around
// commas and dashes is ignored; the key is case-insensitive.
func ParseFoldKey(key string) (FoldKey, error) {
	var k FoldKey
	if strings.TrimSpace(key) == "" {
		return k, refuse("the key is empty. Keys: %s.", FoldGrammar)
	}
	for _, raw := range strings.Split(strings.ToLower(key), ",") {
		text := strings.Join(strings.Fields(raw), "")
		if text == "" {
			return k, refuse("the key %q has an empty part between commas. Keys: %s.", key, FoldGrammar)
		}
		it := keyItem{text: text}
		bad := func() error {
			return refuse("%q is not a fold key. Keys: %s.", text, FoldGrammar)
		}
		switch {
		case strings.HasPrefix(text, "-"):
			p, ok := parsePoint(text[1:])
			if !ok {
				return k, bad()
			}
			it.openLo, it.hi = true, p
		case strings.HasSuffix(text, "-"):
			p, ok := parsePoint(text[:len(text)-1])
			if !ok {
				return k, bad()
			}
			it.lo, it.openHi = p, true
		case strings.Contains(text, "-"):
			a, b, _ := strings.Cut(text, "-")
			lo, ok := parsePoint(a)
			if !ok {
				return k, bad()
			}
			hi, ok := parsePoint(b)
			if !ok {
				m := iterRe().FindStringSubmatch(b)
				if m == nil || lo.iter == 0 {
					return k, bad() // `iM` as an end needs `tN/iK` as the start
				}
				i, err := strconv.Atoi(m[1])
				if err != nil || i < 1 {
					return k, bad()
				}
				hi = point{turn: lo.turn, iter: i}
			}
			it.lo, it.hi = lo, hi
		default:
			p, ok := parsePoint(text)
			if !ok {
				return k, bad()
			}
			it.lo, it.hi = p, p
		}
		backwards := it.hi.turn < it.lo.turn || (it.hi.turn == it.lo.turn && it.lo.iter > 0 && it.hi.iter > 0 && it.hi.iter < it.lo.iter)
		if !it.openLo && !it.openHi && backwards {
			return k, refuse("%q runs backwards; write the older end first. Keys: %s.", text, FoldGrammar)
		}
		k.items = append(k.items, it)
	}
	return k, nil
}

// Resolve checks the key against the settled work and returns what it
// covers as normalised spans (by turn; whole turns as From = To = 0) and
// the normalised key that names exactly them. It refuses a key that names a
// turn or iteration that does not exist, the running iteration or anything
// after it, or nothing at all; the refusal names the grammar and the valid
// range.
func (k FoldKey) Resolve(s Settled) ([]store.FoldSpan, string, error) {
	iters := map[int]int{} // turn -> settled iterations
	finished := map[int]bool{}
	var order []int
	for _, t := range s.Turns {
		iters[t.Turn], finished[t.Turn] = t.Iters, true
		order = append(order, t.Turn)
	}
	if s.Current > 0 {
		iters[s.Current] = max(s.Running-1, 0)
		order = append(order, s.Current)
	}
	sort.Ints(order)
	where := func() string { return s.Range() + ". Keys: " + FoldGrammar + "." }
	check := func(text string, p point) error {
		n, ok := iters[p.turn]
		switch {
		case !ok:
			return refuse("%q names turn %d, which does not exist: %s", text, p.turn, where())
		case p.turn == s.Current && p.iter == 0:
			return refuse("%q names the running turn %d, which cannot fold while it runs; fold its settled iterations instead: %s", text, p.turn, where())
		case p.turn == s.Current && p.iter == s.Running:
			return refuse("%q names t%d/i%d, the iteration running now, which is not settled: %s", text, p.turn, p.iter, where())
		case p.iter > n:
			return refuse("%q names t%d/i%d, which does not exist (turn %d has %d settled iteration(s)): %s", text, p.turn, p.iter, p.turn, n, where())
		}
		return nil
	}
	covered := map[int]map[int]bool{} // turn -> iterations
	whole := map[int]bool{}           // iteration-less finished turns named whole
	for _, it := range k.items {
		var lo, hi pos
		if it.openLo {
			lo = pos{0, turnStart}
		} else {
			if err := check(it.text, it.lo); err != nil {
				return nil, "", err
			}
			lo = pos{it.lo.turn, it.lo.iter}
		}
		if it.openHi {
			hi = pos{math.MaxInt, turnEnd}
			if s.Current > 0 {
				hi = pos{s.Current, s.Running - 1}
			}
		} else {
			if err := check(it.text, it.hi); err != nil {
				return nil, "", err
			}
			hi = pos{it.hi.turn, it.hi.iter}
			if it.hi.iter == 0 {
				hi.iter = turnEnd
			}
		}
		if hi.less(lo) {
			return nil, "", refuse("%q covers nothing settled: %s", it.text, where())
		}
		for _, t := range order {
			if finished[t] && iters[t] == 0 && !(pos{t, turnStart}).less(lo) && !hi.less(pos{t, turnEnd}) {
				whole[t] = true
			}
			for i := 1; i <= iters[t]; i++ {
				if p := (pos{t, i}); !p.less(lo) && !hi.less(p) {
					if covered[t] == nil {
						covered[t] = map[int]bool{}
					}
					covered[t][i] = true
				}
			}
		}
	}
	var spans []store.FoldSpan
	for _, t := range order {
		c := covered[t]
		if whole[t] || (finished[t] && iters[t] > 0 && len(c) == iters[t]) {
			spans = append(spans, store.FoldSpan{Turn: t})
			continue
		}
		for i := 1; i <= iters[t]; i++ {
			if !c[i] {
				continue
			}
			if n := len(spans); n > 0 && spans[n-1].Turn == t && spans[n-1].To == i-1 {
				spans[n-1].To = i
				continue
			}
			spans = append(spans, store.FoldSpan{Turn: t, From: i, To: i})
		}
	}
	if len(spans) == 0 {
		return nil, "", refuse("%q covers no settled iteration: %s", k.text(), where())
	}
	return spans, SpansKey(spans), nil
}

func (k FoldKey) text() string {
	var parts []string
	for _, it := range k.items {
		parts = append(parts, it.text)
	}
	return strings.Join(parts, ",")
}

// SpansKey renders spans as the key that names exactly them: runs of whole
// consecutive turns as `t1-t3`, a whole turn as `t2`, iterations as
// `t4/i1-i3` or `t4/i2`, joined by commas.
func SpansKey(spans []store.FoldSpan) string {
	var parts []string
	for i := 0; i < len(spans); i++ {
		sp := spans[i]
		if sp.Whole() {
			j := i
			for j+1 < len(spans) && spans[j+1].Whole() && spans[j+1].Turn == spans[j].Turn+1 {
				j++
			}
			if j > i {
				parts = append(parts, fmt.Sprintf("t%d-t%d", sp.Turn, spans[j].Turn))
			} else {
				parts = append(parts, fmt.Sprintf("t%d", sp.Turn))
			}
			i = j
			continue
		}
		parts = append(parts, iterSpanKey(sp.Turn, sp.From, sp.To))
	}
	return strings.Join(parts, ",")
}

func iterSpanKey(turn, from, to int) string {
	if from == to {
		return fmt.Sprintf("t%d/i%d", turn, from)
	}
	return fmt.Sprintf("t%d/i%d-i%d", turn, from, to)
}

// CheckGist returns the gist trimmed, or a refusal when it is empty, longer
// than MaxGistChars characters or more than one line.
func CheckGist(gist string) (string, error) {
	g := strings.TrimSpace(gist)
	switch n := len([]rune(g)); {
	case n == 0:
		return "", refuse("the gist is empty: give one line (1–%d characters) with what the folded work found or changed — paths, decisions, results. A gist is all that survives.", MaxGistChars)
	case n > MaxGistChars:
		return "", refuse("the gist has %d characters; keep it to one line of at most %d.", n, MaxGistChars)
	case strings.ContainsAny(g, "\r\n"):
		return "", refuse("the gist must be one line; join its points with '; '.")
	}
	return g, nil
}
