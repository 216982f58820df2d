// Package nrepl is a client for Clojure's nREPL protocol (bencode over TCP),
// with its own bencode codec.
//
// A Client talks to one server (host:port) over at most one TCP connection at
// a time. Requests are written one at a time (a write lock) and a single reader
// goroutine routes every reply to its request by the reply's "id", collecting
// replies until one whose "status" contains "done". The Client keeps two
// server-side sessions, cloned on first use: an evaluation session, so that
// defs, *ns*, *1 *2 *3 and *e persist from one Eval to the next, and a health
// session, so that a health check is not queued behind a long evaluation.
// Evaluations are serialised (one Eval at a time per Client; the nREPL session
// would queue them anyway); Health, Describe and Interrupt may run while an
// Eval is in flight.
//
// Failure behaviour: a connection that fails (the server closed it, a reply was
// malformed or truncated, a write failed) is closed at once and every pending
// request gets an error wrapping ErrConnectionLost or ErrProtocol; the next
// call dials again (sessions are kept by id and re-cloned if the server no
// longer knows them). A socket that won't open is ErrUnreachable. An Eval that
// exceeds its timeout sends "interrupt", waits a bounded grace for the server
// to confirm, and returns a result with TimedOut set; the connection stays
// usable. Cancelling ctx interrupts the evaluation on the server and returns
// ctx's error once the server ends it, or after InterruptGrace, when the
// session is given up (an interrupt that came before the server started the
// eval finds nothing to stop) so the next Eval is never queued behind it. Every method honours ctx; no goroutine
// outlives Close.
package nrepl

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrUnreachable: the TCP connection could not be opened (nothing listens).
	ErrUnreachable = errors.New("nrepl: server unreachable")
	// ErrConnectionLost: the connection failed or was closed mid-request.
	ErrConnectionLost = errors.New("nrepl: connection lost")
	// ErrProtocol: the server sent something that is not an nREPL reply.
	ErrProtocol = errors.New("nrepl: protocol error")
	// ErrClosed: the Client was closed.
	ErrClosed = errors.New("nrepl: client closed")
	// ErrNoEval: Interrupt found no evaluation to interrupt.
	ErrNoEval = errors.New("nrepl: no evaluation is running")
	// ErrNamespaceNotFound: Eval named a namespace the server does not have.
	ErrNamespaceNotFound = errors.New("nrepl: namespace not found")
	// ErrServer: the server answered a request with an error status.
	ErrServer = errors.New("nrepl: server error")
)

// HealthForm is the form Health evaluates.
const HealthForm = "(+ 1 1)"

// Health statuses.
const (
	StatusUp           = "up"
	StatusUnresponsive = "unresponsive"
	StatusDown         = "down"
	StatusUnknown      = "unknown"
)

// Options configures a Client. Zero fields take the defaults shown.
type Options struct {
	DialTimeout    time.Duration // opening the socket: 2s
	EvalTimeout    time.Duration // Eval when EvalOptions.Timeout is 0: 30s
	InterruptGrace time.Duration // after a timeout, wait this long for the interrupted eval to end: 5s
	RightMargin    int           // pretty-printer right margin: 100
	MaxOutput      int           // bytes of Out and of Err kept per Eval: 1 MiB
}

func (o Options) withDefaults() Options {
	if o.DialTimeout <= 0 {
		o.DialTimeout = 2 * time.Second
	}
	if o.EvalTimeout <= 0 {
		o.EvalTimeout = 30 * time.Second
	}
	if o.InterruptGrace <= 0 {
		o.InterruptGrace = 5 * time.Second
	}
	if o.RightMargin <= 0 {
		o.RightMargin = 100
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = 1 << 20
	}
	return o
}

// EvalOptions are per-evaluation settings.
type EvalOptions struct {
	Ns      string        // namespace to evaluate in; empty = the session's current *ns*
	Timeout time.Duration // 0 = Options.EvalTimeout
	Plain   bool          // true = the server's default printing instead of pprint
}

