package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// PatchRequest selects one of patch's two modes: Old (a snippet that must
// occur exactly once) or Start/End (a line range, 1-based and inclusive,
// chosen when Start != 0; End == Start-1 inserts before Start). New is
// required in both; "" deletes.
type PatchRequest struct {
	Old   *string
	New   *string
	Start int
	End   int
}

// PatchResult is what patch returns. Start..End are the lines the new text
// occupies in the patched file (End == Start-1 when lines were only
// removed); Text shows the patched region with fresh line numbers.
type PatchResult struct {
	Path       string
	Start, End int
	TotalLines int
	Diff       string
	Text       string
}

const (
	diffContext  = 3
	maxDiffSide  = 200 // removed or added lines shown per diff side
	maxPatchText = 200 // numbered lines shown after a patch
)

// Patch edits one existing text file atomically. See the package doc for the
// staleness rule of line-range edits.
func (s *Set) Patch(ctx context.Context, p string, req PatchRequest) (PatchResult, error) {
	if err := ctx.Err(); err != nil {
		return PatchResult{}, fmt.Errorf("patch: %w", err)
	}
	if req.New == nil {
		return PatchResult{}, failf(KindInvalid, `pass new="..." with the replacement text (new="" deletes)`, "patch: new is required")
	}
	lineMode := req.Start != 0
	switch {
	case req.Old != nil && lineMode:
		return PatchResult{}, failf(KindInvalid, "use old=... to replace a unique snippet, or start=/end= to replace a line range, not both", "patch: both old and start/end given")
	case req.Old == nil && !lineMode:
		return PatchResult{}, failf(KindInvalid, `patch(path, old="exact text", new="replacement") or patch(path, start=10, end=12, new="...")`, "patch: give old=... or start=/end=")
	case req.Old != nil && *req.Old == "":
		return PatchResult{}, failf(KindInvalid, "old must be non-empty text copied from the file; to insert, use start=N, end=N-1", "patch: old is empty")
	}
	rel, err := s.rel(p)
	if err != nil {
		return PatchResult{}, err
	}
	data, err := s.readText("patch", rel)
	if err != nil {
		if IsKind(err, KindNotFound) {
			err.(*Error).Hint = fmt.Sprintf("patch edits existing files; create it with write(%q, content)", rel)
		}
		return PatchResult{}, err
	}
	var out []byte
	if req.Old != nil {
		out, err = replaceSnippet(rel, data, *req.Old, *req.New)
	} else {
		out, err = s.replaceLines(rel, data, req.Start, req.End, *req.New)
	}
	if err != nil {
		return PatchResult{}, err
	}
	if bytes.Equal(out, data) {
		return PatchResult{}, failf(KindInvalid, "new must differ from the text it replaces", "patch: the edit leaves %s unchanged", rel)
	}
	if _, err := s.writeAtomic("patch", rel, out); err != nil {
		return PatchResult{}, err
	}
	a, b := splitLines(data), splitLines(out)
	diff, start, end := diffHunk(rel, a, b)
	lo := max(1, start-diffContext)
	hi := min(len(b), max(end, start-1)+diffContext)
	if hi-lo+1 > maxPatchText {
		hi = lo + maxPatchText - 1
	}
	text := ""
	if hi >= lo {
		text = numbered(b, lo, hi)
	}
	return PatchResult{Path: rel, Start: start, End: end, TotalLines: len(b), Diff: diff, Text: text}, nil
}

func usesCRLF(data []byte) bool {
	i := bytes.IndexByte(data, '\n')
	return i > 0 && data[i-1] == '\r'
}

