package nrepl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Tests in this file run against the real nREPL server started by needServer.

func mustEval(t *testing.T, c *Client, code string, eo EvalOptions) EvalResult {
	t.Helper()
	r, err := c.Eval(testCtx(t), code, eo)
	if err != nil {
		t.Fatalf("Eval(%q): %v", code, err)
	}
	return r
}

func TestEvalValues(t *testing.T) {
	c := newServerClient(t, Options{})
	tests := []struct {
		name   string
		code   string
		plain  bool
		value  string
		values []string
	}{
		{name: "arithmetic", code: "(+ 1 2)", value: "3", values: []string{"3"}},
		{name: "several forms", code: "1 :two \"three\"", value: `"three"`, values: []string{"1", ":two", `"three"`}},
		{name: "nil", code: "nil", value: "nil", values: []string{"nil"}},
		{name: "pretty printed at margin 100", code: "(vec (range 40))",
			value: "[0\n 1\n 2\n 3\n 4\n 5\n 6\n 7\n 8\n 9\n 10\n 11\n 12\n 13\n 14\n 15\n 16\n 17\n 18\n 19\n 20\n 21\n 22\n 23\n 24\n 25\n 26\n 27\n 28\n 29\n 30\n 31\n 32\n 33\n 34\n 35\n 36\n 37\n 38\n 39]"},
		{name: "short map stays on one line", code: "{:a 1 :b [1 2]}", value: "{:a 1, :b [1 2]}"},
		{name: "plain printing", code: "(vec (range 40))", plain: true,
			value: "[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustEval(t, c, tt.code, EvalOptions{Plain: tt.plain})
			if r.Value != tt.value {
				t.Errorf("Value = %q, want %q", r.Value, tt.value)
			}
			if tt.values != nil {
				if d := cmp.Diff(tt.values, r.Values); d != "" {
					t.Errorf("Values (-want +got):\n%s", d)
				}
			}
			if r.ExClass != "" || r.TimedOut {
				t.Errorf("unexpected error result: %+v", r)
			}
			if !hasString(r.Status, "done") {
				t.Errorf("Status = %v, want done", r.Status)
			}
		})
	}
}

func TestEvalOutput(t *testing.T) {
	c := newServerClient(t, Options{})
	r := mustEval(t, c, `(println "hello") (binding [*out* *err*] (println "warn")) (print "no newline") 42`, EvalOptions{})
	if r.Out != "hello\nno newline" {
		t.Errorf("Out = %q", r.Out)
	}
	if r.Err != "warn\n" {
		t.Errorf("Err = %q", r.Err)
	}
	if r.Value != "42" {
		t.Errorf("Value = %q", r.Value)
	}
}

func TestEvalOutputIsCapped(t *testing.T) {
	c := newServerClient(t, Options{MaxOutput: 1000})
	r := mustEval(t, c, `(print (apply str (repeat 5000 "x"))) :ok`, EvalOptions{})
	if want := strings.Repeat("x", 1000) + truncMark; r.Out != want {
		t.Errorf("Out has %d bytes ending %q, want 1000 x's and the truncation mark", len(r.Out), r.Out[max(0, len(r.Out)-30):])
	}
	if r.Value != ":ok" {
		t.Errorf("Value = %q", r.Value)
	}
}

