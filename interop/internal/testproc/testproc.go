// Package testproc is what the interop tests (interop and interop/scaleout)
// share about the processes they run: example servers built once per test
// binary, children started on free loopback ports and stopped with a
// signal, their output captured, and the skip-or-fail rule for a missing
// tool.
package testproc

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Examples builds examples/NAME of the main module, each once per test
// binary, into a temporary directory that Remove deletes (from TestMain).
type Examples struct {
	// ModuleRoot is the main module's directory, relative to the test's
	// working directory: the interop module requires no part of mcpgen,
	// so the examples are built from there with go build.
	ModuleRoot string

	mu     sync.Mutex
	dir    string
	builds map[string]*build
}

type build struct {
	once sync.Once
	bin  string
	err  error
}

// Bin returns the path of examples/name's binary, building it on first use.
func (e *Examples) Bin(t testing.TB, name string) string {
	t.Helper()
	e.mu.Lock()
	if e.builds == nil {
		e.builds = map[string]*build{}
	}
	b := e.builds[name]
	if b == nil {
		b = &build{}
		e.builds[name] = b
	}
	if e.dir == "" {
		dir, err := os.MkdirTemp("", "mcpgen-interop-")
		if err != nil {
			e.mu.Unlock()
			t.Fatal(err)
		}
		e.dir = dir
	}
	dir := e.dir
	e.mu.Unlock()
	b.once.Do(func() {
		bin := filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", bin, "./examples/"+name)
		cmd.Dir = e.ModuleRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building examples/%s: %v\n%s", name, err, out)
			return
		}
		b.bin = bin
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// Remove deletes the binaries built.
func (e *Examples) Remove() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dir != "" {
		os.RemoveAll(e.dir)
	}
}

// Buffer is a bytes.Buffer safe for a child's output and a test reading
// it at once.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// FreePort returns a loopback TCP port free at the time of the call
// (another process may take it before the caller listens: callers retry
// on "address already in use").
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// FreeAddr is FreePort as 127.0.0.1:PORT.
func FreeAddr(t testing.TB) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", FreePort(t))
}

// listenTimeout bounds how long a child may take to accept connections.
const listenTimeout = 15 * time.Second

// stopTimeout bounds a child's graceful shutdown after its stop signal;
// the runtime's own is bounded at 10 s by default.
const stopTimeout = 15 * time.Second

// Start starts cmd (its output going to out), waits until every addr
// accepts connections, and returns its halt: the stop signal, then a kill
// failing the test if it has not exited within 15 s. Halt is also
// registered as a cleanup, which logs out when the test failed. It
// returns an error, having halted cmd, if cmd exits or never listens.
func Start(t testing.TB, cmd *exec.Cmd, name string, out *Buffer, stop os.Signal, addrs ...string) (halt func(), err error) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	var once sync.Once
	halt = func() {
		once.Do(func() {
			start := time.Now()
			if err := cmd.Process.Signal(stop); err != nil {
				cmd.Process.Kill()
			}
			select {
			case <-exited:
				if d := time.Since(start); d > time.Second {
					// net/http's Shutdown waits up to 5 s for a connection on
					// which no request has come yet; clients leave such ones.
					t.Logf("%s took %v to shut down", name, d.Round(time.Millisecond))
				}
			case <-time.After(stopTimeout):
				t.Errorf("%s did not exit within %v of %v; killing it", name, stopTimeout, stop)
				cmd.Process.Kill()
				<-exited
			}
		})
	}
	for _, addr := range addrs {
		if err := waitListening(addr, exited); err != nil {
			halt()
			return nil, err
		}
	}
	t.Cleanup(func() {
		halt()
		if t.Failed() {
			t.Logf("%s output:\n%s", name, out)
		}
	})
	return halt, nil
}

func waitListening(addr string, exited <-chan struct{}) error {
	deadline := time.Now().Add(listenTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("exited before listening on %s", addr)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return fmt.Errorf("not listening on %s after %v", addr, listenTimeout)
}

// Unavailable skips the test for want of a tool (why), which setup
// installs: a developer without it still runs every other test. Under CI
// (CI set), where setup has run, it fails instead, so that a broken
// install never passes as a skip.
func Unavailable(t testing.TB, why, setup string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set: %s should have installed it)", why, setup)
	}
	t.Skipf("%s; run %s to install it", why, setup)
}
