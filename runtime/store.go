package runtime

// SharedStore is state kept outside the process, shared by the replicas of
// a server behind a load balancer (package runtime/redisstore is one, on
// Redis). Give it to WithStore.
type SharedStore interface {
	// Idempotency keeps the results of idempotent tool calls.
	Idempotency() IdempotencyStore
	// Events keeps the events of SSE streams, for resumption.
	Events() EventStore
	// Bus carries change notifications to every replica.
	Bus() NotificationBus
	// Sessions keeps legacy Streamable HTTP sessions.
	Sessions() SessionStore
}

// A SharedStore may keep more of the server's state; WithStore uses what
// it offers. They are separate interfaces so that a store written before
// them still satisfies SharedStore.
type (
	// SharedTaskStore keeps task records (as WithTaskStore).
	SharedTaskStore interface{ Tasks() TaskStore }
	// SharedQuotaStore keeps rate limits' buckets (as WithQuotaStore).
	SharedQuotaStore interface{ Quotas() QuotaStore }
	// SharedRequestStateStore records used requestStates (as
	// WithRequestStateStore).
	SharedRequestStateStore interface{ RequestStates() RequestStateStore }
)

// WithStore keeps the server's shared state in st: the results of
// idempotent calls (as WithIdempotencyStore) and, over Streamable HTTP, the
// events of SSE streams, which makes them resumable (as WithEventStore,
// which takes precedence when both are given), and carries change
// notifications to the clients of every replica (as WithNotificationBus),
// and keeps legacy Streamable HTTP sessions there, so that any replica
// serves any session (see SessionStore). If st also implements
// SharedTaskStore, SharedQuotaStore or SharedRequestStateStore, tasks, rate
// limits and used requestStates are kept there too, unless WithTaskStore,
// WithQuotaStore or WithRequestStateStore names another store (in any
// order).
func WithStore(st SharedStore) Option {
	return func(c *config) {
		if st == nil {
			return
		}
		c.idempotency = st.Idempotency()
		c.events = st.Events()
		c.bus = st.Bus()
		c.sessions = st.Sessions()
		if ts, ok := st.(SharedTaskStore); ok && !c.tasks.storeSet {
			c.tasks.store = ts.Tasks()
		}
		if qs, ok := st.(SharedQuotaStore); ok && !c.quotaStoreSet {
			c.quotaStore = qs.Quotas()
		}
		if rs, ok := st.(SharedRequestStateStore); ok && !c.stateStoreSet {
			c.stateStore = rs.RequestStates()
		}
	}
}