func TestEvalExceptions(t *testing.T) {
	c := newServerClient(t, Options{})
	tests := []struct {
		name            string
		code            string
		class, msg      string
		root            string
		traceHas        []string
		errHas          string
		wantValueBefore string
	}{
		{name: "arithmetic", code: "(/ 1 0)",
			class: "java.lang.ArithmeticException", msg: "Divide by zero", root: "java.lang.ArithmeticException",
			traceHas: []string{"Execution error (ArithmeticException)", "java.lang.ArithmeticException: Divide by zero", "at clojure.lang.Numbers.divide"},
			errHas:   "Divide by zero"},
		{name: "ex-info with a cause", code: `(throw (ex-info "outer" {:k 1} (IllegalStateException. "inner")))`,
			class: "clojure.lang.ExceptionInfo", msg: "outer", root: "java.lang.IllegalStateException",
			traceHas: []string{"clojure.lang.ExceptionInfo: outer {:k 1}", "java.lang.IllegalStateException: inner", "Trace (root cause):"}},
		{name: "unresolved symbol", code: "(no-such-fn 1)",
			// clojure.main/root-cause stops at the compiler exception; the
			// trace still names the real cause.
			class: "clojure.lang.Compiler$CompilerException", root: "clojure.lang.Compiler$CompilerException",
			msg:      "Syntax error compiling at (1:1).",
			traceHas: []string{"Unable to resolve symbol: no-such-fn in this context"}},
		{name: "value then error", code: `(+ 1 1) (throw (RuntimeException. "late"))`,
			class: "java.lang.RuntimeException", msg: "late", root: "java.lang.RuntimeException",
			wantValueBefore: "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustEval(t, c, tt.code, EvalOptions{})
			if r.ExClass != tt.class || r.ExMessage != tt.msg || r.RootEx != tt.root {
				t.Errorf("ex = (%q, %q, root %q), want (%q, %q, root %q)", r.ExClass, r.ExMessage, r.RootEx, tt.class, tt.msg, tt.root)
			}
			for _, s := range tt.traceHas {
				if !strings.Contains(r.Trace, s) {
					t.Errorf("Trace lacks %q:\n%s", s, r.Trace)
				}
			}
			if !strings.Contains(r.Err, tt.errHas) {
				t.Errorf("Err = %q, want it to contain %q", r.Err, tt.errHas)
			}
			if !hasString(r.Status, "eval-error") {
				t.Errorf("Status = %v, want eval-error", r.Status)
			}
			if r.Value != tt.wantValueBefore {
				t.Errorf("Value = %q, want %q", r.Value, tt.wantValueBefore)
			}
		})
	}
}

func TestEvalStatePersists(t *testing.T) {
	c := newServerClient(t, Options{})
	mustEval(t, c, "(def answer 41)", EvalOptions{})
	if r := mustEval(t, c, "(inc answer)", EvalOptions{}); r.Value != "42" {
		t.Fatalf("(inc answer) = %q, want 42", r.Value)
	}
	if r := mustEval(t, c, "*1", EvalOptions{}); r.Value != "42" {
		t.Errorf("*1 = %q, want 42", r.Value)
	}
	// An error (and the trace fetch that follows it) leaves *1 alone and
	// sets *e in the evaluation session.
	if r := mustEval(t, c, "(/ 1 0)", EvalOptions{}); r.ExClass == "" {
		t.Fatalf("(/ 1 0) did not fail: %+v", r)
	}
	if r := mustEval(t, c, "[*1 *2 (ex-message *e)]", EvalOptions{}); r.Value != `[42 42 "Divide by zero"]` {
		t.Errorf("[*1 *2 (ex-message *e)] = %q", r.Value)
	}
}

func TestEvalNamespaces(t *testing.T) {
	c := newServerClient(t, Options{})
	r := mustEval(t, c, "(ns vis.scratch) (defn twice [x] (* 2 x))", EvalOptions{})
	if r.Ns != "vis.scratch" {
		t.Errorf("Ns after (ns vis.scratch) = %q", r.Ns)
	}
	if r := mustEval(t, c, "[(str *ns*) (twice 21)]", EvalOptions{}); r.Value != `["vis.scratch" 42]` || r.Ns != "vis.scratch" {
		t.Errorf("the session stayed in vis.scratch: got %q in %q", r.Value, r.Ns)
	}
	if r := mustEval(t, c, "(str *ns*)", EvalOptions{Ns: "user"}); r.Value != `"user"` || r.Ns != "user" {
		t.Errorf("with Ns user: got %q in %q", r.Value, r.Ns)
	}
	if r := mustEval(t, c, "(twice 5)", EvalOptions{Ns: "vis.scratch"}); r.Value != "10" {
		t.Errorf("with Ns vis.scratch: (twice 5) = %q", r.Value)
	}
	_, err := c.Eval(testCtx(t), "1", EvalOptions{Ns: "no.such.ns"})
	if !errors.Is(err, ErrNamespaceNotFound) || !strings.Contains(err.Error(), "no.such.ns") {
		t.Errorf("unknown ns: err = %v, want ErrNamespaceNotFound naming it", err)
	}
}

func TestEvalTimeoutInterruptsAndConnectionStaysUsable(t *testing.T) {
	c := newServerClient(t, Options{})
	mustEval(t, c, "(def before-timeout :kept)", EvalOptions{})
	r, err := c.Eval(testCtx(t), "(Thread/sleep 60000)", EvalOptions{Timeout: time.Second})
	if err != nil {
		t.Fatalf("Eval: %v", err)
	}
	if !r.TimedOut || !hasString(r.Status, "interrupted") {
		t.Fatalf("TimedOut = %v, Status = %v; want a timed-out, interrupted eval", r.TimedOut, r.Status)
	}
	if r.Ms >= 30_000 {
		t.Errorf("Ms = %d: the 60 s sleep was not interrupted", r.Ms)
	}
	next := mustEval(t, c, "[(+ 1 1) before-timeout]", EvalOptions{Timeout: 20 * time.Second})
	if next.Value != "[2 :kept]" {
		t.Errorf("next eval = %+v, want [2 :kept]", next)
	}
}

