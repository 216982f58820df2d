package events

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// phaseConstants reads the Phase* constants of events.go, so a phase added
// there without a payload fails TestPayloadsCoverEveryPhase.
func phaseConstants(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "events.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, n := range v.Names {
				if lit, ok := v.Values[i].(*ast.BasicLit); ok && strings.HasPrefix(n.Name, "Phase") {
					out[n.Name] = strings.Trim(lit.Value, `"`)
				}
			}
		}
	}
	return out
}

func TestPayloadsCoverEveryPhase(t *testing.T) {
	consts := phaseConstants(t)
	if len(consts) < 20 {
		t.Fatalf("read %d phase constants from events.go: %v", len(consts), consts)
	}
	seen := map[string]int{}
	for _, p := range Payloads() {
		seen[p.Phase()]++
	}
	for name, phase := range consts {
		if seen[phase] != 1 {
			t.Errorf("%s (%q) has %d payloads in Payloads(), want 1", name, phase, seen[phase])
		}
		delete(seen, phase)
	}
	for phase := range seen {
		t.Errorf("Payloads() has %q, which is no Phase constant", phase)
	}
}

// jsonKeys lists the wire keys of a struct type, embedded structs
// flattened.
func jsonKeys(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonKeys(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// The payload's keys sit next to the envelope's on the wire: a payload key
// named like an envelope key would be written twice.
func TestPayloadKeysAvoidTheEnvelope(t *testing.T) {
	envelopeKeys := jsonKeys(reflect.TypeFor[Event]())
	for _, p := range Payloads() {
		for _, k := range jsonKeys(reflect.TypeOf(p)) {
			if slices.Contains(envelopeKeys, k) {
				t.Errorf("%T has the key %q, which the envelope writes", p, k)
			}
			if k == "" {
				t.Errorf("%T has a field without a json name", p)
			}
		}
	}
}

func TestPublishStampsThePayloadsPhase(t *testing.T) {
	b := New()
	ch, cancel := b.Subscribe(4)
	defer cancel()
	b.Publish(Event{Phase: PhaseContent, Data: Delta{Reasoning: true}})
	b.Publish(Event{Data: Warning{Message: "m"}})
	if e := <-ch; e.Phase != PhaseReasoning {
		t.Errorf("a reasoning Delta published as %q", e.Phase)
	}
	e := <-ch
	if w, ok := As[Warning](e); e.Phase != PhaseWarning || !ok || w.Message != "m" {
		t.Errorf("warning published as %q, As = %+v, %v", e.Phase, w, ok)
	}
	if _, ok := As[TurnEnd](e); ok {
		t.Error("As[TurnEnd] of a warning is ok")
	}
}

// The wire form of every phase: the keys the CLI's --json output and the
// page read. A key renamed, dropped or newly omitted fails here.
func TestWireShapes(t *testing.T) {
	three, budget := 3, int64(5)
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	env := Event{Seq: 9, SessionID: "s", Turn: 2, Iteration: 1}
	for _, tc := range []struct {
		name string
		p    Payload
		want string
	}{
		{"turn-start", TurnStart{Request: "hi", Model: "m", Channel: "cli"}, `"request":"hi","model":"m","channel":"cli"`},
		{"provider-call", ProviderCall{Model: "m", Reason: "user-submit"}, `"model":"m","reason":"user-submit"`},
		{"provider-retry", ProviderRetry{Attempt: 1, DelayMs: 1000, Error: "429"}, `"attempt":1,"delay_ms":1000,"error":"429"`},
		{"reasoning", Delta{Delta: "b", Text: "ab", Reasoning: true}, `"delta":"b","text":"ab"`},
		{"content", Delta{Delta: "", Text: ""}, `"delta":"","text":""`},
		{"tool-preview", ToolPreview{Index: 0, Code: "pr"}, `"index":0,"code":"pr"`},
		{"assistant-prose", AssistantProse{Text: "t"}, `"text":"t"`},
		{"assistant-prose", AssistantProse{Text: "t", Progress: true}, `"text":"t","progress":true`},
		{"form-start", FormStart{CallID: "c", Code: "x", Index: 0}, `"call_id":"c","code":"x","index":0`},
		{"form-start", FormStart{Code: "!ls", Shell: true}, `"call_id":"","code":"!ls","index":0,"shell":true`},
		{"tool-start", ToolStart{Name: "ls", Args: "path='.'"}, `"name":"ls","args":"path='.'"`},
		{"tool-end", ToolEnd{Name: "ls", DurationMs: 0}, `"name":"ls","duration_ms":0`},
		{"tool-end", ToolEnd{Name: "cat", DurationMs: 2, Error: "no file"}, `"name":"cat","duration_ms":2,"error":"no file"`},
		{"form-result", FormResult{CallRecord: CallRecord{CallID: "c", Code: "x"}}, `"call_id":"c","code":"x","output":"","duration_ms":0,"clipped":false`},
		{"form-result", FormResult{CallRecord: CallRecord{CallID: "c", Code: "x", Output: "o", DurationMs: 4,
			Error: &CallError{Phase: "runtime", Message: "boom"}}, Clipped: true},
			`"call_id":"c","code":"x","output":"o","duration_ms":4,"error":{"phase":"runtime","message":"boom","line":0,"hint":""},"clipped":true`},
		{"form-result", FormResult{CallRecord: CallRecord{Code: "!ls", Output: "a\n", DurationMs: 1}, ExitCode: new(int), Shell: true},
			`"call_id":"","code":"!ls","output":"a\n","duration_ms":1,"clipped":false,"exit_code":0,"shell":true`},
		{"form-result", FormResult{CallRecord: CallRecord{Code: "!false"}, ExitCode: &three, Shell: true},
			`"call_id":"","code":"!false","output":"","duration_ms":0,"clipped":false,"exit_code":3,"shell":true`},
		{"iteration-final", IterationFinal{}, `"done":false`},
		{"iteration-final", IterationFinal{Done: true, Final: "bye", Halted: true}, `"done":true,"final":"bye","halted":true`},
		{"iteration-final", IterationFinal{Progress: true}, `"done":false,"progress":true`},
		{"iteration-error", IterationError{Error: "e", Kind: "store"}, `"error":"e","kind":"store"`},
		{"iteration-error", IterationError{Error: "empty reply", Kind: "empty", Streak: 2}, `"error":"empty reply","kind":"empty","streak":2`},
		{"turn-end", TurnEnd{Status: "done"}, `"status":"done","answer":"","error":"","iterations":0,"usage":{"input_tokens":0,"output_tokens":0},"duration_ms":0`},
		{"turn-end", TurnEnd{Usage: Usage{1, 2, 3, 4}}, `"status":"","answer":"","error":"","iterations":0,"usage":{"input_tokens":1,"output_tokens":2,"cached_tokens":3,"reasoning_tokens":4},"duration_ms":0`},
		{"session-changed", SessionChanged{}, ``},
		{"warning", Warning{Message: "m"}, `"message":"m"`},
		{"warning", Warning{Message: "m", Quiet: true}, `"message":"m","quiet":true`},
		{"warning", Warning{Message: "m", Error: true, Context: &ContextCompaction{}}, `"message":"m","error":true,"context":{"outputs_dropped":0,"programs_folded":0,"outputs_clipped":0,"answers_shortened":0,"turns_dropped":0,"request_tokens":0,"note":""}`},
		{"goal", Goal{Goal: GoalState{ID: "g", Created: at, Updated: at}}, `"goal":{"id":"g","session_id":"","objective":"","status":"","iteration_budget":null,"iterations_used":0,"tokens_used":0,"time_used_ms":0,"version":0,"revision":0,"created_at":"2025-01-02T03:04:05Z","updated_at":"2025-01-02T03:04:05Z"},"revision":0`},
		{"goal", Goal{Goal: GoalState{IterationBudget: &budget, ActiveSince: at}, Revision: 7}, `"goal":{"id":"","session_id":"","objective":"","status":"","iteration_budget":5,"iterations_used":0,"tokens_used":0,"time_used_ms":0,"version":0,"revision":0,"created_at":"0001-01-01T00:00:00Z","updated_at":"0001-01-01T00:00:00Z","active_since":"2025-01-02T03:04:05Z"},"revision":7`},
		{"packs", Packs{Workspace: "/w"}, `"workspace":"/w","packs":null`},
		{"resources", Resources{Resources: []Resource{{ID: "r", Status: "up"}}}, `"resources":[{"id":"r","session":"","kind":"","language":"","label":"","dir":"","status":"up","created_at":0,"managed":false}]`},
		{"resources", Resources{Resources: []Resource{{PID: 1, Port: 2, Log: "l", Detail: map[string]any{"form": "(+ 1 1)"}}}}, `"resources":[{"id":"","session":"","kind":"","language":"","label":"","dir":"","pid":1,"port":2,"status":"","log":"l","created_at":0,"managed":false,"detail":{"form":"(+ 1 1)"}}]`},
		{"queue", Queue{Queue: []QueuedInput{}}, `"queue":[]`},
		{"queue", Queue{Queue: []QueuedInput{{ID: 1, Kind: "turn", Text: "t", Created: at}}}, `"queue":[{"id":1,"kind":"turn","text":"t","images":0,"held":false,"elsewhere":false,"created":"2025-01-02T03:04:05Z"}]`},
	} {
		e := env
		e.Phase, e.Data = tc.p.Phase(), tc.p
		if e.Phase != tc.name {
			t.Errorf("%T.Phase() = %q, want %q", tc.p, e.Phase, tc.name)
		}
		raw, err := json.Marshal(e)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		want := `{"event":"` + tc.name + `","seq":9,"session_id":"s","turn":2,"iteration":1`
		if tc.want != "" {
			want += "," + tc.want
		}
		want += "}"
		if diff := cmp.Diff(want, string(raw)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// Events without a turn, an iteration or a payload keep only what is set.
func TestEnvelopeOmitsZeroPosition(t *testing.T) {
	raw, err := json.Marshal(Event{Seq: 1, Phase: PhasePacks})
	if err != nil || string(raw) != `{"event":"packs","seq":1,"session_id":""}` {
		t.Fatalf("%s, %v", raw, err)
	}
}

// The records older versions stored have a plain-string error.
func TestCallRecordReadsOldStringErrors(t *testing.T) {
	var recs []CallRecord
	in := `[{"call_id":"a","code":"x","output":"o","duration_ms":3,"error":"boom"},` +
		`{"call_id":"b","code":"y","error":{"phase":"preflight","message":"empty"},"tools":[{"name":"ls","args":"","duration_ms":1}]},` +
		`{"call_id":"c","code":"z","error":null}]`
	if err := json.Unmarshal([]byte(in), &recs); err != nil {
		t.Fatal(err)
	}
	want := []CallRecord{
		{CallID: "a", Code: "x", Output: "o", DurationMs: 3, Error: &CallError{Phase: "error", Message: "boom"}},
		{CallID: "b", Code: "y", Error: &CallError{Phase: "preflight", Message: "empty"}, Tools: []ToolCall{{Name: "ls", DurationMs: 1}}},
		{CallID: "c", Code: "z"},
	}
	if diff := cmp.Diff(want, recs); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}
}
