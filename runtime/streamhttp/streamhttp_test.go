package streamhttp_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

// The handler takes the event store of WithStore, unless WithEventStore
// names another.
func TestEventStoreOfServer(t *testing.T) {
	events := runtime.NewMemoryEventStore(1)
	srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"}, runtime.WithStore(store{events}))
	h, err := streamhttp.New(srv)
	if err != nil {
		t.Fatal(err)
	}
	if streamhttp.EventStoreOf(h) != events {
		t.Error("the handler does not use WithStore's event store")
	}
	own := runtime.NewMemoryEventStore(2)
	if h, _ := streamhttp.New(srv, streamhttp.WithEventStore(own)); streamhttp.EventStoreOf(h) != own {
		t.Error("WithEventStore did not take precedence over WithStore")
	}
}

type store struct{ events runtime.EventStore }

func (store) Sessions() runtime.SessionStore        { return nil }
func (store) Idempotency() runtime.IdempotencyStore { return runtime.NewMemoryIdempotencyStore(1) }
func (s store) Events() runtime.EventStore          { return s.events }
func (store) Bus() runtime.NotificationBus          { return runtime.NewMemoryBus() }

// A rate-limited error response is answered 429 with its
// data.retryAfterSeconds (at least 1).
func TestRateLimited(t *testing.T) {
	for _, c := range []struct {
		msg   string
		after int
		ok    bool
	}{
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-32005,"message":"m","data":{"retryAfterSeconds":3600}}}`, 3600, true},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-32005,"message":"m"}}`, 1, true},
		{`{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"m"}}`, 0, false},
		{`{"jsonrpc":"2.0","id":7,"result":{"code":-32005}}`, 0, false},
	} {
		if after, ok := streamhttp.RateLimited([]byte(c.msg)); after != c.after || ok != c.ok {
			t.Errorf("%s: %d %v, want %d %v", c.msg, after, ok, c.after, c.ok)
		}
	}
}
