//go:build !linux

package python

import "syscall"

// sysProcAttr puts a child in its own process group (no parent-death signal
// outside Linux: StopAll at exit ends it).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
