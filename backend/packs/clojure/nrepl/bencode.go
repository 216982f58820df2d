package nrepl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// Limits the decoder enforces so that hostile or corrupt input costs bounded
// memory and stack.
const (
	// MaxStringLen is the longest byte string Decode accepts (64 MiB). A longer
	// declared length is refused before anything is allocated.
	MaxStringLen = 64 << 20
	// MaxDepth is the deepest list/dict nesting Decode accepts.
	MaxDepth = 256
	// maxIntDigits bounds the digits of an integer or a length prefix.
	maxIntDigits = 20
)

// ErrMalformed marks input that is not valid bencode (including truncation,
// which also wraps io.ErrUnexpectedEOF, and values above the limits).
var ErrMalformed = errors.New("bencode: malformed input")

// Decode reads exactly one bencode value from r and returns it as one of
// int64, string (byte strings), []any (lists) or map[string]any (dicts).
// It returns io.EOF, unwrapped, only when r is at end of input before the first
// byte of a value; any other failure wraps ErrMalformed (truncated input also
// wraps io.ErrUnexpectedEOF) or the reader's own error. Dict keys need not be
// sorted; a repeated key keeps its last value. Decode never reads past the end
// of the value.
func Decode(r *bufio.Reader) (any, error) {
	b, err := r.ReadByte()
	if err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, err
	}
	return decodeValue(r, b, 0)
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func truncated(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: truncated: %w", ErrMalformed, io.ErrUnexpectedEOF)
	}
	return err
}

func decodeValue(r *bufio.Reader, first byte, depth int) (any, error) {
	switch {
	case first == 'i':
		return readInt(r, 'e', true)
	case first >= '0' && first <= '9':
		if err := r.UnreadByte(); err != nil {
			return nil, err
		}
		return readString(r)
	case first == 'l':
		if depth >= MaxDepth {
			return nil, malformed("nesting deeper than %d", MaxDepth)
		}
		list := []any{}
		for {
			b, err := r.ReadByte()
			if err != nil {
				return nil, truncated(err)
			}
			if b == 'e' {
				return list, nil
			}
			v, err := decodeValue(r, b, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
	case first == 'd':
		if depth >= MaxDepth {
			return nil, malformed("nesting deeper than %d", MaxDepth)
		}
		dict := map[string]any{}
		for {
			b, err := r.ReadByte()
			if err != nil {
				return nil, truncated(err)
			}
			if b == 'e' {
				return dict, nil
			}
			if b < '0' || b > '9' {
				return nil, malformed("dict key must be a byte string, got %q", b)
			}
			if err := r.UnreadByte(); err != nil {
				return nil, err
			}
			key, err := readString(r)
			if err != nil {
				return nil, err
			}
			b, err = r.ReadByte()
			if err != nil {
				return nil, truncated(err)
			}
			v, err := decodeValue(r, b, depth+1)
			if err != nil {
				return nil, err
			}
			dict[key] = v
		}
	default:
		return nil, malformed("unexpected byte %q at start of value", first)
	}
}

// readInt reads digits (with an optional leading '-' when signed) up to the
// terminator. Leading zeros and "-0" are refused, as canonical bencode does.
func readInt(r *bufio.Reader, term byte, signed bool) (int64, error) {
	var digits []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0, truncated(err)
		}
		if b == term {
			break
		}
		ok := (b >= '0' && b <= '9') || (signed && b == '-' && len(digits) == 0)
		if !ok {
			return 0, malformed("unexpected byte %q in integer", b)
		}
		if len(digits) >= maxIntDigits {
			return 0, malformed("integer longer than %d digits", maxIntDigits)
		}
		digits = append(digits, b)
	}
	s := string(digits)
	neg := len(s) > 0 && s[0] == '-'
	mag := s
	if neg {
		mag = s[1:]
	}
	switch {
	case mag == "":
		return 0, malformed("empty integer")
	case len(mag) > 1 && mag[0] == '0':
		return 0, malformed("integer %q has a leading zero", s)
	case neg && mag == "0":
		return 0, malformed("negative zero")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, malformed("integer %q out of range", s)
	}
	return n, nil
}

func readString(r *bufio.Reader) (string, error) {
	n, err := readInt(r, ':', false)
	if err != nil {
		return "", err
	}
	if n > MaxStringLen {
		return "", malformed("byte string of %d bytes exceeds the %d byte limit", n, MaxStringLen)
	}
	// Read in bounded steps so a large declared length on short input does
	// not allocate the declared size up front.
	var buf bytes.Buffer
	if n <= 64<<10 {
		buf.Grow(int(n))
	}
	if _, err := io.CopyN(&buf, r, n); err != nil {
		return "", truncated(err)
	}
	return buf.String(), nil
}

// Marshal encodes v as bencode. Accepted types: string, []byte, all Go
// integer types, []any, []string, map[string]any and map[string]string
// (nested freely). Dict keys are written in sorted order. Anything else
// (nil, bool, floats, other maps) is an error.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encode(&buf, v, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Encode writes the bencode form of v (see Marshal) to w in one Write call.
func Encode(w io.Writer, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func encode(buf *bytes.Buffer, v any, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("bencode: nesting deeper than %d", MaxDepth)
	}
	switch x := v.(type) {
	case string:
		buf.WriteString(strconv.Itoa(len(x)))
		buf.WriteByte(':')
		buf.WriteString(x)
	case []byte:
		buf.WriteString(strconv.Itoa(len(x)))
		buf.WriteByte(':')
		buf.Write(x)
	case int:
		writeInt(buf, int64(x))
	case int8:
		writeInt(buf, int64(x))
	case int16:
		writeInt(buf, int64(x))
	case int32:
		writeInt(buf, int64(x))
	case int64:
		writeInt(buf, x)
	case uint8:
		writeInt(buf, int64(x))
	case uint16:
		writeInt(buf, int64(x))
	case uint32:
		writeInt(buf, int64(x))
	case uint:
		if uint64(x) > 1<<63-1 {
			return fmt.Errorf("bencode: integer %d out of range", x)
		}
		writeInt(buf, int64(x))
	case uint64:
		if x > 1<<63-1 {
			return fmt.Errorf("bencode: integer %d out of range", x)
		}
		writeInt(buf, int64(x))
	case []any:
		buf.WriteByte('l')
		for _, e := range x {
			if err := encode(buf, e, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('e')
	case []string:
		buf.WriteByte('l')
		for _, e := range x {
			if err := encode(buf, e, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('e')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('d')
		for _, k := range keys {
			if err := encode(buf, k, depth+1); err != nil {
				return err
			}
			if err := encode(buf, x[k], depth+1); err != nil {
				return fmt.Errorf("bencode: key %q: %w", k, err)
			}
		}
		buf.WriteByte('e')
	case map[string]string:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('d')
		for _, k := range keys {
			_ = encode(buf, k, depth+1)
			_ = encode(buf, x[k], depth+1)
		}
		buf.WriteByte('e')
	default:
		return fmt.Errorf("bencode: cannot encode %T", v)
	}
	return nil
}

func writeInt(buf *bytes.Buffer, n int64) {
	buf.WriteByte('i')
	buf.WriteString(strconv.FormatInt(n, 10))
	buf.WriteByte('e')
}
