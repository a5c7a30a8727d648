package cli

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestInitInModuleWithReplaceBuilds is the local-clone path without -replace: a
// module whose go.mod already replaces mcpgen with a clone. init must use
// that replace and ask the module proxy nothing about mcpgen, and the
// scaffold must build.
func TestInitInModuleWithReplaceBuilds(t *testing.T) {
	testenv.BuildsModules(t)
	checkout := needGo(t)
	t.Setenv("GOPROXY", scaffoldProxy(t))
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := t.TempDir()
	gomod := "module example.com/local\n\ngo 1.24\n\nreplace github.com/mcpgen/mcpgen => " + checkout + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, dir, "init", "-name", "local")
	if code != ExitOK {
		t.Fatalf("init in a module with a replace: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tool github.com/mcpgen/mcpgen/cmd/mcpgen", "replace github.com/mcpgen/mcpgen => " + checkout} {
		if !strings.Contains(string(data), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, data)
		}
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in the scaffold: %v\n%s", err, out)
	}

	// check run as `go tool mcpgen` tells how to fix stale files in the
	// same form, not as a bare `mcpgen` the user may not have.
	spec, _ := os.ReadFile(filepath.Join(dir, "mcpgen.yaml"))
	os.WriteFile(filepath.Join(dir, "mcpgen.yaml"), []byte(strings.Replace(string(spec), "version: 0.1.0", "version: 0.2.0", 1)), 0o644)
	cmd = exec.Command("go", "tool", "mcpgen", "check")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != ExitFindings || !strings.Contains(string(out), "run 'go tool mcpgen generate'") {
		t.Errorf("go tool mcpgen check on a changed spec: exit %d (%v), want %d and the advice to run 'go tool mcpgen generate':\n%s", code, err, ExitFindings, out)
	}
}

// TestInitUnfetchableSaysWhatToDo: when go get cannot fetch mcpgen (not
// published yet, or no network), init says to use -replace with this
// clone, and leaves no go.mod behind.
func TestInitUnfetchableSaysWhatToDo(t *testing.T) {
	checkout := needGo(t)
	t.Setenv("GOPROXY", refusingProxy(t))
	dir := t.TempDir()
	code, _, stderr := run(t, dir, "init", "-module", "example.com/offline")
	if code != ExitInternal {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInternal, stderr)
	}
	for _, want := range []string{"go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen", "could not be fetched", "-replace " + checkout, `README.md, "Quick start from a clone"`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("a failed init left %s behind", e.Name())
	}

	// init DIR makes DIR; a failure removes it again.
	code, _, stderr = run(t, dir, "init", "hello", "-module", "example.com/offline")
	if code != ExitInternal {
		t.Fatalf("init hello: exit %d, want %d\n%s", code, ExitInternal, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "hello")); err == nil {
		t.Error("a failed init hello left the directory hello behind")
	}
}

// TestInitHelpShowsReplace: the local-clone flag is documented, not hidden.
func TestInitHelpShowsReplace(t *testing.T) {
	code, stdout, _ := run(t, t.TempDir(), "init", "-h")
	if code != ExitOK || !strings.Contains(stdout, "-replace dir") {
		t.Errorf("init -h (exit %d) does not document -replace:\n%s", code, stdout)
	}
}

// refusingProxy is a module proxy that answers as proxy.golang.org does
// for a module it does not serve (403), so that the go command fails
// instead of quietly falling back as it does with GOPROXY=off. Modules
// already in the module cache are still found there. The checksum
// database is turned off with it: the go command reaches sum.golang.org
// through GOPROXY, so a module that the cache holds but whose checksum was
// never looked up on this machine (a fresh machine, where the main module's
// go.sum answered every check) would fail on the refusing proxy's 403.
func refusingProxy(t *testing.T) string {
	t.Setenv("GOSUMDB", "off")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "This module version is not available.", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// scaffoldProxy is the module proxy for a scaffold's go commands: it
// forwards to this machine's own proxy (the first URL of go env GOPROXY),
// as a user's go command would reach it, and refuses (403), failing the
// test, any question about mcpgen itself, which the scaffold must take
// from its replace. A forwarding proxy rather than the module cache
// alone: a scaffold's go mod tidy also resolves the test dependencies of
// its dependencies (testify, check.v1 and theirs), which nothing of the
// main module downloads, so on a fresh machine the cache lacks them.
// Without a proxy URL (GOPROXY=off or direct) the test skips.
func scaffoldProxy(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		t.Fatalf("go env GOPROXY: %v", err)
	}
	var upstream *url.URL
	for _, p := range strings.FieldsFunc(strings.TrimSpace(string(out)), func(r rune) bool { return r == ',' || r == '|' }) {
		if u, err := url.Parse(p); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
			upstream = u
			break
		}
	}
	if upstream == nil {
		t.Skipf("no module proxy to fetch a scaffold's dependencies through (GOPROXY=%s)", strings.TrimSpace(string(out)))
	}
	t.Setenv("GOSUMDB", "off") // the checksum database is not what these tests are about
	forward := httputil.NewSingleHostReverseProxy(upstream)
	forward.Director = func(r *http.Request) {
		r.URL.Scheme, r.URL.Host, r.Host = upstream.Scheme, upstream.Host, upstream.Host
		r.URL.Path = strings.TrimSuffix(upstream.Path, "/") + r.URL.Path
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/github.com/mcpgen/mcpgen/") {
			t.Errorf("the scaffold's go command asked the module proxy about mcpgen (%s); it should use the replace", r.URL.Path)
			http.Error(w, "This module version is not available.", http.StatusForbidden)
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// needGo skips a test that runs the go command when it cannot, and returns
// the checkout (the main module's root).
func needGo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return checkout
}
