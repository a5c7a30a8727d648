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

// WithStore gives the server its idempotency store and transports its
// event store (WithEventStore taking precedence is streamhttp's
// TestEventStoreOfServer).
func TestWithStore(t *testing.T) {
	shared := memShared{NewMemoryIdempotencyStore(1), NewMemoryEventStore(1), NewMemoryBus()}
	srv := NewServer(Implementation{Name: "t", Version: "1"}, WithStore(shared))
	if srv.cfg.idempotency != shared.idem {
		t.Error("WithStore did not set the idempotency store")
	}
	if srv.TransportConfig().Events != shared.events {
		t.Error("WithStore did not give transports the event store")
	}
}

// memSharedAll keeps tasks, quotas and requestStates too.
type memSharedAll struct {
	memShared
	tasks  TaskStore
	quotas QuotaStore
	states RequestStateStore
}

func (m memSharedAll) Tasks() TaskStore                 { return m.tasks }
func (m memSharedAll) Quotas() QuotaStore               { return m.quotas }
func (m memSharedAll) RequestStates() RequestStateStore { return m.states }

// WithStore uses the optional stores a SharedStore offers, unless the
// option of one names another, before or after it.
func TestWithStoreOptionalStores(t *testing.T) {
	shared := memSharedAll{memShared{NewMemoryIdempotencyStore(1), NewMemoryEventStore(1), NewMemoryBus()},
		NewMemoryTaskStore(1), NewMemoryQuotaStore(), NewMemoryRequestStateStore(1)}
	info := Implementation{Name: "t", Version: "1"}
	srv := NewServer(info, WithStore(shared))
	if srv.cfg.tasks.store != shared.tasks || srv.cfg.quotaStore != shared.quotas || srv.cfg.stateStore != shared.states {
		t.Error("WithStore did not set the task, quota and requestState stores")
	}
	tasks, quotas, states := NewMemoryTaskStore(2), NewMemoryQuotaStore(), NewMemoryRequestStateStore(2)
	for _, opts := range [][]Option{
		{WithTaskStore(tasks), WithQuotaStore(quotas), WithRequestStateStore(states), WithStore(shared)},
		{WithStore(shared), WithTaskStore(tasks), WithQuotaStore(quotas), WithRequestStateStore(states)},
	} {
		srv := NewServer(info, opts...)
		if srv.cfg.tasks.store != tasks || srv.cfg.quotaStore != quotas || srv.cfg.stateStore != states {
			t.Error("WithStore replaced a store its own option named")
		}
	}
	if srv := NewServer(info, WithStore(memShared{NewMemoryIdempotencyStore(1), NewMemoryEventStore(1), NewMemoryBus()})); srv.cfg.tasks.store == nil || srv.cfg.quotaStore == nil {
		t.Error("a SharedStore without the optional stores left none")
	}
}
