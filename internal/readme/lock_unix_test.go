//go:build unix

package readme

import (
	"os"
	"syscall"
)

// lockDir takes an exclusive lock on the file path without waiting: ok is
// false when another process holds it. The kernel releases it when the
// process ends, so a run that crashed leaves no stale lock.
func lockDir(path string) (unlock func(), ok bool) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}
