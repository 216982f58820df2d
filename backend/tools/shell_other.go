//go:build !linux

package tools

import "syscall"

// shellProcAttr: the command leads its own process group.
func shellProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
