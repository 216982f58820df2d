package nrepl

import (
	"net"
	"strconv"
	"sync"
)

// Pool shares one Client per host:port, so that every caller (evaluation,
// the per-turn probe) uses the same connection and sessions. It is safe for
// concurrent use.
type Pool struct {
	opts    Options
	mu      sync.Mutex
	clients map[string]*Client
}

// NewPool returns an empty Pool whose Clients use opts.
func NewPool(opts Options) *Pool {
	return &Pool{opts: opts, clients: map[string]*Client{}}
}

// Client returns the Pool's Client for host:port, creating it (without I/O)
// on first use.
func (p *Pool) Client(host string, port int) *Client {
	key := net.JoinHostPort(host, strconv.Itoa(port))
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.clients[key]; ok {
		return c
	}
	c := NewClient(host, port, p.opts)
	p.clients[key] = c
	return c
}

// Remove closes and forgets the Client for host:port (a REPL was stopped).
func (p *Pool) Remove(host string, port int) {
	key := net.JoinHostPort(host, strconv.Itoa(port))
	p.mu.Lock()
	c := p.clients[key]
	delete(p.clients, key)
	p.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
}

// Close closes every Client.
func (p *Pool) Close() error {
	p.mu.Lock()
	cs := p.clients
	p.clients = map[string]*Client{}
	p.mu.Unlock()
	for _, c := range cs {
		_ = c.Close()
	}
	return nil
}
