// Package inmemory connects a client to a server in the same process, for
// tests: no pipes, no sockets, no framing. The server end is a session
// opened on the seam of package runtime/transport, the same as stdio's and
// Streamable HTTP's, so what works here works on them; the client end
// speaks JSON-RPC in raw messages: Call sends a request and waits for its
// answer, Notify sends a notification, and the server's own requests
// (sampling, elicitation, roots) and notifications (progress, logging,
// list_changed) go to the functions given in Options.
//
//	c := inmemory.Connect(srv, inmemory.Options{})
//	defer c.Close()
//	res, err := c.Call(ctx, "initialize", map[string]any{…})
package inmemory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Name is the transport's name, as interceptors see it
// (Request.Transport).
const Name = "inmemory"

// Options say how the client end answers what the server sends it.
type Options struct {
	// OnRequest answers a request of the server (elicitation/create,
	// sampling/createMessage, roots/list): a result, or an error, which
	// goes back as a JSON-RPC error (an *Error keeps its code; another
	// error is -32603). It runs on a goroutine of its own. nil: every
	// request is answered with method not found.
	OnRequest func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	// OnNotification receives the server's notifications, one at a time,
	// in the order the server sent them. nil: they are dropped.
	OnNotification func(method string, params json.RawMessage)
	// NoRequests opens a session that cannot carry the server's requests
	// (as stateless HTTP): CreateMessage, Elicit and ListRoots fail at once.
	NoRequests bool
}

// Error is a JSON-RPC error, as the server answered a Call, or as
// OnRequest answers the server.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// Client is the client end of an in-memory connection. Its methods may be
// called from many goroutines.
type Client struct {
	ss   transport.Session
	opts Options
	ctx  context.Context // what the server's requests are answered under; ends with Close
	stop context.CancelFunc

	mu      sync.Mutex
	lastID  int
	pending map[string]chan message // by the id of a Call
	notes   []message               // notifications not yet delivered
	wake    chan struct{}           // a notification was queued
	closed  bool
	done    chan struct{} // the deliverer has exited
}

// message is any JSON-RPC message, as the client end reads it.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Connect starts srv (transport.Server.Start) and opens a session of it
// with a client at the other end. Close ends both.
func Connect(srv transport.Server, o Options) (*Client, error) {
	if err := srv.Start(); err != nil {
		return nil, err
	}
	c := &Client{opts: o, pending: make(map[string]chan message), wake: make(chan struct{}, 1), done: make(chan struct{})}
	c.ctx, c.stop = context.WithCancel(context.Background())
	c.ss = srv.OpenSession(transport.SinkFunc(c.receive), transport.Options{Name: Name, NoRequests: o.NoRequests})
	go c.deliver()
	return c, nil
}

// Call sends a request and waits for its answer: the result, or an *Error
// the server answered with. ctx bounds the wait; when it ends, the request
// is cancelled (notifications/cancelled) and Call returns ctx.Err().
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errClosed
	}
	c.lastID++
	id := strconv.Itoa(c.lastID)
	ch := make(chan message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	msg, err := encode(json.RawMessage(id), method, params)
	if err != nil {
		return nil, err
	}
	c.ss.HandleMessage(ctx, msg)
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-ctx.Done():
		_ = c.Notify(context.Background(), "notifications/cancelled", map[string]any{"requestId": json.RawMessage(id)})
		return nil, ctx.Err()
	}
}

// Notify sends a notification (notifications/initialized, say).
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	msg, err := encode(nil, method, params)
	if err != nil {
		return err
	}
	c.ss.HandleMessage(ctx, msg)
	return nil
}

// Send hands the server one raw message, well-formed or not, for a test
// of what the server does with it; its answer, if any, reaches no Call
// unless its id is one a Call waits on (use a string id, say "x1", to keep
// out of their way), and is otherwise dropped.
func (c *Client) Send(ctx context.Context, msg []byte) { c.ss.HandleMessage(ctx, msg) }

// Close ends the session (the calls in flight are cancelled) and waits
// until the last notification was delivered.
func (c *Client) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		<-c.done
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.ss.Close()
	c.stop()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	<-c.done
}

var errClosed = errors.New("inmemory: the client is closed")

// receive is the session's sink: it routes each message of the server by
// what it is. It never blocks on the client's code, which may be calling
// into the session itself.
func (c *Client) receive(raw []byte) {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return // the server writes JSON; nothing to route otherwise
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		go c.answer(m)
	case m.Method != "":
		c.mu.Lock()
		if !c.closed {
			c.notes = append(c.notes, m)
		}
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
	default:
		c.mu.Lock()
		ch := c.pending[string(m.ID)]
		delete(c.pending, string(m.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// deliver hands the queued notifications to OnNotification in order, on
// one goroutine, until Close.
func (c *Client) deliver() {
	defer close(c.done)
	for {
		c.mu.Lock()
		notes, closed := c.notes, c.closed
		c.notes = nil
		c.mu.Unlock()
		for _, m := range notes {
			if c.opts.OnNotification != nil {
				c.opts.OnNotification(m.Method, m.Params)
			}
		}
		if closed {
			return
		}
		if len(notes) == 0 {
			<-c.wake
		}
	}
}

// answer answers a request of the server with what OnRequest says.
func (c *Client) answer(m message) {
	var res json.RawMessage
	var err error = &Error{Code: -32601, Message: "method " + strconv.Quote(m.Method) + " not found"}
	if c.opts.OnRequest != nil {
		res, err = c.opts.OnRequest(c.ctx, m.Method, m.Params)
	}
	reply := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *Error          `json:"error,omitempty"`
	}{JSONRPC: "2.0", ID: m.ID, Result: res}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: -32603, Message: err.Error()}
		}
		reply.Result, reply.Error = nil, e
	} else if len(res) == 0 {
		reply.Result = json.RawMessage(`{}`)
	}
	b, merr := json.Marshal(reply)
	if merr != nil {
		b, _ = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *Error          `json:"error"`
		}{"2.0", m.ID, &Error{Code: -32603, Message: "inmemory: encoding the answer: " + merr.Error()}})
	}
	c.ss.HandleMessage(c.ctx, b)
}

// encode makes a request (id set) or a notification.
func encode(id json.RawMessage, method string, params any) ([]byte, error) {
	var p json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("inmemory: %s: encoding the params: %w", method, err)
		}
		p = b
	}
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", id, method, p})
}