// EvalResult is what one Eval produced. Evaluation errors are reported here
// (ExClass set), not as a Go error.
type EvalResult struct {
	Value     string   // the last value, printed by the server (pretty when supported)
	Values    []string // every value, one per top-level form
	Out, Err  string   // *out* and *err* output (capped at Options.MaxOutput each)
	Ns        string   // the session's namespace after the evaluation
	ExClass   string   // class of the thrown exception, e.g. "java.lang.ArithmeticException"
	ExMessage string   // its message
	RootEx    string   // class of the root cause
	Trace     string   // readable cause chain and stack frames
	Ms        int64    // elapsed milliseconds from request to completion
	TimedOut  bool     // the timeout fired and the evaluation was interrupted
	Status    []string // every status the server reported, deduplicated, in order
	// ValuesDropped counts values past the caps (maxValues, MaxOutput bytes).
	ValuesDropped int

	valueBytes int
}

// maxValues is the most values one evaluation keeps (one per top-level form).
const maxValues = 1000

// Description is what the server's "describe" op reports.
type Description struct {
	Versions  map[string]string // e.g. "clojure": "1.11.1", "nrepl": "1.0.0", "java": "17.0.15"
	Ops       []string          // sorted op names
	Dialect   string            // "clj", or "cljs" for a ClojureScript-only server
	CurrentNs string            // aux current-ns, when reported
}

// HasOp reports whether the server supports op.
func (d Description) HasOp(op string) bool {
	i := sort.SearchStrings(d.Ops, op)
	return i < len(d.Ops) && d.Ops[i] == op
}

// supportsPrint reports whether the server has the print middleware
// (nREPL 0.6 and later).
func (d Description) supportsPrint() bool {
	v, ok := d.Versions["nrepl"]
	if !ok {
		return false
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil {
		return false
	}
	return major > 0 || minor >= 6
}

// Health is the verdict of one health check.
type Health struct {
	Status string // StatusUp, StatusUnresponsive, StatusDown or StatusUnknown
	Form   string // the form that was evaluated, when not up
	Hint   string // what a person (or the model) should do, when not up
	Error  string // why, when not up
	Ms     int64  // elapsed milliseconds
}

// Client is a connection manager for one nREPL server. It is safe for
// concurrent use. Create it with Dial or NewClient; Close it when done.
type Client struct {
	addr string
	opts Options

	connSem   chan struct{} // held while dialling
	evalSem   chan struct{} // one Eval at a time
	healthSem chan struct{} // one Health at a time

	mu         sync.Mutex
	cn         *conn
	desc       *Description
	evalSess   string
	healthSess string
	running    *running
	closed     bool

	seq atomic.Uint64
}

type running struct {
	cn   *conn
	sess string
	id   string
}

// NewClient returns a Client for host:port without any I/O; the connection is
// opened by the first call that needs it.
func NewClient(host string, port int, opts Options) *Client {
	return &Client{
		addr:      net.JoinHostPort(host, strconv.Itoa(port)),
		opts:      opts.withDefaults(),
		connSem:   make(chan struct{}, 1),
		evalSem:   make(chan struct{}, 1),
		healthSem: make(chan struct{}, 1),
	}
}

// Dial connects to the nREPL server at host:port and checks it answers
// "describe". The error wraps ErrUnreachable when the socket won't open.
func Dial(ctx context.Context, host string, port int, opts Options) (*Client, error) {
	c := NewClient(host, port, opts)
	if _, err := c.Describe(ctx); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("dial nrepl %s: %w", c.addr, err)
	}
	return c, nil
}

// Addr is the server's host:port.
func (c *Client) Addr() string { return c.addr }

func (c *Client) nextID() string {
	return "vis-" + strconv.FormatUint(c.seq.Add(1), 10)
}

func acquire(ctx context.Context, sem chan struct{}) error {
	select {
	case sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// connect returns the live connection, dialling a new one when there is none
// or the cached one has failed (a stale socket is evicted here).
func (c *Client) connect(ctx context.Context) (*conn, error) {
	if err := acquire(ctx, c.connSem); err != nil {
		return nil, err
	}
	defer func() { <-c.connSem }()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	cn := c.cn
	if cn != nil && cn.alive() {
		c.mu.Unlock()
		return cn, nil
	}
	c.cn, c.desc = nil, nil
	c.mu.Unlock()
	if cn != nil {
		cn.close()
	}
	d := net.Dialer{Timeout: c.opts.DialTimeout}
	nc, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrUnreachable, c.addr, err)
	}
	cn = newConn(nc)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		cn.close()
		return nil, ErrClosed
	}
	c.cn = cn
	c.mu.Unlock()
	return cn, nil
}

// evict drops cn if it is still the cached connection.
func (c *Client) evict(cn *conn) {
	c.mu.Lock()
	if c.cn == cn {
		c.cn, c.desc = nil, nil
	}
	c.mu.Unlock()
	cn.close()
}

