package scaleout

// The cluster the tests run against: three replicas of examples/conformance
// and nginx in front of them, all on loopback, all stopped by the test's
// cleanup.

import (
	"bytes"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"text/template"

	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

var (
	//go:embed nginx.conf.tmpl
	nginxConfTemplate string
	//go:embed mcp_proxy.conf
	mcpProxyConf []byte
)

// replica is one examples/conformance process.
type replica struct {
	Name string // its tag: session ids start with Name + "."
	Addr string // 127.0.0.1:PORT
	stop func() // interrupts it and waits for it to exit
	// restart starts it again on Addr, after stop, and returns the new stop.
	restart func() func()
	proc    *os.Process // the first process, for SIGKILL
}

// cluster is the replicas and nginx's two front doors.
type cluster struct {
	Dir         string
	Replicas    []replica
	StickyPort  int    // routes legacy sessions by their tag
	PlainPort   int    // round robin only
	sticky      string // the endpoints of the front doors, http://localhost:PORT/mcp
	plain       string
	replicaByIP map[string]string // Addr → Name
}

// startCluster starts n replicas of examples/conformance sharing one
// requestState key, then nginx.
func startCluster(t *testing.T, n int) *cluster {
	t.Helper()
	return startClusterOf(t, n, "conformance")
}

// startClusterOf starts n replicas of examples/name, each given args too,
// sharing one requestState key, then nginx.
func startClusterOf(t *testing.T, n int, name string, args ...string) *cluster {
	t.Helper()
	nginx := needNginx(t)
	bin := examples.Bin(t, name)
	dir := t.TempDir()
	// nginx run by root serves with an unprivileged worker, which must reach
	// the temporary paths.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	rand.Read(key)
	c := &cluster{Dir: dir, replicaByIP: map[string]string{}}
	for i := 1; i <= n; i++ {
		r := replica{Name: fmt.Sprintf("r%d", i)}
		r.Addr, r.stop, r.proc = startReplicaAt(t, "", bin, r.Name, hex.EncodeToString(key), args...)
		name, addr := r.Name, r.Addr
		r.restart = func() func() {
			_, stop, _ := startReplicaAt(t, addr, bin, name, hex.EncodeToString(key), args...)
			return stop
		}
		c.Replicas = append(c.Replicas, r)
		c.replicaByIP[r.Addr] = r.Name
	}
	startNginx(t, nginx, c)
	// Before nginx's graceful stop (cleanups run last first): it waits for
	// open client connections, idle keep-alive ones of the tests' clients
	// among them.
	t.Cleanup(func() { http.DefaultTransport.(*http.Transport).CloseIdleConnections() })
	return c
}

// needNginx returns nginx's path, or skips (fails under CI).
func needNginx(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	testproc.Unavailable(t, "nginx not found", "interop/scaleout/setup.sh (apt-get install nginx-light)")
	return ""
}

// examples builds the examples, each once per test binary.
var examples = &testproc.Examples{ModuleRoot: filepath.Join("..", "..")}

func TestMain(m *testing.M) {
	code := m.Run()
	examples.Remove()
	os.Exit(code)
}

// startReplica starts the example with -http on a free loopback port, its
// session ids tagged name (examples/conformance only: the other examples
// have no such flag), the shared key, and args; stop (or cleanup)
// interrupts it.
func startReplica(t *testing.T, bin, name, key string, args ...string) (addr string, stop func()) {
	t.Helper()
	addr, stop, _ = startReplicaAt(t, "", bin, name, key, args...)
	return addr, stop
}

// startReplicaAt is startReplica on addr ("": a free port); it also
// returns the process.
func startReplicaAt(t *testing.T, at, bin, name, key string, args ...string) (addr string, stop func(), proc *os.Process) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		addr = at
		if addr == "" {
			addr = testproc.FreeAddr(t)
		}
		cmdArgs := append([]string{"-http", addr}, args...)
		if filepath.Base(bin) == "conformance" {
			cmdArgs = append(cmdArgs, "-session-id-prefix", name+".")
		}
		cmd := exec.Command(bin, cmdArgs...)
		cmd.Env = append(os.Environ(), "MCP_REQUEST_STATE_KEY="+key)
		out := &testproc.Buffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if stop, err := testproc.Start(t, cmd, "replica "+name, out, syscall.SIGINT, addr); err == nil {
			return addr, stop, cmd.Process
		} else if at != "" || attempt == 2 || !strings.Contains(out.String(), "address already in use") {
			t.Fatalf("replica %s: %v\n%s", name, err, out)
		}
	}
}

// startNginx writes the configuration and starts nginx in the foreground;
// cleanup stops it (SIGQUIT: a graceful shutdown).
func startNginx(t *testing.T, nginx string, c *cluster) {
	t.Helper()
	tmpl := template.Must(template.New("nginx.conf").Parse(nginxConfTemplate))
	if err := os.WriteFile(filepath.Join(c.Dir, "mcp_proxy.conf"), mcpProxyConf, 0o644); err != nil {
		t.Fatal(err)
	}
	for attempt := 0; ; attempt++ {
		c.StickyPort, c.PlainPort = testproc.FreePort(t), testproc.FreePort(t)
		var conf bytes.Buffer
		if err := tmpl.Execute(&conf, c); err != nil {
			t.Fatal(err)
		}
		confPath := filepath.Join(c.Dir, "nginx.conf")
		if err := os.WriteFile(confPath, conf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		// -p: relative paths (none are) and the prefix; -e: errors before
		// the configuration is read go to the temporary directory, not to
		// the system's log.
		cmd := exec.Command(nginx, "-p", c.Dir, "-e", filepath.Join(c.Dir, "startup.log"), "-c", confPath)
		out := &testproc.Buffer{}
		cmd.Stdout, cmd.Stderr = out, out
		_, err := testproc.Start(t, cmd, "nginx", out, syscall.SIGQUIT, fmt.Sprintf("127.0.0.1:%d", c.StickyPort), fmt.Sprintf("127.0.0.1:%d", c.PlainPort))
		if err == nil {
			break
		}
		logs := out.String() + readFile(filepath.Join(c.Dir, "error.log")) + readFile(filepath.Join(c.Dir, "startup.log"))
		if attempt == 2 || !strings.Contains(logs, "Address already in use") {
			t.Fatalf("nginx: %v\n%s\nconfiguration:\n%s", err, logs, conf.String())
		}
	}
	c.sticky = fmt.Sprintf("http://localhost:%d/mcp", c.StickyPort)
	c.plain = fmt.Sprintf("http://localhost:%d/mcp", c.PlainPort)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("nginx access log (method status session -> replica):\n%s", readFile(filepath.Join(c.Dir, "access.log")))
			t.Logf("nginx error log:\n%s", readFile(filepath.Join(c.Dir, "error.log")))
		}
	})
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