func TestInterruptRunningEval(t *testing.T) {
	c := newServerClient(t, Options{})
	if err := c.Interrupt(testCtx(t)); !errors.Is(err, ErrNoEval) {
		t.Errorf("Interrupt with nothing running = %v, want ErrNoEval", err)
	}
	type result struct {
		r   EvalResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := c.Eval(context.Background(), `(println "started") (flush) (Thread/sleep 60000)`, EvalOptions{Timeout: 2 * time.Minute})
		done <- result{r, err}
	}()
	// Interrupt until the eval is running on the server.
	ctx := testCtx(t)
	for {
		err := c.Interrupt(ctx)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrNoEval) {
			t.Fatalf("Interrupt: %v", err)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the eval never started")
		case <-time.After(20 * time.Millisecond):
		}
	}
	got := <-done
	if got.err != nil {
		t.Fatalf("Eval: %v", got.err)
	}
	if got.r.TimedOut || !hasString(got.r.Status, "interrupted") {
		t.Errorf("TimedOut = %v, Status = %v; want interrupted without timeout", got.r.TimedOut, got.r.Status)
	}
	if r := mustEval(t, c, "(+ 1 1)", EvalOptions{}); r.Value != "2" {
		t.Errorf("after interrupt: %+v", r)
	}
}

// Cancelling an Eval interrupts it on the server. Every wait here is on the
// server's own state, bounded only by the test's context, so a loaded
// machine makes it slower, not flaky: the cancel is sent only once the
// server runs the form (before that an interrupt finds nothing to stop, the
// race cf23109 handles by giving the session up), the grace is long enough
// for a slow server's "interrupted" reply, and the form's finally block
// proves the evaluation ended on the server.
func TestEvalCancelInterruptsServerSide(t *testing.T) {
	c := newServerClient(t, Options{InterruptGrace: 45 * time.Second})
	mustEval(t, c, "(def cancel-started (promise)) (def cancel-ended (promise))", EvalOptions{Timeout: 45 * time.Second})
	c.mu.Lock()
	sess := c.evalSess
	c.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := c.Eval(ctx, "(deliver user/cancel-started true) (try (Thread/sleep 60000) (finally (deliver user/cancel-ended true)))", EvalOptions{Timeout: 2 * time.Minute})
		errc <- err
	}()
	waitServer(t, "(realized? user/cancel-started)")
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled Eval returned %v, want context.Canceled", err)
		}
	case <-testCtx(t).Done():
		t.Fatal("the cancelled Eval did not return")
	}
	waitServer(t, "(realized? user/cancel-ended)")
	c.mu.Lock()
	kept := c.evalSess == sess
	c.mu.Unlock()
	if !kept {
		t.Error("the session was given up although the server confirmed the interrupt")
	}
	// Had the sleep not been interrupted, this would queue behind it.
	r := mustEval(t, c, "(+ 1 1)", EvalOptions{Timeout: 45 * time.Second})
	if r.Value != "2" || r.TimedOut {
		t.Errorf("after cancel: %+v", r)
	}
}

