// Package servercmd is the main of the three benchmark servers: stdio by
// default, Streamable HTTP at /mcp with -http ADDR, and an optional CPU
// profile of the whole run (-cpuprofile), written when stdin closes or on
// SIGTERM/SIGINT.
package servercmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"
)

// Server is what a benchmark server offers.
type Server struct {
	Name  string
	Stdio func(ctx context.Context, in io.Reader, out io.Writer) error
	// HTTP returns the Streamable HTTP handler to mount at /mcp, or an
	// error saying why this server has none.
	HTTP func() (http.Handler, error)
}

// Main runs s as a process and exits.
func Main(s Server) {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio (loopback addresses only)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	if err := run(s, *httpAddr, *cpuprofile); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(1)
	}
}

func run(s Server, httpAddr, cpuprofile string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	if httpAddr == "" {
		if err := s.Stdio(ctx, os.Stdin, os.Stdout); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
	if err := loopback(httpAddr); err != nil {
		return err
	}
	h, err := s.HTTP()
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Addr: httpAddr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return nil
}

// loopback refuses anything but a loopback address: the benchmark never
// listens beyond this machine.
func loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-http %s: only loopback addresses are allowed", addr)
}
