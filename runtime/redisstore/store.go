// Package redisstore keeps a server's shared state in Redis (or Valkey), so
// that several replicas behind a load balancer serve any request: the
// results of idempotent tool calls (runtime.IdempotencyStore), the events
// of resumable SSE streams (runtime.EventStore), the change notifications
// every replica's clients must hear (runtime.NotificationBus), and legacy
// sessions (runtime.SessionStore), task records (runtime.TaskStore), rate
// limits' buckets (runtime.QuotaStore) and used requestStates
// (runtime.RequestStateStore).
//
// It is apart from runtime so that a server without Redis does not link a
// Redis client. One Store holds one connection pool; build the stores of
// other features on Store.Client (or New, with a client of your own) to
// share it.
//
//	st, err := redisstore.Open(ctx, "redis://127.0.0.1:6379/0", redisstore.Config{})
//	…
//	srv := ordersmcp.NewServer(h, runtime.WithStore(st))
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// Config tunes a Store. The zero value is usable.
type Config struct {
	// Prefix starts every key the store writes ("mcpgen:" when empty), so
	// that several servers may share one database.
	Prefix string
	// Timeout bounds each Redis operation (2 s when 0): with Redis down or
	// slow, a request that needs it fails after this long, with an error
	// naming the store, instead of hanging.
	Timeout time.Duration
	// PoolSize is the number of connections kept to Redis (go-redis's
	// default, 10 per CPU, when 0).
	PoolSize int
	// LockTTL is how long the lock of a running idempotent call outlives
	// the replica that holds it (30 s when 0): the replica renews it while
	// the call runs; if the replica dies, a retry waits this long at most
	// before running the call itself. A task's lease is the same: a task
	// whose replica died is reported failed this long after.
	LockTTL time.Duration
	// EventTTL is how long the events of a stream are kept after its last
	// one (1 h when 0); a session that ends normally drops its events at
	// once.
	EventTTL time.Duration
	// MaxEventsPerStream is how many of the last events of each stream are
	// kept (1000 when 0).
	MaxEventsPerStream int
	// MaxTasksPerOwner is how many live tasks each owner (authorized user,
	// or legacy session) may have (DefaultMaxTasksPerOwner when 0); a
	// tools/call that would make one more is refused. Redis's memory is the
	// bound of all owners together.
	MaxTasksPerOwner int
}

const (
	defaultPrefix    = "mcpgen:"
	defaultTimeout   = 2 * time.Second
	defaultLockTTL   = 30 * time.Second
	defaultEventTTL  = time.Hour
	defaultMaxEvents = 1000
)

// Store is a connection to Redis and the stores built on it. It
// implements runtime.SharedStore (give it to runtime.WithStore).
type Store struct {
	client redis.UniversalClient
	cfg    Config
	owned  bool // Close closes client: Open made it

	mu     sync.Mutex  // guards leases and closed: Tasks and Close may race
	leases *taskLeases // of the tasks this process runs (tasks.go); made by the first Tasks
	closed bool
}

var (
	_ runtime.SharedStore             = (*Store)(nil)
	_ runtime.SharedTaskStore         = (*Store)(nil)
	_ runtime.SharedQuotaStore        = (*Store)(nil)
	_ runtime.SharedRequestStateStore = (*Store)(nil)
)

// Open connects to the Redis that url names (redis://[user:password@]host:port/db,
// or rediss:// for TLS) and checks that it answers.
func Open(ctx context.Context, url string, cfg Config) (*Store, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: bad Redis URL %q: %w", url, err)
	}
	cfg = cfg.withDefaults()
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = cfg.Timeout, cfg.Timeout, cfg.Timeout
	opts.PoolTimeout = cfg.Timeout
	opts.ContextTimeoutEnabled = true
	if cfg.PoolSize > 0 {
		opts.PoolSize = cfg.PoolSize
	}
	s := &Store{client: redis.NewClient(opts), cfg: cfg, owned: true}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	if err := s.client.Ping(ctx).Err(); err != nil {
		s.client.Close()
		return nil, fmt.Errorf("redisstore: Redis at %s does not answer: %w", opts.Addr, err)
	}
	return s, nil
}

// New builds a Store on a client the caller made and keeps (Close does not
// close it).
func New(client redis.UniversalClient, cfg Config) *Store {
	return &Store{client: client, cfg: cfg.withDefaults()}
}

func (c Config) withDefaults() Config {
	if c.Prefix == "" {
		c.Prefix = defaultPrefix
	}
	if c.Timeout <= 0 {
		c.Timeout = defaultTimeout
	}
	if c.LockTTL <= 0 {
		c.LockTTL = defaultLockTTL
	}
	if c.EventTTL <= 0 {
		c.EventTTL = defaultEventTTL
	}
	if c.MaxEventsPerStream <= 0 {
		c.MaxEventsPerStream = defaultMaxEvents
	}
	if c.MaxTasksPerOwner <= 0 {
		c.MaxTasksPerOwner = DefaultMaxTasksPerOwner
	}
	return c
}

// Client is the Redis client, for other stores that should share its
// connections.
func (s *Store) Client() redis.UniversalClient { return s.client }

// Prefix is the prefix of the store's keys.
func (s *Store) Prefix() string { return s.cfg.Prefix }

// Close closes the connections, if Open made them.
// A Tasks after Close starts no lease renewal: its store refuses new tasks.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closed = true
	leases := s.leases
	s.mu.Unlock()
	if leases != nil {
		leases.stop()
	}
	if !s.owned {
		return nil
	}
	return s.client.Close()
}

// Idempotency returns the idempotency store on this connection.
func (s *Store) Idempotency() runtime.IdempotencyStore { return &idempotencyStore{s} }

// Events returns the event store on this connection.
func (s *Store) Events() runtime.EventStore { return &eventStore{s} }

// Bus returns the notification bus on this connection.
func (s *Store) Bus() runtime.NotificationBus { return &bus{s} }

// Sessions returns the legacy session store on this connection.
func (s *Store) Sessions() runtime.SessionStore { return &sessionStore{s} }

// Tasks returns the task store on this connection. The first call starts
// renewing the leases of the tasks this process runs, until Close; after
// Close the store it returns refuses to create tasks (no lease would be
// renewed).
func (s *Store) Tasks() runtime.TaskStore {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leases == nil && !s.closed {
		s.leases = newTaskLeases(s)
	}
	return &taskStore{s: s, leases: s.leases}
}

// op bounds one operation by the store's timeout.
func (s *Store) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.Timeout)
}

// storeError names the store and what failed, and tells a timeout (Redis
// slow or unreachable) apart.
func storeError(store, op string, err error) error {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("redisstore: %s store: %s: Redis did not answer in time: %w", store, op, err)
	}
	return fmt.Errorf("redisstore: %s store: %s: %w", store, op, err)
}

// FlagUsage is the help text of the -redis flag of the examples.
const FlagUsage = "share state with the other replicas (legacy sessions, idempotent call results, SSE events, change notifications, tasks, rate limits, used requestStates) through this Redis, redis://HOST:PORT/DB"

// Option opens the Store that url names, with the default Config, and
// returns runtime.WithStore of it; an empty url gives an option that
// changes nothing (the in-memory defaults). It is what a command's -redis
// flag needs.
func Option(ctx context.Context, url string) (runtime.Option, error) {
	if url == "" {
		return runtime.WithStore(nil), nil
	}
	st, err := Open(ctx, url, Config{})
	if err != nil {
		return nil, err
	}
	return runtime.WithStore(st), nil
}