// session returns the id stored in *slot, cloning a fresh session when empty.
func (c *Client) session(ctx context.Context, cn *conn, slot *string) (string, error) {
	c.mu.Lock()
	id := *slot
	c.mu.Unlock()
	if id != "" {
		return id, nil
	}
	id, err := c.clone(ctx, cn, "")
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	*slot = id
	c.mu.Unlock()
	return id, nil
}

// clone creates a server session, copying from's bindings when from is set.
func (c *Client) clone(ctx context.Context, cn *conn, from string) (string, error) {
	msg := map[string]any{"op": "clone", "id": c.nextID()}
	if from != "" {
		msg["session"] = from
	}
	replies, err := cn.roundTrip(ctx, msg)
	if err != nil {
		return "", fmt.Errorf("clone session: %w", err)
	}
	for _, m := range replies {
		if s, ok := m["new-session"].(string); ok && s != "" {
			return s, nil
		}
	}
	return "", fmt.Errorf("clone session: %w: no new-session in reply (status %v)", ErrServer, allStatuses(replies))
}

func allStatuses(replies []map[string]any) []string {
	var out []string
	for _, m := range replies {
		out = append(out, statuses(m)...)
	}
	return out
}

// Describe asks the server what it supports. It doubles as a liveness probe.
func (c *Client) Describe(ctx context.Context) (Description, error) {
	cn, err := c.connect(ctx)
	if err != nil {
		return Description{}, fmt.Errorf("describe: %w", err)
	}
	d, err := c.describeOn(ctx, cn)
	if err != nil {
		if !cn.alive() {
			c.evict(cn)
		}
		return Description{}, err
	}
	return d, nil
}

func (c *Client) describeOn(ctx context.Context, cn *conn) (Description, error) {
	replies, err := cn.roundTrip(ctx, map[string]any{"op": "describe", "id": c.nextID()})
	if err != nil {
		return Description{}, fmt.Errorf("describe: %w", err)
	}
	d := Description{Versions: map[string]string{}, Dialect: "clj"}
	for _, m := range replies {
		if ops, ok := m["ops"].(map[string]any); ok {
			for op := range ops {
				d.Ops = append(d.Ops, op)
			}
		}
		if vs, ok := m["versions"].(map[string]any); ok {
			for name, v := range vs {
				switch x := v.(type) {
				case map[string]any:
					if s, ok := x["version-string"].(string); ok {
						d.Versions[name] = s
					}
				case string:
					d.Versions[name] = x
				}
			}
		}
		if aux, ok := m["aux"].(map[string]any); ok {
			if ns, ok := aux["current-ns"].(string); ok {
				d.CurrentNs = ns
			}
		}
	}
	sort.Strings(d.Ops)
	if _, clj := d.Versions["clojure"]; !clj {
		if _, cljs := d.Versions["clojurescript"]; cljs {
			d.Dialect = "cljs"
		}
	}
	c.mu.Lock()
	if c.cn == cn {
		dd := d
		c.desc = &dd
	}
	c.mu.Unlock()
	return d, nil
}

// description returns the cached description for cn, asking once per
// connection. Errors leave it unknown (plain printing, eval-based traces).
func (c *Client) description(ctx context.Context, cn *conn) Description {
	c.mu.Lock()
	d := c.desc
	c.mu.Unlock()
	if d != nil {
		return *d
	}
	got, err := c.describeOn(ctx, cn)
	if err != nil {
		return Description{}
	}
	return got
}

