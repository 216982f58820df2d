package app

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// CallOutput asks the engine for one page of OutputPageBytes at the offset
// and passes its figures through; bad locations are ErrInput.
func TestCallOutput(t *testing.T) {
	eng := newFakeEngine()
	a := New(eng, Options{Home: t.TempDir()})
	got, err := a.CallOutput("s1", 2, 3, 1, 40)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(OutputPage{Text: "page", Offset: 40, Next: 44, Kept: 8, Total: 9}, got); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][6]int{{2, 3, 1, 40, OutputPageBytes}}, eng.outputAsks); diff != "" {
		t.Errorf("asked (-want +got):\n%s", diff)
	}
	for _, bad := range [][5]int{{0, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, -1, 0}, {1, 1, 0, -1}} {
		if _, err := a.CallOutput("s1", bad[0], bad[1], bad[2], bad[3]); !errors.Is(err, ErrInput) {
			t.Errorf("%v: err = %v, want ErrInput", bad, err)
		}
	}
	if _, err := a.CallOutput(" ", 1, 1, 0, 0); !errors.Is(err, ErrInput) {
		t.Errorf("no session: %v", err)
	}
}
