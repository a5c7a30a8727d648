package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
)

// The benchmarks measure the hot path: decode, validate, call, encode, on an
// echo tool like the one the peer SDKs were measured with.

type echoIn struct {
	Text string `json:"text"`
}

type echoOut struct {
	Text string `json:"text"`
}

func benchServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddTool(runtime.TypedTool(runtime.Tool{Name: "echo", Description: "Echo the text."},
		func(ctx context.Context, in *echoIn) (*echoOut, error) { return &echoOut{Text: in.Text}, nil }))
	return srv
}

const (
	benchInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
	benchCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"}}}`
	benchWant = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"text\":\"hello, world\"}"}],"structuredContent":{"text":"hello, world"}}}`
)

// BenchmarkToolsCallInProcess is one tools/call round trip through a Session,
// without a transport.
func BenchmarkToolsCallInProcess(b *testing.B) { benchInProcess(b, benchServer()) }

// BenchmarkToolsCallInProcessIntercepted is the same with one interceptor
// that passes every request through: the price of the Request it sees.
func BenchmarkToolsCallInProcessIntercepted(b *testing.B) {
	srv := benchServer(runtime.WithInterceptors(func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, req *runtime.Request) (runtime.Result, error) { return next(ctx, req) }
	}))
	benchInProcess(b, srv)
}

// BenchmarkToolsCallInProcessToolsets is the same on a server with
// toolsets (echo in one of them, enabled): the price of finding what the
// request may see.
func BenchmarkToolsCallInProcessToolsets(b *testing.B) {
	benchInProcess(b, benchServer(runtime.WithToolsets(runtime.Toolset{Name: "echo", Tools: []string{"echo"}}, runtime.Toolset{Name: "other", Tools: []string{"x"}})))
}

func benchInProcess(b *testing.B, srv *runtime.Server) {
	done := make(chan struct{}, 1)
	check := true
	var first string
	ss := srv.NewSession(func(msg []byte) {
		if check {
			first = string(msg)
		}
		done <- struct{}{}
	})
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(benchInit))
	<-done
	req := []byte(benchCall)
	ss.HandleMessage(ctx, req)
	<-done
	if first != benchWant {
		b.Fatalf("response %s", first)
	}
	check = false
	b.ReportAllocs()
	for b.Loop() {
		ss.HandleMessage(ctx, req)
		<-done
	}
}

// BenchmarkToolsCallInProcessParallel runs concurrent calls on one session
// (distinct ids), as a busy client would.
func BenchmarkToolsCallInProcessParallel(b *testing.B) {
	srv := benchServer()
	done := make(chan struct{}, 1024)
	ss := srv.NewSession(func([]byte) { done <- struct{}{} })
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(benchInit))
	<-done
	var ids atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := strconv.FormatInt(ids.Add(1), 10)
			ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"}}}`))
			<-done // some response; the counts match
		}
	})
}

// stdioPipes serves srv over OS pipes, like a subprocess on stdio.
func stdioPipes(b *testing.B, srv *runtime.Server) (*os.File, *bufio.Reader) {
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	b.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil {
			b.Error(err)
		}
		inR.Close()
		outR.Close()
	})
	r := bufio.NewReaderSize(outR, 64<<10)
	inW.WriteString(benchInit + "\n")
	if _, err := r.ReadSlice('\n'); err != nil {
		b.Fatal(err)
	}
	return inW, r
}

// BenchmarkToolsCallStdio is one sequential round trip over OS pipes: the
// latency a client waiting for each answer sees.
func BenchmarkToolsCallStdio(b *testing.B) {
	w, r := stdioPipes(b, benchServer())
	req := []byte(benchCall + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Write(req); err != nil {
			b.Fatal(err)
		}
		line, err := r.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if len(line) != len(benchWant)+1 {
			b.Fatalf("response %s", line)
		}
	}
}

// BenchmarkToolsCallStdioPipelined writes calls without waiting for answers
// while reading them back: the throughput over stdio.
func BenchmarkToolsCallStdioPipelined(b *testing.B) {
	w, r := stdioPipes(b, benchServer())
	b.ReportAllocs()
	b.ResetTimer()
	n := b.N
	werr := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(w, 64<<10)
		var err error
		for i := range n {
			bw.WriteString(`{"jsonrpc":"2.0","id":`)
			bw.WriteString(strconv.Itoa(i + 2))
			_, err = bw.WriteString(`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"}}}` + "\n")
			if i%64 == 63 {
				bw.Flush()
			}
		}
		if e := bw.Flush(); err == nil {
			err = e
		}
		werr <- err
	}()
	for range n {
		if _, err := r.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	if err := <-werr; err != nil {
		b.Fatal(err)
	}
}

