package store

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// processOwner identifies this process among all processes ever run on the
// machine: its pid plus, on Linux, its start time in clock ticks (so a
// recycled pid is not mistaken for the process that started a turn).
var processOwner = ownerOf(os.Getpid())

func ownerOf(pid int) string {
	return fmt.Sprintf("%d:%s", pid, startTicks(pid))
}

// startTicks is field 22 of /proc/<pid>/stat ("" where there is no /proc).
func startTicks(pid int) string {
	if runtime.GOOS != "linux" {
		return ""
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(raw)
	// The command name (field 2) may contain spaces; fields resume after ')'.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// ownerAlive reports whether the process that recorded owner still runs.
// An empty owner (a turn from before owners were kept) counts as dead.
func ownerAlive(owner string) bool {
	pidText, ticks, ok := strings.Cut(owner, ":")
	if !ok {
		return false
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	if runtime.GOOS == "linux" {
		return startTicks(pid) == ticks
	}
	return true
}
