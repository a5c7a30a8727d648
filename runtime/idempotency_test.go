package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

type RefundInput struct {
	OrderID        string `json:"order_id"`
	Amount         int    `json:"amount"`
	IdempotencyKey string `json:"idempotency_key"`
}

type RefundOutput struct {
	Refund string `json:"refund"` // a new id per handler run: two runs never look alike
}

// refunds is a handler that counts its runs and, while gate is open
// (non-nil), waits for it to close, so that retries arrive while the first
// call is still running.
type refunds struct {
	runs    atomic.Int64
	started chan struct{} // receives once per run
	gate    chan struct{}
	fail    atomic.Bool // answer with an error (not kept: a retry runs again)
}

func (r *refunds) refund(ctx context.Context, in *RefundInput) (*RefundOutput, error) {
	n := r.runs.Add(1)
	if r.started != nil {
		r.started <- struct{}{}
	}
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if r.fail.Load() {
		return nil, errors.New("the payment provider is down; retry later")
	}
	return &RefundOutput{Refund: fmt.Sprintf("R-%d for %s", n, in.OrderID)}, nil
}

func idempotentServer(t *testing.T, r *refunds, opts ...runtime.Option) *runtime.Server {
	t.Helper()
	srv := runtime.NewServer(testInfo(), opts...)
	srv.AddTool(runtime.TypedTool(runtime.Tool{
		Name:        "refund",
		Description: "Refund an order.",
		Idempotency: &runtime.Idempotency{Key: "idempotency_key"},
	}, r.refund))
	return srv
}

func refundArgs(key string, amount int) map[string]any {
	return map[string]any{"order_id": "A-1", "amount": amount, "idempotency_key": key}
}

// TestIdempotencyConcurrentRetries sends the same call from many clients at
// once: the handler runs once, and every client gets its result.
func TestIdempotencyConcurrentRetries(t *testing.T) {
	const clients = 16
	r := &refunds{started: make(chan struct{}, clients), gate: make(chan struct{})}
	srv := idempotentServer(t, r)
	cs := make([]*client, clients)
	for i := range cs {
		cs[i] = serve(t, srv)
		cs[i].initialize()
	}
	results := make([]string, clients)
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() { results[i] = string(c.callTool("refund", refundArgs("k-1", 5))) })
	}
	<-r.started // the first call runs; the others arrive while it does
	time.Sleep(50 * time.Millisecond)
	close(r.gate)
	wg.Wait()
	if n := r.runs.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want 1", n)
	}
	for i, res := range results {
		if res != results[0] || !strings.Contains(res, `"refund":"R-1 for A-1"`) {
			t.Errorf("client %d got %s, want %s", i, res, results[0])
		}
	}

	// A later retry, spelled differently (order of members, white space),
	// gets the same result; another key runs the handler again.
	c := cs[0]
	c.send(`{"jsonrpc":"2.0","id":"again","method":"tools/call","params":{"name":"refund","arguments":{ "idempotency_key":"k-1", "amount":5, "order_id":"A-1" }}}`)
	if again := parse(t, c.recv()); string(again.Result) != results[0] {
		t.Errorf("retry: %s, want %s", again.Result, results[0])
	}
	if res := string(c.callTool("refund", refundArgs("k-2", 5))); !strings.Contains(res, "R-2 for A-1") {
		t.Errorf("another key: %s", res)
	}
	if n := r.runs.Load(); n != 2 {
		t.Errorf("the handler ran %d times, want 2", n)
	}
}

// TestIdempotencyConflict: the same key with other arguments is a tool error
// and does not run the handler.
func TestIdempotencyConflict(t *testing.T) {
	r := &refunds{}
	c := serve(t, idempotentServer(t, r))
	c.initialize()
	first := c.callTool("refund", refundArgs("k-1", 5))
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(c.callTool("refund", refundArgs("k-1", 6)), &res); err != nil {
		t.Fatal(err)
	}
	if !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, `idempotency_key "k-1" was already used for a call of tool "refund" with other arguments`) {
		t.Errorf("same key, other arguments: %+v", res)
	}
	if again := c.callTool("refund", refundArgs("k-1", 5)); string(again) != string(first) {
		t.Errorf("retry after the conflict: %s, want %s", again, first)
	}
	if n := r.runs.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want 1", n)
	}
}

// TestIdempotencyFailureNotKept: a call that failed is run again on retry.
func TestIdempotencyFailureNotKept(t *testing.T) {
	r := &refunds{}
	c := serve(t, idempotentServer(t, r))
	c.initialize()
	r.fail.Store(true)
	if res := string(c.callTool("refund", refundArgs("k-1", 5))); !strings.Contains(res, `"isError":true`) {
		t.Fatalf("failing call: %s", res)
	}
	r.fail.Store(false)
	if res := string(c.callTool("refund", refundArgs("k-1", 5))); !strings.Contains(res, "R-2 for A-1") {
		t.Errorf("retry after a failure: %s, want the handler's second run", res)
	}
	// Invalid arguments never reach the store: the key is missing.
	if res := string(c.callTool("refund", map[string]any{"order_id": "A-1", "amount": 5})); !strings.Contains(res, "/idempotency_key: is required") {
		t.Errorf("no key: %s", res)
	}
}

