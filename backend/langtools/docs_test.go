package langtools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/langtools"
	"github.com/visdesktop/vis/backend/packs/clojure"
	"github.com/visdesktop/vis/backend/packs/golang"
	"github.com/visdesktop/vis/backend/packs/js"
	"github.com/visdesktop/vis/backend/packs/python"
	"github.com/visdesktop/vis/backend/sandbox"
)

// realPacks are the build's packs as the engine registers them.
func realPacks() []ext.Extension {
	return []ext.Extension{clojure.Extension(), python.Extension(), golang.Extension(), js.Extension()}
}

// TestOneSourceOfTruth: what each pack declares for doc() is exactly what
// its handlers carry for the facade's validation.
func TestOneSourceOfTruth(t *testing.T) {
	declared := map[string]ext.VerbOptions{}
	for _, p := range ext.DeclaredOptions() {
		for _, l := range p.Languages {
			declared[l] = p.Verbs
		}
	}
	for _, x := range realPacks() {
		for _, lt := range x.LanguageTools {
			if lt.Options == nil {
				t.Errorf("%s (%s) declares no options", x.Name, lt.Language)
				continue
			}
			if d := cmp.Diff(declared[lt.Language], lt.Options); d != "" {
				t.Errorf("%s (%s): doc's declaration differs from the handler's (-doc +handler):\n%s", x.Name, lt.Language, d)
			}
		}
	}
}

// TestDocNamesEveryPacksOptions: doc() of each verb, through the real
// sandbox, lists every declared key of every pack for that verb, each pack
// by name, and none of the refused spellings.
func TestDocNamesEveryPacksOptions(t *testing.T) {
	var s langtools.Surface
	in, err := sandbox.New(sandbox.Options{}, s.Builtins())
	if err != nil {
		t.Fatal(err)
	}
	packs := ext.DeclaredOptions()
	if len(packs) != 4 {
		t.Fatalf("declared packs = %d, want the 4 of this build", len(packs))
	}
	for _, verb := range langtools.Verbs {
		r := in.Exec(context.Background(), `print(doc("`+verb+`"))`, nil)
		if r.Err != nil {
			t.Fatalf("doc(%q): %s", verb, r.Wire())
		}
		page := r.Output
		for _, p := range packs {
			keys := p.Verbs.Keys(verb)
			if len(keys) == 0 {
				continue
			}
			if !strings.Contains(page, "\n  "+p.Pack) {
				t.Errorf("doc(%q) does not name the %s pack:\n%s", verb, p.Pack, page)
			}
			for _, o := range p.Verbs[verb] {
				line := "    " + o.Key + " (" + o.Type + "): " + o.Doc
				if o.Instead != "" {
					if strings.Contains(page, "    "+o.Key+" ") {
						t.Errorf("doc(%q) lists the refused spelling %q", verb, o.Key)
					}
					continue
				}
				if !strings.Contains(page, line) {
					t.Errorf("doc(%q) lacks %s's %q", verb, p.Pack, line)
				}
			}
		}
	}
	// The keys the issue names, spot-checked where the model reads them.
	for verb, want := range map[string][]string{
		langtools.VerbTest:   {"ns (str | [str])", "nses ([str])", "include (", "exclude (", "aliases (", "build (str)", "runner (str)", "env ({str: str})", "args ([str])", "timeout_ms (int)"},
		langtools.VerbEval:   {"ns (str)", "port (int)", "host (str)"},
		langtools.VerbFormat: {"line_length (int)", "config (str)", "args ([str])"},
	} {
		r := in.Exec(context.Background(), `print(doc("`+verb+`"))`, nil)
		for _, w := range want {
			if !strings.Contains(r.Output, w) {
				t.Errorf("doc(%q) lacks %q", verb, w)
			}
		}
	}
}

// TestRealPacksRefuseUnknownKeys: with the build's packs behind the
// facade, an unknown key is refused naming that pack's keys, for every
// language of every pack and every verb it handles.
func TestRealPacksRefuseUnknownKeys(t *testing.T) {
	ws := t.TempDir()
	reg := ext.NewRegistry()
	for _, x := range realPacks() {
		if err := reg.Register(x); err != nil {
			t.Fatal(err)
		}
	}
	f := langtools.New(reg.Active(ext.Environment{Workspace: ws, Files: func(string) bool { return true }, HasExt: func(...string) bool { return true }}),
		ext.ToolEnv{Workspace: ws}, nil)
	for _, x := range realPacks() {
		for _, lt := range x.LanguageTools {
			for _, verb := range []string{langtools.VerbFormat, langtools.VerbLint, langtools.VerbTest, langtools.VerbEval, langtools.VerbStart} {
				supported := map[string]bool{langtools.VerbFormat: lt.Format != nil, langtools.VerbLint: lt.Lint != nil,
					langtools.VerbTest: lt.Test != nil, langtools.VerbEval: lt.Eval != nil, langtools.VerbStart: lt.Repl != nil}[verb]
				if !supported {
					continue
				}
				opts := map[string]any{"no_such_key": "1"}
				if verb == langtools.VerbEval {
					opts["code"] = "1"
				}
				_, err := f.Call(context.Background(), verb, []any{lt.Language, opts}, nil)
				want := `unknown option "no_such_key"; ` + verb + " for " + lt.Language + " takes: "
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s %s: err = %v; want %q", lt.Language, verb, err, want)
					continue
				}
				for _, k := range lt.Options.Keys(verb) {
					if !strings.Contains(err.Error(), k) {
						t.Errorf("%s %s: the refusal does not name %q: %v", lt.Language, verb, k, err)
					}
				}
			}
		}
	}
}
