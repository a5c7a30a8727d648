package scaleout

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// hop is one HTTP exchange through the balancer, as a client made it.
type hop struct {
	Verb      string // POST, GET or DELETE
	Method    string // the JSON-RPC method a POST carried ("" for a response)
	Tool      string // params.name of a tools/call
	Retry     bool   // params.requestState present: a 2026-07-28 retry
	SessionID string // the Mcp-Session-Id sent
	Status    int
	Replica   string // which replica answered (nginx's X-Upstream), by tag

	header http.Header // the request's
	body   []byte
}

// hopLog is an http.RoundTripper that records every exchange.
type hopLog struct {
	base        http.RoundTripper
	replicaByIP map[string]string

	mu   sync.Mutex
	hops []hop
}

func newHopLog(c *cluster) *hopLog {
	return &hopLog{base: http.DefaultTransport, replicaByIP: c.replicaByIP}
}

func (l *hopLog) client() *http.Client { return &http.Client{Transport: l} }

func (l *hopLog) RoundTrip(r *http.Request) (*http.Response, error) {
	h := hop{Verb: r.Method, SessionID: r.Header.Get("Mcp-Session-Id"), header: r.Header.Clone()}
	if r.GetBody != nil {
		if body, err := r.GetBody(); err == nil {
			h.body, _ = io.ReadAll(body)
			var msg struct {
				Method string `json:"method"`
				Params struct {
					Name         string          `json:"name"`
					RequestState json.RawMessage `json:"requestState"`
				} `json:"params"`
			}
			if json.Unmarshal(bytes.TrimSpace(h.body), &msg) == nil {
				h.Method, h.Retry = msg.Method, msg.Params.RequestState != nil
				if msg.Method == "tools/call" {
					h.Tool = msg.Params.Name
				}
			}
		}
	}
	resp, err := l.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	h.Status = resp.StatusCode
	// After a failed attempt nginx lists every upstream it tried: the
	// last one answered.
	upstreams := strings.Split(resp.Header.Get("X-Upstream"), ",")
	last := strings.TrimSpace(upstreams[len(upstreams)-1])
	h.Replica = l.replicaByIP[last]
	if h.Replica == "" {
		h.Replica = "?" + last
	}
	l.mu.Lock()
	l.hops = append(l.hops, h)
	l.mu.Unlock()
	return resp, nil
}

func (l *hopLog) all() []hop {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]hop(nil), l.hops...)
}
