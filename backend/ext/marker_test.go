package ext

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMarkers(t *testing.T) {
	files := []string{"go.mod", "package.json"}
	exts := []string{".ts"}
	env := Environment{
		Files: func(rel string) bool { return slices.Contains(files, rel) },
		HasExt: func(xs ...string) bool {
			return slices.ContainsFunc(xs, func(x string) bool { return slices.Contains(exts, x) })
		},
	}
	tests := []struct {
		m       Marker
		present bool
		text    string
	}{
		{Marker{File: "go.mod"}, true, "go.mod"},
		{Marker{File: "deps.edn"}, false, "deps.edn"},
		{Marker{Exts: []string{".py"}}, false, "a .py file"},
		{Marker{Exts: []string{".ts", ".js"}}, true, "a file ending in .ts, .js"},
		{Marker{Exts: []string{".clj", ".cljs"}, What: "Clojure source"}, false, "a Clojure source (.clj, .cljs)"},
		{Marker{File: "package.json", Exts: []string{".ts", ".js"}, What: "JavaScript/TypeScript sources"}, true, "package.json with JavaScript/TypeScript sources (.ts, .js)"},
		{Marker{File: "package.json", Exts: []string{".py"}}, false, "package.json with .py files"},
		{Marker{File: "bun.lock", Exts: []string{".ts"}}, false, "bun.lock with .ts files"},
		{Marker{}, false, ""},
	}
	for _, tt := range tests {
		if got := tt.m.Present(env); got != tt.present {
			t.Errorf("%+v.Present = %v, want %v", tt.m, got, tt.present)
		}
		if got := tt.m.String(); got != tt.text {
			t.Errorf("%+v.String = %q, want %q", tt.m, got, tt.text)
		}
	}
	x := Extension{Name: "language-x", Markers: []Marker{{File: "deps.edn"}, {File: "go.mod"}, {File: "package.json", Exts: []string{".ts"}}}}
	if got := x.PresentMarkers(env); len(got) != 2 || got[0].File != "go.mod" || got[1].File != "package.json" {
		t.Errorf("PresentMarkers = %+v", got)
	}
	if !AnyPresent(env, x.Markers) || AnyPresent(env, x.Markers[:1]) {
		t.Error("AnyPresent disagrees with Present")
	}
	if x.DisplayName() != "x" || (Extension{Name: "language-go", Title: "Go"}).DisplayName() != "Go" {
		t.Error("DisplayName")
	}
}

// Without a Files function a file marker is looked up on disk.
func TestMarkerFileOnDisk(t *testing.T) {
	root := t.TempDir()
	m := Marker{File: "go.mod"}
	if m.Present(Environment{Workspace: root}) {
		t.Fatal("present before it exists")
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !m.Present(Environment{Workspace: root}) || m.Present(Environment{}) {
		t.Fatal("on-disk lookup wrong")
	}
}

// The active set remembers every registered extension (for hints naming
// what would switch on).
func TestActiveKeepsTheRegistered(t *testing.T) {
	r := NewRegistry()
	off := func(Environment) (bool, error) { return false, nil }
	for _, e := range []Extension{{Name: "a", Description: "a"}, {Name: "b", Description: "b", Activate: off}} {
		if err := r.Register(e); err != nil {
			t.Fatal(err)
		}
	}
	a := r.Active(Environment{})
	var names []string
	for _, e := range a.Registered() {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"a", "b"}) || !slices.Equal(a.Names(), []string{"a"}) {
		t.Fatalf("registered %v, active %v", names, a.Names())
	}
}
