package testproc

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// Redis is a redis-server a test started on a free loopback port, with its
// data (an append-only file, so that a restart keeps what was written) in
// a temporary directory. The test's cleanup stops it.
type Redis struct {
	Addr string // 127.0.0.1:PORT
	URL  string // redis://127.0.0.1:PORT/0, what the examples' -redis takes

	t    testing.TB
	dir  string
	halt func()
}

// StartRedis starts redis-server, or skips the test when it is not
// installed and MCPGEN_REQUIRE_REDIS is unset (test.sh sets it, so that CI
// fails instead of skipping).
func StartRedis(t testing.TB) *Redis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("MCPGEN_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server not found and MCPGEN_REQUIRE_REDIS is set: interop/scaleout/setup.sh installs it (apt-get install redis-server)")
		}
		t.Skip("redis-server not found: run interop/scaleout/setup.sh (apt-get install redis-server), or set MCPGEN_REQUIRE_REDIS=1 to fail instead")
	}
	r := &Redis{t: t, dir: t.TempDir()}
	r.Addr = FreeAddr(t)
	r.URL = "redis://" + r.Addr + "/0"
	r.Start()
	return r
}

// Start starts the server (again, after Stop) on the same port and data.
func (r *Redis) Start() {
	r.t.Helper()
	port := r.Addr[len("127.0.0.1:"):]
	if _, err := strconv.Atoi(port); err != nil {
		r.t.Fatalf("redis address %s", r.Addr)
	}
	cmd := exec.Command("redis-server", "--port", port, "--bind", "127.0.0.1", "--dir", r.dir,
		"--save", "", "--appendonly", "yes", "--protected-mode", "no")
	out := &Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	halt, err := Start(r.t, cmd, "redis-server", out, syscall.SIGTERM, r.Addr)
	if err != nil {
		r.t.Fatalf("redis-server: %v\n%s", err, out)
	}
	r.halt = halt
}

// Stop stops the server gracefully (SIGTERM: it writes its data and exits).
func (r *Redis) Stop() { r.halt() }
