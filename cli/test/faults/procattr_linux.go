package faults

import "syscall"

// sysProcAttr puts the child in a process group of its own, and kills it should this process
// die without cleaning up.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
