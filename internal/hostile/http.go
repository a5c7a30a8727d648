package hostile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// Protocol is the revision the clients speak.
const Protocol = "2025-11-25"

// HTTP is a Streamable HTTP client of one endpoint, spelling every request
// out so that status codes and headers can be checked; with Session set,
// it sends Mcp-Session-Id and MCP-Protocol-Version on every request.
type HTTP struct {
	URL     string
	Client  *http.Client
	Session string
}

// Reply is what came back for one HTTP request: the status, the header,
// and the JSON-RPC messages of the body (one for application/json, one per
// SSE event with data otherwise), each checked by Parse.
type Reply struct {
	Status   int
	Header   http.Header
	Msgs     []*Message
	Problems []error // messages that Parse refused (*BadMessage)
}

// Post sends body as a POST with the headers a conforming client sends,
// then hdr ("Name", "value" pairs; an empty value removes the header, and a
// name written "+Name" adds a line to the header rather than replacing it),
// and reads the whole reply.
func (h *HTTP) Post(ctx context.Context, body []byte, hdr ...string) (*Reply, error) {
	st, err := h.Open(ctx, http.MethodPost, body, hdr...)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for {
		_, err := st.Next()
		var bad *BadMessage
		switch {
		case err == io.EOF:
			return st.Reply, nil
		case errors.As(err, &bad):
			st.Problems = append(st.Problems, err)
		case err != nil:
			return st.Reply, err
		}
	}
}

// Open sends a request and returns its reply as a stream of messages read
// as they come (Next).
func (h *HTTP) Open(ctx context.Context, method string, body []byte, hdr ...string) (*Stream, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.URL, rd)
	if err != nil {
		return nil, err
	}
	switch method {
	case http.MethodPost:
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
	case http.MethodGet:
		req.Header.Set("Accept", "text/event-stream")
	}
	if h.Session != "" {
		req.Header.Set("Mcp-Session-Id", h.Session)
		req.Header.Set("Mcp-Protocol-Version", Protocol)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		switch {
		case hdr[i+1] == "":
			req.Header.Del(hdr[i])
		case strings.EqualFold(hdr[i], "Host"):
			req.Host = hdr[i+1]
		case strings.HasPrefix(hdr[i], "+"):
			req.Header.Add(hdr[i][1:], hdr[i+1])
		default:
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	c := h.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	st := &Stream{resp: resp, Reply: &Reply{Status: resp.StatusCode, Header: resp.Header}}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case mt == "text/event-stream":
		st.sse = bufio.NewReaderSize(resp.Body, 1<<16)
	case mt == "application/json":
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
	default:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		resp.Body.Close()
		return nil, fmt.Errorf("status %d with Content-Type %q: %q", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	return st, nil
}

// Stream is the body of a reply being read.
type Stream struct {
	*Reply
	resp *http.Response
	sse  *bufio.Reader // nil: not an event stream
	done bool
}

// Next returns the next message of the reply, or io.EOF at its end; a
// message that Parse refuses is a *BadMessage (reading can go on), a body
// that is not what the Content-Type says another error.
func (st *Stream) Next() (*Message, error) {
	if st.done {
		return nil, io.EOF
	}
	if st.sse == nil {
		st.done = true
		b, err := io.ReadAll(st.resp.Body)
		if err != nil {
			return nil, err
		}
		if st.Status == http.StatusAccepted || st.Status == http.StatusNoContent {
			if len(b) != 0 {
				return nil, fmt.Errorf("status %d with a body: %s", st.Status, clip(b))
			}
			return nil, io.EOF
		}
		m, err := Parse(b)
		if err != nil {
			return nil, &BadMessage{err}
		}
		st.Msgs = append(st.Msgs, m)
		return m, nil
	}
	var data []byte
	hasData := false
	for {
		line, err := st.sse.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			st.done = true
			if hasData {
				return nil, fmt.Errorf("the event stream ends inside an event")
			}
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 { // end of event
			if !hasData || len(bytes.TrimSpace(data)) == 0 {
				data, hasData = nil, false
				continue // a priming event, or a retry field alone
			}
			m, err := Parse(data)
			if err != nil {
				return nil, &BadMessage{err}
			}
			st.Msgs = append(st.Msgs, m)
			return m, nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			hasData = true
		case "id", "event", "retry", "":
		default:
			return nil, fmt.Errorf("unknown SSE field %q", field)
		}
	}
}

// Close releases the connection.
func (st *Stream) Close() error { return st.resp.Body.Close() }

// Initialize opens a session: initialize, then notifications/initialized.
func (h *HTTP) Initialize(ctx context.Context, clientName string) error {
	h.Session = ""
	r, err := h.Post(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+Protocol+`","capabilities":{},"clientInfo":{"name":`+strconv.Quote(clientName)+`,"version":"1"}}}`))
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if r.Status != http.StatusOK || len(r.Msgs) != 1 || r.Msgs[0].Error != nil {
		return fmt.Errorf("initialize: status %d, %v", r.Status, r.Msgs)
	}
	h.Session = r.Header.Get("Mcp-Session-Id")
	if h.Session == "" {
		return fmt.Errorf("initialize: no Mcp-Session-Id")
	}
	r, err = h.Post(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	if r.Status != http.StatusAccepted {
		return fmt.Errorf("notifications/initialized: status %d", r.Status)
	}
	return nil
}

// Delete ends the session.
func (h *HTTP) Delete(ctx context.Context) (int, error) {
	st, err := h.Open(ctx, http.MethodDelete, nil)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	_, _ = io.Copy(io.Discard, st.resp.Body)
	return st.Status, nil
}
