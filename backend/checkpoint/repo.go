package checkpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// repo is one workspace's shadow repository, locked by its caller.
type repo struct {
	git string
	dir string // GIT_DIR
	ws  string // GIT_WORK_TREE
}

// shadowConfig is the shadow repository's whole config: byte-exact
// content (no eol conversion), modes and symlinks as they are, no
// background gc, no fsmonitor.
const shadowConfig = `[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
	symlinks = true
	ignorecase = false
	autocrlf = false
	safecrlf = false
	quotepath = false
	untrackedCache = true
	fsmonitor = false
	excludesFile = %s
[gc]
	auto = 0
[diff]
	renames = true
[advice]
	addEmbeddedRepo = false
	addIgnoredFile = false
`

// shadowAttributes override the project's .gitattributes: contents are
// stored and restored byte for byte (no text normalization, no filters).
const shadowAttributes = "* -text -filter -ident -working-tree-encoding\n"

// open returns the workspace's shadow repository, created on first use, and
// holds its lock until unlock is called.
func (k *Keeper) open(ctx context.Context, ws string) (*repo, func(), error) {
	ws = filepath.Clean(ws)
	r := &repo{git: k.opts.Git, dir: k.repoDir(ws), ws: ws}
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("checkpoint: %w", err)
	}
	unlock, err := lockFile(ctx, filepath.Join(r.dir, "vis.lock"))
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: lock: %w", err)
	}
	if err := r.init(ctx); err != nil {
		unlock()
		return nil, nil, err
	}
	return r, unlock, nil
}

func (r *repo) init(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(r.dir, "HEAD")); err == nil {
		return nil
	}
	for _, d := range []string{"objects", "refs/heads", "refs/vis", "info"} {
		if err := os.MkdirAll(filepath.Join(r.dir, d), 0o700); err != nil {
			return fmt.Errorf("checkpoint: init: %w", err)
		}
	}
	excl := filepath.ToSlash(filepath.Join(r.ws, ".git", "info", "exclude"))
	files := map[string]string{
		"config":          fmt.Sprintf(shadowConfig, quoteConfig(excl)),
		"info/attributes": shadowAttributes,
		"workspace":       r.ws + "\n",
		"HEAD":            "ref: refs/heads/main\n", // written last: its presence means "initialized"
	}
	for _, name := range []string{"config", "info/attributes", "workspace", "HEAD"} {
		if err := os.WriteFile(filepath.Join(r.dir, name), []byte(files[name]), 0o600); err != nil {
			return fmt.Errorf("checkpoint: init: %w", err)
		}
	}
	return nil
}

func quoteConfig(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// env is the environment of the git processes: the caller's minus every
// GIT_* variable (a GIT_DIR inherited from a hook would point at the
// project), plus the shadow repository's.
func (r *repo) env(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "LC_ALL=") {
			continue
		}
		out = append(out, kv)
	}
	out = append(out,
		"GIT_DIR="+r.dir, "GIT_WORK_TREE="+r.ws,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C",
		"GIT_AUTHOR_NAME=vis", "GIT_AUTHOR_EMAIL=vis@localhost",
		"GIT_COMMITTER_NAME=vis", "GIT_COMMITTER_EMAIL=vis@localhost",
	)
	return append(out, extra...)
}

// run runs git with args in the workspace; stdin may be nil.
func (r *repo) run(ctx context.Context, stdin []byte, extraEnv []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, r.git, args...)
	cmd.Dir = r.ws
	cmd.Env = r.env(extraEnv...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if len(msg) > 600 {
			msg = msg[:600] + "…"
		}
		return nil, fmt.Errorf("checkpoint: git %s: %w: %s", args[0], err, msg)
	}
	return out.Bytes(), nil
}

// readRef reads a loose ref (the shadow repository never packs refs).
func (r *repo) readRef(name string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(name)))
	if err != nil {
		return "", false
	}
	id := strings.TrimSpace(string(b))
	return id, len(id) >= 40
}

// writeRef writes a loose ref atomically.
func (r *repo) writeRef(name, id string) error {
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("checkpoint: ref: %w", err)
	}
	tmp := p + ".lock"
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o600); err != nil {
		return fmt.Errorf("checkpoint: ref: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("checkpoint: ref: %w", err)
	}
	return nil
}

// meta is what a snapshot records beside its tree, as its commit message.
type meta struct {
	V     int               `json:"v"`
	Perm  uint32            `json:"perm"`            // a plain file's usual permission bits
	XPerm uint32            `json:"xperm"`           // an executable file's usual permission bits
	Perms map[string]uint32 `json:"perms,omitempty"` // files whose bits are not the usual ones
	Large map[string]sig    `json:"large,omitempty"` // changed or over the cap: recorded, not kept
	Empty []string          `json:"empty,omitempty"` // empty directories
}

// sig identifies a file's state without its content.
type sig struct {
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime"` // unix ns
	Mode  uint32 `json:"mode"`  // fs.FileMode bits
}

// perm is the permission bits a snapshot records for a kept file whose
// tree mode is treeMode ("100755" or "100644").
func (m *meta) perm(p, treeMode string) fs.FileMode {
	if v, ok := m.Perms[p]; ok {
		return fs.FileMode(v)
	}
	if treeMode == "100755" {
		return fs.FileMode(m.XPerm)
	}
	return fs.FileMode(m.Perm)
}

// readMeta reads a snapshot's meta from its commit message.
func (r *repo) readMeta(ctx context.Context, id string) (*meta, error) {
	out, err := r.run(ctx, nil, nil, "cat-file", "commit", id)
	if err != nil {
		return nil, err
	}
	i := bytes.Index(out, []byte("\n\n"))
	if i < 0 {
		return nil, fmt.Errorf("checkpoint: snapshot %s has no message", id)
	}
	m := &meta{}
	if err := json.Unmarshal(bytes.TrimSpace(out[i+2:]), m); err != nil {
		return nil, fmt.Errorf("checkpoint: snapshot %s: %w", id, err)
	}
	return m, nil
}
