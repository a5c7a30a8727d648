package runtime_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// listenAndServe runs ListenAndServe on a free loopback port until the
// returned cancel is called; done receives what it returned.
func listenAndServe(t *testing.T, srv *runtime.Server, opts ...runtime.HTTPOption) (p *httpPeer, cancel context.CancelFunc, done chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan error, 1)
	go func() { done <- runtime.ListenAndServe(ctx, srv, addr, opts...) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(wait):
			t.Error("ListenAndServe did not return")
		}
	})
	p = &httpPeer{t: t, url: "http://" + addr + "/mcp"}
	deadline := time.Now().Add(wait)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return p, cancel, done
		}
		if time.Now().After(deadline) {
			t.Fatalf("ListenAndServe is not listening: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestListenAndServeGracefulShutdown: when its context is done,
// ListenAndServe stops accepting, ends GET streams at once, lets a call in
// progress finish and deliver its result, then returns nil.
func TestListenAndServeGracefulShutdown(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	tool, started, release := blockingTool("block")
	srv.AddTool(tool)
	p, cancel, done := listenAndServe(t, srv)
	p.initialize(`{}`)
	get := p.do(http.MethodGet, "")
	defer get.Body.Close()
	result := make(chan []event, 1)
	go func() {
		resp, _ := p.call("tools/call", `{"name":"block"}`)
		result <- readAll(t, resp)
	}()
	<-started
	cancel()
	if ev := nextEvent(t, newSSE(get.Body)); ev.Event != "EOF" {
		t.Errorf("the GET stream went on during shutdown: %+v", ev)
	}
	select {
	case err := <-done:
		t.Fatalf("ListenAndServe returned (%v) before the call in progress finished", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	select {
	case evs := <-result:
		if len(evs) != 1 || !strings.Contains(evs[0].Data, `"text":"released"`) {
			t.Errorf("the call in progress: %v", evs)
		}
	case <-time.After(wait):
		t.Fatal("the call in progress got no result")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServe = %v, want nil", err)
		}
		done <- err // for Cleanup
	case <-time.After(wait):
		t.Fatal("ListenAndServe did not return")
	}
}

// TestListenAndServeShutdownTimeout: a call that does not finish within the
// shutdown timeout is cancelled when the sessions close.
func TestListenAndServeShutdownTimeout(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	tool, started, _ := blockingTool("block")
	srv.AddTool(tool)
	p, cancel, done := listenAndServe(t, srv, runtime.WithShutdownTimeout(50*time.Millisecond))
	p.initialize(`{}`)
	go func() { // what it gets depends on when its connection closes
		req, _ := http.NewRequest(http.MethodPost, p.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`))
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Session-Id", p.session)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServe = %v, want nil", err)
		}
		done <- err
	case <-time.After(wait):
		t.Fatal("ListenAndServe did not return")
	}
}

func TestListenAndServeBadAddress(t *testing.T) {
	if err := runtime.ListenAndServe(context.Background(), runtime.NewServer(testInfo()), "127.0.0.1:-1"); err == nil {
		t.Error("no error for a bad address")
	}
}
