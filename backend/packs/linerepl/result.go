package linerepl

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// wire is one answer as the server sends it; data is decoded separately so
// its numbers keep their kind.
type wire struct {
	ID       int64           `json:"id"`
	OK       bool            `json:"ok"`
	Out      string          `json:"out"`
	Err      string          `json:"err"`
	Value    *string         `json:"value"`
	Data     json.RawMessage `json:"data"`
	Type     *string         `json:"type"`
	Exc      *string         `json:"exc"`
	TimedOut bool            `json:"timed_out"`
}

// result is the evaluation answer w carries; an error means its data was
// unreadable (the rest is still good).
func (w wire) result() (Result, error) {
	data, err := Data(w.Data)
	return Result{OK: w.OK, Out: w.Out, Err: w.Err, Value: w.Value, Data: data, Type: w.Type, Exc: w.Exc, TimedOut: w.TimedOut}, err
}

// Result is one repl_eval answer.
type Result struct {
	REPL string // the REPL's id
	Code string // the code, when the pack echoes it ("" = omitted)
	OK   bool
	Out  string // what the code printed
	Err  string // what it wrote to stderr
	// Value is the printed value of the last expression; nil when there is none.
	Value *string
	// Data is the value as data: nil, bool, string, int64, *big.Int,
	// float64, []any, map[string]any (see Data).
	Data     any
	Type     *string // the value's type, or the exception's
	Exc      *string // the exception with its traceback
	TimedOut bool
	// Restarted: the REPL hung and was started again (state lost).
	Restarted bool
	Message   string // what happened, when the code's own answer is not all of it
	MS        int64  // how long the evaluation took
}

// Map is the tool result: every key always present except code,
// restarted and message, which appear only when set.
func (r Result) Map() map[string]any {
	m := map[string]any{
		"repl": r.REPL, "ok": r.OK, "out": r.Out, "err": r.Err, "value": str(r.Value), "data": r.Data,
		"type": str(r.Type), "exc": str(r.Exc), "timed_out": r.TimedOut, "ms": r.MS,
	}
	if r.Code != "" {
		m["code"] = r.Code
	}
	if r.Restarted {
		m["restarted"] = true
	}
	if r.Message != "" {
		m["message"] = r.Message
	}
	return m
}

func str(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// Info is a repl_start, repl_status or repl_stop answer. Empty fields are
// omitted, except that status and running come together whenever Status
// is set.
type Info struct {
	Result  string // started, already-running, failed, no-launcher, stopped, not-running ("" for a status)
	ID      string
	Cwd     string
	Status  string // up, down, failed, unresponsive
	Running bool
	PID     int
	Cmd     string // the command line as shown
	Tool    string // the runtime or where the interpreter came from
	Log     string
	Env     []string // the names of the REPL's own env variables
	Message string
	Note    string
	Exit    *int // the exit code of a REPL that died while starting
	LogTail string
	// REPLs lists a directory's REPLs (repl_status of a pack that has
	// several); nil = omitted, empty = "repls": [].
	REPLs []Info
	// Extra holds pack-specific keys, merged last.
	Extra map[string]any
}

// Map is the tool result.
func (i Info) Map() map[string]any {
	m := map[string]any{}
	set := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	set("result", i.Result)
	set("id", i.ID)
	set("cwd", i.Cwd)
	if i.Status != "" {
		m["status"], m["running"] = i.Status, i.Running
	}
	if i.PID != 0 {
		m["pid"] = i.PID
	}
	set("cmd", i.Cmd)
	set("tool", i.Tool)
	set("log", i.Log)
	if len(i.Env) > 0 {
		m["env"] = append([]string(nil), i.Env...)
	}
	set("message", i.Message)
	set("note", i.Note)
	if i.Exit != nil {
		m["exit"] = *i.Exit
	}
	set("log_tail", i.LogTail)
	if i.REPLs != nil {
		l := make([]any, len(i.REPLs))
		for n, r := range i.REPLs {
			l[n] = r.Map()
		}
		m["repls"] = l
	}
	for k, v := range i.Extra {
		m[k] = v
	}
	return m
}

// Data decodes a JSON value keeping each number's kind (nil for empty
// input): see Number.
func Data(raw []byte) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return Number(string(x))
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	}
	return v
}

// Number reads a JSON number literal by its form: an integer (no fraction,
// no exponent) is int64, or *big.Int when it does not fit, exactly; any
// other literal is float64 (±Inf when out of range). A literal that is not
// a number comes back as the string.
func Number(lit string) any {
	if !strings.ContainsAny(lit, ".eE") {
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return n
		}
		if n, ok := new(big.Int).SetString(lit, 10); ok {
			return n
		}
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if errors.Is(err, strconv.ErrSyntax) {
		return lit
	}
	return f
}