// waitServer polls the server (a fresh connection and session each time, so
// never queued behind the eval session) until form evaluates to true.
func waitServer(t *testing.T, form string) {
	t.Helper()
	ctx := testCtx(t)
	for {
		for _, m := range rawExchange(t, map[string]any{"op": "eval", "id": "w", "code": form}) {
			if m["value"] == "true" {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the server never made %s true", form)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// waitRunning waits until c has an eval in flight.
func waitRunning(t *testing.T, c *Client) {
	t.Helper()
	ctx := testCtx(t)
	for {
		c.mu.Lock()
		r := c.running
		c.mu.Unlock()
		if r != nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatal("no eval started")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestDescribe(t *testing.T) {
	c := newServerClient(t, Options{})
	d, err := c.Describe(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"clone", "close", "describe", "eval", "interrupt"} {
		if !d.HasOp(op) {
			t.Errorf("ops %v lack %q", d.Ops, op)
		}
	}
	if d.HasOp("no-such-op") {
		t.Error("HasOp(no-such-op) = true")
	}
	for _, k := range []string{"clojure", "nrepl", "java"} {
		if !strings.Contains(d.Versions[k], ".") {
			t.Errorf("Versions[%q] = %q, want a dotted version", k, d.Versions[k])
		}
	}
	if d.Dialect != "clj" || d.CurrentNs != "user" {
		t.Errorf("Dialect = %q, CurrentNs = %q", d.Dialect, d.CurrentNs)
	}
	if !d.supportsPrint() {
		t.Errorf("nREPL %s should support the print middleware", d.Versions["nrepl"])
	}
}

func TestHealthUp(t *testing.T) {
	c := newServerClient(t, Options{})
	h := c.Health(testCtx(t), 5*time.Second)
	if h.Status != StatusUp || h.Form != "" || h.Hint != "" {
		t.Errorf("Health = %+v, want up", h)
	}
}

// A long evaluation must not make the REPL look unresponsive: the health
// check runs in its own session on the same connection.
func TestHealthUpDuringLongEval(t *testing.T) {
	c := newServerClient(t, Options{})
	done := make(chan error, 1)
	go func() {
		_, err := c.Eval(context.Background(), "(Thread/sleep 60000)", EvalOptions{Timeout: 2 * time.Minute})
		done <- err
	}()
	waitRunning(t, c)
	h := c.Health(testCtx(t), 5*time.Second)
	if h.Status != StatusUp {
		t.Errorf("Health during a long eval = %+v, want up", h)
	}
	if err := c.Interrupt(testCtx(t)); err != nil {
		t.Errorf("Interrupt: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Eval: %v", err)
	}
}

func TestHealthDown(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient("127.0.0.1", port, Options{})
	defer c.Close()
	h := c.Health(testCtx(t), 2*time.Second)
	if h.Status != StatusDown || h.Form != HealthForm || !strings.Contains(h.Error, "refused") {
		t.Errorf("Health of a closed port = %+v, want down", h)
	}
	if _, err := Dial(testCtx(t), "127.0.0.1", port, Options{}); !errors.Is(err, ErrUnreachable) {
		t.Errorf("Dial of a closed port = %v, want ErrUnreachable", err)
	}
}

// A stopped server process accepts connections (the kernel completes the
// handshake) but evaluates nothing: the health check says unresponsive, with
// the form and what to do, and recovers once the process runs again.
func TestHealthUnresponsiveWhenServerStopped(t *testing.T) {
	c := newServerClient(t, Options{})
	if h := c.Health(testCtx(t), 5*time.Second); h.Status != StatusUp {
		t.Fatalf("before: %+v", h)
	}
	if err := syscall.Kill(-serverPID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitStopped(t, serverPID)
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			_ = syscall.Kill(-serverPID, syscall.SIGCONT)
		}
	}
	defer resume()
	h := c.Health(testCtx(t), 500*time.Millisecond)
	fresh := NewClient("127.0.0.1", serverPort, Options{})
	defer fresh.Close()
	hf := fresh.Health(testCtx(t), 500*time.Millisecond)
	resume()
	for _, got := range []Health{h, hf} {
		if got.Status != StatusUnresponsive || got.Form != "(+ 1 1)" || !strings.Contains(got.Hint, "stop it, then start it again") {
			t.Errorf("Health of a stopped server = %+v, want unresponsive with form and hint", got)
		}
	}
	// Once running again, the next check is up (on a freshly cloned session).
	ctx := testCtx(t)
	for {
		if h := c.Health(ctx, 5*time.Second); h.Status == StatusUp {
			break
		} else if ctx.Err() != nil {
			t.Fatalf("never recovered: %+v", h)
		}
	}
}

func TestStaleSocketIsRedialedAndSessionKept(t *testing.T) {
	c := newServerClient(t, Options{})
	mustEval(t, c, "(def stale-check 7) (* stale-check 6)", EvalOptions{})
	c.mu.Lock()
	old := c.cn
	c.mu.Unlock()
	// The socket dies under the client (as when a network path resets).
	_ = old.nc.Close()
	<-old.done
	r := mustEval(t, c, "[stale-check *1]", EvalOptions{})
	if r.Value != "[7 42]" {
		t.Errorf("after redial: %q, want [7 42] (same session, new socket)", r.Value)
	}
	c.mu.Lock()
	now := c.cn
	c.mu.Unlock()
	if now == old {
		t.Error("the dead connection was not replaced")
	}
}

// When the server no longer knows the evaluation session (it restarted, or
// the session was closed), the client clones a new one and evaluates there.
func TestUnknownSessionIsRecloned(t *testing.T) {
	c := newServerClient(t, Options{})
	mustEval(t, c, "(def survives-reclone 1)", EvalOptions{})
	c.mu.Lock()
	sess := c.evalSess
	c.mu.Unlock()
	rawExchange(t, map[string]any{"op": "close", "id": "x", "session": sess})
	r := mustEval(t, c, "(inc survives-reclone)", EvalOptions{})
	if r.Value != "2" {
		t.Errorf("after the session was closed server-side: %+v", r)
	}
	c.mu.Lock()
	now := c.evalSess
	c.mu.Unlock()
	if now == sess || now == "" {
		t.Errorf("eval session %q was not replaced", now)
	}
}

func TestClosedClient(t *testing.T) {
	c := newServerClient(t, Options{})
	mustEval(t, c, "1", EvalOptions{})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Eval(testCtx(t), "1", EvalOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Eval after Close = %v, want ErrClosed", err)
	}
	if h := c.Health(testCtx(t), time.Second); h.Status != StatusDown {
		t.Errorf("Health after Close = %+v, want down", h)
	}
}

func TestPoolSharesClients(t *testing.T) {
	needServer(t)
	p := NewPool(Options{})
	defer p.Close()
	a := p.Client("127.0.0.1", serverPort)
	if b := p.Client("127.0.0.1", serverPort); a != b {
		t.Error("two Clients for one host:port")
	}
	if r := mustEval(t, a, "(+ 40 2)", EvalOptions{}); r.Value != "42" {
		t.Errorf("pooled eval: %+v", r)
	}
	p.Remove("127.0.0.1", serverPort)
	if _, err := a.Eval(testCtx(t), "1", EvalOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("removed Client still evaluates: %v", err)
	}
	if c := p.Client("127.0.0.1", serverPort); c == a {
		t.Error("Remove did not forget the Client")
	}
}

func BenchmarkEval(b *testing.B) {
	serverOnce.Do(func() { serverStop, serverErr = startServer() })
	if serverErr != nil || serverSkip != "" {
		b.Skip(fmt.Sprint("no real nREPL server: ", serverErr, serverSkip))
	}
	c, err := Dial(context.Background(), "127.0.0.1", serverPort, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for b.Loop() {
		if _, err := c.Eval(context.Background(), "(+ 1 1)", EvalOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHealth(b *testing.B) {
	serverOnce.Do(func() { serverStop, serverErr = startServer() })
	if serverErr != nil || serverSkip != "" {
		b.Skip(fmt.Sprint("no real nREPL server: ", serverErr, serverSkip))
	}
	c := NewClient("127.0.0.1", serverPort, Options{})
	defer c.Close()
	for b.Loop() {
		if h := c.Health(context.Background(), 5*time.Second); h.Status != StatusUp {
			b.Fatal(h)
		}
	}
}

// Evaluations from several goroutines are serialised and each caller gets its
// own replies, never another's.
func TestConcurrentEvalsGetTheirOwnResults(t *testing.T) {
	c := newServerClient(t, Options{})
	const n = 6
	type res struct {
		i   int
		out EvalResult
		err error
	}
	results := make(chan res, n)
	for i := range n {
		go func() {
			r, err := c.Eval(testCtx(t), fmt.Sprintf(`(print "out-%d") (Thread/sleep 20) (* %d 10)`, i, i), EvalOptions{})
			results <- res{i, r, err}
		}()
	}
	for range n {
		r := <-results
		if r.err != nil {
			t.Errorf("eval %d: %v", r.i, r.err)
			continue
		}
		if want := fmt.Sprint(r.i * 10); r.out.Value != want || r.out.Out != fmt.Sprintf("out-%d", r.i) {
			t.Errorf("eval %d got value %q out %q", r.i, r.out.Value, r.out.Out)
		}
	}
}

// Every goroutine the client starts ends with Close.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	needServer(t)
	before := runtime.NumGoroutine()
	c, err := Dial(testCtx(t), "127.0.0.1", serverPort, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustEval(t, c, "(/ 1 0)", EvalOptions{})
	if h := c.Health(testCtx(t), 5*time.Second); h.Status != StatusUp {
		t.Fatal(h)
	}
	_ = c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after Close:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitStopped waits until every thread of pid is stopped: the kernel stops
// a thread that is running on a CPU asynchronously, and a JVM thread still
// running could answer one more request after kill returned.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		stopped := len(tasks) > 0
		for _, s := range tasks {
			b, err := os.ReadFile(s)
			if err != nil {
				continue
			}
			i := strings.LastIndexByte(string(b), ')')
			if i < 0 || len(b) < i+3 || (b[i+2] != 'T' && b[i+2] != 't') {
				stopped = false
			}
		}
		if stopped {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not stop", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
