// Package load drives an MCP server process with tools/call requests in raw
// JSON-RPC, over stdio or Streamable HTTP, and measures it from outside:
// throughput, latency percentiles, the server's CPU time per call and its
// peak RSS (from the child's rusage). Only loopback addresses are used, and
// every run is bounded in calls and time.
package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config is one measurement.
type Config struct {
	// Cmd is the server command line. For HTTP, "-http ADDR" is appended.
	Cmd []string
	// HTTPAddr selects Streamable HTTP at http://HTTPAddr/mcp (a loopback
	// address); empty is stdio.
	HTTPAddr string
	Tool     string
	Args     json.RawMessage // the tool's arguments, a JSON object
	N        int             // measured calls
	C        int             // calls in flight
	Warmup   int             // calls before measuring (not counted)
	Timeout  time.Duration   // for the whole run; 0 is 2 minutes
	Stderr   io.Writer       // the server's stderr; nil discards it
	// Client is the HTTP client of the measured calls: "raw" (the default:
	// hand-written HTTP/1.1, one kept-alive connection per call in flight,
	// 0.32–0.59× net/http's CPU per call in BENCHMARKS.md's runs) or
	// "nethttp" (net/http's client, the harness of the earlier results).
	Client string
}

// Result is what a run measured.
type Result struct {
	Calls      int           // measured calls answered
	Errors     int           // of which JSON-RPC errors or isError results
	Elapsed    time.Duration // of the measured calls
	RPS        float64       // Calls / Elapsed
	P50, P99   time.Duration // latency of one call, from sending to reading its response
	CPUPerCall time.Duration // server user+sys CPU during the measured calls / Calls
	ClientCPU  time.Duration // the load generator's own user+sys CPU per call (it shares the machine)
	MaxRSSKB   int64         // the server's peak resident set (rusage maxrss)
	Sample     []byte        // the first measured response (the JSON-RPC message)
	Format     string        // HTTP: the response format seen, "json" or "sse"
}

const protocolVersion = "2025-11-25"

const initRequest = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + protocolVersion + `","capabilities":{},"clientInfo":{"name":"mcpload","version":"1.0.0"}}}`
const initializedNote = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// driver is a transport: it sends requests numbered from 1 and reports each
// answer.
type driver interface {
	// init performs the handshake.
	init(ctx context.Context) error
	// calls sends n tools/call requests with ids first..first+n-1, at most c
	// in flight, and calls done(i, response) for each as it arrives, i in
	// [0, n).
	calls(ctx context.Context, first, n, c int, req requestFunc, done func(i int, resp []byte)) error
	// close ends the session (the process is stopped by Run).
	close()
}

type requestFunc func(dst []byte, id int) []byte

