package load

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEnvelope(t *testing.T) {
	for _, tc := range []struct {
		msg               string
		id                string
		result, errorSeen bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`, "7", true, false},
		// The result's own "id" keys are not the envelope's.
		{`{"jsonrpc":"2.0","result":{"id":7,"items":[{"id":8}]},"id":9}`, "9", true, false},
		{`{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32602,"message":"id \"x\""}}`, `"a\"b"`, false, true},
		{`{ "id" : 12 , "result" : {} }`, "12", true, false},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"id":3}}`, "", false, false},
	} {
		id, result, errorSeen := envelope([]byte(tc.msg))
		if string(id) != tc.id || result != tc.result || errorSeen != tc.errorSeen {
			t.Errorf("envelope(%s) = %s, %v, %v; want %s, %v, %v", tc.msg, id, result, errorSeen, tc.id, tc.result, tc.errorSeen)
		}
	}
}

func TestCheckResponse(t *testing.T) {
	if err := checkResponse([]byte(`{"jsonrpc":"2.0","id":42,"result":{}}`), 42); err != nil {
		t.Error(err)
	}
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":41,"result":{}}`,
		`{"jsonrpc":"2.0","id":420,"result":{}}`,
		`{"jsonrpc":"2.0","result":{"id":42}}`,
		`{"jsonrpc":"2.0","id":42,"error":{"code":-32603,"message":"boom"}}`,
		`{"jsonrpc":"2.0","id":42}`,
	} {
		if checkResponse([]byte(msg), 42) == nil {
			t.Errorf("checkResponse accepted %s for id 42", msg)
		}
	}
}

func TestSSEMessage(t *testing.T) {
	stream := "event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\r\n\r\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":5,\ndata: \"result\":{}}\n\n"
	msg, err := sseMessage(nil, []byte(stream))
	if err != nil || string(msg) != "{\"jsonrpc\":\"2.0\",\"id\":5,\n\"result\":{}}" {
		t.Fatalf("sseMessage = %q, %v", msg, err)
	}
	if _, err := sseMessage(nil, []byte("data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n")); err == nil {
		t.Error("a stream without a response was accepted")
	}
}

// TestRawWorker serves canned HTTP responses on a pipe: Content-Length,
// chunked with an extension and a trailer, SSE, then a Connection: close
// that makes the worker dial again.
func TestRawWorker(t *testing.T) {
	chunk := func(s string) string { return fmt.Sprintf("%x;x=y\r\n%s\r\n", len(s), s) }
	result := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, id) }
	responses := []string{
		fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(result(1)), result(1)),
		"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n" +
			chunk(result(2)[:10]) + chunk(result(2)[10:]) + "0\r\nX-Trailer: 1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
			chunk("event: message\ndata: "+result(3)[:20]) + chunk(result(3)[20:]+"\n\n") + "0\r\n\r\n",
		fmt.Sprintf("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(result(4)), result(4)),
		"HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\n\r\nbad session",
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var dials int
	var wg sync.WaitGroup
	wg.Go(func() {
		next := 0
		for next < len(responses) {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			dials++
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			r := bufio.NewReader(conn)
			for next < len(responses) {
				if !readRequest(t, r) {
					break
				}
				io.WriteString(conn, responses[next])
				next++
				if strings.Contains(responses[next-1], "Connection: close") {
					break
				}
			}
			conn.Close()
		}
	})
	w := &rawWorker{addr: l.Addr().String(), head: []byte("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: ")}
	var conns sync.Map
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for id, format := range []string{"json", "json", "sse", "json"} {
		w.body = []byte(`{"id":` + string(rune('1'+id)) + `}`)
		msg, got, err := w.call(ctx, &conns)
		if err != nil || got != format {
			t.Fatalf("call %d: %q, %v", id+1, got, err)
		}
		if err := checkResponse(msg, id+1); err != nil {
			t.Errorf("call %d: %v", id+1, err)
		}
	}
	if _, _, err := w.call(ctx, &conns); err == nil || !strings.Contains(err.Error(), "HTTP 400: bad session") {
		t.Errorf("400: %v", err)
	}
	w.conn.Close()
	wg.Wait()
	if dials != 2 {
		t.Errorf("%d connections, want 2 (one more after Connection: close)", dials)
	}
}

// readRequest reads one request with a Content-Length body.
func readRequest(t *testing.T, r *bufio.Reader) bool {
	length := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return false
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			for _, c := range v {
				length = length*10 + int(c-'0')
			}
		}
	}
	if _, err := io.ReadFull(r, make([]byte, length)); err != nil {
		t.Error(err)
		return false
	}
	return true
}

// TestRawWorkerAllocations: once its buffers have grown, a call on a kept-alive
// connection allocates nothing in the client (the point of the raw client).
// The server is a loop that allocates nothing either: AllocsPerRun counts the
// whole process.
func TestRawWorkerAllocations(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	w := &rawWorker{addr: l.Addr().String(), head: []byte("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: "), body: []byte(`{"id":7}`)}
	request := make([]byte, len(w.head)+len("8\r\n\r\n")+len(w.body))
	event := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}\n\n"
	response := []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(event), event))
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		for {
			if _, err := io.ReadFull(conn, request); err != nil {
				return
			}
			if _, err := conn.Write(response); err != nil {
				return
			}
		}
	}()
	var conns sync.Map
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	call := func() {
		msg, format, err := w.call(ctx, &conns)
		if err == nil {
			err = checkResponse(msg, 7)
		}
		if err != nil || format != "sse" {
			t.Fatal(format, err)
		}
	}
	call() // dials and grows the buffers
	if n := testing.AllocsPerRun(50, call); n != 0 {
		t.Errorf("%v allocations per call, want 0", n)
	}
	w.conn.Close()
}
