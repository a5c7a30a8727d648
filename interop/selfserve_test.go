package interop

// Servers this test binary serves itself, as a child process: generated
// packages that have no main of their own (under golden/), for the clients
// that start a server (stdio) or connect to one on a port (HTTP). TestMain
// becomes the server when MCPGEN_INTEROP_SERVE names one.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	library "github.com/mcpgen/mcpgen/golden/search_exposure"
	"github.com/mcpgen/mcpgen/runtime"
)

const serveEnv = "MCPGEN_INTEROP_SERVE"

// selfServed are the servers by name, with the spec each was generated from
// (from interop/, for mcpgen config).
var selfServed = map[string]struct {
	spec      string
	newServer func() *runtime.Server
}{
	"search_exposure": {"../golden/search_exposure/mcpgen.yaml", func() *runtime.Server { return library.NewServer(searchLender{}) }},
}

// serveSelf serves the server name over stdio, or over Streamable HTTP with
// -http ADDR (as an example's binary does), until interrupted or its input
// ends; it returns the exit code.
func serveSelf(name string) int {
	s, ok := selfServed[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "%s=%s: no such server\n", serveEnv, name)
		return 2
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	addr := fs.String("http", "", "serve Streamable HTTP at /mcp on this address instead of stdio")
	if fs.Parse(os.Args[1:]) != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runtime.Serve(ctx, s.newServer(), *addr); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		return 1
	}
	return 0
}

var selfScripts struct {
	mu  sync.Mutex
	dir string
	bin map[string]string
}

// selfServedBin returns a command that starts the server name: a script
// that runs this test binary with MCPGEN_INTEROP_SERVE set (it passes its
// arguments on, so -http works as with an example's binary), written once
// per test binary; removeSelfServed deletes it.
func selfServedBin(t *testing.T, name string) string {
	t.Helper()
	selfScripts.mu.Lock()
	defer selfScripts.mu.Unlock()
	if bin, ok := selfScripts.bin[name]; ok {
		return bin
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if selfScripts.dir == "" {
		if selfScripts.dir, err = os.MkdirTemp("", "mcpgen-interop-self-"); err != nil {
			t.Fatal(err)
		}
		selfScripts.bin = map[string]string{}
	}
	bin := filepath.Join(selfScripts.dir, name)
	script := fmt.Sprintf("#!/bin/sh\n%s=%s exec '%s' \"$@\"\n", serveEnv, name, exe)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	selfScripts.bin[name] = bin
	return bin
}

func removeSelfServed() {
	if selfScripts.dir != "" {
		os.RemoveAll(selfScripts.dir)
	}
}
