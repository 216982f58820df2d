package nrepl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func decodeString(s string) (any, error) {
	return Decode(bufio.NewReader(strings.NewReader(s)))
}

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"string", "spam", "4:spam"},
		{"empty string", "", "0:"},
		{"utf8 counts bytes", "é", "2:é"},
		{"bytes", []byte{0, 0xff}, "2:\x00\xff"},
		{"int", 42, "i42e"},
		{"negative", int64(-7), "i-7e"},
		{"zero", 0, "i0e"},
		{"list", []any{"a", 1, []any{}}, "l1:ai1elee"},
		{"string list", []string{"x", "y"}, "l1:x1:ye"},
		{"dict keys sorted", map[string]any{"session": "s", "op": "eval", "id": "1", "code": "(+ 1 1)"},
			"d4:code7:(+ 1 1)2:id1:12:op4:eval7:session1:se"},
		{"nested dict", map[string]any{"b": map[string]any{"z": 1, "a": 2}, "a": []any{}},
			"d1:ale1:bd1:ai2e1:zi1eee"},
		{"string dict", map[string]string{"k2": "v", "k1": ""}, "d2:k10:2:k21:ve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.in)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("Marshal = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMarshalRefusesUnsupported(t *testing.T) {
	for _, v := range []any{nil, true, 1.5, map[int]string{1: "a"}, []any{nil}, map[string]any{"k": struct{}{}}, uint64(1 << 63)} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("Marshal(%#v) succeeded, want an error", v)
		}
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{"i0e", int64(0)},
		{"i-42e", int64(-42)},
		{"i9223372036854775807e", int64(9223372036854775807)},
		{"i-9223372036854775808e", int64(-9223372036854775808)},
		{"0:", ""},
		{"5:hello", "hello"},
		{"3:a\x00b", "a\x00b"},
		{"le", []any{}},
		{"de", map[string]any{}},
		{"l4:spami7ee", []any{"spam", int64(7)}},
		{"d2:id1:16:statusl4:doneee", map[string]any{"id": "1", "status": []any{"done"}}},
		// Unsorted keys are accepted; a repeated key keeps its last value.
		{"d1:bi1e1:ai2e1:bi3ee", map[string]any{"a": int64(2), "b": int64(3)}},
		// An nREPL describe reply, trimmed.
		{"d3:auxd10:current-ns4:usere2:id1:13:opsd5:cloned3:doc3:fooe4:evaldee8:versionsd7:clojured5:majori1e14:version-string6:1.11.1eee",
			map[string]any{
				"aux": map[string]any{"current-ns": "user"},
				"id":  "1",
				"ops": map[string]any{"clone": map[string]any{"doc": "foo"}, "eval": map[string]any{}},
				"versions": map[string]any{"clojure": map[string]any{
					"major": int64(1), "version-string": "1.11.1"}},
			}},
	}
	for _, tt := range tests {
		got, err := decodeString(tt.in)
		if err != nil {
			t.Errorf("Decode(%q): %v", tt.in, err)
			continue
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("Decode(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}

func TestDecodeStream(t *testing.T) {
	r := bufio.NewReader(strings.NewReader("d2:id1:1ei5e4:tail"))
	var got []any
	for {
		v, err := Decode(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Decode: %v", err)
		}
		got = append(got, v)
	}
	want := []any{map[string]any{"id": "1"}, int64(5), "tail"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("stream (-want +got):\n%s", d)
	}
}

func TestDecodeMalformed(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		truncated bool
	}{
		{"bad first byte", "x", false},
		{"end marker alone", "e", false},
		{"int unterminated", "i12", true},
		{"int empty", "ie", false},
		{"int sign only", "i-e", false},
		{"int leading zero", "i012e", false},
		{"int negative zero", "i-0e", false},
		{"int letters", "i1x2e", false},
		{"int minus inside", "i1-2e", false},
		{"int overflow", "i9223372036854775808e", false},
		{"int too many digits", "i" + strings.Repeat("1", 40) + "e", false},
		{"string short", "5:abc", true},
		{"string length unterminated", "12", true},
		{"string length leading zero", "05:hello", false},
		{"string negative length", "-1:a", false},
		{"string above 64 MiB", "67108865:abc", false},
		{"string length overflow", "99999999999999999999:", false},
		{"list unterminated", "l1:a", true},
		{"list empty unterminated", "l", true},
		{"dict unterminated", "d1:a", true},
		{"dict value missing", "d1:ae", false},
		{"dict integer key", "di1e1:ae", false},
		{"dict list key", "dle1:ae", false},
		{"too deep", strings.Repeat("l", MaxDepth+1) + strings.Repeat("e", MaxDepth+1), false},
		{"truncated mid-reply", "d2:id1:13:out5:hel", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := decodeString(tt.in)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Decode(%.40q) = %#v, %v; want ErrMalformed", tt.in, v, err)
			}
			if got := errors.Is(err, io.ErrUnexpectedEOF); got != tt.truncated {
				t.Errorf("Decode(%.40q) error %v: truncated = %v, want %v", tt.in, err, got, tt.truncated)
			}
		})
	}
}

