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
	neturl "net/url"
	"strings"
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

// Open connects to the Redis that url names and checks that it answers.
// Three forms (rediss… for TLS in each):
//
//	redis://[user:password@]host:port/db                  one server
//	redis+cluster://[user:password@]host:port?addr=host:port&addr=…
//	                                                      Redis Cluster: seed nodes
//	redis+sentinel://[suser:spassword@]host:port?master_name=NAME&addr=host:port&…[&username=U&password=P]
//	                                                      a primary watched by Sentinel:
//	                                                      the sentinels, their credentials
//	                                                      in the user part, the primary's
//	                                                      ACL user in username/password
//
// Query parameters are go-redis's (ParseURL, ParseClusterURL,
// ParseFailoverURL): dial_timeout, pool_size, … Every key the store writes
// for one session, one task owner or one call carries a hash tag, so that
// a script or transaction never spans two cluster slots.
func Open(ctx context.Context, url string, cfg Config) (*Store, error) {
	client, addr, err := newClient(url, cfg.withDefaults())
	if err != nil {
		return nil, err
	}
	if err := checkPrefix(cfg.Prefix); err != nil {
		client.Close()
		return nil, err
	}
	s := &Store{client: client, cfg: cfg.withDefaults(), owned: true}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	if err := s.client.Ping(ctx).Err(); err != nil {
		s.client.Close()
		if msg := err.Error(); strings.HasPrefix(msg, "WRONGPASS") || strings.HasPrefix(msg, "NOAUTH") || strings.HasPrefix(msg, "NOPERM") {
			return nil, fmt.Errorf("redisstore: Redis at %s refuses the credentials of the URL: %w", addr, err)
		}
		return nil, fmt.Errorf("redisstore: Redis at %s does not answer: %w", addr, err)
	}
	return s, nil
}

// newClient makes the client of one of Open's URL forms; addr names it in
// errors (without credentials).
func newClient(rawURL string, cfg Config) (redis.UniversalClient, string, error) {
	scheme, rest, _ := strings.Cut(rawURL, "://")
	base, topology, _ := strings.Cut(scheme, "+")
	if base != "redis" && base != "rediss" {
		return nil, "", fmt.Errorf("redisstore: bad Redis URL %s: the scheme must be redis, rediss, redis+cluster, rediss+cluster, redis+sentinel or rediss+sentinel", redactURL(rawURL))
	}
	plain := base + "://" + rest
	bad := func(err error) (redis.UniversalClient, string, error) {
		return nil, "", fmt.Errorf("redisstore: bad Redis URL %s: %w", redactURL(rawURL), err)
	}
	switch topology {
	case "":
		opts, err := redis.ParseURL(plain)
		if err != nil {
			return bad(err)
		}
		cfg.tune(&opts.DialTimeout, &opts.ReadTimeout, &opts.WriteTimeout, &opts.PoolTimeout, &opts.ContextTimeoutEnabled, &opts.PoolSize)
		return redis.NewClient(opts), opts.Addr, nil
	case "cluster":
		opts, err := redis.ParseClusterURL(plain)
		if err != nil {
			return bad(err)
		}
		cfg.tune(&opts.DialTimeout, &opts.ReadTimeout, &opts.WriteTimeout, &opts.PoolTimeout, &opts.ContextTimeoutEnabled, &opts.PoolSize)
		c := redis.NewClusterClient(opts)
		c.AddHook(reloadOnConnError{c})
		return c, "the cluster of " + strings.Join(opts.Addrs, ","), nil
	case "sentinel":
		opts, err := redis.ParseFailoverURL(plain)
		if err != nil {
			return bad(err)
		}
		if opts.MasterName == "" {
			return bad(errors.New("a sentinel URL needs master_name=NAME"))
		}
		cfg.tune(&opts.DialTimeout, &opts.ReadTimeout, &opts.WriteTimeout, &opts.PoolTimeout, &opts.ContextTimeoutEnabled, &opts.PoolSize)
		return redis.NewFailoverClient(opts), "primary " + opts.MasterName + " of the sentinels " + strings.Join(opts.SentinelAddrs, ","), nil
	}
	return bad(fmt.Errorf("unknown topology %q: the scheme must be redis, redis+cluster or redis+sentinel (rediss… for TLS)", topology))
}

// reloadOnConnError makes a cluster client read the slots' owners again
// when a command fails to reach its node. go-redis reloads them on a MOVED
// answer, or every minute: a primary killed after its replica took over,
// before this client was told MOVED, would otherwise fail every command
// of its slots for up to a minute (TestFailoverUnderLoad saw 33 s).
type reloadOnConnError struct{ c *redis.ClusterClient }

func (h reloadOnConnError) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h reloadOnConnError) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		h.reloadIf(err)
		return err
	}
}

func (h reloadOnConnError) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		h.reloadIf(err)
		return err
	}
}

// reloadIf asks for a reload (go-redis runs one at a time, 200 ms apart at
// most) when err is a network error rather than an answer of Redis.
func (h reloadOnConnError) reloadIf(err error) {
	var ne net.Error
	if errors.As(err, &ne) {
		h.c.ReloadState(context.Background())
	}
}

// tune sets the fields of go-redis's options (each topology has its own
// struct) that Config decides: every timeout is Config.Timeout.
func (c Config) tune(dial, read, write, pool *time.Duration, contextTimeouts *bool, poolSize *int) {
	*dial, *read, *write, *pool = c.Timeout, c.Timeout, c.Timeout, c.Timeout
	*contextTimeouts = true
	if c.PoolSize > 0 {
		*poolSize = c.PoolSize
	}
}

// redactURL is rawURL without its password, for errors and logs.
func redactURL(rawURL string) string {
	u, err := neturl.Parse(rawURL)
	if err != nil {
		return "(unparsable)"
	}
	q := u.Query()
	for _, k := range []string{"password", "sentinel_password"} {
		if q.Has(k) {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.Redacted()
}

// checkPrefix refuses a key prefix with a brace: Redis Cluster hashes the
// first {…} of a key, so a brace in the prefix would put the keys of one
// session or owner in different slots.
func checkPrefix(prefix string) error {
	if strings.ContainsAny(prefix, "{}") {
		return fmt.Errorf("redisstore: key prefix %q has a brace; Redis Cluster would hash it instead of the store's own hash tags", prefix)
	}
	return nil
}

// tag is the hash tag of the keys that one script, transaction or
// pipeline must find in one cluster slot.
func tag(s string) string { return "{" + s + "}" }

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
const FlagUsage = "share state with the other replicas (legacy sessions, idempotent call results, SSE events, change notifications, tasks, rate limits, used requestStates) through this Redis: redis://HOST:PORT/DB, redis+cluster://HOST:PORT?addr=HOST:PORT…, or redis+sentinel://HOST:PORT?master_name=NAME&addr=HOST:PORT… (rediss… for TLS)"

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
