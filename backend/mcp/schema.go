package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Param is one top-level property of a tool's input schema.
type Param struct {
	Name        string
	Types       []string // JSON schema types ("string", "integer", ...); nil = any
	Required    bool
	Description string
	Enum        []any
}

// Params lists a schema's top-level properties: the required ones in the
// schema's order, then the others sorted by name.
func Params(schema map[string]any) []Param {
	props, _ := schema["properties"].(map[string]any)
	req := map[string]int{}
	if rs, ok := schema["required"].([]any); ok {
		for i, r := range rs {
			if s, ok := r.(string); ok {
				if _, dup := req[s]; !dup {
					req[s] = i
				}
			}
		}
	}
	var out []Param
	for name, v := range props {
		pm, _ := v.(map[string]any)
		p := Param{Name: name, Types: schemaTypes(pm)}
		_, p.Required = req[name]
		p.Description, _ = pm["description"].(string)
		p.Enum, _ = pm["enum"].([]any)
		out = append(out, p)
	}
	for name := range req {
		if _, ok := props[name]; !ok {
			out = append(out, Param{Name: name, Required: true})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Required != b.Required {
			return a.Required
		}
		if a.Required {
			return req[a.Name] < req[b.Name]
		}
		return a.Name < b.Name
	})
	return out
}

func schemaTypes(pm map[string]any) []string {
	switch t := pm["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// openSchema says whether keys outside properties are allowed: no
// properties at all, or additionalProperties not false.
func openSchema(schema map[string]any) bool {
	if _, ok := schema["properties"].(map[string]any); !ok {
		return true
	}
	ap, present := schema["additionalProperties"]
	if !present {
		return false // a tool that lists its parameters takes those
	}
	b, isBool := ap.(bool)
	return !isBool || b
}

// Check checks args against schema (top level only): unknown keys when
// the schema lists its properties, missing required keys, a value's JSON
// type, enum membership. It returns one message naming every problem,
// or "".
func Check(schema map[string]any, args map[string]any) string {
	if schema == nil {
		return ""
	}
	params := Params(schema)
	byName := map[string]Param{}
	var known []string
	for _, p := range params {
		byName[p.Name] = p
		known = append(known, p.Name)
	}
	var problems []string
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	open := openSchema(schema)
	for _, k := range keys {
		p, ok := byName[k]
		if !ok {
			if !open {
				list := "it takes no arguments"
				if len(known) > 0 {
					list = "known: " + strings.Join(known, ", ")
				}
				problems = append(problems, fmt.Sprintf("unknown argument %q (%s)", k, list))
			}
			continue
		}
		v := args[k]
		if len(p.Types) > 0 && !hasType(v, p.Types) {
			problems = append(problems, fmt.Sprintf("%s must be %s, got %s", k, strings.Join(p.Types, " or "), jsonType(v)))
			continue
		}
		if len(p.Enum) > 0 && !inEnum(v, p.Enum) {
			problems = append(problems, fmt.Sprintf("%s must be one of %s, got %s", k, enumList(p.Enum), literal(v)))
		}
	}
	for _, p := range params {
		if _, ok := args[p.Name]; p.Required && !ok {
			problems = append(problems, fmt.Sprintf("missing required argument %q", p.Name))
		}
	}
	return strings.Join(problems, "; ")
}

func hasType(v any, types []string) bool {
	for _, t := range types {
		switch t {
		case "null":
			if v == nil {
				return true
			}
		case "boolean":
			if _, ok := v.(bool); ok {
				return true
			}
		case "integer":
			switch n := v.(type) {
			case int64, int:
				return true
			case float64:
				if n == math.Trunc(n) && !math.IsInf(n, 0) {
					return true
				}
			}
		case "number":
			switch v.(type) {
			case int64, int, float64:
				return true
			}
		case "string":
			if _, ok := v.(string); ok {
				return true
			}
		case "array":
			if _, ok := v.([]any); ok {
				return true
			}
		case "object":
			if _, ok := v.(map[string]any); ok {
				return true
			}
		default:
			return true // a type we do not know: let the server judge
		}
	}
	return false
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case bool:
		return "a bool"
	case int64, int:
		return "an int"
	case float64:
		return "a float"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "a dict"
	}
	return fmt.Sprintf("%T", v)
}

func inEnum(v any, enum []any) bool {
	want := canonJSON(v)
	for _, e := range enum {
		if canonJSON(e) == want {
			return true
		}
	}
	return false
}

// canonJSON renders a value so that 2 and 2.0 compare equal.
func canonJSON(v any) string {
	switch n := v.(type) {
	case int64:
		v = float64(n)
	case int:
		v = float64(n)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func enumList(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		parts[i] = literal(e)
	}
	return strings.Join(parts, ", ")
}
