package clojure

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/ext"
)

// TestPlanWithCallOptions: a run_tests call's args are appended to the
// project's own runner command and its env goes with every command; args
// are refused where Vis runs clojure.test itself.
func TestPlanWithCallOptions(t *testing.T) {
	t.Parallel()
	src := map[string]string{"src/a/core.clj": "(ns a.core)", "test/a/core_test.clj": "(ns a.core-test)"}
	with := func(k, v string) map[string]string {
		m := map[string]string{k: v}
		for f, s := range src {
			m[f] = s
		}
		return m
	}
	for _, tt := range []struct {
		name    string
		files   map[string]string
		tools   []string
		opts    map[string]any
		tail    []string // the end of the argv
		wantErr string
	}{
		{name: "cognitect takes args", files: with("deps.edn", `{:aliases {:test {:extra-paths ["test"] :main-opts ["-m" "cognitect.test-runner"]}}}`),
			tools: []string{"clojure"}, opts: map[string]any{"args": []any{"-n", "a.core-test"}, "env": map[string]any{"DB": "mem"}},
			tail: []string{"-d", "test", "-n", "a.core-test"}},
		{name: "kaocha takes args", files: with("deps.edn", `{:aliases {:test {:main-opts ["-m" "kaocha.runner"]}}}`),
			tools: []string{"clojure"}, opts: map[string]any{"args": []any{"--fail-fast"}}, tail: []string{"-M:test", "--fail-fast"}},
		{name: "lein takes args", files: with("project.clj", `(defproject x "0.1.0")`),
			tools: []string{"lein"}, opts: map[string]any{"args": []any{":integration"}}, tail: []string{"test", ":integration"}},
		{name: "env alone with Vis's own form", files: with("deps.edn", `{:paths ["src"]}`), tools: []string{"java"},
			opts: map[string]any{"env": map[string]any{"DB": "mem"}}},
		{name: "args refused with Vis's own form", files: with("deps.edn", `{:paths ["src"]}`), tools: []string{"java"},
			opts: map[string]any{"args": []any{"-x"}}, wantErr: "declares none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := fakeTools(t, true, true, tt.tools...)
			pr := project(t, tt.files)
			sel, err := ParseSelection(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Resolve(pr, pr.Dir, sel)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := p.Plan(context.Background(), "s", pr, sel, res)
			if err != nil {
				t.Fatal(err)
			}
			plan, err = plan.withCall(sel)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := plan.Argv[max(0, len(plan.Argv)-len(tt.tail)):]; len(tt.tail) > 0 && !cmp.Equal(tt.tail, got) {
				t.Errorf("argv ends %q, want %q (argv %q)", got, tt.tail, plan.Argv)
			}
			want, _ := ext.EnvOf(tt.opts)
			if !cmp.Equal(want, plan.Env) {
				t.Errorf("env = %q, want %q", plan.Env, want)
			}
		})
	}
}

// TestParseSelectionEnvArgs: env and args are read and checked with the
// selectors; refused spellings come from the declarations.
func TestParseSelectionEnvArgs(t *testing.T) {
	t.Parallel()
	sel, err := ParseSelection(map[string]any{"env": map[string]any{"B": "2", "A": "1"}, "args": []any{"-v"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"A=1", "B=2"}, sel.Env); d != "" {
		t.Errorf("env (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"-v"}, sel.Args); d != "" {
		t.Errorf("args (-want +got):\n%s", d)
	}
	for want, opts := range map[string]map[string]any{
		`env must be a dict`:    {"env": []any{"A=1"}},
		`args must be a list`:   {"args": "-v"},
		`does not take "focus"`: {"focus": "a.core-test"},
	} {
		if _, err := ParseSelection(opts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: err = %v, want %q", opts, err, want)
		}
	}
	for _, o := range ToolOptions[ext.VerbTest] {
		if o.Instead == "" {
			continue
		}
		if _, err := ParseSelection(map[string]any{o.Key: "x"}); err == nil || !strings.Contains(err.Error(), o.Instead) {
			t.Errorf("%s: err = %v, want its advice", o.Key, err)
		}
	}
}
