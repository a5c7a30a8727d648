// Package redistest starts the Redis deployments the tests run against,
// from Debian's redis-server on free loopback ports: one server, a Redis
// Cluster (3 primaries, 3 replicas) and a primary with a replica watched
// by three sentinels. runtime/redisstore's tests and the interop module's
// scale-out tests share it. Every process is stopped by the test's
// cleanup.
package redistest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server a test started on a free loopback port, in a
// temporary directory, without persistence unless its arguments ask for it
// ("--appendonly", "yes": then a Restart after Stop keeps what was written).
type Server struct {
	Addr string // 127.0.0.1:PORT

	dir  string
	args []string // after the port, bind, dir and persistence flags
	cmd  *exec.Cmd
	t    testing.TB
}

// Deployment is a Redis deployment a store can open by URL: a Server, a
// Cluster or a Sentinel.
type Deployment interface{ URL() string }

// Start starts a redis-server with args (a configuration file may come
// first), or skips the test when there is none and MCPGEN_REQUIRE_REDIS is
// unset (test.sh sets it: CI fails instead).
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	Need(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := &Server{Addr: addr, dir: t.TempDir(), args: args, t: t}
	r.Restart()
	t.Cleanup(r.Kill)
	return r
}

// Need skips the test when there is no redis-server and
// MCPGEN_REQUIRE_REDIS is unset, and fails it when that is set.
func Need(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		const install = "interop/scaleout/setup.sh installs it (apt-get install redis-server)"
		if os.Getenv("MCPGEN_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server not found and MCPGEN_REQUIRE_REDIS is set: " + install)
		}
		t.Skip("redis-server not found: " + install + "; set MCPGEN_REQUIRE_REDIS=1 to fail instead")
	}
}

// Restart starts the server, again after Stop or Kill, on the same port
// and directory, and waits until it answers.
func (r *Server) Restart() {
	r.t.Helper()
	_, port, _ := net.SplitHostPort(r.Addr)
	var conf []string // redis-server wants a configuration file first
	if len(r.args) > 0 && strings.HasSuffix(r.args[0], ".conf") {
		conf = r.args[:1]
	}
	r.cmd = exec.Command("redis-server", append(append(conf, "--port", port, "--bind", "127.0.0.1", "--dir", r.dir,
		"--save", "", "--appendonly", "no", "--logfile", "redis.log"), r.args[len(conf):]...)...)
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: r.Addr})
	defer c.Close()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		err := c.Ping(context.Background()).Err()
		// Up: a server with ACL users asks for credentials first; one
		// loading its append-only file says so.
		if err == nil || strings.HasPrefix(err.Error(), "NOAUTH") {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server on %s did not answer in a minute:\n%s", r.Addr, r.Log())
		}
	}
}

// Kill kills the server (SIGKILL: what it had not written is lost).
func (r *Server) Kill() { r.halt(syscall.SIGKILL) }

// Stop stops the server gracefully (SIGTERM: it writes its data and exits).
func (r *Server) Stop() { r.halt(syscall.SIGTERM) }

func (r *Server) halt(sig syscall.Signal) {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Signal(sig)
	r.cmd.Wait()
	r.cmd = nil
}

// Running reports whether the server was started and not stopped since.
func (r *Server) Running() bool { return r.cmd != nil }

// Pause stops the server (SIGSTOP): it accepts connections but answers
// nothing, like a Redis that is overloaded or cut off. Resume undoes it.
func (r *Server) Pause()  { r.cmd.Process.Signal(syscall.SIGSTOP) }
func (r *Server) Resume() { r.cmd.Process.Signal(syscall.SIGCONT) }

// URL is the server's database 0, as redisstore.Open and -redis take it.
func (r *Server) URL() string { return "redis://" + r.Addr + "/0" }

// Log is what the server logged.
func (r *Server) Log() string {
	b, _ := os.ReadFile(r.dir + "/redis.log")
	return string(b)
}

// Client is a client of r for the test to look into the keys, closed by
// the test's cleanup.
func (r *Server) Client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: r.Addr})
	t.Cleanup(func() { c.Close() })
	return c
}
