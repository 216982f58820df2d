//go:build linux

package clojure

import "syscall"

// sysProcAttr puts a child in its own process group and has the kernel kill
// it when the app dies (even by SIGKILL).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
