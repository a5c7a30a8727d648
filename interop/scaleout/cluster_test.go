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
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/template"
	"time"
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

// startCluster starts n replicas sharing one requestState key, then nginx.
func startCluster(t *testing.T, n int) *cluster {
	t.Helper()
	nginx := needNginx(t)
	bin := buildConformance(t)
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
		r.Addr, r.stop = startReplica(t, bin, r.Name, hex.EncodeToString(key))
		c.Replicas = append(c.Replicas, r)
		c.replicaByIP[r.Addr] = r.Name
	}
	startNginx(t, nginx, c)
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
	if os.Getenv("CI") != "" {
		t.Fatal("nginx not found (CI is set: interop/scaleout/setup.sh should have installed nginx-light)")
	}
	t.Skip("nginx not found; run interop/scaleout/setup.sh (apt-get install nginx-light)")
	return ""
}

var conformanceBuild struct {
	once sync.Once
	bin  string
	err  error
	dir  string
}

// buildConformance builds examples/conformance once per test binary.
func buildConformance(t *testing.T) string {
	t.Helper()
	b := &conformanceBuild
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "mcpgen-scaleout-")
		if b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "conformance")
		cmd := exec.Command("go", "build", "-o", b.bin, "./examples/conformance")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building examples/conformance: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if conformanceBuild.dir != "" {
		os.RemoveAll(conformanceBuild.dir)
	}
	os.Exit(code)
}

// startReplica starts the example with -http on a free loopback port, its
// session ids tagged name, and the shared key; stop (or cleanup)
// interrupts it.
func startReplica(t *testing.T, bin, name, key string) (addr string, stop func()) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		addr = freeAddr(t)
		cmd := exec.Command(bin, "-http", addr, "-session-id-prefix", name+".")
		cmd.Env = append(os.Environ(), "MCP_REQUEST_STATE_KEY="+key)
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if stop, err := start(t, cmd, name, out, syscall.SIGINT, addr); err == nil {
			return addr, stop
		} else if attempt == 2 || !strings.Contains(out.String(), "address already in use") {
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
		c.StickyPort, c.PlainPort = freePort(t), freePort(t)
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
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		_, err := start(t, cmd, "nginx", out, syscall.SIGQUIT, fmt.Sprintf("127.0.0.1:%d", c.StickyPort), fmt.Sprintf("127.0.0.1:%d", c.PlainPort))
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

// start starts cmd, waits until every addr accepts connections, and
// returns its halt (the stop signal, then a kill after 15 s), also
// registered as a cleanup; it returns an error if cmd exits or never
// listens.
func start(t *testing.T, cmd *exec.Cmd, name string, out *syncBuffer, stop os.Signal, addrs ...string) (func(), error) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	var once sync.Once
	halt := func() {
		once.Do(func() {
			cmd.Process.Signal(stop)
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				t.Errorf("%s did not exit within 15 s of %v; killing it", name, stop)
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
	deadline := time.Now().Add(15 * time.Second)
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
	return fmt.Errorf("not listening on %s after 15 s", addr)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", freePort(t))
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// syncBuffer is a bytes.Buffer safe for a child's output and a test
// reading it at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
