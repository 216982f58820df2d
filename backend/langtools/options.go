package langtools

import (
	"fmt"
	"sort"
	"strings"

	"github.com/visdesktop/vis/backend/ext"
)

// facadeKey is an option the facade itself reads for a verb, as it reaches
// the handler (alias: the other spelling the facade folds into it).
type facadeKey struct {
	key, alias string
}

// facadeKeys are the keys every pack's verb takes: the facade reads them
// (paths, code, cwd, id) or passes them on for the verb itself (repl_connect's
// port, host, build). Everything else a call may carry is declared by the
// chosen pack (ext.LanguageTools.Options) or refused.
var facadeKeys = map[string][]facadeKey{
	ext.VerbFormat:  {{"code", ""}, {"paths", "path"}, {"cwd", "project"}},
	ext.VerbLint:    {{"code", ""}, {"paths", "path"}, {"cwd", "project"}},
	ext.VerbTest:    {{"paths", "path"}, {"cwd", "project"}},
	ext.VerbEval:    {{"code", ""}, {"cwd", "project"}, {"id", "repl_id"}},
	ext.VerbStart:   {{"cwd", "project"}, {"id", "repl_id"}},
	ext.VerbStatus:  {{"cwd", "project"}, {"id", "repl_id"}},
	ext.VerbStop:    {{"cwd", "project"}, {"id", "repl_id"}},
	ext.VerbConnect: {{"port", ""}, {"build", ""}, {"host", ""}, {"cwd", "project"}},
}

func facadeTakes(verb, key string) bool {
	for _, k := range facadeKeys[verb] {
		if k.key == key {
			return true
		}
	}
	return false
}

// knownKeys lists what verb takes with lt's declarations (nil = the facade's
// keys alone), as the model may write them.
func knownKeys(verb string, lt *ext.LanguageTools) []string {
	var out []string
	for _, k := range facadeKeys[verb] {
		if k.alias != "" {
			out = append(out, k.key+" (or "+k.alias+")")
		} else {
			out = append(out, k.key)
		}
	}
	if lt != nil {
		out = append(out, lt.Options.Keys(verb)...)
	}
	return out
}

// checkOptions refuses, before the handler runs, an option key that
// neither the facade nor the chosen pack (lt; nil when the call is
// answered without one) takes, naming the keys it does take; a spelling
// the pack declares with Instead is refused with its advice. The shared
// env and args options are type-checked here too.
func checkOptions(c *call, lt *ext.LanguageTools) error {
	var declared ext.VerbOptions
	who := c.verb
	if lt != nil {
		declared = lt.Options
		who = fmt.Sprintf("%s for %s", c.verb, lt.Language)
	}
	keys := make([]string, 0, len(c.opts))
	for k := range c.opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var unknown []string
	for _, k := range keys {
		if facadeTakes(c.verb, k) || declared.Takes(c.verb, k) {
			continue
		}
		if _, hint, ok := declared.Refused(c.verb, map[string]any{k: nil}); ok {
			return refuse(CodeBadArgs, "e.g. "+example(c.verb), "%s does not take %q: %s", who, k, hint)
		}
		unknown = append(unknown, fmt.Sprintf("%q", k))
	}
	if len(unknown) > 0 {
		what := "option"
		if len(unknown) > 1 {
			what = "options"
		}
		return refuse(CodeBadArgs, "doc(\""+c.verb+"\") lists every pack's options",
			"%s: unknown %s %s; %s takes: %s", c.verb, what, strings.Join(unknown, ", "), who, strings.Join(knownKeys(c.verb, lt), ", "))
	}
	if declared.Takes(c.verb, "env") {
		if _, err := ext.EnvOf(c.opts); err != nil {
			return badArgs(c.verb, "%v", err)
		}
	}
	if declared.Takes(c.verb, "args") {
		if _, err := ext.ArgsOf(c.opts); err != nil {
			return badArgs(c.verb, "%v", err)
		}
	}
	return nil
}

// verbDoc is verb's doc() page: its text (docs.go), then the options of
// the facade and of every declared pack (ext.DeclaredOptions), generated
// from the declarations checkOptions reads.
func verbDoc(verb string, packs []ext.PackOptions) string {
	text := map[string]string{ext.VerbFormat: docFormat, ext.VerbLint: docLint, ext.VerbTest: docTest, ext.VerbEval: docEval,
		ext.VerbStart: docStart, ext.VerbStatus: docStatus, ext.VerbStop: docStop, ext.VerbConnect: docConnect}[verb]
	return text + "\n" + packOptionsDoc(verb, packs)
}

// packOptionsDoc renders what each declared pack takes for verb, from the
// declarations the validation reads.
func packOptionsDoc(verb string, packs []ext.PackOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Options every pack takes: %s.", strings.Join(knownKeys(verb, nil), ", "))
	listed := false
	for _, p := range packs {
		var lines []string
		for _, o := range p.Verbs[verb] {
			if o.Instead != "" {
				continue
			}
			l := "    " + o.Key
			if o.Type != "" {
				l += " (" + o.Type + ")"
			}
			if o.Doc != "" {
				l += ": " + o.Doc
			}
			lines = append(lines, l)
		}
		if len(lines) == 0 {
			continue
		}
		if !listed {
			b.WriteString("\nWhat each pack takes besides (any other key is refused, naming the ones it knows):")
			listed = true
		}
		name := p.Pack
		if len(p.Languages) > 0 && !(len(p.Languages) == 1 && p.Languages[0] == p.Pack) {
			name += " (" + strings.Join(p.Languages, ", ") + ")"
		}
		fmt.Fprintf(&b, "\n  %s:\n%s", name, strings.Join(lines, "\n"))
	}
	if !listed {
		b.WriteString(" No pack takes other options here; any other key is refused.")
	}
	return b.String()
}