// benchRead is one resources/read round trip through a Session.
func benchRead(b *testing.B, srv *runtime.Server, uri, want string) {
	done := make(chan struct{}, 1)
	var got string
	check := true
	ss := srv.NewSession(func(msg []byte) {
		if check {
			got = string(msg)
		}
		done <- struct{}{}
	})
	defer ss.Close()
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(benchInit))
	<-done
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + uri + `"}}`)
	ss.HandleMessage(ctx, req)
	<-done
	if want := `{"jsonrpc":"2.0","id":1,"result":` + want + `}`; got != want {
		b.Fatalf("response %s, want %s", got, want)
	}
	check = false
	b.ReportAllocs()
	for b.Loop() {
		ss.HandleMessage(ctx, req)
		<-done
	}
}

// benchResources has a static resource and, after nine templates the URIs
// do not match, a typed template.
func benchResources() *runtime.Server {
	srv := runtime.NewServer(testInfo())
	srv.AddResource(runtime.TypedResource(runtime.Resource{URI: "config://app"}, func(context.Context) (string, error) { return "dark", nil }))
	for i := range 9 {
		srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "blog://other" + strconv.Itoa(i) + "/{id}",
			Handler: func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
				return nil, nil
			}})
	}
	srv.AddResourceTemplate(runtime.TypedTemplate(runtime.ResourceTemplate{URITemplate: "blog://posts/{id}"},
		func(ctx context.Context, p *PostParams) (string, error) {
			return "post " + strconv.FormatInt(p.ID, 10), nil
		}))
	return srv
}

func BenchmarkResourcesReadStatic(b *testing.B) {
	benchRead(b, benchResources(), "config://app", `{"contents":[{"uri":"config://app","mimeType":"text/plain","text":"dark"}]}`)
}

func BenchmarkResourcesReadTemplate(b *testing.B) {
	benchRead(b, benchResources(), "blog://posts/1042", `{"contents":[{"uri":"blog://posts/1042","mimeType":"text/plain","text":"post 1042"}]}`)
}

func BenchmarkResourcesReadGeneratedTemplate(b *testing.B) {
	srv := runtime.NewServer(testInfo())
	srv.AddResourceTemplate(genimpl.GeneratedTemplate(runtime.ResourceTemplate{URITemplate: "blog://posts/{id}"},
		json.RawMessage("{\n  \"type\": \"object\",\n  \"properties\": {\"id\": {\"type\": \"integer\", \"minimum\": 1}},\n  \"required\": [\"id\"]\n}"),
		func(ctx context.Context, p *PostParams) (string, error) {
			return "post " + strconv.FormatInt(p.ID, 10), nil
		}))
	benchRead(b, srv, "blog://posts/1042", `{"contents":[{"uri":"blog://posts/1042","mimeType":"text/plain","text":"post 1042"}]}`)
}

type benchPromptArgs struct {
	Topic string `json:"topic"`
}

func benchPromptFn(ctx context.Context, a *benchPromptArgs) (*runtime.GetPromptResult, error) {
	return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.Text("about " + a.Topic)}}}, nil
}

// benchGetPrompt measures prompts/get of p, named "p", with one argument.
func benchGetPrompt(b *testing.B, p runtime.Prompt) {
	srv := runtime.NewServer(testInfo())
	srv.AddPrompt(p)
	done := make(chan struct{}, 1)
	var got string
	check := true
	ss := srv.NewSession(func(msg []byte) {
		if check {
			got = string(msg)
		}
		done <- struct{}{}
	})
	defer ss.Close()
	ctx := context.Background()
	ss.HandleMessage(ctx, []byte(benchInit))
	<-done
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p","arguments":{"topic":"go"}}}`)
	ss.HandleMessage(ctx, req)
	<-done
	if want := `{"jsonrpc":"2.0","id":1,"result":{"messages":[{"role":"user","content":{"type":"text","text":"about go"}}]}}`; got != want {
		b.Fatalf("response %s, want %s", got, want)
	}
	check = false
	b.ReportAllocs()
	for b.Loop() {
		ss.HandleMessage(ctx, req)
		<-done
	}
}

