package servers

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/load"
)

// Floor is the reference every figure is measured against: the least a Go
// server can do per call and still send the right bytes back. It decodes
// each message with encoding/json (so every byte is read and checked: the
// envelope's id, method and tool name, the arguments kept raw) and answers
// with a result canned at start for the benchmark's arguments. It validates
// nothing, runs no handler and keeps no session: whatever mcpgen (or a peer)
// costs above it is the price of being an MCP server.
type Floor struct {
	results map[string][]byte // tool name → the JSON of its result
}

// floorRequest is the part of a JSON-RPC message the floor looks at.
type floorRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
}

const floorInitialize = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"floor","version":"1.0.0"}}`

// NewFloor cans the answers of the three tools, computed once from
// load.Arguments by the same functions the other servers call per request.
func NewFloor() *Floor {
	var order OrderIn
	var st StatsIn
	if err := json.Unmarshal(load.Arguments["order"], &order); err != nil {
		panic(err)
	}
	if err := json.Unmarshal(load.Arguments["stats"], &st); err != nil {
		panic(err)
	}
	var echo EchoIn
	if err := json.Unmarshal(load.Arguments["echo"], &echo); err != nil {
		panic(err)
	}
	text := func(s string) []byte {
		return mustJSON(map[string]any{"content": []any{map[string]string{"type": "text", "text": s}}})
	}
	out := mustJSON(peerStats(&st))
	return &Floor{results: map[string][]byte{
		"echo":  text(echo.Text),
		"order": text(peerOrder(&order)),
		"stats": mustJSON(map[string]any{
			"content":           []any{map[string]string{"type": "text", "text": string(out)}},
			"structuredContent": json.RawMessage(out),
		}),
	}}
}

// answer appends the response to one message to dst; a notification (no id)
// appends nothing.
func (f *Floor) answer(dst, msg []byte) []byte {
	var req floorRequest
	if err := json.Unmarshal(msg, &req); err != nil {
		return append(dst, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`...)
	}
	if req.ID == nil {
		return dst
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, req.ID...)
	switch req.Method {
	case "initialize":
		dst = append(dst, `,"result":`+floorInitialize...)
	case "tools/call":
		res, ok := f.results[req.Params.Name]
		if !ok {
			return append(dst, `,"error":{"code":-32602,"message":"unknown tool"}}`...)
		}
		dst = append(dst, `,"result":`...)
		dst = append(dst, res...)
	default:
		dst = append(dst, `,"result":{}`...)
	}
	return append(dst, '}')
}

// ServeStdio answers one line at a time on one goroutine, flushing when no
// further input is already buffered: a line loop, nothing concurrent.
func (f *Floor) ServeStdio(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	var out []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return err // a benchmark message never is this long
		}
		if len(line) > 1 {
			out = f.answer(out[:0], line)
			if len(out) > 0 {
				bw.Write(append(out, '\n'))
			}
		}
		if err != nil {
			bw.Flush()
			if err == io.EOF {
				return nil
			}
			return err
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// ServeHTTP is a POST-only Streamable HTTP endpoint without sessions: the
// body decoded, one application/json response, 202 for a notification.
func (f *Floor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	out := f.answer(nil, body)
	if len(out) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}
