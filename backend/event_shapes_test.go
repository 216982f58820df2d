package backend

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/chat"
	"github.com/visdesktop/vis/backend/events"
	"github.com/visdesktop/vis/backend/ext"
	"github.com/visdesktop/vis/backend/goals"
	"github.com/visdesktop/vis/backend/sandbox"
	"github.com/visdesktop/vis/backend/store"
)

// fill sets every field of v (a struct, recursively) to a non-zero value, so
// that omitempty hides nothing and every key shows in its JSON.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Uint64:
		v.SetUint(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf("k"), reflect.ValueOf("v"))
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}

func filled[T any]() T {
	var x T
	fill(reflect.ValueOf(&x).Elem())
	return x
}

// The events package cannot import the types it carries (it is a leaf), so
// it has their wire shapes, and the publishers convert. A Go conversion
// already fails to compile when the fields differ; this catches a json tag
// changed on one side only: each converted value must be the same JSON.
func TestEventShapesMatchTheirSources(t *testing.T) {
	t.Parallel()
	same := func(name string, src, conv any) {
		t.Helper()
		a, err1 := json.Marshal(src)
		b, err2 := json.Marshal(conv)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", name, err1, err2)
		}
		if diff := cmp.Diff(string(a), string(b)); diff != "" {
			t.Errorf("%s: the event's shape differs from its source (-source +event):\n%s", name, diff)
		}
	}
	u := filled[chat.Usage]()
	same("chat.Usage", u, events.Usage(u))
	g := filled[goals.Goal]()
	same("goals.Goal", g, events.GoalState(g))
	r := filled[ext.ResourceInfo]()
	same("ext.ResourceInfo", r, events.Resource(r))
	tc := filled[sandbox.ToolCall]()
	same("sandbox.ToolCall", tc, events.ToolCall(tc))
	same("backend.ToolView", ToolView(events.ToolCall(tc)), events.ToolCall(tc))
}

// The transcript reads back the records the loop writes, including a
// plain-string error of an older row.
func TestCallViewsReadCallRecords(t *testing.T) {
	t.Parallel()
	recs := []events.CallRecord{
		{CallID: "a", Code: "x", Output: "o\n", DurationMs: 3, Tools: []events.ToolCall{{Name: "ls", Args: "path='.'", DurationMs: 1}}},
		{CallID: "b", Code: "y", Error: &events.CallError{Phase: "runtime", Message: "boom", Line: 2, Hint: "h"}},
	}
	raw, _ := json.Marshal(recs)
	got := callViews(storeIteration(string(raw)))
	want := []CallView{
		{CallID: "a", Code: "x", Output: "o\n", DurationMs: 3, Tools: []ToolView{{Name: "ls", Args: "path='.'", DurationMs: 1}}},
		{CallID: "b", Code: "y", Error: &CallError{Phase: "runtime", Message: "boom", Line: 2, Hint: "h"}, Tools: []ToolView{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("callViews (-want +got):\n%s", diff)
	}
	old := callViews(storeIteration(`[{"call_id":"c","code":"z","output":"","error":"it failed"}]`))
	if len(old) != 1 || old[0].Error == nil || *old[0].Error != (CallError{Phase: "error", Message: "it failed"}) {
		t.Errorf("an older row's string error = %+v", old)
	}
}

func storeIteration(toolCallsJSON string) store.Iteration {
	return store.Iteration{ToolCallsJSON: toolCallsJSON}
}
