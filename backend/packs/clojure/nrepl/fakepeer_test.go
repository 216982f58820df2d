package nrepl

import (
	"bufio"
	"net"
	"sync"
	"testing"
	"time"
)

// fakePeer is a scripted nREPL server for replies a real server never sends:
// malformed or truncated bencode, a socket closed mid-reply, silence. It
// answers "clone", "describe" and "close" itself and hands every other request to
// script, which writes whatever bytes it likes and returns false to close the
// connection.
type fakePeer struct {
	t      *testing.T
	ln     net.Listener
	ops    []string // describe's op list
	script func(w net.Conn, req map[string]any) bool

	mu    sync.Mutex
	seen  []string // ops received, in order
	dials int
	wg    sync.WaitGroup
	conns []net.Conn
}

func newFakePeer(t *testing.T, ops []string, script func(w net.Conn, req map[string]any) bool) *fakePeer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &fakePeer{t: t, ln: ln, ops: ops, script: script}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *fakePeer) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

func (p *fakePeer) accept() {
	defer p.wg.Done()
	for {
		nc, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.dials++
		p.conns = append(p.conns, nc)
		p.mu.Unlock()
		p.wg.Add(1)
		go p.serve(nc)
	}
}

func (p *fakePeer) serve(nc net.Conn) {
	defer p.wg.Done()
	defer nc.Close()
	br := bufio.NewReader(nc)
	for {
		v, err := Decode(br)
		if err != nil {
			return
		}
		req, _ := v.(map[string]any)
		op, _ := req["op"].(string)
		p.mu.Lock()
		p.seen = append(p.seen, op)
		p.mu.Unlock()
		id := req["id"]
		switch op {
		case "clone":
			_ = Encode(nc, map[string]any{"id": id, "new-session": "fake-session", "status": []any{"done"}})
		case "describe":
			ops := map[string]any{}
			for _, o := range p.ops {
				ops[o] = map[string]any{}
			}
			_ = Encode(nc, map[string]any{"id": id, "ops": ops, "status": []any{"done"},
				"versions": map[string]any{"nrepl": map[string]any{"version-string": "1.0.0"}}})
		case "close":
			_ = Encode(nc, map[string]any{"id": id, "status": []any{"done", "session-closed"}})
		default:
			if !p.script(nc, req) {
				return
			}
		}
	}
}

func (p *fakePeer) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *fakePeer) dialCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dials
}

func (p *fakePeer) sawOp(op string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.seen {
		if s == op {
			return true
		}
	}
	return false
}

// reply encodes m (plus the request's id and session) onto w.
func reply(w net.Conn, req map[string]any, m map[string]any) {
	m["id"] = req["id"]
	if s, ok := req["session"]; ok {
		m["session"] = s
	}
	_ = Encode(w, m)
}

func (p *fakePeer) seenOps() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// waitOp waits until the peer has received op (its serving goroutine runs
// concurrently with the client's return).
func (p *fakePeer) waitOp(t *testing.T, op string) bool {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !p.sawOp(op) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
