// Package userprompts reads a person's own slash commands: Markdown prompt
// files in `$VIS_HOME/prompts/` and, once the folder is trusted, in the
// project's `.vis/prompts/`. A file `review.md` is the command `/review`;
// typing `/review some args` sends the file's body to the model with the
// arguments put in (Expand): `$ARGUMENTS` is everything after the name,
// `$1`…`$9` the words (quotes group words, a missing one is empty); a body
// with neither gets the arguments appended after a blank line. Optional
// YAML front matter gives `description` (the `/` menu and /help; else the
// body's first line) and `argument-hint` (shown after the name).
//
// A project's file wins over a home file of the same name; the engine's
// built-in commands win over both (the engine's /help says so). A file
// whose name is no command name (`[A-Za-z][A-Za-z0-9_-]*`), that is larger
// than MaxBytes or whose front matter is not YAML is skipped with a
// warning naming it. Subfolders are not read.
//
// Load reads the folders every time it is called (a file added is a
// command at once; there is no cache to go stale). It is safe for
// concurrent use: it shares no state.
package userprompts

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/config"
)

// MaxBytes is the largest prompt file read.
const MaxBytes = 256 << 10

// Where a prompt file comes from.
const (
	SourceProject = config.SourceProject // <workspace>/.vis/prompts
	SourceHome    = config.SourceHome    // $VIS_HOME/prompts
)

// Prompt is one prompt file.
type Prompt struct {
	Name        string // the command's name without the slash, lower case
	Description string // front matter's description, else the body's first line
	ArgHint     string // front matter's argument-hint ("" = none)
	Source      string // SourceProject or SourceHome
	Path        string // the file
	Body        string // the text after the front matter
}

// Dirs are the folders read for workspace, lowest precedence first: the
// home's, then the project's when trusted.
func Dirs(visHome, workspace string, trusted bool) []string {
	return config.PersonDirs(visHome, workspace, "prompts", trusted)
}

var nameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`) })

// Load reads the prompt files of the home and (trusted) the project,
// sorted by name; a project's file replaces a home file of the same name.
// Warnings name the files skipped and why.
func Load(visHome, workspace string, trusted bool) ([]Prompt, []string) {
	return config.PersonFiles(visHome, workspace, "prompts", trusted, "prompt file", "prompt files",
		func(path string, ent fs.DirEntry, source string) (string, Prompt, bool, error) {
			if ent.IsDir() || !strings.HasSuffix(strings.ToLower(ent.Name()), ".md") {
				return "", Prompt{}, true, nil
			}
			p, err := read(path, source)
			return p.Name, p, false, err
		})
}

// Find returns the prompt named name (with or without the slash, any case).
func Find(ps []Prompt, name string) (Prompt, bool) {
	n := strings.ToLower(strings.TrimPrefix(name, "/"))
	for _, p := range ps {
		if p.Name == n {
			return p, true
		}
	}
	return Prompt{}, false
}

func read(path, source string) (Prompt, error) {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if !nameRe().MatchString(base) {
		return Prompt{}, fmt.Errorf("%q is not a command name (a letter, then letters, digits, - or _)", base)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Prompt{}, err
	}
	if fi.Size() > MaxBytes {
		return Prompt{}, fmt.Errorf("%d bytes, more than %d", fi.Size(), MaxBytes)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return Prompt{}, err
	}
	if !utf8.Valid(raw) {
		return Prompt{}, fmt.Errorf("not UTF-8 text")
	}
	fields, body, err := config.FrontMatter(string(raw))
	if err != nil {
		return Prompt{}, err
	}
	p := Prompt{Name: strings.ToLower(base), Source: source, Path: path, Body: strings.TrimSpace(body),
		Description: oneLine(fields["description"]), ArgHint: oneLine(fields["argument-hint"])}
	if p.Description == "" {
		p.Description = firstLine(p.Body)
	}
	return p, nil
}

// Usage is how the command is typed: "/review <file>".
func (p Prompt) Usage() string {
	if p.ArgHint != "" {
		return "/" + p.Name + " " + p.ArgHint
	}
	return "/" + p.Name
}

var argRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$(ARGUMENTS|[1-9])`) })

// Expand is the message the command sends: the body with args put in.
func (p Prompt) Expand(args string) string {
	args = strings.TrimSpace(args)
	if !argRe().MatchString(p.Body) {
		if args == "" {
			return p.Body
		}
		return p.Body + "\n\n" + args
	}
	words := Words(args)
	return argRe().ReplaceAllStringFunc(p.Body, func(m string) string {
		if m == "$ARGUMENTS" {
			return args
		}
		i := int(m[1] - '1')
		if i < len(words) {
			return words[i]
		}
		return ""
	})
}

// Words splits args at white space; "double" or 'single' quotes group
// words (the quotes are dropped), a backslash outside single quotes keeps
// the next character.
func Words(args string) []string {
	var out []string
	var cur strings.Builder
	in := false // a word started (an empty "" is a word)
	var quote rune
	escaped := false
	for _, r := range args {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, in = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstLine is the body's first non-blank line without Markdown heading
// marks, cut at 100 characters.
func firstLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if l == "" {
			continue
		}
		if r := []rune(l); len(r) > 100 {
			l = string(r[:99]) + "…"
		}
		return l
	}
	return ""
}
