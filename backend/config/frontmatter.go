package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// FrontMatter splits a Markdown file that may open with YAML front matter
// (a first line `---`, the YAML, a line `---`) into its fields and its
// body. The user's prompt files and skills (SKILL.md) use it; this package
// owns the YAML module. Without front matter the fields are empty and the
// body is the whole text. A field that is not a string (a number, a list)
// is kept as YAML would print it; malformed YAML is an error naming the
// line, so a person sees why a description did not show.
func FrontMatter(text string) (map[string]string, string, error) {
	t := strings.TrimPrefix(text, "\ufeff")
	t = strings.ReplaceAll(t, "\r\n", "\n")
	if !strings.HasPrefix(t, "---\n") {
		return map[string]string{}, text, nil
	}
	rest := t[len("---\n"):]
	end := -1
	body := ""
	for off := 0; off <= len(rest); {
		nl := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		next := len(rest) + 1
		if nl >= 0 {
			line = rest[off : off+nl]
			next = off + nl + 1
		}
		if strings.TrimRight(line, " \t") == "---" {
			end = off
			if next <= len(rest) {
				body = rest[next:]
			}
			break
		}
		off = next
	}
	if end < 0 {
		return map[string]string{}, text, nil // an opening rule alone: a Markdown rule, not front matter
	}
	var raw map[string]any
	if err := yaml.Unmarshal([]byte(rest[:end]), &raw); err != nil {
		return nil, "", fmt.Errorf("front matter: %v", err)
	}
	fields := make(map[string]string, len(raw))
	for k, v := range raw {
		switch x := v.(type) {
		case nil:
			fields[k] = ""
		case string:
			fields[k] = strings.TrimSpace(x)
		default:
			b, err := yaml.Marshal(x)
			if err != nil {
				return nil, "", fmt.Errorf("front matter %s: %v", k, err)
			}
			fields[k] = strings.TrimSpace(string(b))
		}
	}
	return fields, body, nil
}
