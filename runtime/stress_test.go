package runtime_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/hostile"
	"github.com/mcpgen/mcpgen/runtime"
)

// The stress test: many clients at once, on both transports, against one
// server, each making a few hundred calls of every kind (tools, reads of
// static resources and templates, declarative and typed prompts,
// completions, lists, subscriptions, logging levels, errors, and requests
// cancelled while they run). Every request must get exactly one response
// with its id, except a cancelled one, which gets none; nothing else may
// carry an id. Once everything is shut down, the goroutine count must come
// back to what it was.
//
//	go test ./runtime -race -run TestStress -v
//	go test ./runtime -run TestStress -stress.clients 64 -stress.calls 300 -v

var (
	stressClients = flag.Int("stress.clients", 64, "clients per transport in TestStress")
	stressCalls   = flag.Int("stress.calls", 300, "calls per client in TestStress")
)

// stressCall is call number i of client c: a request (with the id the
// caller gives) and whether it is cancelled after it is sent.
func stressCall(c, i int, id string) (msg string, cancel bool) {
	ticket := "T-" + strconv.Itoa(1001+(c+i)%16)
	r := func(method, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
	}
	switch i % 16 {
	case 0:
		return r("ping", `{}`), false
	case 1:
		key := fmt.Sprintf("%08x-0000-4000-8000-%012x", c, i)
		return r("tools/call", `{"name":"reply_to_ticket","arguments":{"id":"`+ticket+`","body":"On it.","idempotency_key":"`+key+`"}}`), false
	case 2:
		return r("tools/call", `{"name":"escalate_ticket","arguments":{"id":"`+ticket+`","level":"tier2","reason":"steps to reproduce"}}`), false
	case 3:
		return r("resources/read", `{"uri":"ticket://`+ticket+`"}`), false
	case 4:
		return r("resources/read", `{"uri":"customer://acme"}`), false
	case 5:
		return r("prompts/get", `{"name":"triage_ticket","arguments":{"ticket_id":"`+ticket+`","customer":"acme"}}`), false
	case 6:
		return r("prompts/get", `{"name":"draft_reply","arguments":{"ticket_id":"`+ticket+`","tone":"friendly"}}`), false
	case 7:
		return r("completion/complete", `{"ref":{"type":"ref/resource","uri":"ticket://{id}"},"argument":{"name":"id","value":"T-10"}}`), false
	case 8:
		return r("resources/subscribe", `{"uri":"ticket://`+ticket+`"}`), false
	case 9:
		return r("tools/call", `{"name":"`+hostile.SleepTool+`","arguments":{},"_meta":{"progressToken":`+id+`}}`), true
	case 10:
		return r("tools/call", `{"name":"compute","arguments":{"count":`+strconv.Itoa(1+i)+`,"percent":50}}`), false
	case 11:
		return r("tools/list", `{}`), false
	case 12:
		return r("resources/unsubscribe", `{"uri":"ticket://`+ticket+`"}`), false
	case 13:
		return r("tools/call", `{"name":"reply_to_ticket","arguments":{"id":5}}`), false // an isError result
	case 14:
		return r("resources/read", `{"uri":"ticket://T-9"}`), false // resource not found
	default:
		return r("logging/setLevel", `{"level":"debug"}`), false
	}
}

// ledger matches responses to requests.
type ledger struct {
	mu        sync.Mutex
	pending   map[string]bool // id → cancelled
	responses atomic.Int64
	notes     atomic.Int64
	cancelled atomic.Int64
	slowest   atomic.Int64 // the longest a client took, in ns
	errs      []error
}

func (l *ledger) took(d time.Duration) {
	for {
		old := l.slowest.Load()
		if int64(d) <= old || l.slowest.CompareAndSwap(old, int64(d)) {
			return
		}
	}
}

func newLedger() *ledger { return &ledger{pending: map[string]bool{}} }

func (l *ledger) fail(err error) {
	l.mu.Lock()
	if len(l.errs) < 20 {
		l.errs = append(l.errs, err)
	}
	l.mu.Unlock()
}

func (l *ledger) sent(id string) {
	l.mu.Lock()
	if _, dup := l.pending[id]; dup {
		l.errs = append(l.errs, fmt.Errorf("id %s sent twice", id))
	}
	l.pending[id] = false
	l.mu.Unlock()
}

