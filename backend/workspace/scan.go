package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// ScanLimit is the default bound of a language scan, in entries (files and
// directories) visited.
const ScanLimit = 3000

// SkipDirs are directory names the scan and the watcher never enter even
// when no .gitignore lists them: dependency trees and caches, which would
// drown the project's own files (and inotify's watch budget).
var SkipDirs = map[string]bool{
	"node_modules": true, ".venv": true, "venv": true, "__pycache__": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, ".tox": true,
	".cpcache": true, ".shadow-cljs": true,
}

// skipDir reports whether the directory rel is one SkipDirs names.
func skipDir(rel string) bool { return SkipDirs[path.Base(rel)] }

// LanguageCount is one language of a scan: how many files have its
// extensions. (backend/ext has the same shape; the engine converts.)
type LanguageCount struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
}

// extLanguages maps a lower-cased file extension to a language name as the
// language tools spell it. Data and markup formats count too, so a repo
// whose dominant "language" is JSON still ranks its code languages next.
var extLanguages = map[string]string{
	".py": "python", ".pyi": "python",
	".go": "go",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescript",
	".clj": "clojure", ".cljs": "clojure", ".cljc": "clojure", ".cljx": "clojure", ".bb": "clojure", ".edn": "edn",
	".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin", ".scala": "scala",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp",
	".cs": "csharp", ".fs": "fsharp", ".rb": "ruby", ".php": "php", ".swift": "swift",
	".m": "objective-c", ".lua": "lua", ".pl": "perl", ".r": "r", ".jl": "julia",
	".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell", ".ml": "ocaml",
	".dart": "dart", ".zig": "zig", ".nim": "nim", ".sh": "shell", ".bash": "shell", ".zsh": "shell",
	".sql": "sql", ".html": "html", ".htm": "html", ".css": "css", ".scss": "scss",
	".svelte": "svelte", ".vue": "vue",
	".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".xml": "xml",
	".md": "markdown", ".rst": "rst",
}

// LanguageOf returns the language of a file by its extension, "" when
// unknown.
func LanguageOf(name string) string {
	return extLanguages[strings.ToLower(path.Ext(filepath.ToSlash(name)))]
}

// Scan is the result of a bounded scan of a workspace.
type Scan struct {
	Root      string
	Languages []LanguageCount // most files first, then by name
	Files     []string        // slash-separated, root-relative, in walk order
	Entries   int             // entries visited
	Truncated bool            // the limit stopped the scan
	exts      map[string]int  // lower-cased extension -> count
}

// ScanDir walks root (skipping ignored entries and SkipDirs) and stops after
// limit entries (ScanLimit when limit <= 0). An unreadable root is an error;
// ctx ending stops the scan with ctx.Err().
func ScanDir(ctx context.Context, root string, limit int) (*Scan, error) {
	if limit <= 0 {
		limit = ScanLimit
	}
	s := &Scan{Root: root, exts: map[string]int{}}
	counts := map[string]int{}
	err := Walk(ctx, root, func(rel string, d fs.DirEntry) error {
		if s.Entries >= limit {
			s.Truncated = true
			return fs.SkipAll
		}
		s.Entries++
		if d.IsDir() {
			if skipDir(rel) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		s.Files = append(s.Files, rel)
		ext := strings.ToLower(path.Ext(rel))
		if ext != "" {
			s.exts[ext]++
		}
		if lang := extLanguages[ext]; lang != "" {
			counts[lang]++
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.SkipAll) {
		return nil, fmt.Errorf("scan workspace: %w", err)
	}
	for l, n := range counts {
		s.Languages = append(s.Languages, LanguageCount{Language: l, Files: n})
	}
	sort.Slice(s.Languages, func(i, j int) bool {
		if s.Languages[i].Files != s.Languages[j].Files {
			return s.Languages[i].Files > s.Languages[j].Files
		}
		return s.Languages[i].Language < s.Languages[j].Language
	})
	return s, nil
}

// Primary returns the language with the most files, "" when none.
func (s *Scan) Primary() string {
	if s == nil || len(s.Languages) == 0 {
		return ""
	}
	return s.Languages[0].Language
}

// HasExt reports whether the scan saw a file with one of the extensions
// (".py"; case-insensitive).
func (s *Scan) HasExt(exts ...string) bool {
	if s == nil {
		return false
	}
	for _, e := range exts {
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		if s.exts[strings.ToLower(e)] > 0 {
			return true
		}
	}
	return false
}

// Exists reports whether a root-relative path exists (a cheap stat, not
// limited to the scan; symlinks are not followed out of the root).
func (s *Scan) Exists(rel string) bool {
	if s == nil || s.Root == "" {
		return false
	}
	return Exists(s.Root, rel)
}

// Exists reports whether rel exists under root, without leaving root.
func Exists(root, rel string) bool {
	rel = filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))
	if rel == "." {
		return true
	}
	if strings.HasPrefix(rel, "../") || rel == ".." || path.IsAbs(rel) {
		return false
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return false
	}
	defer r.Close()
	_, err = r.Lstat(rel)
	return err == nil
}
