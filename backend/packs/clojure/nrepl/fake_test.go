package nrepl

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Tests in this file use the scripted fakePeer for server behaviour a real
// nREPL server does not produce on demand.

var basicOps = []string{"clone", "close", "describe", "eval", "interrupt"}

func TestBadRepliesFailTheCallAndTheNextCallRedials(t *testing.T) {
	tests := []struct {
		name      string
		bad       func(w net.Conn, req map[string]any) bool
		want      error
		truncated bool
		out       string
	}{
		{name: "garbage", want: ErrProtocol, bad: func(w net.Conn, req map[string]any) bool {
			_, _ = io.WriteString(w, "x")
			return true
		}},
		{name: "reply is not a dict", want: ErrProtocol, bad: func(w net.Conn, req map[string]any) bool {
			_, _ = io.WriteString(w, "l4:spame")
			return true
		}},
		{name: "truncated reply then close", want: ErrProtocol, truncated: true, bad: func(w net.Conn, req map[string]any) bool {
			_, _ = io.WriteString(w, "d2:id")
			return false
		}},
		{name: "oversized string", want: ErrProtocol, bad: func(w net.Conn, req map[string]any) bool {
			_, _ = io.WriteString(w, "d5:value67108865:")
			return true
		}},
		{name: "closed mid-reply", want: ErrConnectionLost, out: "partial output", bad: func(w net.Conn, req map[string]any) bool {
			reply(w, req, map[string]any{"out": "partial output"})
			return false
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var evals atomic.Int32
			p := newFakePeer(t, basicOps, func(w net.Conn, req map[string]any) bool {
				if req["op"] != "eval" {
					return true
				}
				if evals.Add(1) == 1 {
					return tt.bad(w, req)
				}
				reply(w, req, map[string]any{"value": ":recovered", "ns": "user"})
				reply(w, req, map[string]any{"status": []any{"done"}})
				return true
			})
			c := NewClient("127.0.0.1", p.port(), Options{})
			defer c.Close()
			r, err := c.Eval(testCtx(t), "(+ 1 1)", EvalOptions{Timeout: 10 * time.Second})
			if !errors.Is(err, tt.want) {
				t.Fatalf("Eval = %+v, %v; want %v", r, err, tt.want)
			}
			if got := errors.Is(err, io.ErrUnexpectedEOF); got != tt.truncated {
				t.Errorf("error %v: truncated = %v, want %v", err, got, tt.truncated)
			}
			if r.Out != tt.out {
				t.Errorf("Out = %q, want %q", r.Out, tt.out)
			}
			r, err = c.Eval(testCtx(t), "(+ 1 1)", EvalOptions{Timeout: 10 * time.Second})
			if err != nil || r.Value != ":recovered" {
				t.Fatalf("next Eval = %+v, %v; want :recovered", r, err)
			}
			if n := p.dialCount(); n != 2 {
				t.Errorf("dialled %d times, want 2 (the failed connection replaced once)", n)
			}
		})
	}
}

// A peer that stalls in the middle of a reply: the eval times out, the
// connection is dropped, and the next call works on a new one.
func TestStalledReplyTimesOutAndRedials(t *testing.T) {
	var evals atomic.Int32
	p := newFakePeer(t, basicOps, func(w net.Conn, req map[string]any) bool {
		if req["op"] != "eval" {
			return true
		}
		if evals.Add(1) == 1 {
			_, _ = io.WriteString(w, "d5:value100:abc") // 97 bytes never come
			return true
		}
		reply(w, req, map[string]any{"value": "2", "status": []any{"done"}})
		return true
	})
	c := NewClient("127.0.0.1", p.port(), Options{InterruptGrace: 200 * time.Millisecond})
	defer c.Close()
	r, err := c.Eval(testCtx(t), "(+ 1 1)", EvalOptions{Timeout: 300 * time.Millisecond})
	if err != nil || !r.TimedOut {
		t.Fatalf("Eval = %+v, %v; want TimedOut", r, err)
	}
	r, err = c.Eval(testCtx(t), "(+ 1 1)", EvalOptions{Timeout: 10 * time.Second})
	if err != nil || r.Value != "2" {
		t.Fatalf("next Eval = %+v, %v", r, err)
	}
	if n := p.dialCount(); n != 2 {
		t.Errorf("dialled %d times, want 2", n)
	}
}

