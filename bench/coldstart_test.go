package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveEnv names the SDK TestServe1000Tools serves with, when this test
// binary is started as a server by BenchmarkColdStart1000Tools.
const serveEnv = "MCPGEN_BENCH_SERVE_1000"

// TestServe1000Tools is not a test: started with serveEnv set, it registers
// the 1,000 tools of tools1000_test.go with that SDK (as
// BenchmarkRegister1000Tools does) and serves stdio until its input ends.
func TestServe1000Tools(t *testing.T) {
	k, ok := map[string]sdk{"mcpgen": sdkMcpgen, "gosdk": sdkGoSDK, "mcpgo": sdkMcpgo}[os.Getenv(serveEnv)]
	if !ok {
		t.Skip("a server for BenchmarkColdStart1000Tools, started by it")
	}
	// The schema constants a generated server has in its binary are computed
	// here: that time is reported on stderr and not counted.
	t0 := time.Now()
	prepareToolSchemas()
	fmt.Fprintln(os.Stderr, time.Since(t0).Nanoseconds())
	s := newServer(k)
	for i, r := range manyTools {
		r(k, s, toolNames[i])
	}
	ctx := context.Background()
	var err error
	switch s := s.(type) {
	case *runtime.Server:
		err = s.ServeStdio(ctx, os.Stdin, os.Stdout)
	case *mcp.Server:
		err = s.Run(ctx, &mcp.StdioTransport{})
	case *mcpgoserver.MCPServer:
		err = mcpgoserver.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout)
	}
	if err != nil && err != io.EOF && ctx.Err() == nil {
		t.Log(err)
	}
}

// BenchmarkColdStart1000Tools is the time from exec to the initialize
// response of a server of 1,000 tools, for each SDK: this test binary
// started again as TestServe1000Tools (the same executable for the three,
// so loading it costs each the same). What differs is registration and
// whatever each SDK does before it answers. mcpgen's schema constants,
// which its generated code holds as literals, are computed by the test
// binary: the server reports that time and it is subtracted.
//
//	go test -run '^$' -bench ColdStart1000Tools -benchtime 10x -count 3 .
func BenchmarkColdStart1000Tools(b *testing.B) {
	for _, name := range []string{"mcpgen", "gosdk", "mcpgo"} {
		b.Run(name, func(b *testing.B) {
			var total time.Duration
			for range b.N {
				total += coldStart(b, name)
			}
			b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms-to-initialize")
		})
	}
}

// coldStart starts a server and returns the time from exec to its
// initialize response, less the time it reports on stderr.
func coldStart(b *testing.B, name string) time.Duration {
	cmd := exec.Command(os.Args[0], "-test.run", "^TestServe1000Tools$")
	cmd.Env = append(os.Environ(), serveEnv+"="+name)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	errOut, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	io.WriteString(in, initLine+"\n") // buffered by the pipe until the server reads
	line, err := bufio.NewReader(out).ReadSlice('\n')
	elapsed := time.Since(t0)
	if err != nil || !bytes.Contains(line, []byte(`"result"`)) {
		b.Fatalf("%s: initialize: %s %v", name, line, err)
	}
	var prep int64
	if _, err := fmt.Fscanln(errOut, &prep); err != nil {
		b.Fatalf("%s: the preparation time on stderr: %v", name, err)
	}
	go io.Copy(io.Discard, errOut)
	return elapsed - time.Duration(prep)
}