func (l *ledger) cancel(id string) {
	l.mu.Lock()
	l.pending[id] = true
	l.mu.Unlock()
	l.cancelled.Add(1)
}

func (l *ledger) got(m *hostile.Message) {
	if !m.IsResponse() {
		l.notes.Add(1)
		return
	}
	id := string(m.ID)
	l.mu.Lock()
	cancelled, ok := l.pending[id]
	delete(l.pending, id)
	l.mu.Unlock()
	switch {
	case !ok:
		l.fail(fmt.Errorf("a response to no pending request (lost track, or duplicated): %v", m))
	case cancelled:
		l.fail(fmt.Errorf("a response to a cancelled request: %v", m))
	default:
		l.responses.Add(1)
	}
}

// outstanding returns the ids still waiting for a response, cancelled ones
// removed.
func (l *ledger) outstanding() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for id, cancelled := range l.pending {
		if !cancelled {
			out = append(out, id)
		}
	}
	return out
}

// stressWait bounds how long a stress client waits for the next message and
// for the server to drain at end of input. It catches a hang, not slowness:
// 64 clients × 300 calls under -race on a busy 2-core machine can leave a
// stdio client without a message for longer than hostileWait.
const stressWait = 3 * time.Minute

func TestStress(t *testing.T) {
	clients, calls := *stressClients, *stressCalls
	if testing.Short() {
		clients, calls = 8, 50
	}
	baseline := goruntime.NumGoroutine()
	start := time.Now()

	srv, _ := hostile.NewServer(hostile.Options{Sleep: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	ts := httptest.NewServer(mux)
	// A connection per request in flight: the default pool keeps 2 per host,
	// and 256 requests at a time would otherwise keep dialling.
	tr := ts.Client().Transport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 4 * 2 * clients
	hc := &http.Client{Transport: tr}

	var wg sync.WaitGroup
	stdio, web := newLedger(), newLedger()
	for c := range clients {
		wg.Go(func() {
			t0 := time.Now()
			stressStdio(srv, c, calls, stdio)
			stdio.took(time.Since(t0))
		})
		wg.Go(func() {
			t0 := time.Now()
			stressHTTP(ts.URL, hc, c, calls, web)
			web.took(time.Since(t0))
		})
	}
	wg.Wait()
	tr.CloseIdleConnections()
	ts.Close()
	elapsed := time.Since(start)

	for name, l := range map[string]*ledger{"stdio": stdio, "HTTP": web} {
		for _, err := range l.errs {
			t.Errorf("%s: %v", name, err)
		}
		if left := l.outstanding(); len(left) > 0 {
			t.Errorf("%s: %d requests never answered, e.g. %v", name, len(left), left[:min(5, len(left))])
		}
		want := int64(clients*calls) - l.cancelled.Load()
		if got := l.responses.Load(); got != want {
			t.Errorf("%s: %d responses, want %d", name, got, want)
		}
		t.Logf("%s: %d clients × %d calls: %d responses, %d cancelled (no response), %d notifications; slowest client %v",
			name, clients, calls, l.responses.Load(), l.cancelled.Load(), l.notes.Load(), time.Duration(l.slowest.Load()).Round(time.Millisecond))
	}
	t.Logf("all calls done in %v", elapsed.Round(time.Millisecond))

	// Idle request workers exit 5s after their last request (the runtime's
	// workers.IdleTimeout, a constant): wait them out.
	settle := time.Now()
	n := goruntime.NumGoroutine()
	for n > baseline && time.Since(settle) < 15*time.Second {
		time.Sleep(100 * time.Millisecond)
		n = goruntime.NumGoroutine()
	}
	t.Logf("goroutines: %d before, %d after shutdown (settled in %v)", baseline, n, time.Since(settle).Round(100*time.Millisecond))
	if n > baseline {
		buf := make([]byte, 1<<20)
		buf = buf[:goruntime.Stack(buf, true)]
		t.Errorf("%d goroutines left beyond the %d before the test:\n%s", n-baseline, baseline, buf)
	}
}

// stressStdio is one stdio client: its own ServeStdio, requests pipelined
// a window at a time, each sleeping request cancelled right after it is
// sent (the server reads in order: it is in flight then).
func stressStdio(srv *runtime.Server, c, calls int, l *ledger) {
	s := hostile.ServeStdio(srv)
	if err := s.Send([]byte(initializeLine)); err != nil {
		l.fail(err)
		return
	}
	if m, err := s.Next(hostileWait); err != nil || m.Error != nil || string(m.ID) != "0" {
		l.fail(fmt.Errorf("stdio client %d: initialize: %v %v", c, m, err))
		return
	}
	_ = s.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	done := make(chan struct{})
	go func() { // the reader
		defer close(done)
		for {
			m, err := s.Next(stressWait)
			if err == io.EOF {
				return
			}
			if err != nil {
				l.fail(fmt.Errorf("stdio client %d: %v", c, err))
				if !errors.As(err, new(*hostile.BadMessage)) {
					return
				}
				continue
			}
			l.got(m)
		}
	}()
	for i := range calls {
		id := `"s` + strconv.Itoa(c) + `-` + strconv.Itoa(i) + `"`
		msg, cancel := stressCall(c, i, id)
		l.sent(id)
		if cancel {
			l.cancel(id) // before sending: the response, were there one, could come at once
		}
		if err := s.Send([]byte(msg)); err != nil {
			l.fail(err)
			break
		}
		if cancel {
			_ = s.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`))
		}
		if i%32 == 31 { // let the window drain a little
			time.Sleep(time.Millisecond)
		}
	}
	if err := s.Close(stressWait); err != nil { // end of input: answers what is in flight first
		l.fail(fmt.Errorf("stdio client %d: %v", c, err))
	}
	<-done
}

// stressHTTP is one HTTP client: a session, a GET stream (odd clients),
// and four goroutines POSTing its calls; a sleeping request is cancelled
// once its progress notification arrived on its stream.
func stressHTTP(url string, hc *http.Client, c, calls int, l *ledger) {
	ctx := context.Background()
	h := &hostile.HTTP{URL: url + "/mcp", Client: hc}
	if err := h.Initialize(ctx, "stress-"+strconv.Itoa(c)); err != nil {
		l.fail(fmt.Errorf("HTTP client %d: %v", c, err))
		return
	}
	getCtx, stopGET := context.WithCancel(ctx)
	var getDone chan struct{}
	if c%2 == 1 {
		st, err := h.Open(getCtx, http.MethodGet, nil)
		if err != nil {
			l.fail(fmt.Errorf("HTTP client %d: GET: %v", c, err))
		} else {
			getDone = make(chan struct{})
			go func() {
				defer close(getDone)
				defer st.Close()
				for {
					m, err := st.Next()
					if err != nil {
						if getCtx.Err() == nil && err != io.EOF {
							l.fail(fmt.Errorf("HTTP client %d: GET stream: %v", c, err))
						}
						return
					}
					if m.IsResponse() {
						l.fail(fmt.Errorf("HTTP client %d: a response on the GET stream: %v", c, m))
					}
					l.notes.Add(1)
				}
			}()
		}
	}
	const workers = 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < calls; i += workers {
				id := `"h` + strconv.Itoa(c) + `-` + strconv.Itoa(i) + `"`
				msg, cancel := stressCall(c, i, id)
				l.sent(id)
				if err := stressPost(ctx, h, id, msg, cancel, l); err != nil {
					l.fail(fmt.Errorf("HTTP client %d: %s: %v", c, msg, err))
				}
			}
		})
	}
	wg.Wait()
	stopGET()
	if getDone != nil {
		<-getDone
	}
	if st, err := h.Delete(ctx); err != nil || st != http.StatusNoContent {
		l.fail(fmt.Errorf("HTTP client %d: DELETE: %d %v", c, st, err))
	}
}

func stressPost(ctx context.Context, h *hostile.HTTP, id, msg string, cancel bool, l *ledger) error {
	st, err := h.Open(ctx, http.MethodPost, []byte(msg))
	if err != nil {
		return err
	}
	defer st.Close()
	if st.Status != http.StatusOK {
		return fmt.Errorf("status %d", st.Status)
	}
	for {
		m, err := st.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if cancel && m.Method == "notifications/progress" { // in flight: cancel it
			l.cancel(id)
			r, err := h.Post(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`))
			if err != nil || r.Status != http.StatusAccepted {
				return fmt.Errorf("cancel: %v %v", r, err)
			}
		}
		l.got(m)
	}
}