// catPrefix matches a line of old that starts with cat's line-number
// prefix ("12|"), for the hint; compiled on first use (package init is on
// every start's path).
var catPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^ *\d+\|`) })

// replaceSnippet replaces the single occurrence of old in data.
func replaceSnippet(rel string, data []byte, old, new string) ([]byte, error) {
	content := string(data)
	if usesCRLF(data) && strings.Contains(old, "\n") && !strings.Contains(old, "\r") {
		old = strings.ReplaceAll(old, "\n", "\r\n")
		new = strings.ReplaceAll(strings.ReplaceAll(new, "\r\n", "\n"), "\n", "\r\n")
	}
	var at []int
	for i := 0; ; {
		j := strings.Index(content[i:], old)
		if j < 0 {
			break
		}
		at = append(at, i+j)
		i += j + 1
	}
	switch len(at) {
	case 0:
		hint := "copy old exactly from a fresh cat (same indentation and whitespace), or edit by line range with start=/end="
		if catPrefix().MatchString(old) {
			hint = "old must not include the line-number prefix (\"12|\") that cat shows; copy only the text after it"
		}
		return nil, &Error{Kind: KindNoMatch, Hint: hint,
			Message: fmt.Sprintf("patch: old text not found in %s. %s", rel, nearMisses(splitLines(data), old))}
	case 1:
		return []byte(content[:at[0]] + new + content[at[0]+len(old):]), nil
	}
	lines := make([]string, len(at))
	for i, pos := range at {
		lines[i] = fmt.Sprint(1 + strings.Count(content[:pos], "\n"))
	}
	return nil, failf(KindAmbiguous,
		"include more surrounding lines in old so it occurs exactly once, or cat the region and edit by line range with start=/end=",
		"patch: old text occurs %d times in %s (starting at lines %s); it must occur exactly once", len(at), rel, strings.Join(lines, ", "))
}

// replaceLines replaces lines start..end (inclusive) with new, after the
// staleness check. end == start-1 inserts before start.
func (s *Set) replaceLines(rel string, data []byte, start, end int, new string) ([]byte, error) {
	h, ok := s.known(rel)
	if !ok {
		return nil, failf(KindStale, fmt.Sprintf("cat(%q) first, then patch with the line numbers it shows", rel),
			"patch: STALE: %s has not been read in this session, so its line numbers are unknown", rel)
	}
	if h != sha256.Sum256(data) {
		return nil, failf(KindStale, fmt.Sprintf("cat(%q) again (or the region you need) and use the fresh line numbers, or patch with old=... instead", rel),
			"patch: STALE: %s changed since you last read or wrote it; the line numbers you have may be wrong", rel)
	}
	lines := splitLines(data)
	total := len(lines)
	if start < 1 || start > total+1 || end < start-1 || end > total {
		return nil, failf(KindInvalid,
			fmt.Sprintf("%s has %d lines; replace lines with 1 <= start <= end <= %d, insert before line N with start=N, end=N-1 (N up to %d to append)", rel, total, total, total+1),
			"patch: line range start=%d end=%d is out of range", start, end)
	}
	var repl []string
	if new != "" {
		repl = strings.Split(strings.TrimSuffix(strings.ReplaceAll(new, "\r\n", "\n"), "\n"), "\n")
		if usesCRLF(data) {
			for i := range repl {
				repl[i] += "\r"
			}
		}
	}
	outLines := make([]string, 0, total-(end-start+1)+len(repl))
	outLines = append(outLines, lines[:start-1]...)
	outLines = append(outLines, repl...)
	outLines = append(outLines, lines[end:]...)
	if len(outLines) == 0 {
		return []byte{}, nil
	}
	out := strings.Join(outLines, "\n")
	if len(data) == 0 || data[len(data)-1] == '\n' {
		out += "\n"
	}
	return []byte(out), nil
}

// diffHunk renders a one-hunk unified diff of a -> b (the edit is one
// contiguous change) and returns the changed line range in b.
func diffHunk(rel string, a, b []string) (diff string, start, end int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	sfx := 0
	for sfx < len(a)-p && sfx < len(b)-p && a[len(a)-1-sfx] == b[len(b)-1-sfx] {
		sfx++
	}
	aEnd, bEnd := len(a)-sfx, len(b)-sfx
	from := max(0, p-diffContext)
	aTo := min(len(a), aEnd+diffContext)
	bTo := min(len(b), bEnd+diffContext)
	hdr := func(from, n int) string {
		if n == 0 {
			return fmt.Sprintf("%d,0", from)
		}
		return fmt.Sprintf("%d,%d", from+1, n)
	}
	var w strings.Builder
	fmt.Fprintf(&w, "--- a/%s\n+++ b/%s\n@@ -%s +%s @@\n", rel, rel, hdr(from, aTo-from), hdr(from, bTo-from))
	side := func(mark string, ls []string) {
		for i, l := range ls {
			if mark != " " && i == maxDiffSide {
				fmt.Fprintf(&w, "%s… %d more lines\n", mark, len(ls)-i)
				return
			}
			w.WriteString(mark + strings.TrimSuffix(l, "\r") + "\n")
		}
	}
	side(" ", a[from:p])
	side("-", a[p:aEnd])
	side("+", b[p:bEnd])
	side(" ", a[aEnd:aTo])
	return strings.TrimSuffix(w.String(), "\n"), p + 1, bEnd
}

// nearMisses describes where the file holds text resembling old, for a
// failed snippet patch.
func nearMisses(lines []string, old string) string {
	oldLines := splitLines([]byte(strings.ReplaceAll(old, "\r\n", "\n")))
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	// Trim blank lines at the edges of old for the comparisons.
	for len(oldLines) > 0 && norm(oldLines[0]) == "" {
		oldLines = oldLines[1:]
	}
	for len(oldLines) > 0 && norm(oldLines[len(oldLines)-1]) == "" {
		oldLines = oldLines[:len(oldLines)-1]
	}
	if len(oldLines) == 0 || len(lines) == 0 {
		return "The file has no similar text; cat it to see its current content."
	}
	// Same text, different whitespace?
	for i := 0; i+len(oldLines) <= len(lines); i++ {
		same := true
		for k, ol := range oldLines {
			if norm(lines[i+k]) != norm(ol) {
				same = false
				break
			}
		}
		if same {
			return fmt.Sprintf("It matches lines %d-%d only when whitespace is ignored (indentation or spacing differs); the exact text is:\n%s",
				i+1, i+len(oldLines), numbered(lines, i+1, i+len(oldLines)))
		}
	}
	// Otherwise find lines resembling old's most distinctive line.
	anchor := 0
	for k, ol := range oldLines {
		if len(strings.TrimSpace(ol)) > len(strings.TrimSpace(oldLines[anchor])) {
			anchor = k
		}
	}
	want := strings.TrimSpace(oldLines[anchor])
	type cand struct {
		line  int
		score float64
	}
	var cands []cand
	for i, l := range lines {
		if sc := dice(want, strings.TrimSpace(l)); sc >= 0.5 {
			cands = append(cands, cand{i, sc})
		}
	}
	if len(cands) == 0 {
		return "No line resembles it; cat the file to see its current content."
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var windows []string
	var shown [][2]int
	for _, c := range cands {
		if len(windows) == 2 {
			break
		}
		lo := max(1, c.line+1-anchor)
		hi := min(len(lines), lo+len(oldLines)-1)
		overlaps := false
		for _, r := range shown {
			if lo <= r[1] && hi >= r[0] {
				overlaps = true
			}
		}
		if overlaps {
			continue
		}
		shown = append(shown, [2]int{lo, hi})
		windows = append(windows, numbered(lines, lo, hi))
	}
	return "Nearest similar lines:\n" + strings.Join(windows, "\n...\n")
}

// dice is the Sørensen–Dice coefficient of the byte bigrams of a and b.
func dice(a, b string) float64 {
	if a == b {
		return 1
	}
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	grams := make(map[string]int, len(a))
	for i := 0; i+1 < len(a); i++ {
		grams[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+1 < len(b); i++ {
		g := b[i : i+2]
		if grams[g] > 0 {
			grams[g]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)-1+len(b)-1)
}