// Eval evaluates code in the evaluation session. Evaluation errors come back
// in the result (ExClass, ExMessage, RootEx, Trace); the error is for
// transport failures, ctx, an unknown namespace, and a server that refused the
// request. On timeout the evaluation is interrupted and the result has
// TimedOut set with a nil error.
func (c *Client) Eval(ctx context.Context, code string, eo EvalOptions) (EvalResult, error) {
	if err := acquire(ctx, c.evalSem); err != nil {
		return EvalResult{}, fmt.Errorf("eval: %w", err)
	}
	defer func() { <-c.evalSem }()
	timeout := eo.Timeout
	if timeout <= 0 {
		timeout = c.opts.EvalTimeout
	}
	start := time.Now()
	for attempt := 0; ; attempt++ {
		// Connecting and cloning count against the evaluation's timeout.
		setupCtx, cancel := context.WithTimeout(ctx, timeout)
		cn, err := c.connect(setupCtx)
		var sess string
		var desc Description
		if err == nil {
			desc = c.description(setupCtx, cn)
			sess, err = c.session(setupCtx, cn, &c.evalSess)
		}
		cancel()
		if err != nil {
			if cn != nil && !cn.alive() {
				c.evict(cn)
			}
			if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				return EvalResult{TimedOut: true, Ms: time.Since(start).Milliseconds()},
					fmt.Errorf("eval: server did not answer within %s: %w", timeout, err)
			}
			return EvalResult{}, fmt.Errorf("eval: %w", err)
		}
		res, sent, err := c.evalOnce(ctx, cn, sess, code, eo, desc, timeout-time.Since(start))
		res.Ms = time.Since(start).Milliseconds()
		switch {
		case err == nil && hasString(res.Status, "unknown-session") && attempt == 0:
			// The server forgot the session (it restarted): clone a new one.
			c.mu.Lock()
			if c.evalSess == sess {
				c.evalSess = ""
			}
			c.mu.Unlock()
			continue
		case err != nil && !sent && attempt == 0 && errors.Is(err, ErrConnectionLost):
			// A stale socket failed before the request left: nothing was
			// evaluated, so redial and try once more.
			c.evict(cn)
			continue
		case err != nil:
			if !cn.alive() {
				c.evict(cn)
			}
			return res, fmt.Errorf("eval: %w", err)
		}
		if res.ExClass != "" && !res.TimedOut && !hasString(res.Status, "interrupted") {
			tctx, cancel := context.WithTimeout(ctx, c.opts.InterruptGrace+timeout/2)
			c.fillTrace(tctx, cn, sess, desc, &res)
			cancel()
		}
		return res, nil
	}
}

// evalOnce sends one eval request and collects its replies. sent reports
// whether the request was written.
func (c *Client) evalOnce(ctx context.Context, cn *conn, sess, code string, eo EvalOptions, desc Description, timeout time.Duration) (res EvalResult, sent bool, err error) {
	id := c.nextID()
	msg := map[string]any{"op": "eval", "id": id, "session": sess, "code": code}
	if eo.Ns != "" {
		msg["ns"] = eo.Ns
	}
	if !eo.Plain && desc.supportsPrint() {
		msg["nrepl.middleware.print/print"] = "nrepl.util.print/pprint"
		msg["nrepl.middleware.print/options"] = map[string]any{"right-margin": c.opts.RightMargin}
	}
	cl, err := cn.start(ctx, msg)
	if err != nil {
		return res, false, err
	}
	defer cn.forget(cl)
	c.mu.Lock()
	c.running = &running{cn: cn, sess: sess, id: id}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.running = nil
		c.mu.Unlock()
	}()

	if timeout <= 0 {
		timeout = time.Millisecond
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	wait := timer.C
	var out, errOut strings.Builder
	interrupted := false
	for {
		m, rerr := cn.recv(ctx, cl, wait)
		switch {
		case rerr == errWait && !interrupted:
			res.TimedOut = true
			interrupted = true
			c.sendInterrupt(ctx, cn, sess, id)
			timer.Reset(c.opts.InterruptGrace)
			continue
		case rerr == errWait:
			// The server did not confirm the interrupt: the session may be
			// wedged, or the reply stream stalled mid-message. Abandon both;
			// the next Eval dials again and clones a fresh session.
			c.abandonEvalSession(cn, sess)
			c.evict(cn)
			res.Out, res.Err = out.String(), errOut.String()
			return res, true, nil
		case rerr != nil && ctx.Err() != nil:
			c.sendInterrupt(context.WithoutCancel(ctx), cn, sess, id)
			res.Out, res.Err = out.String(), errOut.String()
			if !c.awaitEnd(cn, cl) {
				// No end within the grace: the server may not have started
				// the eval when the interrupt came (it then runs on), or the
				// session is wedged. Give the session up, as after an
				// unconfirmed timeout, so the next Eval is not queued
				// behind it.
				c.abandonEvalSession(cn, sess)
			}
			return res, true, ctx.Err()
		case rerr != nil:
			res.Out, res.Err = out.String(), errOut.String()
			return res, true, rerr
		}
		c.absorb(m, &res, &out, &errOut)
		if hasStatus(m, "namespace-not-found") {
			res.Out, res.Err = out.String(), errOut.String()
			return res, true, fmt.Errorf("%w: %s", ErrNamespaceNotFound, eo.Ns)
		}
		if hasStatus(m, "done") {
			res.Out, res.Err = out.String(), errOut.String()
			if hasStatus(m, "error") && !hasString(res.Status, "unknown-session") && res.ExClass == "" && !hasString(res.Status, "interrupted") {
				return res, true, fmt.Errorf("%w: eval status %v", ErrServer, res.Status)
			}
			return res, true, nil
		}
	}
}

