// Package live carries a running tool's live output: a line sink on the ctx
// a tool is called with. The engine installs one for every tool a program
// calls (it becomes lossy tool-output events: the transcript's live tail
// under the running program); the children a tool starts (test runners,
// formatters, shell commands) write their stdout and stderr through Writer,
// so a long test run is seen as it goes, not only when it ends.
//
// A sink sees whole lines, without their newline, in the order they were
// written; a line longer than MaxLine is cut there. Sinks are called from
// the goroutines that copy a child's output and must not block for long.
// Without a sink on the ctx every function here is a no-op, so a tool run
// outside the engine (tests, the CLI's !cmd) pays nothing.
package live

import (
	"context"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxLine is the most of one line a sink receives.
const MaxLine = 2000

// Sink receives one line of a running tool's output.
type Sink func(line string)

type key struct{}

// With returns ctx carrying sink (a nil sink removes any).
func With(ctx context.Context, sink Sink) context.Context {
	return context.WithValue(ctx, key{}, sink)
}

// From returns ctx's sink, or nil.
func From(ctx context.Context) Sink {
	s, _ := ctx.Value(key{}).(Sink)
	return s
}

// Map returns ctx whose sink passes each line through fn first (a test
// runner's machine-readable line made readable); fn returning false drops
// the line. Without a sink on ctx it returns ctx.
func Map(ctx context.Context, fn func(line string) (string, bool)) context.Context {
	s := From(ctx)
	if s == nil {
		return ctx
	}
	return With(ctx, func(line string) {
		if out, ok := fn(line); ok {
			s(out)
		}
	})
}

// Writer is an io.Writer splitting what it is given into lines for a sink.
// Close hands over a last line that had no newline. Safe for concurrent
// use (a child's stdout and stderr may share one).
type Writer struct {
	mu   sync.Mutex
	sink Sink
	buf  []byte
	cut  bool // the current line passed MaxLine: drop the rest of it
}

// NewWriter returns a Writer for ctx's sink, or nil when ctx has none.
func NewWriter(ctx context.Context) *Writer {
	s := From(ctx)
	if s == nil {
		return nil
	}
	return &Writer{sink: s}
}

// Write never fails: live output is a view, never a reason to stop a child.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := indexNL(p)
		if i < 0 {
			w.add(p)
			break
		}
		w.add(p[:i])
		w.emit()
		p = p[i+1:]
	}
	return n, nil
}

func indexNL(p []byte) int {
	for i, c := range p {
		if c == '\n' {
			return i
		}
	}
	return -1
}

func (w *Writer) add(p []byte) {
	if w.cut {
		return
	}
	if room := MaxLine - len(w.buf); len(p) > room {
		p, w.cut = p[:room], true
	}
	w.buf = append(w.buf, p...)
}

func (w *Writer) emit() {
	line := strings.TrimSuffix(string(w.buf), "\r")
	if w.cut {
		for len(line) > 0 && !utf8.ValidString(line) { // a rune split by the cut
			line = line[:len(line)-1]
		}
		line += " …"
	}
	w.buf, w.cut = w.buf[:0], false
	w.sink(line)
}

// Close hands over an unterminated last line.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 || w.cut {
		w.emit()
	}
	return nil
}

// Tee returns dst, plus ctx's Writer when ctx has a sink, and a func to
// call once the child is done (it hands over the last line).
func Tee(ctx context.Context, dst io.Writer) (io.Writer, func()) {
	w := NewWriter(ctx)
	if w == nil {
		return dst, func() {}
	}
	return io.MultiWriter(dst, w), func() { _ = w.Close() }
}
