package nrepl

import "syscall"

// serverProcAttr puts the server in its own process group and has the kernel
// kill it if the test binary dies without running TestMain's cleanup.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
