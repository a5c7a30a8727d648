package interop

// A recorder of the JSON-RPC messages that crossed the wire, so that a
// both-era test can tell how an elicitation travelled: as the server's
// elicitation/create request (legacy), or inside an input_required result
// that the client answered by retrying the call (2026-07-28).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// wireMsg is one JSON-RPC message, as sent or received.
type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (m wireMsg) isRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// wireLog records the messages a client sent and received.
type wireLog struct {
	mu             sync.Mutex
	sent, received []wireMsg
	sessionIDs     []string // Mcp-Session-Id of the HTTP responses that carried one
}

func (w *wireLog) add(sent bool, data []byte) {
	var m wireMsg
	if json.Unmarshal(bytes.TrimSpace(data), &m) != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if sent {
		w.sent = append(w.sent, m)
	} else {
		w.received = append(w.received, m)
	}
}

// Write takes the log of the Go SDK's mcp.LoggingTransport: "read: {…}"
// and "write: {…}" lines.
func (w *wireLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(string(p), "\n") {
		if rest, ok := strings.CutPrefix(line, "write: "); ok {
			w.add(true, []byte(rest))
		} else if rest, ok := strings.CutPrefix(line, "read: "); ok {
			w.add(false, []byte(rest))
		}
	}
	return len(p), nil
}

// requests returns the requests of that method sent (sent) or received.
func (w *wireLog) requests(sent bool, method string) []wireMsg {
	w.mu.Lock()
	defer w.mu.Unlock()
	msgs := w.received
	if sent {
		msgs = w.sent
	}
	var out []wireMsg
	for _, m := range msgs {
		if m.isRequest() && (method == "" || m.Method == method) {
			out = append(out, m)
		}
	}
	return out
}

// resultsOfType counts the results received whose resultType is rt.
func (w *wireLog) resultsOfType(rt string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, m := range w.received {
		var r struct {
			ResultType string `json:"resultType"`
		}
		if len(m.Result) > 0 && json.Unmarshal(m.Result, &r) == nil && r.ResultType == rt {
			n++
		}
	}
	return n
}

// recordingTransport is an http.RoundTripper that logs the JSON-RPC
// messages of each POST and of its response (JSON or SSE) into log.
type recordingTransport struct {
	base http.RoundTripper
	log  *wireLog
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && r.GetBody != nil {
		if body, err := r.GetBody(); err == nil {
			data, _ := io.ReadAll(body)
			rt.log.add(true, data)
		}
	}
	resp, err := rt.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		rt.log.mu.Lock()
		rt.log.sessionIDs = append(rt.log.sessionIDs, id)
		rt.log.mu.Unlock()
	}
	pr, pw := io.Pipe()
	go rt.scan(pr)
	resp.Body = &teeBody{r: io.TeeReader(resp.Body, pw), c: resp.Body, w: pw}
	return resp, nil
}

// scan logs the messages of a response body: a JSON object, or SSE events
// whose data lines are messages.
func (rt *recordingTransport) scan(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			rt.log.add(false, rest)
		} else if bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) {
			rt.log.add(false, line)
		}
	}
	io.Copy(io.Discard, r)
}

// teeBody is a response body whose bytes also go to the recorder.
type teeBody struct {
	r io.Reader
	c io.Closer
	w *io.PipeWriter
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil {
		b.w.Close()
	}
	return n, err
}

func (b *teeBody) Close() error {
	b.w.Close()
	return b.c.Close()
}

// checkElicitationPath checks, on the recorded wire, how the n
// elicitations of a test travelled in era: legacy, as n elicitation/create
// requests from the server, each call of tool sent once; modern, inside n
// input_required results, each call sent twice (the retry carrying
// requestState and inputResponses), and never a request from the server.
func checkElicitationPath(t *testing.T, w *wireLog, era, tool string, n int) {
	t.Helper()
	var calls, retries int
	for _, m := range w.requests(true, "tools/call") {
		var p struct {
			Name           string          `json:"name"`
			RequestState   *string         `json:"requestState"`
			InputResponses json.RawMessage `json:"inputResponses"`
		}
		if json.Unmarshal(m.Params, &p) != nil || p.Name != tool {
			continue
		}
		calls++
		if p.RequestState != nil && len(p.InputResponses) > 0 {
			retries++
		}
	}
	serverRequests := w.requests(false, "")
	switch era {
	case eraLegacy:
		if got := len(w.requests(false, "elicitation/create")); got != n || len(serverRequests) != n {
			t.Errorf("legacy: the server sent %d requests (%d elicitation/create), want %d elicitation/create", len(serverRequests), got, n)
		}
		if calls != n || retries != 0 {
			t.Errorf("legacy: %s sent %d times (%d retries with requestState), want %d, no retries", tool, calls, retries, n)
		}
		if len(w.requests(true, "initialize")) != 1 {
			t.Errorf("legacy: initialize sent %d times, want once", len(w.requests(true, "initialize")))
		}
	case eraModern:
		if len(serverRequests) != 0 {
			t.Errorf("modern: the server sent requests %s, want none (input_required instead)", jsonOf(t, serverRequests))
		}
		if got := w.resultsOfType("input_required"); got != n {
			t.Errorf("modern: %d input_required results, want %d", got, n)
		}
		if calls != 2*n || retries != n {
			t.Errorf("modern: %s sent %d times (%d retries with requestState and inputResponses), want %d and %d", tool, calls, retries, 2*n, n)
		}
		if got := len(w.requests(true, "initialize")); got != 0 {
			t.Errorf("modern: initialize sent %d times, want never", got)
		}
		w.mu.Lock()
		if len(w.sessionIDs) != 0 {
			t.Errorf("modern: responses carried Mcp-Session-Id %q, want none", w.sessionIDs)
		}
		w.mu.Unlock()
	}
}
