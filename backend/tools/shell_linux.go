package tools

import "syscall"

// shellProcAttr: the command leads its own process group (killed whole on
// timeout or Stop) and dies with the app (the parent-death signal; what it
// started in the background is reaped at the next start, backend/confine).
func shellProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