// TestIdempotencyWaiterCancelled: a retry waiting for the first call can be
// cancelled without disturbing it.
func TestIdempotencyWaiterCancelled(t *testing.T) {
	r := &refunds{started: make(chan struct{}, 2), gate: make(chan struct{})}
	srv := idempotentServer(t, r)
	first, retry := serve(t, srv), serve(t, srv)
	first.initialize()
	retry.initialize()
	done := make(chan string, 1)
	go func() { done <- string(first.callTool("refund", refundArgs("k-1", 5))) }()
	<-r.started
	retry.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"refund","arguments":{"order_id":"A-1","amount":5,"idempotency_key":"k-1"}}}`)
	time.Sleep(20 * time.Millisecond)
	retry.notify("notifications/cancelled", map[string]any{"requestId": 7})
	if r := retry.request("ping", nil); r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("ping after the cancelled retry: %+v (a response to the cancelled call came first?)", r)
	}
	close(r.gate)
	if res := <-done; !strings.Contains(res, "R-1 for A-1") {
		t.Errorf("first call: %s", res)
	}
}

func TestIdempotencyStoreOption(t *testing.T) {
	store := runtime.NewMemoryIdempotencyStore(0)
	r := &refunds{}
	c := serve(t, idempotentServer(t, r, runtime.WithIdempotencyStore(store)))
	c.initialize()
	c.callTool("refund", refundArgs("k-1", 5))
	if store.Len() != 1 {
		t.Errorf("the store holds %d entries, want 1", store.Len())
	}
}

func TestIdempotencyWithoutKeyPanics(t *testing.T) {
	defer func() {
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "Idempotency without a Key") {
			t.Errorf("recovered %v", v)
		}
	}()
	runtime.NewServer(testInfo()).AddTool(runtime.Tool{Name: "x", Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		return nil, nil
	}, Idempotency: &runtime.Idempotency{}})
}

// TestIdempotencyPerOwner: with authorization, keys belong to the identity
// that used them: another user's call with the same key and arguments runs
// the handler and gets its own result.
func TestIdempotencyPerOwner(t *testing.T) {
	r := &refunds{}
	srv := idempotentServer(t, r)
	call := func(who string) string {
		ctx := runtime.ContextWithAuth(context.Background(), &runtime.AuthInfo{Issuer: "https://issuer.example", Subject: who})
		ss, last := initializedSession(ctx, srv)
		defer ss.Close()
		ss.HandleMessage(ctx, []byte(refundK1Call))
		ss.Wait()
		return last()
	}
	alice, bob, again := call("alice"), call("bob"), call("alice")
	if r.runs.Load() != 2 || alice == bob || again != alice {
		t.Errorf("%d runs; alice %s, bob %s, alice again %s", r.runs.Load(), alice, bob, again)
	}
}

// refundK1Call is a tools/call of refund with idempotency_key k-1.
const refundK1Call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refund","arguments":{"order_id":"A-1","amount":5,"idempotency_key":"k-1"}}}`

// initializedSession is a session of srv through the public seam,
// initialized under ctx; last returns the latest message it sent.
func initializedSession(ctx context.Context, srv *runtime.Server) (ss *runtime.Session, last func() string) {
	var mu sync.Mutex
	var got []string
	ss = srv.NewSession(func(msg []byte) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, string(msg))
	})
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return ss, func() string {
		mu.Lock()
		defer mu.Unlock()
		return got[len(got)-1]
	}
}

// enteredStore signals each Do call before passing it to the memory store.
type enteredStore struct {
	*runtime.MemoryIdempotencyStore
	entered chan struct{}
}

func (s enteredStore) Do(ctx context.Context, k runtime.IdempotencyKey, ttl time.Duration, call func() ([]byte, bool)) ([]byte, error) {
	s.entered <- struct{}{}
	return s.MemoryIdempotencyStore.Do(ctx, k, ttl, call)
}

// TestIdempotencyWaiterContextEnds: a retry whose context ends while it
// waits for the first call (a transport giving up on the request, not a
// notifications/cancelled) is answered with a tool error saying so: not
// an internal error, and nothing is logged as a store failure.
func TestIdempotencyWaiterContextEnds(t *testing.T) {
	r := &refunds{started: make(chan struct{}, 1), gate: make(chan struct{})}
	store := enteredStore{runtime.NewMemoryIdempotencyStore(0), make(chan struct{}, 2)}
	logs, logOpt := newLog()
	srv := idempotentServer(t, r, runtime.WithIdempotencyStore(store), logOpt)
	first := serve(t, srv)
	first.initialize()
	done := make(chan string, 1)
	go func() { done <- string(first.callTool("refund", refundArgs("k-1", 5))) }()
	<-r.started
	<-store.entered

	ss, lastMessage := initializedSession(context.Background(), srv)
	defer ss.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ss.HandleMessage(ctx, []byte(refundK1Call))
	<-store.entered // the retry reached the store, which the first call holds
	cancel()
	ss.Wait()
	last := lastMessage()
	var resp struct {
		ID     int              `json:"id"`
		Error  *json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(last), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.ID != 1 || resp.Error != nil || !resp.Result.IsError || len(resp.Result.Content) != 1 ||
		!strings.Contains(resp.Result.Content[0].Text, "cancelled while waiting for the call with the same idempotency_key") {
		t.Errorf("the retry whose context ended got %s, want a tool error saying it was cancelled", last)
	}
	if l := logs.String(); strings.Contains(l, "store failed") {
		t.Errorf("a cancelled wait is logged as a store failure:\n%s", l)
	}

	close(r.gate)
	if res := <-done; !strings.Contains(res, "R-1 for A-1") {
		t.Errorf("first call: %s", res)
	}
	if n := r.runs.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want 1", n)
	}
}