func BenchmarkPromptsGetTyped(b *testing.B) {
	benchGetPrompt(b, runtime.TypedPrompt(runtime.Prompt{Name: "p"}, benchPromptFn))
}

func BenchmarkPromptsGetGenerated(b *testing.B) {
	benchGetPrompt(b, genimpl.GeneratedPrompt(runtime.Prompt{Name: "p", Arguments: []runtime.PromptArgument{{Name: "topic", Required: true}}}, benchPromptFn))
}

// httpBench serves benchServer over Streamable HTTP in process and returns
// a POST of a tools/call on an initialized session, ready to send.
func httpBench(b *testing.B, opts ...runtime.HTTPOption) (client *http.Client, post func(id string) *http.Request) {
	ts := httptest.NewServer(benchServer().HTTPHandler(opts...))
	b.Cleanup(ts.Close)
	client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	b.Cleanup(client.CloseIdleConnections)
	newReq := func(body, session string) *http.Request {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header["Accept"] = []string{"application/json, text/event-stream"}
		req.Header["Content-Type"] = []string{"application/json"}
		if session != "" {
			req.Header["Mcp-Session-Id"] = []string{session}
			req.Header["Mcp-Protocol-Version"] = []string{"2025-11-25"}
		}
		return req
	}
	resp, err := client.Do(newReq(benchInit, ""))
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	return client, func(id string) *http.Request {
		return newReq(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"}}}`, session)
	}
}

func httpRoundTrip(b *testing.B, client *http.Client, req *http.Request, buf []byte) int {
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	n, _ := io.ReadFull(resp.Body, buf)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d: %s", resp.StatusCode, buf[:n])
	}
	return n
}

// BenchmarkToolsCallHTTP is one sequential tools/call over Streamable HTTP
// (in-process httptest server, keep-alive): client and server costs
// together, as allocations are counted per process.
func BenchmarkToolsCallHTTP(b *testing.B) {
	client, post := httpBench(b)
	buf := make([]byte, 4096)
	if n := httpRoundTrip(b, client, post("1"), buf); string(buf[:n]) != benchWant {
		b.Fatalf("response %s", buf[:n])
	}
	b.ReportAllocs()
	for b.Loop() {
		httpRoundTrip(b, client, post("1"), buf)
	}
}

// BenchmarkToolsCallHTTPParallel runs concurrent POSTs on one session.
func BenchmarkToolsCallHTTPParallel(b *testing.B) {
	client, post := httpBench(b, runtime.WithMaxConcurrentRequestsPerSession(1<<20))
	var ids atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		buf := make([]byte, 4096)
		for pb.Next() {
			httpRoundTrip(b, client, post(strconv.FormatInt(ids.Add(1), 10)), buf)
		}
	})
}

// benchWriter is a reusable http.ResponseWriter, so that
// BenchmarkToolsCallHTTPHandler counts the handler's own allocations.
type benchWriter struct {
	h      http.Header
	status int
	body   []byte
}

func (w *benchWriter) Header() http.Header         { return w.h }
func (w *benchWriter) WriteHeader(status int)      { w.status = status }
func (w *benchWriter) Write(b []byte) (int, error) { w.body = append(w.body, b...); return len(b), nil }

// BenchmarkToolsCallHTTPHandler is one tools/call through the Streamable
// HTTP handler without a network or an HTTP client: the transport's cost
// over BenchmarkToolsCallInProcess.
func BenchmarkToolsCallHTTPHandler(b *testing.B) {
	h := benchServer().HTTPHandler()
	w := &benchWriter{h: http.Header{}}
	newReq := func(body string) *http.Request {
		req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
		req.Header["Accept"] = []string{"application/json, text/event-stream"}
		req.Header["Content-Type"] = []string{"application/json"}
		return req
	}
	h.ServeHTTP(w, newReq(benchInit))
	session := w.h.Get("Mcp-Session-Id")
	body := []byte(benchCall)
	req := newReq(benchCall)
	req.Header["Mcp-Session-Id"] = []string{session}
	req.Header["Mcp-Protocol-Version"] = []string{"2025-11-25"}
	rd := bytes.NewReader(body)
	rc := io.NopCloser(rd)
	serve := func() {
		rd.Reset(body)
		req.Body = rc
		clear(w.h)
		w.body = w.body[:0]
		h.ServeHTTP(w, req)
	}
	serve()
	if string(w.body) != benchWant {
		b.Fatalf("response %d %s", w.status, w.body)
	}
	b.ReportAllocs()
	for b.Loop() {
		serve()
	}
}
