package langtools

import (
	"fmt"
	"strings"
)

// Target renders what a run_tests call selected: its paths (node ids
// included), ns/nses/namespace/var/only entries, joined; else "full suite".
func Target(opts map[string]any) string {
	var parts []string
	for _, k := range []string{"paths", "ns", "nses", "namespace", "var", "only"} {
		switch x := opts[k].(type) {
		case string:
			if strings.TrimSpace(x) != "" {
				parts = append(parts, x)
			}
		case []any:
			for _, e := range x {
				if s := fmt.Sprint(e); strings.TrimSpace(s) != "" {
					parts = append(parts, s)
				}
			}
		case []string:
			for _, s := range x {
				if strings.TrimSpace(s) != "" {
					parts = append(parts, s)
				}
			}
		}
	}
	if len(parts) == 0 {
		return "full suite"
	}
	return strings.Join(parts, ", ")
}

// counts of the shared test contract.
var countKeys = []string{"total", "pass", "fail", "errored", "skipped"}

// asInt reads a count of any numeric kind.
func asInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case int32:
		return int(n), true
	case float64:
		return int(n), true
	}
	return 0, false
}

// CompleteTestResult completes a pack's run_tests result in place into the
// shared contract: counts become ints (a count the runner did not report
// stays absent, never 0; total is derived only from both pass and fail),
// failures is always a list of {test, type (fail|error), message, file}
// rows, output is a string, timed_out a bool, and is_pass is true only
// with evidence of passing tests and no failure, error, non-zero exit or
// timeout. Running nothing is not a pass.
func CompleteTestResult(r map[string]any) {
	for _, k := range countKeys {
		if v, ok := r[k]; ok {
			if n, ok := asInt(v); ok {
				r[k] = n
			} else {
				delete(r, k)
			}
		}
	}
	if _, ok := r["total"]; !ok {
		p, hasP := r["pass"].(int)
		f, hasF := r["fail"].(int)
		if hasP && hasF {
			t := p + f
			if e, ok := r["errored"].(int); ok {
				t += e
			}
			if s, ok := r["skipped"].(int); ok {
				t += s
			}
			r["total"] = t
		}
	}
	var rows []any
	switch fs := r["failures"].(type) {
	case []any:
		for _, x := range fs {
			if m, ok := x.(map[string]any); ok {
				rows = append(rows, failureRow(m))
			}
		}
	case []map[string]any:
		for _, m := range fs {
			rows = append(rows, failureRow(m))
		}
	}
	if rows == nil {
		rows = []any{}
	}
	r["failures"] = rows
	if _, ok := r["output"].(string); !ok {
		if v, present := r["output"]; present && v != nil {
			r["output"] = fmt.Sprint(v)
		} else {
			r["output"] = ""
		}
	}
	timedOut, _ := r["timed_out"].(bool)
	r["timed_out"] = timedOut

	bad := timedOut || len(rows) > 0
	if n, ok := r["fail"].(int); ok && n > 0 {
		bad = true
	}
	if n, ok := r["errored"].(int); ok && n > 0 {
		bad = true
	}
	if e, ok := r["error"]; ok && e != nil && e != "" {
		bad = true
	}
	if x, ok := asInt(r["exit"]); ok && x != 0 {
		bad = true
	}
	ran := false
	if n, ok := r["pass"].(int); ok && n > 0 {
		ran = true
	}
	if n, ok := r["total"].(int); ok && n > 0 {
		if s, _ := r["skipped"].(int); n > s {
			ran = true
		}
	}
	pass, given := r["is_pass"].(bool)
	if !given {
		pass = ran
	}
	r["is_pass"] = pass && ran && !bad
}

func failureRow(m map[string]any) map[string]any {
	row := map[string]any{}
	for k, v := range m {
		row[k] = v
	}
	for _, k := range []string{"test", "message", "file"} {
		if _, ok := row[k].(string); !ok {
			if v, present := row[k]; present && v != nil {
				row[k] = fmt.Sprint(v)
			} else {
				row[k] = ""
			}
		}
	}
	if t, _ := row["type"].(string); t != "error" {
		row["type"] = "fail"
	}
	return row
}
