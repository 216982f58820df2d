package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/visdesktop/vis/backend/sandbox/pylib"
	"github.com/visdesktop/vis/backend/sandbox/pyprep"
)

// ---- helper tracking and persistence ----

// Defs lists the helpers the session defined, in definition order.
func (in *Interp) Defs() []Def {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.defsLocked()
}

func (in *Interp) defsLocked() []Def {
	out := make([]Def, 0, len(in.defOrder))
	for _, n := range in.defOrder {
		out = append(out, *in.defs[n])
	}
	return out
}

var reImportLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(import|from)\s`) })

// recordDefs notes the top-level defs and imports of a successful block.
func (in *Interp) recordDefs(code string, f *syntax.File) {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if reImportLine().MatchString(l) {
			stmt := l
			for j := i + 1; strings.Count(stmt, "(") > strings.Count(stmt, ")") && j < len(lines); j++ {
				stmt += "\n" + lines[j]
			}
			for _, name := range pyprep.ImportBinds(stmt) {
				in.imports[name] = stmt
			}
		}
	}
	for _, st := range f.Stmts {
		d, ok := st.(*syntax.DefStmt)
		if !ok {
			continue
		}
		start, end := d.Span()
		src := defSource(lines, int(start.Line), int(end.Line))
		if src == "" {
			continue
		}
		in.setDef(&Def{Name: d.Name.Name, Signature: defSignature(src, d.Name.Name), Doc: defDoc(d), Source: src})
	}
}

func (in *Interp) setDef(d *Def) {
	if _, ok := in.defs[d.Name]; ok {
		// latest wins and moves to the end
		for i, n := range in.defOrder {
			if n == d.Name {
				in.defOrder = append(in.defOrder[:i], in.defOrder[i+1:]...)
				break
			}
		}
	}
	in.defs[d.Name] = d
	in.defOrder = append(in.defOrder, d.Name)
}

// defSource extracts lines [start, end] of the original code, trimming
// trailing lines that do not belong to the def body.
func defSource(lines []string, start, end int) string {
	if start < 1 || start > len(lines) {
		return ""
	}
	if end > len(lines) {
		end = len(lines)
	}
	indent := leadingSpace(lines[start-1])
	for end > start {
		l := lines[end-1]
		if strings.TrimSpace(l) == "" || len(leadingSpace(l)) <= len(indent) && !strings.HasPrefix(strings.TrimSpace(l), ")") {
			end--
			continue
		}
		break
	}
	var out []string
	for _, l := range lines[start-1 : end] {
		out = append(out, strings.TrimPrefix(l, indent))
	}
	return strings.Join(out, "\n")
}

func leadingSpace(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

func defSignature(src, name string) string {
	k := strings.Index(src, name+"(")
	if k < 0 {
		return name + "()"
	}
	depth := 0
	for i := k + len(name); i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return strings.Join(strings.Fields(src[k:i+1]), " ")
			}
		}
	}
	return name + "()"
}

func defDoc(d *syntax.DefStmt) string {
	if len(d.Body) == 0 {
		return ""
	}
	es, ok := d.Body[0].(*syntax.ExprStmt)
	if !ok {
		return ""
	}
	lit, ok := es.X.(*syntax.Literal)
	if !ok || lit.Token != syntax.STRING {
		return ""
	}
	s, _ := lit.Value.(string)
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

const defsHeader = "# Helpers defined by a Vis Desktop session; restored into new sandboxes.\n"

// renderDefs renders the persisted file: imports the helpers use, then the helpers.
func (in *Interp) renderDefs() string {
	defs := in.defsLocked()
	for {
		var body strings.Builder
		used := map[string]bool{}
		var importLines []string
		for _, name := range sortedKeys(in.imports) {
			re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
			for _, d := range defs {
				if re.MatchString(d.Source) {
					stmt := in.imports[name]
					if !used[stmt] {
						used[stmt] = true
						importLines = append(importLines, stmt)
					}
					break
				}
			}
		}
		body.WriteString(defsHeader)
		for _, l := range importLines {
			body.WriteString(l + "\n")
		}
		for _, d := range defs {
			body.WriteString("\n" + d.Source + "\n")
		}
		if body.Len() <= maxDefsSize || len(defs) <= 1 {
			return body.String()
		}
		defs = defs[1:] // over the cap: drop the oldest helper
	}
}

func (in *Interp) persistDefs() error {
	if in.opts.DefsPath == "" {
		return nil
	}
	if len(in.defOrder) == 0 {
		if err := os.Remove(in.opts.DefsPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove defs: %w", err)
		}
		return nil
	}
	text := in.renderDefs()
	if err := os.MkdirAll(filepath.Dir(in.opts.DefsPath), 0o755); err != nil {
		return fmt.Errorf("write defs: %w", err)
	}
	tmp := in.opts.DefsPath + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return fmt.Errorf("write defs: %w", err)
	}
	if err := os.Rename(tmp, in.opts.DefsPath); err != nil {
		return fmt.Errorf("write defs: %w", err)
	}
	return nil
}

// restoreDefs runs the persisted helpers into the fresh globals, skipping
// defs whose names collide with host builtins.
func (in *Interp) restoreDefs() error {
	data, err := os.ReadFile(in.opts.DefsPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read defs: %w", err)
	}
	code := string(data)
	src, err := pyprep.Rewrite(code)
	if err != nil {
		return fmt.Errorf("restore defs: %w", err)
	}
	f, err := fileOptions.Parse(defsFile, src, 0)
	if err != nil {
		return fmt.Errorf("restore defs: %w", err)
	}
	lines := strings.Split(code, "\n")
	for _, st := range f.Stmts {
		d, ok := st.(*syntax.DefStmt)
		if !ok || !in.reserved[d.Name.Name] {
			continue
		}
		start, end := d.Span()
		for l := int(start.Line); l <= int(end.Line) && l <= len(lines); l++ {
			lines[l-1] = "" // blank out, keeping line numbers
		}
	}
	code = strings.Join(lines, "\n")
	in.globals["session"] = starlark.NewDict(0)
	res, file := in.run(context.Background(), defsFile, code, Limits{})
	if res.Err != nil {
		return fmt.Errorf("restore defs: %s error: %s (line %d)", res.Err.Phase, res.Err.Message, res.Err.Line)
	}
	in.recordDefs(code, file)
	for _, d := range in.defs {
		d.Restored = true
	}
	return nil
}

// ---- doc, apropos, defs builtins ----

var sandboxDocs = map[string]string{
	"doc":     "doc(name) — the documentation of a tool, module, module function or helper; doc() lists every tool.\nReturns a string; a bare doc(...) line prints it.",
	"apropos": "apropos(text) — search tool, module and helper names and docs (case-insensitive).\nReturns a string with one `name — summary` line per match.",
	"defs":    "defs() — the helpers this session defined (name, signature, first docstring line, (restored) when loaded from a previous process); defs(name) returns one helper's source.",
}

var moduleDocs = map[string]string{
	"json":        "Python's json: dumps(obj, indent=, sort_keys=, ensure_ascii=, default=), loads(s). No file handles (dump/load).",
	"re":          "Python's re (regular expressions, regex) on RE2: search, match, fullmatch, findall, finditer, sub, subn, split, compile, escape; flags I M S X. No lookarounds or backreferences.",
	"math":        "Python's math: sqrt, floor, ceil, trunc, log, log2, log10, exp, pow, fabs, isclose, gcd, lcm, factorial, comb, perm, prod, fsum, hypot, trig, pi, e, tau, inf, nan.",
	"time":        "time(), time_ns(), monotonic(), perf_counter(), sleep(s) (stops on cancel), strftime(fmt).",
	"os":          "getcwd() (the workspace root), path, sep, environ (empty), getenv(). Files and processes go through the tools (cat, write, shell).",
	"os.path":     "join, basename, dirname, splitext, split, exists, isfile, isdir, abspath, relpath, normpath, isabs.",
	"collections": "Counter (most_common, update, subtract, total, elements), defaultdict, OrderedDict (= dict), namedtuple, deque (= list).",
	"textwrap":    "dedent, indent, wrap, fill, shorten.",
	"shlex":       "quote, split, join.",
	"sys":         "argv, version, platform, maxsize, stdout.write (prints), stderr.write (prints).",
	"datetime":    "datetime.now(), datetime(y, m, d, ...), date.today(); isoformat(), strftime(), timestamp(), year/month/day/...",
	"itertools":   "chain, chain.from_iterable, product, permutations, combinations, groupby (list of (key, list)), islice, accumulate, zip_longest.",
	"functools":   "reduce, partial, lru_cache/cache (no-ops).",
	"string":      "ascii_letters, ascii_lowercase, ascii_uppercase, digits, hexdigits, octdigits, punctuation, whitespace.",
	"random":      "random, uniform, randint, choice, shuffle, sample, seed.",
	"typing":      "names for annotations (annotations are ignored).",
	"hashlib":     "md5, sha1, sha256, sha512 with hexdigest(), digest(), update().",
	"base64":      "b64encode, b64decode, urlsafe_b64encode, urlsafe_b64decode (return bytes; .decode() gives str).",
	"copy":        "copy, deepcopy.",
	"statistics":  "mean, median, stdev.",
}

func summary(doc string) string {
	if i := strings.IndexByte(doc, '\n'); i >= 0 {
		doc = doc[:i]
	}
	return strings.TrimSpace(doc)
}

func (in *Interp) index() string {
	var b strings.Builder
	b.WriteString("Tools:\n")
	for _, bt := range in.builtins {
		fmt.Fprintf(&b, "  %s — %s\n", paramList(&bt), summary(bt.Doc))
	}
	b.WriteString("Discovery:\n")
	for _, n := range []string{"doc", "apropos", "defs"} {
		fmt.Fprintf(&b, "  %s\n", summary(sandboxDocs[n]))
	}
	b.WriteString("Modules (import them, or use them directly): " + strings.Join(in.py.ModuleNames(), ", ") + "\n")
	b.WriteString(in.namespaceIndex())
	if len(in.defOrder) > 0 {
		b.WriteString("Your helpers: " + strings.Join(in.defOrder, ", ") + " (defs() for details)\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (in *Interp) docOf(name string) (string, bool) {
	if b, ok := in.byName[name]; ok {
		return paramList(b) + "\n" + b.Doc, true
	}
	if d, ok := sandboxDocs[name]; ok {
		return d, true
	}
	if d, ok := in.defs[name]; ok {
		return d.Source, true
	}
	if d, ok := moduleDocs[name]; ok {
		return "module " + name + ": " + d, true
	}
	if k := strings.LastIndexByte(name, '.'); k > 0 {
		mod, fn := name[:k], name[k+1:]
		if m, ok := in.py.Modules()[mod]; ok {
			if v, err := pylib.Attr(m, fn); err == nil && v != nil {
				return name + " — as in Python's " + mod + " module. Module " + mod + ": " + moduleDocs[mod], true
			}
		}
	}
	return "", false
}

func (in *Interp) builtinDoc(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("doc", args, kw, 0, &v); err != nil {
		return nil, err
	}
	if v == starlark.None {
		return starlark.String(in.index()), nil
	}
	name, ok := starlark.AsString(v)
	if !ok {
		// doc(some_function): look it up by its name
		if n, isNamed := v.(interface{ Name() string }); isNamed {
			name = n.Name()
		} else {
			return nil, fmt.Errorf("doc: expected a name, got %s", pylib.TypeName(v))
		}
	}
	if d, ok := in.namespaceDoc(threadCtx(th), name); ok {
		return starlark.String(d), nil
	}
	if d, ok := in.docOf(name); ok {
		return starlark.String(d), nil
	}
	return starlark.String(fmt.Sprintf("no doc for %s; try apropos(%s)", pylib.Quote(name), pylib.Quote(name))), nil
}

func (in *Interp) builtinApropos(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var text string
	if err := starlark.UnpackPositionalArgs("apropos", args, kw, 1, &text); err != nil {
		return nil, err
	}
	q := strings.ToLower(text)
	var lines []string
	match := func(name, doc string) bool {
		return strings.Contains(strings.ToLower(name), q) || strings.Contains(strings.ToLower(doc), q)
	}
	for _, bt := range in.builtins {
		if match(bt.Name, bt.Doc) {
			lines = append(lines, bt.Name+" — "+summary(bt.Doc))
		}
	}
	for _, n := range []string{"doc", "apropos", "defs"} {
		if match(n, sandboxDocs[n]) {
			lines = append(lines, n+" — "+summary(sandboxDocs[n]))
		}
	}
	mods := make([]string, 0, len(moduleDocs))
	for n := range moduleDocs {
		mods = append(mods, n)
	}
	sort.Strings(mods)
	for _, n := range mods {
		if match(n, moduleDocs[n]) {
			lines = append(lines, "module "+n+" — "+moduleDocs[n])
		}
	}
	for _, n := range in.defOrder {
		d := in.defs[n]
		if match(n, d.Doc) {
			lines = append(lines, d.Signature+" — "+firstNonEmpty(d.Doc, "(your helper)"))
		}
	}
	if len(lines) == 0 {
		return starlark.String("no matches for " + pylib.Quote(text) + "; doc() lists every tool"), nil
	}
	return starlark.String(strings.Join(lines, "\n")), nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (in *Interp) builtinDefs(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs("defs", args, kw, 0, &name); err != nil {
		return nil, err
	}
	if name != "" {
		d, ok := in.defs[name]
		if !ok {
			return nil, fmt.Errorf("defs: no helper named %s (defs() lists them)", pylib.Quote(name))
		}
		return starlark.String(d.Source), nil
	}
	if len(in.defOrder) == 0 {
		return starlark.String("(no helpers defined yet)"), nil
	}
	var lines []string
	for _, n := range in.defOrder {
		d := in.defs[n]
		l := d.Signature
		if d.Doc != "" {
			l += " — " + d.Doc
		}
		if d.Restored {
			l += " (restored)"
		}
		lines = append(lines, l)
	}
	return starlark.String(strings.Join(lines, "\n")), nil
}
