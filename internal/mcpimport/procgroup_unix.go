//go:build unix

package mcpimport

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the child in a process group of its own, so that a
// signal reaches what it started too (npx starts node, sh starts the
// server): a grandchild left holding the output open would hang the import.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// signalGroup sends sig to the child's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		cmd.Process.Signal(sig)
	}
}
