package load

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// httpDriver speaks Streamable HTTP: initialize, then the session id in
// Mcp-Session-Id on every POST, from c concurrent workers; a response is
// either application/json or an SSE stream carrying it.
type httpDriver struct {
	url     string
	client  *http.Client
	session string
	version string
	format  string
	lat     []time.Duration
}

func newHTTP(addr string, c int) *httpDriver {
	return &httpDriver{
		url: "http://" + addr + "/mcp",
		client: &http.Client{Transport: &http.Transport{
			MaxIdleConns:        2 * c,
			MaxIdleConnsPerHost: 2 * c,
			DisableCompression:  true,
		}, Timeout: 30 * time.Second},
	}
}

func (d *httpDriver) post(ctx context.Context, body []byte) (msg []byte, format string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if d.session != "" {
		req.Header.Set("Mcp-Session-Id", d.session)
	}
	if d.version != "" {
		req.Header.Set("Mcp-Protocol-Version", d.version)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" && d.session == "" {
		d.session = s
	}
	if resp.StatusCode == http.StatusAccepted {
		io.Copy(io.Discard, resp.Body)
		return nil, "", nil
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return nil, "", fmt.Errorf("HTTP %s: %s", resp.Status, bytes.TrimSpace(b))
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		msg, err := sseResponse(resp.Body)
		return msg, "sse", err
	}
	msg, err = io.ReadAll(resp.Body)
	return msg, "json", err
}

// sseResponse reads SSE events until one carries a JSON-RPC response (a
// message with an id and a result or error), and returns its data.
func sseResponse(r io.Reader) ([]byte, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 { // end of an event
			if len(data) > 0 && (bytes.Contains(data, []byte(`"result"`)) || bytes.Contains(data, []byte(`"error"`))) {
				return data, nil
			}
			data = data[:0]
			continue
		}
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(d, []byte(" "))...)
		}
	}
	if len(data) > 0 {
		return data, nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("the event stream ended without a response")
}

func (d *httpDriver) init(ctx context.Context) error {
	msg, _, err := d.post(ctx, []byte(initRequest))
	if err != nil {
		return err
	}
	if !bytes.Contains(msg, []byte(`"result"`)) {
		return fmt.Errorf("initialize failed: %s", msg)
	}
	d.version = protocolVersion
	_, _, err = d.post(ctx, []byte(initializedNote))
	return err
}

func (d *httpDriver) calls(ctx context.Context, first, n, c int, req requestFunc, done func(int, []byte)) error {
	d.lat = make([]time.Duration, n)
	var next atomic.Int64
	var mu sync.Mutex // guards done, d.format, firstErr
	var firstErr error
	var wg sync.WaitGroup
	for range c {
		wg.Go(func() {
			var buf []byte
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				buf = req(buf[:0], first+i)
				t := time.Now()
				msg, format, err := d.post(ctx, buf)
				d.lat[i] = time.Since(t)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("call %d: %w", first+i, err)
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

func (d *httpDriver) close() {
	if d.session == "" {
		return
	}
	req, err := http.NewRequest(http.MethodDelete, d.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", d.session)
	if resp, err := d.client.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	d.client.CloseIdleConnections()
}