// awaitEnd waits up to InterruptGrace for the "done" of the eval whose
// call is cl, and reports whether it came.
func (c *Client) awaitEnd(cn *conn, cl *call) bool {
	timer := time.NewTimer(c.opts.InterruptGrace)
	defer timer.Stop()
	for {
		m, err := cn.recv(context.Background(), cl, timer.C)
		if err != nil {
			return false
		}
		if hasStatus(m, "done") {
			return true
		}
	}
}

func (c *Client) absorb(m map[string]any, res *EvalResult, out, errOut *strings.Builder) {
	if v, ok := m["value"].(string); ok {
		v = strings.TrimSuffix(v, "\n")
		if len(v) > c.opts.MaxOutput {
			v = v[:c.opts.MaxOutput] + truncMark
		}
		// A flood of values (a hostile or runaway peer) is counted, not
		// kept: at most maxValues, and no more than MaxOutput bytes of them.
		if len(res.Values) < maxValues && res.valueBytes+len(v) <= c.opts.MaxOutput {
			res.Values = append(res.Values, v)
			res.valueBytes += len(v)
		} else {
			res.ValuesDropped++
		}
		res.Value = v
	}
	if s, ok := m["out"].(string); ok {
		appendCapped(out, s, c.opts.MaxOutput)
	}
	if s, ok := m["err"].(string); ok {
		appendCapped(errOut, s, c.opts.MaxOutput)
	}
	if s, ok := m["ns"].(string); ok {
		res.Ns = s
	}
	if s, ok := m["ex"].(string); ok {
		res.ExClass = strings.TrimPrefix(s, "class ")
	}
	if s, ok := m["root-ex"].(string); ok {
		res.RootEx = strings.TrimPrefix(s, "class ")
	}
	for _, s := range statuses(m) {
		if !hasString(res.Status, s) {
			res.Status = append(res.Status, s)
		}
	}
}

const truncMark = "\n…[output truncated]\n"

func appendCapped(b *strings.Builder, s string, max int) {
	if b.Len() >= max {
		return
	}
	if b.Len()+len(s) > max {
		b.WriteString(s[:max-b.Len()])
		b.WriteString(truncMark)
		return
	}
	b.WriteString(s)
}

func hasString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// sendInterrupt asks the server to interrupt evaluation id in sess. Only the
// request is written; the interrupted eval's own "done" tells the outcome.
func (c *Client) sendInterrupt(ctx context.Context, cn *conn, sess, id string) {
	wctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_ = cn.write(wctx, map[string]any{"op": "interrupt", "id": c.nextID(), "session": sess, "interrupt-id": id})
}

// abandonEvalSession forgets a session that did not answer an interrupt and
// asks the server (without waiting) to close it.
func (c *Client) abandonEvalSession(cn *conn, sess string) {
	c.mu.Lock()
	if c.evalSess == sess {
		c.evalSess = ""
	}
	c.mu.Unlock()
	wctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = cn.write(wctx, map[string]any{"op": "close", "id": c.nextID(), "session": sess})
}

// Interrupt interrupts the Eval in flight on this Client, which then returns
// with "interrupted" in its Status. It returns ErrNoEval when nothing runs.
func (c *Client) Interrupt(ctx context.Context) error {
	c.mu.Lock()
	r := c.running
	c.mu.Unlock()
	if r == nil {
		return ErrNoEval
	}
	replies, err := r.cn.roundTrip(ctx, map[string]any{
		"op": "interrupt", "id": c.nextID(), "session": r.sess, "interrupt-id": r.id,
	})
	if err != nil {
		return fmt.Errorf("interrupt: %w", err)
	}
	st := allStatuses(replies)
	switch {
	case hasString(st, "session-idle"), hasString(st, "interrupt-id-mismatch"):
		return ErrNoEval
	case hasString(st, "error"):
		return fmt.Errorf("interrupt: %w: status %v", ErrServer, st)
	}
	return nil
}

