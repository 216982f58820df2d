// Package skills reads a person's skills in the common folder format: a
// directory holding SKILL.md (YAML front matter with `name` and
// `description`, then the instructions) and any files the instructions
// refer to. They are found in `$VIS_HOME/skills/<dir>/` and, once the
// folder is trusted, in the project's `.vis/skills/<dir>/`; a project's
// skill replaces a home skill of the same name.
//
// The model sees only each skill's name and description (Summary, a
// fragment of the turn's system context); the instructions load when a
// program asks for them (Skill.Instructions, the sandbox's `skill()`),
// and a skill's files are listed and read from inside its folder only
// (Files, ReadFile through os.Root: no `..`, no symlink out).
//
// Load reads SKILL.md's front matter every time it is called (no cache);
// the instructions are read again at each Instructions call, so an edited
// skill is seen at once. A folder without SKILL.md is not a skill; one
// whose front matter is not YAML, has no description, or whose name is
// not lower-case letters, digits and hyphens (at most 64) is skipped with
// a warning naming it. No shared state: safe for concurrent use.
package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/visdesktop/vis/backend/config"
)

// Limits.
const (
	MaxFileBytes    = 256 << 10 // SKILL.md and a file ReadFile returns
	MaxFiles        = 200       // files Files lists
	MaxDescription  = 1024      // characters of a description in the summary
	maxNameLen      = 64
	skillFile       = "SKILL.md"
	summaryIntro    = "Skills: folders of instructions (and files) for particular tasks, written by the person. When a task matches a skill's description, call `skill(\"name\")` first: it returns the skill's instructions and its files; read one of its files with `skill(\"name\", file=\"path\")`."
	SourceProject   = config.SourceProject // <workspace>/.vis/skills
	SourceHome      = config.SourceHome    // $VIS_HOME/skills
	truncatedSuffix = "…"
)

// Skill is one skill folder.
type Skill struct {
	Name        string
	Description string
	Source      string // SourceProject or SourceHome
	Dir         string // the skill's folder
}

// Dirs are the folders searched, lowest precedence first.
func Dirs(visHome, workspace string, trusted bool) []string {
	return config.PersonDirs(visHome, workspace, "skills", trusted)
}

var nameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`) })

// Load finds the skills of the home and (trusted) the project, sorted by
// name. Warnings name the folders skipped and why.
func Load(visHome, workspace string, trusted bool) ([]Skill, []string) {
	return config.PersonFiles(visHome, workspace, "skills", trusted, "skill", "skills",
		func(sd string, ent fs.DirEntry, source string) (string, Skill, bool, error) {
			if fi, err := os.Stat(sd); err != nil || !fi.IsDir() || strings.HasPrefix(ent.Name(), ".") {
				return "", Skill{}, true, nil
			}
			s, err := read(sd, source)
			if errors.Is(err, fs.ErrNotExist) {
				return "", Skill{}, true, nil // no SKILL.md: not a skill
			}
			return s.Name, s, false, err
		})
}

// Find returns the skill named name.
func Find(ss []Skill, name string) (Skill, bool) {
	for _, s := range ss {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}

// Names lists the skills' names.
func Names(ss []Skill) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name
	}
	return out
}

func read(dir, source string) (Skill, error) {
	fields, _, err := parse(dir)
	if err != nil {
		return Skill{}, err
	}
	s := Skill{Name: strings.TrimSpace(fields["name"]), Description: strings.Join(strings.Fields(fields["description"]), " "), Source: source, Dir: dir}
	if s.Name == "" {
		s.Name = filepath.Base(dir)
	}
	if len(s.Name) > maxNameLen || !nameRe().MatchString(s.Name) {
		return Skill{}, fmt.Errorf("name %q: lower-case letters, digits and single hyphens, at most %d", s.Name, maxNameLen)
	}
	if s.Description == "" {
		return Skill{}, fmt.Errorf("%s has no description in its front matter (the model chooses a skill by it)", skillFile)
	}
	return s, nil
}

// parse reads dir's SKILL.md: its fields and its body.
func parse(dir string) (map[string]string, string, error) {
	raw, err := readCapped(filepath.Join(dir, skillFile))
	if err != nil {
		return nil, "", err
	}
	return config.FrontMatter(raw)
}

func readCapped(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > MaxFileBytes {
		return "", fmt.Errorf("%s is larger than %d bytes", filepath.Base(path), MaxFileBytes)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%s is not UTF-8 text", filepath.Base(path))
	}
	return string(b), nil
}

// Instructions reads the skill's SKILL.md now and returns the text after
// its front matter.
func (s Skill) Instructions() (string, error) {
	_, body, err := parse(s.Dir)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	return strings.TrimSpace(body), nil
}

// Files lists the skill's files other than SKILL.md, relative to its
// folder with forward slashes, sorted; hidden files and folders are left
// out. truncated: there were more than MaxFiles.
func (s Skill) Files() (files []string, truncated bool, err error) {
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is left out
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || p == skillFile || !d.Type().IsRegular() {
			return nil
		}
		if len(files) == MaxFiles {
			truncated = true
			return fs.SkipAll
		}
		files = append(files, p)
		return nil
	})
	sort.Strings(files)
	return files, truncated, err
}

// ReadFile returns one of the skill's files as text; rel is relative to
// the skill's folder and cannot leave it.
func (s Skill) ReadFile(rel string) (string, error) {
	rel = filepath.ToSlash(strings.TrimSpace(rel))
	if rel == "" || !fs.ValidPath(rel) {
		return "", fmt.Errorf("skill %s: %q is not a path inside the skill's folder", s.Name, rel)
	}
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("skill %s has no file %q", s.Name, rel)
		}
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return "", fmt.Errorf("skill %s: %s: %w", s.Name, rel, err)
	}
	if len(b) > MaxFileBytes {
		return "", fmt.Errorf("skill %s: %s is larger than %d bytes", s.Name, rel, MaxFileBytes)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("skill %s: %s is not text", s.Name, rel)
	}
	return string(b), nil
}

// Summary is the system prompt's list of skills: an introduction and one
// line per skill (name: description); "" when there are none.
func Summary(ss []Skill) string {
	if len(ss) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(summaryIntro + "\n")
	for _, s := range ss {
		d := s.Description
		if r := []rune(d); len(r) > MaxDescription {
			d = string(r[:MaxDescription-1]) + truncatedSuffix
		}
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, d)
	}
	return b.String()
}
