package clojure

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadEDN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want any
	}{
		{`{:paths ["src"] :aliases {:test {:extra-paths ["test"]}}}`,
			Map{{Keyword("paths"), []any{"src"}}, {Keyword("aliases"), Map{{Keyword("test"), Map{{Keyword("extra-paths"), []any{"test"}}}}}}}},
		{`(ns ^{:doc "x"} my.ns-test (:require [a.b :as b]))`,
			List{Symbol("ns"), Symbol("my.ns-test"), List{Keyword("require"), []any{Symbol("a.b"), Keyword("as"), Symbol("b")}}}},
		{`; comment
		  #_ignored [1 -2 3.5 nil true "a\"b\n" \c #{:x}]`,
			[]any{int64(1), int64(-2), 3.5, nil, true, "a\"b\n", "c", Set{Keyword("x")}}},
		{`{:output-to #shadow/env "OUT"}`, Map{{Keyword("output-to"), Tagged{Tag: "shadow/env", Value: "OUT"}}}},
		{`#?(:clj 1 :cljs 2)`, ReaderCond{Forms: []any{Keyword("clj"), int64(1), Keyword("cljs"), int64(2)}}},
		{`#(inc %)`, List{Symbol("inc"), Symbol("%")}},
		{`#::{:a 1}`, Map{{Keyword("a"), int64(1)}}},
		{`"\u00e9"`, "é"},
	}
	for _, tt := range tests {
		got, err := ReadEDN(tt.in)
		if err != nil {
			t.Errorf("ReadEDN(%q): %v", tt.in, err)
			continue
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("ReadEDN(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestReadEDNRefusesMalformed(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{:a 1`, `[1 2)`, `{:a}`, `"open`, `#`, `)`, `^`, `#?x`, "", strings.Repeat("[", 5000)} {
		if v, err := ReadEDN(in); err == nil {
			t.Errorf("ReadEDN(%q) = %#v, want an error", in, v)
		}
	}
}

func FuzzReadEDN(f *testing.F) {
	for _, s := range []string{`{:a [1 2 #{3}]}`, `(ns x (:require [y]))`, `#shadow/env "X"`, `"\u12"`, `\`, `#?@(:clj [1])`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ReadEDN(s) // must neither panic nor hang
		_, _ = ReadForms(s, 4)
	})
}
