package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/mcpgen/mcpgen/bench/servers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fanOutStreams is the number of open GET streams of BenchmarkSSEFanOut.
const fanOutStreams = 1000

// fanOutServer starts a server: its HTTP handler, and a way to make it tell
// every session that its tool list changed (adding a tool, then removing
// it, in turn).
type fanOutServer struct {
	name  string
	start func() (h http.Handler, change func())
}

func fanOutServers() []fanOutServer {
	const extra = "extra"
	type empty struct{}
	return []fanOutServer{
		{"floor", func() (http.Handler, func()) {
			f := &floorStreams{changed: make(chan struct{})}
			return f, f.change
		}},
		{"mcpgen", func() (http.Handler, func()) {
			g, added := servers.NewMcpgen(), false
			return g.HTTPHandler(runtime.WithMaxSessions(fanOutStreams + 10)), func() {
				if added = !added; added {
					g.AddTool(runtime.TypedTool(runtime.Tool{Name: extra}, func(context.Context, *empty) (*empty, error) { return nil, nil }))
				} else {
					g.RemoveTool(extra)
				}
			}
		}},
		{"gosdk", func() (http.Handler, func()) {
			s, added := servers.NewGoSDK(nil), false
			return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil), func() {
				if added = !added; added {
					mcp.AddTool(s, &mcp.Tool{Name: extra}, func(context.Context, *mcp.CallToolRequest, empty) (*mcp.CallToolResult, any, error) {
						return nil, nil, nil
					})
				} else {
					s.RemoveTools(extra)
				}
			}
		}},
		{"mcpgo", func() (http.Handler, func()) {
			m, added := servers.NewMcpgo(true), false
			return mcpgoserver.NewStreamableHTTPServer(m), func() {
				if added = !added; added {
					m.AddTool(mcpgo.NewTool(extra), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) { return nil, nil })
				} else {
					m.DeleteTools(extra)
				}
			}
		}},
	}
}

// floorStreams is the floor of the fan-out: net/http with one shared
// channel, closed (and replaced) on each change, that every open GET
// stream's handler waits on before writing the notification. Any session id
// is accepted; nothing else is served.
type floorStreams struct {
	mu      sync.Mutex
	changed chan struct{}
}

func (f *floorStreams) change() {
	f.mu.Lock()
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

func (f *floorStreams) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "":
		w.Header().Set("Mcp-Session-Id", "floor")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{}}`)
	case r.Method == http.MethodPost:
		w.WriteHeader(http.StatusAccepted)
	case r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			f.mu.Lock()
			changed := f.changed
			f.mu.Unlock()
			select {
			case <-changed:
				io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
}

// BenchmarkSSEFanOut opens 1,000 legacy sessions on each server, each with
// its GET stream open (a raw HTTP/1.1 client per stream, the same for the
// three servers), then times one tools/list_changed reaching every stream:
// from the change of the tool list to the last stream reading the
// notification. It reports the memory each session with its open stream
// holds, both ends in this process (the client's part, a connection and a
// goroutine with a 4 KiB reader, is the same for the three; the server's
// own setup is counted too, spread over the 1,000):
//
//	go test -run '^$' -bench SSEFanOut -benchtime 20x -count 3 .
func BenchmarkSSEFanOut(b *testing.B) {
	for _, s := range fanOutServers() {
		b.Run(s.name, func(b *testing.B) { fanOut(b, s) })
	}
}

func fanOut(b *testing.B, s fanOutServer) {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	h, change := s.start()
	ts := httptest.NewServer(h)
	defer ts.Close()
	addr := ts.Listener.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()

	var got atomic.Int64
	arrived := make(chan struct{}, 1)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range fanOutStreams {
		sid := fanOutSession(b, client, ts.URL)
		c, r := openStream(b, addr, sid)
		conns = append(conns, c)
		go func() {
			for {
				line, err := r.ReadSlice('\n')
				if err != nil && err != bufio.ErrBufferFull {
					return
				}
				if bytes.Contains(line, []byte("notifications/tools/list_changed")) && got.Add(1) == fanOutStreams {
					arrived <- struct{}{}
				}
			}
		}()
	}
	client.CloseIdleConnections()
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	perStream := func(a, b uint64) float64 { return float64(int64(a)-int64(b)) / fanOutStreams }
	mem := perStream(after.HeapAlloc, before.HeapAlloc) + perStream(after.StackInuse, before.StackInuse)

	var total time.Duration
	for range b.N {
		got.Store(0)
		t0 := time.Now()
		change()
		select {
		case <-arrived:
		case <-time.After(30 * time.Second):
			b.Fatalf("%d of %d streams got the notification", got.Load(), fanOutStreams)
		}
		total += time.Since(t0)
		time.Sleep(50 * time.Millisecond) // a server that batches changes sends each round's alone
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms-to-all")
	b.ReportMetric(mem, "B/stream")
}

// fanOutSession initializes a legacy session and returns its id.
func fanOutSession(b *testing.B, client *http.Client, url string) string {
	return openLegacySession(b, func(body, sid string) (int, http.Header, string) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		setLegacyHeaders(req.Header, sid)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header, resp.Status
	})
}

// openStream opens the session's GET stream over its own connection and
// returns once the response's headers are read.
func openStream(b *testing.B, addr, sid string) (net.Conn, *bufio.Reader) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n", addr, sid)
	r := bufio.NewReaderSize(c, 4096)
	status, err := r.ReadString('\n')
	if err != nil || !strings.Contains(status, " 200 ") {
		b.Fatalf("GET stream: %q %v", status, err)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		if line == "\r\n" {
			return c, r
		}
	}
}
