//go:build unix && !linux

package nrepl

import "syscall"

// serverProcAttr puts the server in its own process group.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