func TestSilentPeer(t *testing.T) {
	p := newFakePeer(t, basicOps, func(w net.Conn, req map[string]any) bool { return true })
	c := NewClient("127.0.0.1", p.port(), Options{InterruptGrace: 200 * time.Millisecond})
	defer c.Close()

	r, err := c.Eval(testCtx(t), "(loop [] (recur))", EvalOptions{Timeout: 200 * time.Millisecond})
	if err != nil || !r.TimedOut {
		t.Fatalf("Eval = %+v, %v; want TimedOut", r, err)
	}
	if !p.waitOp(t, "interrupt") || !p.waitOp(t, "close") {
		t.Errorf("on timeout the client sends interrupt, then closes the wedged session; peer saw %v", p.seenOps())
	}

	h := c.Health(testCtx(t), 300*time.Millisecond)
	if h.Status != StatusUnresponsive || h.Form != HealthForm || h.Hint == "" {
		t.Errorf("Health = %+v, want unresponsive with form and hint", h)
	}

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Eval(ctx, "(loop [] (recur))", EvalOptions{Timeout: time.Minute})
		errc <- err
	}()
	waitRunning(t, c)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Eval = %v, want context.Canceled", err)
	}

	hctx, hcancel := context.WithCancel(context.Background())
	hcancel()
	if h := c.Health(hctx, time.Second); h.Status != StatusUnknown {
		t.Errorf("Health with a cancelled ctx = %+v, want unknown", h)
	}
}

func TestHealthDownWhenPeerHangsUp(t *testing.T) {
	p := newFakePeer(t, basicOps, func(w net.Conn, req map[string]any) bool { return false })
	c := NewClient("127.0.0.1", p.port(), Options{})
	defer c.Close()
	if h := c.Health(testCtx(t), 2*time.Second); h.Status != StatusDown || !strings.Contains(h.Error, "closed") {
		t.Errorf("Health = %+v, want down", h)
	}
}

func TestHealthUnknownOnUnexpectedValue(t *testing.T) {
	p := newFakePeer(t, basicOps, func(w net.Conn, req map[string]any) bool {
		reply(w, req, map[string]any{"value": "3", "status": []any{"done"}})
		return true
	})
	c := NewClient("127.0.0.1", p.port(), Options{})
	defer c.Close()
	if h := c.Health(testCtx(t), 2*time.Second); h.Status != StatusUnknown || !strings.Contains(h.Error, `"3"`) {
		t.Errorf("Health = %+v, want unknown naming the value", h)
	}
}

