//go:build !linux

package clojure

import "syscall"

// sysProcAttr puts a child in its own process group (no parent-death signal
// outside Linux: Close or the resource registry ends it).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
