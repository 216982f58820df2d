package mcp

import (
	"strings"
	"sync"
	"time"
)

// ringLog keeps the last lines written to it (a stdio server's stderr and
// what happened to its connection), bounded in lines and bytes.
type ringLog struct {
	mu       sync.Mutex
	lines    []string
	partial  string
	maxLines int
	maxBytes int
	bytes    int
}

func newRingLog(maxLines, maxBytes int) *ringLog {
	return &ringLog{maxLines: maxLines, maxBytes: maxBytes}
}

// Write takes a child's stderr.
func (l *ringLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.partial + string(p)
	parts := strings.Split(s, "\n")
	l.partial = parts[len(parts)-1]
	if len(l.partial) > 4096 {
		l.push(l.partial)
		l.partial = ""
	}
	for _, line := range parts[:len(parts)-1] {
		l.push(line)
	}
	return len(p), nil
}

// add records an event of the connection.
func (l *ringLog) add(msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.push("[vis " + time.Now().Format("15:04:05") + "] " + msg)
}

func (l *ringLog) push(line string) {
	if len(line) > 4096 {
		line = line[:4096] + "…"
	}
	l.lines = append(l.lines, line)
	l.bytes += len(line) + 1
	for len(l.lines) > l.maxLines || (l.bytes > l.maxBytes && len(l.lines) > 1) {
		l.bytes -= len(l.lines[0]) + 1
		l.lines = l.lines[1:]
	}
}

// last returns the last n lines (n <= 0: all kept).
func (l *ringLog) last(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.lines
	if l.partial != "" {
		lines = append(append([]string(nil), lines...), l.partial)
	}
	if n > 0 && len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
