package nrepl

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// traceMarker precedes the bencode payload the fallback trace form prints.
const traceMarker = "VIS-NREPL-TRACE:"

// maxTraceFrames bounds the stack frames put in EvalResult.Trace.
const maxTraceFrames = 40

// traceForm reads *e in a clone of the evaluation session and prints, after
// traceMarker, a bencode list of four byte strings: top exception class, its
// message, root cause class, and a readable trace (clojure.main's triage text,
// the cause chain, then the root cause's frames). Lengths are UTF-8 byte
// counts so the Go side can decode it with Decode.
var traceForm = `(let [e *e]
  (when e
    (let [m (Throwable->map e)
          via (:via m)
          enc (fn [x] (let [s (str x)] (str (alength (.getBytes s "UTF-8")) ":" s)))
          cause (fn [{:keys [type message data]}]
                  (str "  " type ": " message (when data (str " " (pr-str data)))))
          frame (fn [[c meth f l]] (str "  at " c "." meth " (" f ":" l ")"))
          triage (try (clojure.main/ex-str (clojure.main/ex-triage m)) (catch Throwable _ ""))
          trace (clojure.string/join "\n"
                  (concat [(clojure.string/trim-newline triage) "Cause chain:"]
                          (map cause via)
                          ["Trace (root cause):"]
                          (map frame (take ` + strconv.Itoa(maxTraceFrames) + ` (:trace m)))))]
      (print (str "` + traceMarker + `l" (enc (:type (first via))) (enc (:message (first via)))
                  (enc (:type (last via))) (enc trace) "e"))
      (flush)
      nil)))`

// fillTrace completes res (ExMessage, Trace, and ExClass/RootEx when they
// were missing) for the error just raised in sess. It uses the cider
// "analyze-last-stacktrace" or "stacktrace" op when the server lists one, else
// evaluates traceForm in a throwaway clone of sess (so *1, *2, *3 and *e in the
// evaluation session are left as they were). Failure leaves a note in Trace.
func (c *Client) fillTrace(ctx context.Context, cn *conn, sess string, desc Description, res *EvalResult) {
	var err error
	switch {
	case desc.HasOp("analyze-last-stacktrace"):
		err = c.ciderTrace(ctx, cn, sess, "analyze-last-stacktrace", res)
	case desc.HasOp("stacktrace"):
		err = c.ciderTrace(ctx, cn, sess, "stacktrace", res)
	default:
		err = c.evalTrace(ctx, cn, sess, res)
	}
	if err != nil && res.Trace == "" {
		res.Trace = "stack trace unavailable: " + err.Error()
	}
}

// ciderTrace reads cider-nrepl's analysed causes: one reply per cause, outermost
// first, each with "class", "message" and "stacktrace" frames.
func (c *Client) ciderTrace(ctx context.Context, cn *conn, sess, op string, res *EvalResult) error {
	replies, err := cn.roundTrip(ctx, map[string]any{"op": op, "id": c.nextID(), "session": sess})
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	var causes []map[string]any
	for _, m := range replies {
		if _, ok := m["class"].(string); ok {
			causes = append(causes, m)
		}
	}
	if len(causes) == 0 {
		return fmt.Errorf("%s: no causes (status %v)", op, allStatuses(replies))
	}
	first, last := causes[0], causes[len(causes)-1]
	if s, _ := first["class"].(string); res.ExClass == "" {
		res.ExClass = s
	}
	res.ExMessage, _ = first["message"].(string)
	if s, _ := last["class"].(string); res.RootEx == "" {
		res.RootEx = s
	}
	var b strings.Builder
	b.WriteString("Cause chain:")
	for _, cause := range causes {
		cls, _ := cause["class"].(string)
		msg, _ := cause["message"].(string)
		fmt.Fprintf(&b, "\n  %s: %s", cls, msg)
	}
	b.WriteString("\nTrace (root cause):")
	frames, _ := last["stacktrace"].([]any)
	n := 0
	for _, f := range frames {
		fm, ok := f.(map[string]any)
		if !ok {
			continue
		}
		if n == maxTraceFrames {
			break
		}
		n++
		name, _ := fm["name"].(string)
		if name == "" {
			cls, _ := fm["class"].(string)
			meth, _ := fm["method"].(string)
			name = cls + "." + meth
		}
		file, _ := fm["file"].(string)
		line := ""
		switch l := fm["line"].(type) {
		case int64:
			line = strconv.FormatInt(l, 10)
		case string:
			line = l
		}
		fmt.Fprintf(&b, "\n  at %s (%s:%s)", name, file, line)
	}
	res.Trace = b.String()
	return nil
}

// evalTrace evaluates traceForm in a clone of sess and parses its output.
func (c *Client) evalTrace(ctx context.Context, cn *conn, sess string, res *EvalResult) error {
	tmp, err := c.clone(ctx, cn, sess)
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_, _ = cn.roundTrip(cctx, map[string]any{"op": "close", "id": c.nextID(), "session": tmp})
	}()
	replies, err := cn.roundTrip(ctx, map[string]any{"op": "eval", "id": c.nextID(), "session": tmp, "code": traceForm})
	if err != nil {
		return fmt.Errorf("read *e: %w", err)
	}
	var out strings.Builder
	for _, m := range replies {
		if s, ok := m["out"].(string); ok {
			out.WriteString(s)
		}
	}
	i := strings.Index(out.String(), traceMarker)
	if i < 0 {
		return fmt.Errorf("read *e: no trace printed (status %v)", allStatuses(replies))
	}
	v, err := Decode(bufio.NewReader(strings.NewReader(out.String()[i+len(traceMarker):])))
	if err != nil {
		return fmt.Errorf("read *e: %w", err)
	}
	l, ok := v.([]any)
	if !ok || len(l) != 4 {
		return fmt.Errorf("read *e: %w: unexpected trace payload", ErrProtocol)
	}
	field := func(i int) string { s, _ := l[i].(string); return s }
	if res.ExClass == "" {
		res.ExClass = field(0)
	}
	res.ExMessage = field(1)
	if res.RootEx == "" {
		res.RootEx = field(2)
	}
	res.Trace = field(3)
	return nil
}
