package nrepl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// maxWriteWait bounds one request write when ctx has no earlier deadline.
const maxWriteWait = 5 * time.Second

// errWait is returned by recv when the caller's own timer fired first.
var errWait = errors.New("nrepl: wait elapsed")

// conn is one TCP connection to an nREPL server. Writes are serialised by wmu;
// one reader goroutine (owned by the conn, ended by close) decodes replies and
// routes them to the pending call with the same "id". A reply whose id no call
// is waiting for (a late answer to an abandoned request) is dropped. The first
// read or write failure poisons the conn: the socket is closed, every waiting
// call is woken, and err says why.
type conn struct {
	nc   net.Conn
	wmu  sync.Mutex
	done chan struct{} // closed when the reader has exited

	mu    sync.Mutex
	calls map[string]*call
	err   error
}

// call collects the replies to one request id.
type call struct {
	id     string
	mu     sync.Mutex
	msgs   []map[string]any
	notify chan struct{} // capacity 1: "something was appended"
}

func newConn(nc net.Conn) *conn {
	c := &conn{nc: nc, done: make(chan struct{}), calls: map[string]*call{}}
	go c.readLoop()
	return c
}

func (c *conn) readLoop() {
	defer close(c.done)
	br := bufio.NewReaderSize(newSocketReader(c.nc), 64<<10)
	for {
		v, err := Decode(br)
		if err != nil {
			switch {
			case errors.Is(err, ErrMalformed):
				c.fail(fmt.Errorf("%w: %w", ErrProtocol, err))
			case err == io.EOF:
				c.fail(fmt.Errorf("%w: server closed the connection", ErrConnectionLost))
			default:
				c.fail(fmt.Errorf("%w: %w", ErrConnectionLost, err))
			}
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			c.fail(fmt.Errorf("%w: reply is a %s, not a dict", ErrProtocol, kindOf(v)))
			return
		}
		id, _ := m["id"].(string)
		c.mu.Lock()
		cl := c.calls[id]
		c.mu.Unlock()
		if cl == nil {
			continue
		}
		cl.mu.Lock()
		cl.msgs = append(cl.msgs, m)
		cl.mu.Unlock()
		select {
		case cl.notify <- struct{}{}:
		default:
		}
	}
}

func kindOf(v any) string {
	switch v.(type) {
	case int64:
		return "integer"
	case string:
		return "byte string"
	case []any:
		return "list"
	}
	return fmt.Sprintf("%T", v)
}

// fail records the first error and closes the socket (which ends the reader).
func (c *conn) fail(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
	_ = c.nc.Close()
}

// alive reports whether neither side has failed the connection yet.
func (c *conn) alive() bool {
	select {
	case <-c.done:
		return false
	default:
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err == nil
}

func (c *conn) failure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		return fmt.Errorf("%w: connection closed", ErrConnectionLost)
	}
	return c.err
}

// close closes the socket and waits for the reader to exit.
func (c *conn) close() {
	c.fail(fmt.Errorf("%w: connection closed", ErrClosed))
	<-c.done
}

// write encodes msg onto the socket. A failed or partial write poisons the
// connection, since the byte stream can no longer be trusted.
func (c *conn) write(ctx context.Context, msg map[string]any) error {
	b, err := Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if !c.alive() {
		return c.failure()
	}
	dl := time.Now().Add(maxWriteWait)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.nc.SetWriteDeadline(dl)
	_, err = c.nc.Write(b)
	if err != nil {
		werr := fmt.Errorf("%w: write: %w", ErrConnectionLost, err)
		c.fail(werr)
		return werr
	}
	return nil
}

// start registers a call for msg["id"] and writes msg. The caller must
// forget the call when done with it.
func (c *conn) start(ctx context.Context, msg map[string]any) (*call, error) {
	id, _ := msg["id"].(string)
	cl := &call{id: id, notify: make(chan struct{}, 1)}
	c.mu.Lock()
	c.calls[id] = cl
	c.mu.Unlock()
	if err := c.write(ctx, msg); err != nil {
		c.forget(cl)
		return nil, err
	}
	return cl, nil
}

func (c *conn) forget(cl *call) {
	c.mu.Lock()
	delete(c.calls, cl.id)
	c.mu.Unlock()
}

// recv returns the next reply for cl. It returns errWait when wait fires,
// ctx.Err() when ctx ends, and the connection's failure when the connection
// is gone and no buffered reply remains.
func (c *conn) recv(ctx context.Context, cl *call, wait <-chan time.Time) (map[string]any, error) {
	for {
		cl.mu.Lock()
		if len(cl.msgs) > 0 {
			m := cl.msgs[0]
			cl.msgs = cl.msgs[1:]
			cl.mu.Unlock()
			return m, nil
		}
		cl.mu.Unlock()
		select {
		case <-cl.notify:
		case <-c.done:
			cl.mu.Lock()
			n := len(cl.msgs)
			cl.mu.Unlock()
			if n == 0 {
				return nil, c.failure()
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-wait:
			return nil, errWait
		}
	}
}

// roundTrip sends msg and collects every reply up to and including the one
// whose status contains "done".
func (c *conn) roundTrip(ctx context.Context, msg map[string]any) ([]map[string]any, error) {
	cl, err := c.start(ctx, msg)
	if err != nil {
		return nil, err
	}
	defer c.forget(cl)
	var out []map[string]any
	for {
		m, err := c.recv(ctx, cl, nil)
		if err != nil {
			return out, err
		}
		out = append(out, m)
		if hasStatus(m, "done") {
			return out, nil
		}
	}
}

// statuses returns the "status" list of a reply as strings.
func statuses(m map[string]any) []string {
	l, _ := m["status"].([]any)
	out := make([]string, 0, len(l))
	for _, s := range l {
		if str, ok := s.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

func hasStatus(m map[string]any, want string) bool {
	for _, s := range statuses(m) {
		if s == want {
			return true
		}
	}
	return false
}