// Run starts the server, measures it and stops it.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.N <= 0 || cfg.C <= 0 {
		return nil, errors.New("load: N and C must be positive")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()

	args := slices.Clone(cfg.Cmd[1:])
	if cfg.HTTPAddr != "" {
		if err := loopback(cfg.HTTPAddr); err != nil {
			return nil, err
		}
		args = append(args, "-http", cfg.HTTPAddr)
	}
	cmd := exec.Command(cfg.Cmd[0], args...)
	var d driver
	var stdin io.WriteCloser
	if cfg.HTTPAddr == "" {
		var err error
		if stdin, err = cmd.StdinPipe(); err != nil {
			return nil, err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		d = newStdio(stdin, stdout)
	} else {
		switch cfg.Client {
		case "", "raw":
			d = newRaw(cfg.HTTPAddr, cfg.C)
		case "nethttp":
			d = newHTTP(cfg.HTTPAddr, cfg.C)
		default:
			return nil, fmt.Errorf("load: unknown HTTP client %q (want raw or nethttp)", cfg.Client)
		}
	}
	var tail tailBuffer // the end of the server's stderr, for error messages
	if cfg.Stderr != nil {
		cmd.Stderr = io.MultiWriter(cfg.Stderr, &tail)
	} else {
		cmd.Stderr = &tail
	}
	if cfg.HTTPAddr != "" {
		cmd.Stdout = cmd.Stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stopping := false
	defer func() {
		if !stopping {
			cmd.Process.Kill()
		}
		<-exited
	}()
	fail := func(err error) (*Result, error) {
		if !stopping {
			cmd.Process.Kill()
		}
		<-exited
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("%w (the run's limit, %v, has passed)", err, cfg.Timeout)
		}
		if t := tail.String(); t != "" {
			err = fmt.Errorf("%w; the server's stderr ends with:\n%s", err, t)
		}
		return nil, err
	}
	go func() { // the run's limit, or an early exit, stops everything
		select {
		case <-ctx.Done():
			cmd.Process.Kill()
		case <-exited:
			cancel()
		}
	}()
	if cfg.HTTPAddr != "" {
		if err := waitListening(ctx, cfg.HTTPAddr); err != nil {
			return fail(fmt.Errorf("%s: %w", cfg.Cmd[0], err))
		}
	}
	if err := d.init(ctx); err != nil {
		return fail(fmt.Errorf("initialize: %w", err))
	}

	prefix := []byte(`{"jsonrpc":"2.0","id":`)
	suffix := []byte(`,"method":"tools/call","params":{"name":` + strconv.Quote(cfg.Tool) + `,"arguments":` + string(compact(cfg.Args)) + `}}`)
	req := func(dst []byte, id int) []byte {
		dst = append(dst, prefix...)
		dst = strconv.AppendInt(dst, int64(id), 10)
		return append(dst, suffix...)
	}
	res := &Result{}
	if cfg.Warmup > 0 {
		if err := d.calls(ctx, 1, cfg.Warmup, cfg.C, req, func(i int, resp []byte) {
			if i == 0 {
				res.Sample = bytes.Clone(resp)
			}
		}); err != nil {
			return fail(fmt.Errorf("warmup: %w", err))
		}
	}
	cpu0, err := procCPU(cmd.Process.Pid)
	if err != nil {
		return fail(err)
	}
	self0 := selfCPU()
	start := time.Now()
	var errs int
	if err := d.calls(ctx, 1+cfg.Warmup, cfg.N, cfg.C, req, func(i int, resp []byte) {
		if res.Sample == nil {
			res.Sample = bytes.Clone(resp)
		}
		if isError(resp) {
			errs++
		}
	}); err != nil {
		return fail(err)
	}
	res.Elapsed = time.Since(start)
	res.ClientCPU = (selfCPU() - self0) / time.Duration(cfg.N)
	d.close()

	// Stop the server and read its rusage.
	stopping = true
	if stdin != nil {
		stdin.Close()
	} else {
		cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return nil, errors.New("no rusage for the server process")
	}
	total := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	res.Calls = cfg.N
	res.Errors = errs
	res.RPS = float64(cfg.N) / res.Elapsed.Seconds()
	res.CPUPerCall = (total - cpu0) / time.Duration(cfg.N)
	res.MaxRSSKB = ru.Maxrss
	switch h := d.(type) {
	case *httpDriver:
		res.Format = h.format
	case *rawDriver:
		res.Format = h.format
	}
	res.P50, res.P99 = percentiles(latencies(d))
	return res, nil
}

// latencies returns the latencies the driver recorded for the measured calls.
func latencies(d driver) []time.Duration {
	switch d := d.(type) {
	case *stdioDriver:
		return d.lat
	case *httpDriver:
		return d.lat
	case *rawDriver:
		return d.lat
	}
	return nil
}

func percentiles(lat []time.Duration) (p50, p99 time.Duration) {
	if len(lat) == 0 {
		return 0, 0
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[len(s)*50/100], s[min(len(s)-1, len(s)*99/100)]
}

// isError reports a JSON-RPC error or an isError result. The benchmark's
// responses never contain these bytes otherwise.
func isError(resp []byte) bool {
	return bytes.Contains(resp, []byte(`"isError":true`)) || bytes.Contains(resp, []byte(`"error":{`))
}

// procCPU is the user+sys time of a running process (Linux, clock ticks).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+2:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	const clkTck = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / clkTck, nil
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// loopback refuses anything but a loopback address.
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
	return fmt.Errorf("load: %s is not a loopback address", addr)
}

func waitListening(ctx context.Context, addr string) error {
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not listening on %s: %v", addr, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// FreeAddr returns a free loopback TCP address.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// tailBuffer keeps the last 2 KiB written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 2048 {
		t.b = append(t.b[:0], t.b[len(t.b)-2048:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}

// selfCPU is this process's user+sys time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
