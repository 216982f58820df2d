package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Where a person's file of a kind was found (PersonFiles' project flag, as
// the prompt files and skills name it).
const (
	SourceHome    = "home"    // $VIS_HOME/<kind>
	SourceProject = "project" // <workspace>/.vis/<kind>, once trusted
)

// PersonDirs are the folders of the person's files of a kind ("prompts",
// "skills"), lowest precedence first: $VIS_HOME/<kind>, then the project's
// .vis/<kind> when the project is trusted (an untrusted project's files
// are never read).
func PersonDirs(visHome, workspace, kind string, trusted bool) []string {
	ds := []string{filepath.Join(visHome, kind)}
	if workspace != "" && trusted {
		ds = append(ds, filepath.Join(workspace, ".vis", kind))
	}
	return ds
}

// PersonFiles reads the entries of PersonDirs(visHome, workspace, kind,
// trusted) with read, which gets an entry's path and the folder's source
// (SourceHome or SourceProject) and returns the value's name, or skip for
// an entry that is not one (no warning), or an error (the entry is left
// out with a warning "<one> <path> skipped: <err>"). A later folder's value
// replaces an earlier one of the same name: the project's over the home's.
// The values come sorted by name; a folder that cannot be read (other than
// a missing one) is a warning "<many> in <dir>: <err>". Read at every call.
func PersonFiles[T any](visHome, workspace, kind string, trusted bool, one, many string, read func(path string, ent fs.DirEntry, source string) (name string, v T, skip bool, err error)) ([]T, []string) {
	byName := map[string]T{}
	var warnings []string
	for i, dir := range PersonDirs(visHome, workspace, kind, trusted) {
		source := SourceHome
		if i > 0 {
			source = SourceProject
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !os.IsNotExist(err) {
				warnings = append(warnings, fmt.Sprintf("%s in %s: %v", many, dir, err))
			}
			continue
		}
		for _, ent := range entries {
			path := filepath.Join(dir, ent.Name())
			name, v, skip, err := read(path, ent, source)
			if skip {
				continue
			}
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("%s %s skipped: %v", one, path, err))
				continue
			}
			byName[name] = v
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]T, len(names))
	for i, n := range names {
		out[i] = byName[n]
	}
	return out, warnings
}
