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

// WithStore keeps the server's shared state in st: the results of
// idempotent calls (as WithIdempotencyStore) and, over Streamable HTTP, the
// events of SSE streams, which makes them resumable (as WithEventStore,
// which takes precedence when both are given), and carries change
// notifications to the clients of every replica (as WithNotificationBus),
// and keeps legacy Streamable HTTP sessions there, so that any replica
// serves any session (see SessionStore).
func WithStore(st SharedStore) Option {
	return func(c *config) {
		if st != nil {
			c.idempotency = st.Idempotency()
			c.events = st.Events()
			c.bus = st.Bus()
			c.sessions = st.Sessions()
		}
	}
}
