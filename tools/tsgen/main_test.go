package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/visdesktop/vis/internal/golden"
)

// The committed events.gen.ts is what the Go structs generate: a key
// renamed, added or dropped in backend/events fails here until the file is
// regenerated (and the page then fails to compile where it used the old
// key).
func TestGeneratedFileIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	got, err := Generate(filepath.Join(root, "backend", "events"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, Output)
	if *golden.Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run %s", err, Command)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Fatalf("%s is stale: run %s and commit it (-committed +generated):\n%s", Output, Command, diff)
	}
}

type inner struct {
	N int `json:"n"`
}

type base struct {
	ID string `json:"id"`
}

type mapped struct {
	base
	S       string            `json:"s"`
	B       bool              `json:"b,omitempty"`
	I64     int64             `json:"i64"`
	F       float64           `json:"f"`
	T       time.Time         `json:"t"`
	TZ      time.Time         `json:"tz,omitzero"`
	P       *int              `json:"p"`
	PO      *int              `json:"po,omitempty"`
	L       []string          `json:"l"`
	LO      []inner           `json:"lo,omitempty"`
	LP      []*inner          `json:"lp"`
	M       map[string]any    `json:"m,omitempty"`
	MI      map[string]*inner `json:"mi"`
	Raw     []byte            `json:"raw"`
	In      inner             `json:"in"`
	Skipped string            `json:"-"`
	private int
}

type untagged struct {
	A string
}

type anon struct {
	A struct{ X int } `json:"a"`
}

type intKeys struct {
	M map[int]string `json:"m"`
}

type stringOpt struct {
	N int `json:"n,string"`
}

type channel struct {
	C chan int `json:"c"`
}

func TestInterfaceMapping(t *testing.T) {
	g := newGen(docs{"mapped": "Mapped is a test.\nTwo lines.", "mapped.S": "A string."})
	got, err := g.iface(reflect.TypeFor[mapped](), "Mapped", "")
	if err != nil {
		t.Fatal(err)
	}
	want := `/**
 * Mapped is a test.
 * Two lines.
 */
export interface Mapped extends base {
  /** A string. */
  s: string
  b?: boolean
  i64: number
  f: number
  t: string
  tz?: string
  p: number | null
  po?: number
  l: string[] | null
  lo?: inner[]
  lp: (inner | null)[] | null
  m?: Record<string, unknown>
  mi: Record<string, inner | null> | null
  raw: string | null
  in: inner
}

`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("interface (-want +got):\n%s", diff)
	}
	var names []string
	for _, ty := range g.order {
		names = append(names, ty.Name())
	}
	if diff := cmp.Diff([]string{"base", "inner"}, names); diff != "" {
		t.Errorf("structs to write next (-want +got):\n%s", diff)
	}
}

func TestUnsupportedFieldsAreErrors(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[untagged](), "has no json key"},
		{reflect.TypeFor[anon](), "anonymous structs"},
		{reflect.TypeFor[intKeys](), "map keys must be strings"},
		{reflect.TypeFor[stringOpt](), `json option "string"`},
		{reflect.TypeFor[channel](), "no TypeScript mapping"},
		{reflect.TypeFor[int](), "must be a struct"},
	} {
		_, err := newGen(docs{}).iface(tc.typ, tc.typ.Name(), "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.typ, err, tc.want)
		}
	}
}

func TestTwoTypesOfOneNameAreAnError(t *testing.T) {
	g := newGen(docs{})
	if _, err := g.iface(reflect.TypeFor[inner](), "X", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := g.iface(reflect.TypeFor[base](), "X", ""); err == nil || !strings.Contains(err.Error(), "two types are named X") {
		t.Fatalf("err = %v", err)
	}
}
