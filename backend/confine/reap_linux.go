//go:build linux

package confine

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// The reaping ledger. A kill -9 or a crash of the app leaves what its
// children started behind (a shell job's background process, a REPL's
// JVM): the parent-death signal reaches only the direct child. So the
// helper, before it execs, writes a ledger entry naming the app's pid and
// start time, and marks the child's environment with the entry's token,
// which every descendant inherits. At the next start, Reap kills every
// process whose environment carries the token of an entry whose app is
// gone; a pid reused by an unrelated process never carries it.

const reapVar = "VIS_REAP"

type ledgerEntry struct {
	Owner      int    `json:"owner"`       // the app's pid
	OwnerStart uint64 `json:"owner_start"` // its start time (clock ticks since boot)
	Pgid       int    `json:"pgid"`
}

// register writes the ledger entry for this helper process (the app is its
// parent) and returns the token to put in the child's environment.
func register(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b)
	owner := os.Getppid()
	e := ledgerEntry{Owner: owner, OwnerStart: startTime(owner), Pgid: syscall.Getpgrp()}
	data, _ := json.Marshal(e)
	return token, os.WriteFile(filepath.Join(dir, token), data, 0o600)
}

// startTime is a process's start time from /proc/<pid>/stat (field 22),
// 0 when it is gone.
func startTime(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}

// Reap kills what the app's earlier runs left: every process carrying the
// token of a ledger entry in dir whose app is no longer running, and it
// drops the entries no process carries any more. It returns how many
// processes it killed. Call it once at start.
func Reap(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return 0
	}
	carriers := tokenCarriers()
	killed := 0
	for _, de := range entries {
		token := de.Name()
		path := filepath.Join(dir, token)
		var e ledgerEntry
		data, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(data, &e) != nil {
			os.Remove(path)
			continue
		}
		pids := carriers[token]
		ownerAlive := e.OwnerStart != 0 && startTime(e.Owner) == e.OwnerStart
		switch {
		case len(pids) == 0:
			os.Remove(path) // ended on its own
		case !ownerAlive:
			for _, pid := range pids {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed++
				}
			}
			os.Remove(path)
		}
	}
	return killed
}

// tokenCarriers maps each reap token found in a process environment (ours
// to read: same user) to the pids carrying it.
func tokenCarriers() map[string][]int {
	out := map[string][]int{}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	prefix := []byte(reapVar + "=")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + p.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.HasPrefix(kv, prefix) {
				out[string(kv[len(prefix):])] = append(out[string(kv[len(prefix):])], pid)
			}
		}
	}
	return out
}
