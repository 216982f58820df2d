package proc

import "syscall"

// SysProcAttr puts a child in its own process group and kills it when the
// app dies (the parent-death signal).
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
