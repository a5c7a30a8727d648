package redisstore

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisServer is a redis-server the test started on a free loopback port,
// in a temporary directory, without persistence; the test's cleanup stops
// it.
type redisServer struct {
	Addr string
	dir  string
	args []string // after the port, bind, dir and persistence flags
	cmd  *exec.Cmd
	t    testing.TB
}

// backend is a Redis deployment the stores can open: one server, a
// cluster or a Sentinel-watched primary (topology_test.go).
type backend interface{ url() string }

// startRedis starts a redis-server, or skips the test when there is none
// and MCPGEN_REQUIRE_REDIS is unset (test.sh sets it: CI fails instead).
func startRedis(t testing.TB, args ...string) *redisServer {
	t.Helper()
	needRedis(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := &redisServer{Addr: addr, dir: t.TempDir(), args: args, t: t}
	r.start()
	t.Cleanup(r.stop)
	return r
}

// needRedis skips the test when there is no redis-server and
// MCPGEN_REQUIRE_REDIS is unset (test.sh sets it: CI fails instead).
func needRedis(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("MCPGEN_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server not found and MCPGEN_REQUIRE_REDIS is set (apt-get install redis-server)")
		}
		t.Skip("redis-server not found (apt-get install redis-server); set MCPGEN_REQUIRE_REDIS=1 to fail instead")
	}
}

func (r *redisServer) start() {
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
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := c.Ping(context.Background()).Err(); err == nil || strings.HasPrefix(err.Error(), "NOAUTH") {
			return // up (a server with ACL users asks for credentials first)
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(r.dir + "/redis.log")
			r.t.Fatalf("redis-server on %s did not answer in 10 s:\n%s", r.Addr, log)
		}
	}
}

func (r *redisServer) stop() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.cmd = nil
}

// pause stops the server (SIGSTOP): it accepts connections but answers
// nothing, like a Redis that is overloaded or cut off.
func (r *redisServer) pause()  { r.cmd.Process.Signal(syscall.SIGSTOP) }
func (r *redisServer) resume() { r.cmd.Process.Signal(syscall.SIGCONT) }

func (r *redisServer) URL(db int) string { return "redis://" + r.Addr + "/" + strconv.Itoa(db) }
func (r *redisServer) url() string       { return r.URL(0) }

// openStore opens a Store on b with cfg, closed by the test's cleanup.
func openStore(t testing.TB, b backend, cfg Config) *Store {
	t.Helper()
	s, err := Open(context.Background(), b.url(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(context.Background(), "http://x", Config{}); err == nil {
		t.Error("Open accepted an http URL")
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err := Open(context.Background(), "redis://"+addr+"/0", Config{Timeout: 200 * time.Millisecond})
	if err == nil {
		t.Fatal("Open succeeded with no Redis")
	}
	if want := fmt.Sprintf("Redis at %s does not answer", addr); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// client is a client of r for the test to look into the keys.
func (r *redisServer) client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: r.Addr})
	t.Cleanup(func() { c.Close() })
	return c
}

// New shares a client the caller made and keeps: the store works on it,
// and closing the store leaves the client open.
func TestNewOnCallersClient(t *testing.T) {
	r := startRedis(t)
	client := redis.NewClient(&redis.Options{Addr: r.Addr})
	defer client.Close()
	st := New(client, Config{})
	ctx := context.Background()
	states := st.RequestStates()
	expires := time.Now().Add(time.Minute)
	if first, err := states.FirstUse(ctx, "state-1", expires); err != nil || !first {
		t.Fatalf("first use = %v, %v; want true", first, err)
	}
	if first, err := states.FirstUse(ctx, "state-1", expires); err != nil || first {
		t.Fatalf("second use = %v, %v; want false", first, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := client.Ping(ctx).Err(); err != nil {
		t.Errorf("the caller's client was closed with the store: %v", err)
	}
}

// Open's errors name the URL without its credentials: the password of the
// user part and the password or sentinel_password of the query alike.
func TestOpenErrorsHideCredentials(t *testing.T) {
	for _, url := range []string{
		"memcache://user:PW1secret@h:1/0?password=PW2secret",
		"redis+sentinel://suser:PW1secret@h:1?addr=h:2&password=PW2secret&sentinel_password=PW3secret",
		"redis://user:PW1secret@h:1/notadb?password=PW2secret",
		"rediss+cluster://user:PW1secret@h:1?password=PW2secret&sentinel_password=PW3secret&bogus_option=1",
	} {
		_, err := Open(context.Background(), url, Config{Timeout: 200 * time.Millisecond})
		if err == nil {
			t.Errorf("Open(%q) succeeded", url)
			continue
		}
		if !strings.Contains(err.Error(), "bad Redis URL") {
			t.Errorf("Open(%q): %v, want a bad Redis URL error", url, err)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q)'s error shows a credential: %v", url, err)
		}
	}
}
