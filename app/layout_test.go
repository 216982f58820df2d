package app

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/visdesktop/vis/backend/provider/providertest"
)

// The panes a person had open come back at the next launch; a pane whose
// session was deleted meanwhile comes back as a new session in its folder.
func TestLayoutComesBackAfterARestart(t *testing.T) {
	llm := providertest.New()
	t.Cleanup(llm.Close)
	eng := realEngine(t, llm)
	ctx := context.Background()
	wsA, wsB := t.TempDir(), t.TempDir()
	one, err := eng.CreateSession(ctx, wsA)
	if err != nil {
		t.Fatal(err)
	}
	two, err := eng.CreateSession(ctx, wsB)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	a := New(eng, Options{Home: home})
	if st, _ := a.Startup(); st.Layout != nil {
		t.Fatalf("first start: layout %+v, want none", st.Layout)
	}
	want := Layout{Panes: []Pane{{SessionID: one.ID, Workspace: wsA}, {SessionID: two.ID, Workspace: wsB}}, Active: 1}
	if err := a.SaveLayout(want); err != nil {
		t.Fatal(err)
	}
	st, _ := New(eng, Options{Home: home}).Startup()
	if st.Layout == nil || !cmp.Equal(*st.Layout, want) {
		t.Fatalf("next launch layout = %+v, want %+v", st.Layout, want)
	}

	if err := eng.DeleteSession(ctx, two.ID); err != nil {
		t.Fatal(err)
	}
	st, _ = New(eng, Options{Home: home}).Startup()
	want.Panes[1].SessionID = ""
	if st.Layout == nil || !cmp.Equal(*st.Layout, want) {
		t.Fatalf("after deleting the second pane's session: layout = %+v, want %+v", st.Layout, want)
	}
}

// A layout the page could not have meant is refused and the saved one kept.
func TestSaveLayoutRefusesNonsense(t *testing.T) {
	home := t.TempDir()
	a := New(newFakeEngine(), Options{Home: home})
	good := Layout{Panes: []Pane{{Workspace: "/w"}}}
	if err := a.SaveLayout(good); err != nil {
		t.Fatal(err)
	}
	bad := map[string]Layout{
		"no pane":           {},
		"too many panes":    {Panes: []Pane{{}, {}, {}, {}}},
		"active outside":    {Panes: []Pane{{}}, Active: 1},
		"negative":          {Panes: []Pane{{}}, Active: -1},
		"one session twice": {Panes: []Pane{{SessionID: "s1"}, {SessionID: "s1"}}},
	}
	for name, l := range bad {
		if err := a.SaveLayout(l); !errors.Is(err, ErrInput) {
			t.Errorf("%s: SaveLayout = %v, want ErrInput", name, err)
		}
	}
	st, err := loadState(home)
	if err != nil || st.Layout == nil || !cmp.Equal(*st.Layout, good) {
		t.Fatalf("saved layout after refusals = %+v, %v; want %+v", st.Layout, err, good)
	}
}
