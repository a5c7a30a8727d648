//go:build !unix

package mcpimport

import (
	"os/exec"
	"syscall"
)

func ownGroup(cmd *exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		cmd.Process.Kill()
		return
	}
	cmd.Process.Signal(sig)
}