// With cider-nrepl's analyze-last-stacktrace op listed, the trace comes from
// it (one reply per cause), not from an eval that reads *e.
func TestCiderStacktraceOp(t *testing.T) {
	ops := append([]string{"analyze-last-stacktrace"}, basicOps...)
	var evals atomic.Int32
	p := newFakePeer(t, ops, func(w net.Conn, req map[string]any) bool {
		switch req["op"] {
		case "eval":
			evals.Add(1)
			reply(w, req, map[string]any{"err": "Execution error (ExceptionInfo)\n"})
			reply(w, req, map[string]any{"ex": "class clojure.lang.ExceptionInfo",
				"root-ex": "class java.lang.IllegalStateException", "status": []any{"eval-error"}})
			reply(w, req, map[string]any{"status": []any{"done"}})
		case "analyze-last-stacktrace":
			reply(w, req, map[string]any{"class": "clojure.lang.ExceptionInfo", "message": "outer",
				"stacktrace": []any{map[string]any{"name": "user/eval1", "file": "REPL", "line": int64(1)}}})
			reply(w, req, map[string]any{"class": "java.lang.IllegalStateException", "message": "inner",
				"stacktrace": []any{
					map[string]any{"class": "user$f", "method": "invoke", "file": "user.clj", "line": int64(3)},
					"not a frame",
				}})
			reply(w, req, map[string]any{"status": []any{"done"}})
		}
		return true
	})
	c := NewClient("127.0.0.1", p.port(), Options{})
	defer c.Close()
	r, err := c.Eval(testCtx(t), `(f)`, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "Cause chain:\n  clojure.lang.ExceptionInfo: outer\n  java.lang.IllegalStateException: inner\nTrace (root cause):\n  at user$f.invoke (user.clj:3)"
	if r.ExClass != "clojure.lang.ExceptionInfo" || r.ExMessage != "outer" || r.RootEx != "java.lang.IllegalStateException" || r.Trace != want {
		t.Errorf("result = %+v\nwant Trace %q", r, want)
	}
	if n := evals.Load(); n != 1 {
		t.Errorf("%d evals, want 1 (no *e fallback)", n)
	}
}

// Pretty printing is requested only from servers with the print middleware
// (nREPL 0.6 and later); older ones get plain evals.
func TestPrettyPrintFollowsServerVersion(t *testing.T) {
	var sawPrint atomic.Bool
	p := newFakePeer(t, basicOps, func(w net.Conn, req map[string]any) bool {
		if _, ok := req["nrepl.middleware.print/print"]; ok {
			sawPrint.Store(true)
		}
		reply(w, req, map[string]any{"value": "1", "status": []any{"done"}})
		return true
	})
	c := NewClient("127.0.0.1", p.port(), Options{})
	defer c.Close()
	// The fake reports nREPL 1.0.0: pretty printing is requested.
	if _, err := c.Eval(testCtx(t), "1", EvalOptions{}); err != nil {
		t.Fatal(err)
	}
	if !sawPrint.Load() {
		t.Error("nREPL 1.0.0: no pretty-print request")
	}
	for _, tt := range []struct {
		version string
		want    bool
	}{{"0.5.3", false}, {"0.6.0", true}, {"0.9.0-beta1", true}, {"1.3.1", true}, {"", false}, {"x.y", false}} {
		d := Description{Versions: map[string]string{"nrepl": tt.version}}
		if tt.version == "" {
			d.Versions = nil
		}
		if got := d.supportsPrint(); got != tt.want {
			t.Errorf("supportsPrint(nrepl %q) = %v, want %v", tt.version, got, tt.want)
		}
	}
}

// A peer that floods an eval with values is read to the end, but only a
// bounded number and size of them is kept.
func TestValueFloodIsCapped(t *testing.T) {
	p := newFakePeer(t, basicOps, func(w net.Conn, req map[string]any) bool {
		if req["op"] != "eval" {
			return true
		}
		for i := 0; i < 20000; i++ {
			reply(w, req, map[string]any{"value": strings.Repeat("v", 100)})
		}
		reply(w, req, map[string]any{"value": strings.Repeat("x", 3<<20), "status": []any{"done"}})
		return true
	})
	c := NewClient("127.0.0.1", p.port(), Options{MaxOutput: 1 << 20})
	defer c.Close()
	r, err := c.Eval(testCtx(t), "(flood)", EvalOptions{Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, v := range r.Values {
		kept += len(v)
	}
	if len(r.Values) > maxValues || kept > 1<<20 || r.ValuesDropped == 0 || len(r.Value) > 1<<20+len(truncMark) {
		t.Fatalf("kept %d values (%d bytes), dropped %d, last value %d bytes", len(r.Values), kept, r.ValuesDropped, len(r.Value))
	}
}
