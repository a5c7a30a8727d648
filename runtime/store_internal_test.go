package runtime

import "testing"

type memShared struct {
	idem   IdempotencyStore
	events EventStore
	bus    NotificationBus
}

func (m memShared) Sessions() SessionStore { return nil }

func (m memShared) Idempotency() IdempotencyStore { return m.idem }
func (m memShared) Events() EventStore            { return m.events }
func (m memShared) Bus() NotificationBus          { return m.bus }

// WithStore gives the server its idempotency store and the HTTP transport
// its event store, unless WithEventStore names another.
func TestWithStore(t *testing.T) {
	shared := memShared{NewMemoryIdempotencyStore(1), NewMemoryEventStore(1), NewMemoryBus()}
	srv := NewServer(Implementation{Name: "t", Version: "1"}, WithStore(shared))
	if srv.cfg.idempotency != shared.idem {
		t.Error("WithStore did not set the idempotency store")
	}
	h, err := srv.newHTTPHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	if h.cfg.store != shared.events {
		t.Error("WithStore did not set the HTTP event store")
	}
	own := NewMemoryEventStore(2)
	if h, _ := srv.newHTTPHandler([]HTTPOption{WithEventStore(own)}); h.cfg.store != own {
		t.Error("WithEventStore did not take precedence over WithStore")
	}
}