// Health evaluates HealthForm in the health session within deadline
// (0 = 2s): StatusUp when it returns "2", StatusUnresponsive when the server
// accepts the connection but does not answer in time (Form and Hint say what
// failed and what to do), StatusDown when the socket won't open or dies,
// StatusUnknown for anything else (including ctx cancelled by the caller).
func (c *Client) Health(ctx context.Context, deadline time.Duration) Health {
	if deadline <= 0 {
		deadline = 2 * time.Second
	}
	start := time.Now()
	hctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	h := c.health(ctx, hctx, deadline)
	h.Ms = time.Since(start).Milliseconds()
	if h.Status != StatusUp {
		h.Form = HealthForm
	}
	return h
}

func (c *Client) health(ctx, hctx context.Context, deadline time.Duration) Health {
	verdict := func(err error) Health {
		switch {
		case errors.Is(err, ErrUnreachable):
			return Health{Status: StatusDown, Error: err.Error(),
				Hint: "nothing answers on " + c.addr + ": start the REPL again"}
		case ctx.Err() != nil:
			return Health{Status: StatusUnknown, Error: ctx.Err().Error()}
		case errors.Is(err, context.DeadlineExceeded), err == errWait:
			return Health{Status: StatusUnresponsive,
				Error: fmt.Sprintf("%s got no answer within %s", HealthForm, deadline),
				Hint:  "the REPL accepts connections but does not evaluate: stop it, then start it again"}
		case errors.Is(err, ErrConnectionLost), errors.Is(err, ErrProtocol), errors.Is(err, ErrClosed):
			return Health{Status: StatusDown, Error: err.Error(),
				Hint: "the connection to " + c.addr + " failed: start the REPL again"}
		}
		return Health{Status: StatusUnknown, Error: err.Error()}
	}
	if err := acquire(hctx, c.healthSem); err != nil {
		return verdict(err)
	}
	defer func() { <-c.healthSem }()
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		cn, err := c.connect(hctx)
		if err != nil {
			return verdict(err)
		}
		v, err := c.healthEval(hctx, cn)
		if err == nil {
			if v == "2" {
				return Health{Status: StatusUp}
			}
			return Health{Status: StatusUnknown, Error: fmt.Sprintf("%s returned %q", HealthForm, v)}
		}
		lastErr = err
		if !cn.alive() {
			// A stale socket: evict it and try once more on a fresh one.
			c.evict(cn)
			continue
		}
		return verdict(err)
	}
	return verdict(lastErr)
}

func (c *Client) healthEval(ctx context.Context, cn *conn) (string, error) {
	for attempt := 0; attempt < 2; attempt++ {
		sess, err := c.session(ctx, cn, &c.healthSess)
		if err != nil {
			return "", err
		}
		id := c.nextID()
		replies, err := cn.roundTrip(ctx, map[string]any{"op": "eval", "id": id, "session": sess, "code": HealthForm})
		if err != nil {
			if ctx.Err() != nil && cn.alive() {
				// Wedged: interrupt and start the next check on a fresh session.
				c.sendInterrupt(context.Background(), cn, sess, id)
				c.mu.Lock()
				if c.healthSess == sess {
					c.healthSess = ""
				}
				c.mu.Unlock()
			}
			return "", err
		}
		st := allStatuses(replies)
		if hasString(st, "unknown-session") {
			c.mu.Lock()
			if c.healthSess == sess {
				c.healthSess = ""
			}
			c.mu.Unlock()
			continue
		}
		for _, m := range replies {
			if v, ok := m["value"].(string); ok {
				return v, nil
			}
		}
		return "", fmt.Errorf("%w: no value (status %v)", ErrServer, st)
	}
	return "", fmt.Errorf("%w: health session unknown to the server", ErrServer)
}

// Close closes both server sessions (best effort, bounded to one second) and
// the connection. Calls in flight fail with ErrClosed or ErrConnectionLost.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	cn := c.cn
	c.cn = nil
	sessions := []string{c.evalSess, c.healthSess}
	c.evalSess, c.healthSess = "", ""
	c.mu.Unlock()
	if cn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for _, s := range sessions {
		if s != "" && cn.alive() {
			_, _ = cn.roundTrip(ctx, map[string]any{"op": "close", "id": c.nextID(), "session": s})
		}
	}
	cn.close()
	return nil
}