func TestDecodeDepthLimitIsExact(t *testing.T) {
	in := strings.Repeat("l", MaxDepth) + strings.Repeat("e", MaxDepth)
	if _, err := decodeString(in); err != nil {
		t.Fatalf("nesting of exactly MaxDepth refused: %v", err)
	}
}

// A declared length at the limit on short input fails as truncated without
// allocating the declared size.
func TestDecodeLargeDeclaredLengthOnShortInput(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := decodeString("67108864:abc")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want truncated", err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 8<<20 {
		t.Errorf("decoding a 64 MiB declared string over 3 bytes allocated %d bytes", grown)
	}
}

func TestRoundTrip(t *testing.T) {
	v := map[string]any{
		"op": "eval", "id": "vis-1", "session": "abc",
		"nrepl.middleware.print/options": map[string]any{"right-margin": int64(100)},
		"list":                           []any{int64(-1), "x", []any{}, map[string]any{}},
	}
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bufio.NewReader(bytes.NewReader(b)))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(any(v), got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"i0e", "i-42e", "0:", "4:spam", "le", "de", "l4:spami7ee",
		"d2:id1:16:statusl4:doneee",
		"d2:ex39:class java.lang.ArithmeticException2:id5:vis-37:root-ex39:class java.lang.ArithmeticException7:session36:0f7c2e0a-7a8e-4ad5-9c5e-5b0a0c2c8d1b6:statusl10:eval-erroree",
		"d2:id5:vis-22:ns4:user7:session3:abc5:value1:3e",
		"d1:bi1e1:ai2ee", "d1:ad1:bl1:ceee",
		"i01e", "5:abc", "67108865:", "di1e1:ae", "l", "x", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := bytes.NewReader(data)
		r := bufio.NewReader(src)
		v, err := Decode(r)
		if err != nil {
			return
		}
		consumed := len(data) - r.Buffered() - src.Len()
		b, err := Marshal(v)
		if err != nil {
			t.Fatalf("Decode accepted %q as %#v but Marshal refused it: %v", data, v, err)
		}
		v2, err := Decode(bufio.NewReader(bytes.NewReader(b)))
		if err != nil {
			t.Fatalf("re-decoding %q: %v", b, err)
		}
		if d := cmp.Diff(v, v2); d != "" {
			t.Fatalf("round trip of %q changed the value (-first +second):\n%s", data, d)
		}
		// Decode stops at the end of the value: canonical input followed by
		// anything is consumed exactly up to its end.
		if bytes.HasPrefix(data, b) && consumed != len(b) {
			t.Fatalf("Decode(%q) consumed %d bytes, want %d", data, consumed, len(b))
		}
	})
}

func BenchmarkDecodeReply(b *testing.B) {
	msg, _ := Marshal(map[string]any{
		"id": "vis-12", "session": "0f7c2e0a-7a8e-4ad5-9c5e-5b0a0c2c8d1b", "ns": "user",
		"value": strings.Repeat("(0 1 2 3 4 5 6 7 8 9) ", 50), "status": []any{"done"},
	})
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if _, err := Decode(bufio.NewReader(bytes.NewReader(msg))); err != nil {
			b.Fatal(err)
		}
	}
}
