package streamhttp_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

// A request that was sent before the shutdown began, on a connection the
// server accepted but had not read from yet, is answered, not reset: a
// proxy (nginx) must not resend a POST it has sent, so a reset there is a
// 502 for the client (TestRedisRollingRestart in interop/scaleout). The
// connection's first read is held until the listener is closed, which is
// what a loaded machine makes likely.
func TestShutdownServesARequestNotReadYet(t *testing.T) {
	srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"}, runtime.WithStartLine(nil))
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &heldListener{Listener: inner, accepted: make(chan *heldConn, 1), closed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- streamhttp.Serve(ctx, srv, ln) }()

	client, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req := "POST /mcp HTTP/1.1\r\nHost: " + inner.Addr().String() + "\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	if _, err := client.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	conn := <-ln.accepted
	<-conn.reading // net/http waits on the first read, which holds
	cancel()       // the shutdown begins
	<-ln.closed    // the listener is closed
	close(conn.release)

	_ = client.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(client), nil)
	if err != nil {
		t.Fatalf("the request sent before the shutdown got no response: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d, want 200", resp.StatusCode)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// heldListener hands out heldConns and tells when it is closed.
type heldListener struct {
	net.Listener
	accepted  chan *heldConn
	closeOnce sync.Once
	closed    chan struct{}
}

func (l *heldListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	h := &heldConn{Conn: c, reading: make(chan struct{}), release: make(chan struct{})}
	l.accepted <- h
	return h, nil
}

func (l *heldListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// heldConn holds its first Read until released.
type heldConn struct {
	net.Conn
	first            sync.Once
	reading, release chan struct{}
}

func (c *heldConn) Read(b []byte) (int, error) {
	c.first.Do(func() {
		close(c.reading)
		<-c.release
	})
	return c.Conn.Read(b)
}
