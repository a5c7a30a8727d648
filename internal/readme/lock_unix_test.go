//go:build unix

package readme

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
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
	// Unlock explicitly before closing: a process that another test forks
	// at this moment holds a copy of the descriptor until it execs, and a
	// close alone would leave the lock held through that copy.
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, true
}

// TestLockDir: a lock held is refused to the next taker until released, so
// two runs never share a scenario directory.
func TestLockDir(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "dir.lock")
	unlock, ok := lockDir(path)
	if !ok {
		t.Fatal("the first lock was refused")
	}
	if again, ok := lockDir(path); ok {
		again()
		t.Fatal("a second lock was granted while the first is held")
	}
	unlock()
	after, ok := lockDir(path)
	if !ok {
		t.Fatal("the lock was refused after its release")
	}
	after()
}

// TestLockReleasedWhileOthersFork: a released lock is free again at once,
// even while other goroutines start processes (each fork holds a copy of
// every descriptor until it execs; the scenario tests start many).
func TestLockReleasedWhileOthersFork(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	defer close(stop)
	for range 4 {
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_ = exec.Command("true").Run()
			}
		}()
	}
	path := filepath.Join(t.TempDir(), "dir.lock")
	for i := range 3000 {
		unlock, ok := lockDir(path)
		if !ok {
			t.Fatalf("round %d: the lock was refused after its release", i)
		}
		unlock()
	}
}
