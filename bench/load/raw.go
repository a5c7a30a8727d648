package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// rawDriver is the cheap Streamable HTTP client: the handshake and the
// session's DELETE go through net/http (httpDriver, not measured), the
// measured calls through hand-written HTTP/1.1 over one kept-alive TCP
// connection per worker. Why: net/http's client costs about as much CPU per
// call as mcpgen's server, and the two share the machine's cores, so it
// capped the throughput ratios between servers.
type rawDriver struct {
	*httpDriver
	addr string
}

func newRaw(addr string, c int) *rawDriver {
	return &rawDriver{httpDriver: newHTTP(addr, c), addr: addr}
}

func (d *rawDriver) calls(ctx context.Context, first, n, c int, req requestFunc, done func(int, []byte)) error {
	d.lat = make([]time.Duration, n)
	// Everything but the Content-Length value and the body is the same for
	// every request: encoded once.
	head := []byte("POST /mcp HTTP/1.1\r\nHost: " + d.addr +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n")
	if d.session != "" {
		head = append(head, "Mcp-Session-Id: "+d.session+"\r\n"...)
	}
	if d.version != "" {
		head = append(head, "Mcp-Protocol-Version: "+d.version+"\r\n"...)
	}
	head = append(head, "Content-Length: "...)

	var next atomic.Int64
	var mu sync.Mutex // guards done, d.format, firstErr
	var firstErr error
	var wg sync.WaitGroup
	var conns sync.Map // open connections, closed when ctx ends
	stop := context.AfterFunc(ctx, func() {
		conns.Range(func(k, _ any) bool { k.(net.Conn).Close(); return true })
	})
	defer stop()
	for range c {
		wg.Go(func() {
			w := &rawWorker{addr: d.addr, head: head}
			defer func() {
				if w.conn != nil {
					conns.Delete(w.conn)
					w.conn.Close()
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				id := first + i
				w.body = req(w.body[:0], id)
				t := time.Now()
				msg, format, err := w.call(ctx, &conns)
				d.lat[i] = time.Since(t)
				if err == nil {
					err = checkResponse(msg, id)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					if ctx.Err() != nil {
						err = fmt.Errorf("%w (%v)", err, ctx.Err())
					}
					firstErr = fmt.Errorf("call %d: %w", id, err)
				}
				if err == nil {
					d.format = format
					done(i, msg)
				}
				mu.Unlock()
				if err != nil {
					next.Store(int64(n)) // stop everyone
					return
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}

// rawWorker is one connection and the buffers it reuses from call to call.
type rawWorker struct {
	addr string
	head []byte // the request up to "Content-Length: "
	conn net.Conn
	r    *bufio.Reader
	out  []byte // the request being written
	body []byte // the JSON-RPC request
	resp []byte // the response body
	msg  []byte // an SSE event's data
}

// call sends w.body and returns the JSON-RPC message that answers it, which
// stays valid until the next call.
func (w *rawWorker) call(ctx context.Context, conns *sync.Map) (msg []byte, format string, err error) {
	if w.conn == nil {
		var dialer net.Dialer
		conn, err := dialer.DialContext(ctx, "tcp", w.addr)
		if err != nil {
			return nil, "", err
		}
		if dl, ok := ctx.Deadline(); ok {
			conn.SetDeadline(dl)
		}
		conns.Store(conn, nil)
		w.conn = conn
		if w.r == nil {
			w.r = bufio.NewReaderSize(conn, 16<<10)
		} else {
			w.r.Reset(conn)
		}
	}
	w.out = append(w.out[:0], w.head...)
	w.out = strconv.AppendInt(w.out, int64(len(w.body)), 10)
	w.out = append(w.out, "\r\n\r\n"...)
	w.out = append(w.out, w.body...)
	if _, err := w.conn.Write(w.out); err != nil {
		return nil, "", err
	}
	status, sse, keepAlive, err := w.readResponse()
	if err != nil {
		return nil, "", err
	}
	if !keepAlive { // the server closes: the next call dials again
		conns.Delete(w.conn)
		w.conn.Close()
		w.conn = nil
	}
	if status != 200 {
		return nil, "", fmt.Errorf("HTTP %d: %s", status, bytes.TrimSpace(w.resp[:min(len(w.resp), 1024)]))
	}
	if sse {
		w.msg, err = sseMessage(w.msg[:0], w.resp)
		return w.msg, "sse", err
	}
	return w.resp, "json", nil
}

// readResponse reads one HTTP/1.1 response: the status line, the headers it
// needs (Content-Length, Transfer-Encoding, Content-Type, Connection) and the
// whole body into w.resp, de-chunked. A POST that carries a request ends its
// SSE stream after the response (MCP's Streamable HTTP), so reading the body
// to its end reads the whole stream.
func (w *rawWorker) readResponse() (status int, sse, keepAlive bool, err error) {
	line, err := w.r.ReadSlice('\n')
	if err != nil {
		return 0, false, false, err
	}
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return 0, false, false, fmt.Errorf("bad status line %q", line)
	}
	status, err = atoi(line[9:12])
	if err != nil {
		return 0, false, false, fmt.Errorf("bad status line %q", line)
	}
	length, chunked := -1, false
	keepAlive = true
	for {
		line, err := w.r.ReadSlice('\n')
		if err != nil {
			return 0, false, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, false, false, fmt.Errorf("bad header line %q", line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = atoi(value); err != nil {
				return 0, false, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Content-Type")):
			sse = bytes.HasPrefix(value, []byte("text/event-stream"))
		case bytes.EqualFold(name, []byte("Connection")):
			keepAlive = !bytes.EqualFold(value, []byte("close"))
		}
	}
	w.resp = w.resp[:0]
	switch {
	case chunked:
		err = w.readChunked()
	case length >= 0:
		w.resp = grow(w.resp, length)
		_, err = io.ReadFull(w.r, w.resp)
	case status == 204 || status == 304 || status/100 == 1:
	default: // the body ends with the connection
		var b bytes.Buffer
		_, err = b.ReadFrom(w.r)
		w.resp = append(w.resp, b.Bytes()...)
		keepAlive = false
	}
	return status, sse, keepAlive, err
}

// readChunked appends a chunked body to w.resp.
func (w *rawWorker) readChunked() error {
	for {
		line, err := w.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		if i := bytes.IndexByte(line, ';'); i >= 0 { // chunk extensions
			line = line[:i]
		}
		size, err := hexSize(bytes.TrimSpace(line))
		if err != nil {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if size == 0 { // trailers, then an empty line
			for {
				line, err := w.r.ReadSlice('\n')
				if err != nil {
					return err
				}
				if len(bytes.TrimRight(line, "\r\n")) == 0 {
					return nil
				}
			}
		}
		n := len(w.resp)
		w.resp = grow(w.resp, n+size)
		if _, err := io.ReadFull(w.r, w.resp[n:]); err != nil {
			return err
		}
		if crlf, err := w.r.ReadSlice('\n'); err != nil || len(bytes.TrimRight(crlf, "\r\n")) != 0 {
			return fmt.Errorf("chunk not followed by CRLF")
		}
	}
}

// sseMessage returns, appended to dst, the data of the first event in an SSE
// stream that carries a JSON-RPC response (an id and a result or an error);
// the server may send notifications or requests before it.
func sseMessage(dst, stream []byte) ([]byte, error) {
	start := len(dst)
	for len(stream) > 0 {
		line, rest, _ := bytes.Cut(stream, []byte("\n"))
		stream = rest
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 { // the end of an event
			if data := dst[start:]; len(data) > 0 {
				if _, hasResult, hasError := envelope(data); hasResult || hasError {
					return dst, nil
				}
			}
			dst = dst[:start]
			continue
		}
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(dst) > start { // data lines of one event join with a newline
				dst = append(dst, '\n')
			}
			dst = append(dst, bytes.TrimPrefix(d, []byte(" "))...)
		}
	}
	if len(dst) > start {
		return dst, nil
	}
	return dst, errors.New("the event stream ended without a response")
}

// checkResponse requires msg to be the JSON-RPC result for request id.
// (isError results are counted by Run, not refused here.)
func checkResponse(msg []byte, id int) error {
	got, hasResult, hasError := envelope(msg)
	var want [20]byte
	if !bytes.Equal(got, strconv.AppendInt(want[:0], int64(id), 10)) {
		return fmt.Errorf("response for id %s, not %d: %.200s", got, id, msg)
	}
	if hasError || !hasResult {
		return fmt.Errorf("not a result: %.300s", msg)
	}
	return nil
}

// envelope reads the top level of a JSON object without decoding it: the raw
// value of its "id" member, and whether it has "result" and "error" members.
// Nested objects (the result's content may hold "id" keys) are skipped, so
// a tool's output cannot pass for the envelope.
func envelope(msg []byte) (id []byte, hasResult, hasError bool) {
	depth := 0
	expectKey := false
	for i := 0; i < len(msg); i++ {
		switch msg[i] {
		case '{', '[':
			depth++
			expectKey = depth == 1 && msg[i] == '{'
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		case '"':
			end := stringEnd(msg, i)
			if expectKey {
				key := msg[i+1 : end]
				expectKey = false
				// The value starts after the colon.
				j := end + 1
				for j < len(msg) && (msg[j] == ' ' || msg[j] == ':') {
					j++
				}
				switch string(key) { // no allocation: the compiler compares in place
				case "id":
					k := j
					for k < len(msg) && msg[k] != ',' && msg[k] != '}' && msg[k] != ' ' {
						k++
					}
					id = msg[j:k]
				case "result":
					hasResult = true
				case "error":
					hasError = true
				}
				end = j - 1
			}
			i = end
		}
	}
	return id, hasResult, hasError
}

// stringEnd returns the index of the quote that closes the JSON string
// opening at msg[i] (len(msg) if it never closes).
func stringEnd(msg []byte, i int) int {
	for j := i + 1; j < len(msg); j++ {
		switch msg[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(msg)
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return append(b[:cap(b)], make([]byte, n-cap(b))...)[:n]
	}
	return b[:n]
}

func atoi(b []byte) (int, error) {
	if len(b) == 0 || len(b) > 9 {
		return 0, errors.New("bad number")
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errors.New("bad number")
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// hexSize parses a chunk size (at most 7 hex digits: 256 MiB).
func hexSize(b []byte) (int, error) {
	if len(b) == 0 || len(b) > 7 {
		return 0, errors.New("bad chunk size")
	}
	n := 0
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			n = n<<4 | int(c-'0')
		case 'a' <= c && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case 'A' <= c && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return 0, errors.New("bad chunk size")
		}
	}
	return n, nil
}
